import Foundation
import MathAloud
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The math fonts MathAloud knows by name, with the Debian packages that install them.
public enum MathFontFamily: String, Sendable, CaseIterable {
    /// Latin Modern Math (Debian `fonts-lmodern`), the default: Computer Modern as TeX users know it.
    case latinModern = "latin-modern"
    /// TeX Gyre Pagella Math (Palatino-like, `fonts-texgyre-math`).
    case pagella
    /// TeX Gyre Termes Math (Times-like, `fonts-texgyre-math`).
    case termes
    /// TeX Gyre Bonum Math (Bookman-like, `fonts-texgyre-math`).
    case bonum
    /// TeX Gyre Schola Math (Century Schoolbook-like, `fonts-texgyre-math`).
    case schola
    /// DejaVu Math TeX Gyre (`fonts-dejavu-extra` or `fonts-texgyre-math`).
    case dejavu

    /// Accepted spellings: the raw value, or the family name without spaces (`lmodern`, `texgyrepagella`…).
    public init?(name: String) {
        let n = name.lowercased().replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "-", with: "")
        switch n {
        case "latinmodern", "lm", "lmodern", "latinmodernmath", "default": self = .latinModern
        case "pagella", "texgyrepagella", "texgyrepagellamath": self = .pagella
        case "termes", "texgyretermes", "texgyretermesmath": self = .termes
        case "bonum", "texgyrebonum", "texgyrebonummath": self = .bonum
        case "schola", "texgyreschola", "texgyrescholamath": self = .schola
        case "dejavu", "dejavumath", "dejavumathtexgyre", "texgyredejavu", "texgyredejavumath": self = .dejavu
        default: return nil
        }
    }

    /// Candidate files for the math font, first found wins.
    var mathFontFiles: [String] {
        let gyre = "/usr/share/texmf/fonts/opentype/public/tex-gyre-math/"
        switch self {
        case .latinModern:
            return ["/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf",
                    "/usr/share/fonts/opentype/lmodern/latinmodern-math.otf",
                    "/usr/local/share/fonts/latinmodern-math.otf",
                    "/Library/Fonts/latinmodern-math.otf"]
        case .pagella: return [gyre + "texgyrepagella-math.otf"]
        case .termes: return [gyre + "texgyretermes-math.otf"]
        case .bonum: return [gyre + "texgyrebonum-math.otf"]
        case .schola: return [gyre + "texgyreschola-math.otf"]
        case .dejavu: return ["/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf", gyre + "texgyredejavu-math.otf"]
        }
    }

    /// Candidate text fonts (regular, bold, italic, bold italic; Latin Modern also sans-serif, monospace,
    /// small capitals and the optical sizes for scripts) for `\text`; a missing role falls back to the
    /// regular text font, and that to the math font.
    var textFontFiles: [FontRole: [String]] {
        let lm = "/usr/share/texmf/fonts/opentype/public/lm/"
        let gyre = "/usr/share/texmf/fonts/opentype/public/tex-gyre/"
        let stem: String
        switch self {
        case .latinModern:
            return [.text: [lm + "lmroman10-regular.otf"], .textBold: [lm + "lmroman10-bold.otf"],
                    .textItalic: [lm + "lmroman10-italic.otf"], .textBoldItalic: [lm + "lmroman10-bolditalic.otf"],
                    .textScript: [lm + "lmroman7-regular.otf"], .textScriptBold: [lm + "lmroman7-bold.otf"],
                    .textScriptItalic: [lm + "lmroman7-italic.otf"], .textScriptScript: [lm + "lmroman5-regular.otf"],
                    .textScriptScriptBold: [lm + "lmroman5-bold.otf"],
                    .textSans: [lm + "lmsans10-regular.otf"], .textSansBold: [lm + "lmsans10-bold.otf"],
                    .textSansItalic: [lm + "lmsans10-oblique.otf"], .textSansBoldItalic: [lm + "lmsans10-boldoblique.otf"],
                    .textMono: [lm + "lmmono10-regular.otf"], .textSmallCaps: [lm + "lmromancaps10-regular.otf"],
                    .textScriptSans: [lm + "lmsans8-regular.otf"], .textScriptMono: [lm + "lmmono8-regular.otf"]]
        case .pagella: stem = "texgyrepagella"
        case .termes: stem = "texgyretermes"
        case .bonum: stem = "texgyrebonum"
        case .schola: stem = "texgyreschola"
        case .dejavu:
            let d = "/usr/share/fonts/truetype/dejavu/"
            return [.text: [d + "DejaVuSerif.ttf"], .textBold: [d + "DejaVuSerif-Bold.ttf"],
                    .textItalic: [d + "DejaVuSerif-Italic.ttf"], .textBoldItalic: [d + "DejaVuSerif-BoldItalic.ttf"]]
        }
        return [.text: [gyre + stem + "-regular.otf"], .textBold: [gyre + stem + "-bold.otf"],
                .textItalic: [gyre + stem + "-italic.otf"], .textBoldItalic: [gyre + stem + "-bolditalic.otf"]]
    }

    /// Candidate files for ``FontRole/textFallback``, first found wins: fonts of wide coverage
    /// (Latin, Greek, Cyrillic) from Debian `fonts-dejavu-core` and `fonts-freefont-otf`.
    static let fallbackFontFiles = ["/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
                                    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                    "/usr/share/fonts/opentype/freefont/FreeSerif.otf"]

    /// The Debian package that provides the font.
    public var debianPackage: String {
        switch self {
        case .latinModern: return "fonts-lmodern"
        case .dejavu: return "fonts-dejavu-extra"
        default: return "fonts-texgyre-math"
        }
    }
}

