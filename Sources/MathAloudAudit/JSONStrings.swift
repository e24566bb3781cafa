import Foundation
import MathAloud

/// Reads the Markdown cells of a Jupyter notebook (nbformat 4, `cells[].cell_type`, `cells[].source`)
/// in place: each cell's text is decoded from its JSON string(s) (RFC 8259 §7) with a map from text
/// offsets back to file offsets, so findings point into the file and fixes rewrite only the bytes of
/// one string.
enum JSONStrings {
    struct Cell {
        var text: [UInt8]
        var map: OffsetMap
    }

    static func markdownCells(_ bytes: [UInt8]) -> [Cell]? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
              object["cells"] is [Any] else { return nil }
        var reader = Reader(b: bytes)
        return reader.notebook()
    }

    struct Reader {
        let b: [UInt8]
        var i = 0

        mutating func space() { while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }

        /// A string at `i`: its decoded bytes and the map from decoded offsets to file offsets.
        mutating func string() -> (bytes: [UInt8], points: [OffsetMap.Point])? {
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            var out: [UInt8] = []
            var points = [OffsetMap.Point(decoded: 0, document: i)]
            while i < b.count, b[i] != UInt8(ascii: "\"") {
                if b[i] == UInt8(ascii: "\\"), i + 1 < b.count {
                    let start = i
                    var scalar: Unicode.Scalar = "?"
                    switch b[i + 1] {
                    case UInt8(ascii: "n"): scalar = "\n"; i += 2
                    case UInt8(ascii: "t"): scalar = "\t"; i += 2
                    case UInt8(ascii: "r"): scalar = "\r"; i += 2
                    case UInt8(ascii: "b"): scalar = "\u{8}"; i += 2
                    case UInt8(ascii: "f"): scalar = "\u{C}"; i += 2
                    case UInt8(ascii: "u"):
                        guard i + 6 <= b.count, let v = UInt32(String(decoding: b[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16) else { i += 2; continue }
                        i += 6
                        if (0xD800..<0xDC00).contains(v), i + 6 <= b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u"),
                           let low = UInt32(String(decoding: b[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16), (0xDC00..<0xE000).contains(low) {
                            i += 6
                            scalar = Unicode.Scalar(0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                        } else {
                            scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
                        }
                    default: scalar = Unicode.Scalar(b[i + 1]); i += 2
                    }
                    _ = start
                    out.append(contentsOf: UTF8.encode(scalar)!)
                    points.append(OffsetMap.Point(decoded: out.count, document: i))
                } else {
                    out.append(b[i]); i += 1
                }
            }
            i += 1
            return (out, points)
        }

        /// Skips any JSON value.
        mutating func skipValue() {
            space()
            guard i < b.count else { return }
            switch b[i] {
            case UInt8(ascii: "\""): _ = string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < b.count {
                    let c = b[i]
                    if c == UInt8(ascii: "\"") { _ = string(); continue }
                    if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth += 1 }
                    if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") { depth -= 1; if depth == 0 { i += 1; return } }
                    i += 1
                }
            default:
                while i < b.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(b[i]) { i += 1 }
            }
        }

        /// Calls `body` for each key of the object at `i`, positioned at its value.
        mutating func object(_ body: (inout Reader, String) -> Void) {
            space()
            guard i < b.count, b[i] == UInt8(ascii: "{") else { skipValue(); return }
            i += 1
            while true {
                space()
                if i >= b.count { return }
                if b[i] == UInt8(ascii: "}") { i += 1; return }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                guard let key = string() else { i = b.count; return }
                space()
                if i < b.count, b[i] == UInt8(ascii: ":") { i += 1 }
                space()
                let before = i
                body(&self, String(decoding: key.bytes, as: UTF8.self))
                if i == before { skipValue() }
            }
        }

        mutating func array(_ body: (inout Reader) -> Void) {
            space()
            guard i < b.count, b[i] == UInt8(ascii: "[") else { skipValue(); return }
            i += 1
            while true {
                space()
                if i >= b.count { return }
                if b[i] == UInt8(ascii: "]") { i += 1; return }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                let before = i
                body(&self)
                if i == before { skipValue() }
            }
        }

        mutating func notebook() -> [Cell] {
            var cells: [Cell] = []
            object { reader, key in
                guard key == "cells" else { return }
                reader.array { reader in
                    var type = ""
                    var text: [UInt8] = []
                    var points: [OffsetMap.Point] = []
                    reader.object { reader, key in
                        if key == "cell_type", let s = reader.string() { type = String(decoding: s.bytes, as: UTF8.self) }
                        if key == "source" {
                            func add(_ s: (bytes: [UInt8], points: [OffsetMap.Point])) {
                                let base = text.count
                                points.append(contentsOf: s.points.map { OffsetMap.Point(decoded: base + $0.decoded, document: $0.document) })
                                text.append(contentsOf: s.bytes)
                            }
                            reader.space()
                            if reader.i < reader.b.count, reader.b[reader.i] == UInt8(ascii: "[") {
                                reader.array { reader in if let s = reader.string() { add(s) } }
                            } else if let s = reader.string() { add(s) }
                        }
                    }
                    if type == "markdown", !text.isEmpty {
                        // Later points at the same decoded offset (a piece boundary) win: they start the next piece.
                        var merged: [OffsetMap.Point] = []
                        for p in points {
                            if let last = merged.last, last.decoded == p.decoded { merged[merged.count - 1] = p } else { merged.append(p) }
                        }
                        cells.append(Cell(text: text, map: OffsetMap(points: merged)))
                    }
                }
            }
            return cells
        }
    }

    /// `s` escaped for the inside of a JSON string.
    static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}

/// Macro definitions in TeX text (`\newcommand`, `\renewcommand`, `\providecommand`, `\def`,
/// `\DeclareMathOperator`), as name → body for the parser's user macros (interim: MathTeX's own
/// definitions reader replaces this when it lands).
enum MacroDefinitions {
    static func extract(_ text: String) -> [String: String] {
        var macros: [String: String] = [:]
        let b = Array(text.utf8)
        func group(_ at: Int) -> (String, Int)? {
            var i = at
            while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x09 || b[i] == 0x0D { i += 1 }
            guard i < b.count, b[i] == UInt8(ascii: "{") else {
                // An unbraced control sequence (\newcommand\foo{…}).
                guard i < b.count, b[i] == UInt8(ascii: "\\") else { return nil }
                var e = i + 1
                while e < b.count, (b[e] | 0x20) >= 0x61, (b[e] | 0x20) <= 0x7A { e += 1 }
                if e == i + 1 { e += 1 }
                return (String(decoding: b[i..<e], as: UTF8.self), e)
            }
            var depth = 0
            var e = i
            while e < b.count {
                if b[e] == UInt8(ascii: "\\") { e += 2; continue }
                if b[e] == UInt8(ascii: "{") { depth += 1 }
                if b[e] == UInt8(ascii: "}") { depth -= 1; if depth == 0 { break } }
                e += 1
            }
            guard e < b.count else { return nil }
            return (String(decoding: b[(i + 1)..<e], as: UTF8.self), e + 1)
        }
        var i = 0
        while i < b.count {
            guard b[i] == UInt8(ascii: "\\") else { i += 1; continue }
            var e = i + 1
            while e < b.count, (b[e] | 0x20) >= 0x61, (b[e] | 0x20) <= 0x7A { e += 1 }
            let command = String(decoding: b[(i + 1)..<e], as: UTF8.self)
            switch command {
            case "newcommand", "renewcommand", "providecommand", "DeclareMathOperator":
                var p = e
                if p < b.count, b[p] == UInt8(ascii: "*") { p += 1 }
                guard let (name, afterName) = group(p) else { i = e; continue }
                p = afterName
                // [n] and an optional default [d] are skipped: the parser infers parameters from #n.
                for _ in 0..<2 {
                    while p < b.count, b[p] == 0x20 { p += 1 }
                    if p < b.count, b[p] == UInt8(ascii: "[") { while p < b.count, b[p] != UInt8(ascii: "]") { p += 1 }; p += 1 }
                }
                guard let (body, after) = group(p) else { i = e; continue }
                let key = name.trimmingCharacters(in: .whitespaces)
                if key.hasPrefix("\\") { macros[key] = command == "DeclareMathOperator" ? "\\operatorname{\(body)}" : body }
                i = after
            case "def", "gdef":
                guard let (name, afterName) = group(e), name.hasPrefix("\\") else { i = e; continue }
                var p = afterName
                while p < b.count, b[p] != UInt8(ascii: "{") { p += 1 }
                guard let (body, after) = group(p) else { i = e; continue }
                macros[name] = body
                i = after
            default:
                i = e
            }
        }
        return macros
    }
}