/// Why fonts could not be loaded: an id of the diagnostic catalog (`render.font-without-math-table`,
/// `render.font-unreadable`…) and a message naming the font and what is wrong with it.
public struct FontLoadError: Error, CustomStringConvertible, Sendable {
    /// The catalog id.
    public let id: DiagnosticID
    /// What went wrong, with the fix.
    public let message: String

    /// An error of a catalog id.
    public init(_ id: DiagnosticID, _ message: String) {
        self.id = id
        self.message = message
    }

    /// The message and the id in brackets, as the command line prints diagnostics.
    public var description: String { "\(message) [\(id)]" }
}

/// Why an image format cannot be written: PNG and PDF are drawn by cairo, which is opened when the
/// first such image is made (SVG needs only HarfBuzz, which fonts need anyway).
public struct ImageFormatError: Error, CustomStringConvertible, Sendable {
    /// What is missing, with the fix.
    public let description: String
}

/// The fonts one rendering uses: a math font and text fonts for `\text` (regular, bold, italic,
/// bold italic; missing ones fall back to the math font). Loaded once per process and shared.
public final class FontSet: Sendable {
    /// The math font.
    public let math: MathFont
    /// Text font files by role; each is opened on first use (most formulas have no `\text`).
    private let textPaths: [FontRole: String]
    private let textLock = NSLock()
    nonisolated(unsafe) private var textFaces: [FontRole: FontFace?]

    /// A font set from explicit faces.
    public init(math: MathFont, text: [FontRole: FontFace] = [:]) {
        self.math = math
        self.textFaces = text
        self.textPaths = text.mapValues(\.path)
    }

    /// A font set whose text faces are opened when first used.
    init(math: MathFont, textPaths: [FontRole: String]) {
        self.math = math
        self.textFaces = [:]
        self.textPaths = textPaths
    }

    private func textFace(_ role: FontRole) -> FontFace? {
        guard let path = textPaths[role] else { return nil }
        textLock.lock()
        defer { textLock.unlock() }
        if let f = textFaces[role] { return f }     // nil when the file could not be opened: not retried
        let f = FontFace(path: path)
        textFaces[role] = .some(f)
        return f
    }

    /// The face that draws glyphs of a role.
    public func face(_ role: FontRole) -> FontFace {
        role == .math ? math.face : (textFace(role) ?? textFace(.text) ?? math.face)
    }

    /// The text role for a style at a script level: the optical size when the family has one.
    func textRole(_ role: FontRole, scriptLevel: Int) -> FontRole {
        let sized: FontRole?
        switch (role, min(scriptLevel, 2)) {
        case (.text, 1): sized = .textScript
        case (.textBold, 1): sized = .textScriptBold
        case (.textItalic, 1): sized = .textScriptItalic
        case (.text, 2): sized = .textScriptScript
        case (.textBold, 2): sized = .textScriptScriptBold
        case (.textSans, 1), (.textSans, 2): sized = .textScriptSans
        case (.textMono, 1), (.textMono, 2): sized = .textScriptMono
        default: sized = nil
        }
        if let sized, textPaths[sized] != nil { return sized }
        return role
    }

    /// Whether a dedicated face exists for a text role.
    func hasTextFace(_ role: FontRole) -> Bool { textPaths[role] != nil }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: FontSet] = [:]
    /// The first of ``MathFontFamily/fallbackFontFiles`` that exists.
    private static var fallbackPath: String? {
        MathFontFamily.fallbackFontFiles.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The face for characters no other face has, when one is installed.
    var fallbackFace: FontFace? { textPaths[.textFallback] == nil ? nil : textFace(.textFallback) }

    /// Whether ``named(_:)`` reads a font name as a file path rather than a family name: a file or link
    /// of that name exists, or it has a `/` or a `.` (family names have neither).
    public static func isFilePath(_ name: String) -> Bool { FontFile.isPath(name) }

    /// The font set of a named family, or of a font file path (an OpenType font with a MATH table),
    /// loaded once per process and shared by every caller.
    ///
    /// - Throws: a ``FontLoadError`` of id `render.unknown-font` (neither a family nor a file),
    ///   `render.font-not-installed` (a family whose files are missing), `render.font-unreadable` (no such
    ///   file, a directory, a symbolic-link loop, a file that cannot be read), `render.not-a-font` (a file
    ///   that is not an OpenType or TrueType font), `render.font-without-math-table` (a font without the
    ///   MATH table math layout needs), or `render.harfbuzz-unavailable`.
    public static func named(_ name: String) throws(FontLoadError) -> FontSet {
        if let problem = CLibraries.harfBuzzProblem { throw FontLoadError(.renderHarfBuzzUnavailable, problem) }
        lock.lock()
        defer { lock.unlock() }
        if let set = loaded[name] { return set }
        let set: FontSet
        if let family = MathFontFamily(name: name) {
            guard let path = family.mathFontFiles.first(where: { FileManager.default.fileExists(atPath: $0) }),
                  let math = MathFont(path: path) else {
                throw FontLoadError(.renderFontNotInstalled,
                                    "math font '\(name)' not found: install the Debian package \(family.debianPackage) (scripts/install-deps.sh does)")
            }
            var text: [FontRole: String] = [:]
            for (role, files) in family.textFontFiles {
                if let p = files.first(where: { FileManager.default.fileExists(atPath: $0) }) { text[role] = p }
            }
            text[.textFallback] = fallbackPath
            set = FontSet(math: math, textPaths: text)
        } else if FontFile.isPath(name) {
            if let problem = FontFile.problem(at: name) { throw FontLoadError(.renderFontUnreadable, "font file '\(name)' \(problem)") }
            guard let face = FontFace(path: name) else {
                throw FontLoadError(.renderNotAFont, "'\(name)' is not a font: an OpenType math font (.otf, .ttf) is needed")
            }
            guard let math = MathFont(face: face) else {
                throw FontLoadError(.renderFontWithoutMathTable,
                                    "'\(name)' is a font without an OpenType MATH table (the constants, size variants and "
                                    + "glyph assemblies math layout needs): use a math font such as latinmodern-math.otf, or a family: "
                                    + MathFontFamily.allCases.map(\.rawValue).joined(separator: ", "))
            }
            set = FontSet(math: math, textPaths: fallbackPath.map { [.textFallback: $0] } ?? [:])
        } else {
            throw FontLoadError(.renderUnknownFont, "unknown math font '\(name)': use one of "
                + MathFontFamily.allCases.map(\.rawValue).joined(separator: ", ") + ", or a path to an OpenType math font")
        }
        loaded[name] = set
        return set
    }
}

/// What the font loader checks of a font file before HarfBuzz reads it: a regular file that can be
/// opened (HarfBuzz would read a FIFO or a device such as /dev/zero without end).
enum FontFile {
    /// Whether a font name is a file path (``FontSet/isFilePath(_:)``).
    static func isPath(_ name: String) -> Bool {
        var info = stat()
        return lstat(name, &info) == 0 || name.utf8.contains(0x2F) || name.utf8.contains(0x2E)
    }

    /// Why a path cannot be read as a font file, in words (`does not exist`, `is a directory`…); nil
    /// when it is a regular file that can be opened for reading.
    static func problem(at path: String) -> String? {
        var info = stat()
        if stat(path, &info) != 0 { return reason(errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "is a directory, not a font file"
        default: return "is not a regular file (a device, a FIFO or a socket)"
        }
        let fd = open(path, O_RDONLY)
        if fd < 0 { return reason(errno) }
        close(fd)
        return nil
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "does not exist"
        case ENOTDIR: "does not exist (a part of its path is not a directory)"
        case ELOOP: "is a loop of symbolic links"
        case EACCES, EPERM: "cannot be read (permission denied)"
        case ENAMETOOLONG: "has a name too long for the file system"
        default: "cannot be read (error \(code))"
        }
    }
}
