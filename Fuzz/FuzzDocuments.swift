// libFuzzer harness for the document layer (target MathAloudDocuments). Build and run with
// `scripts/fuzz.sh documents`.
//
// Each input is read as a document of every format (text, Markdown, HTML, LaTeX with `\input`
// answered from a small fixed file, notebook) and must keep the segmenters' contract: the segments
// tile the file, every range lies inside it, lines and columns are those of the source, formula and
// attribute ranges lie inside their segment, a formula's source offsets map into it. Then, as Markdown
// and as text, the input is converted (every byte outside the edits unchanged, `alttext` set on every
// element applies) and streamed in chunks (the sizes come from the input's first bytes): the stream's
// text and formulas must be the whole document's. A broken contract stops the fuzzer with a
// "contract:" message.
import MathAloud
import MathAloudDocuments
import MathSyntax

private let segmenter: DocumentSegmenter = {
    var options = SegmenterOptions()
    options.loadIncludedFile = { name in name.hasPrefix("a") ? Array("\\newcommand{\\x}{y} $a$ \\input{a}".utf8) : nil }
    options.maxIncludeDepth = 3
    return DocumentSegmenter(options: options)
}()

private let processor: DocumentProcessor = {
    var options = DocumentOptions()
    options.products = [.mathML]
    options.limits.maxExpansions = 500
    let speaker = try! Speaker(cacheCapacity: 0)
    return DocumentProcessor(options: options, speaker: speaker, cache: FormulaCache(capacity: 256))
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for format in DocumentFormat.allCases {
        let doc = segmenter.segment(bytes: bytes, as: format)
        check(doc)
        for included in doc.includedDocuments { check(included) }
        // alttext on every element applies, and only its bytes change.
        let edits = doc.segments.compactMap { s in s.element.flatMap { DocumentEdit.setting("alttext", to: "a\"<&", on: $0, embedding: s.embedding) } }
        if let out = try? doc.source.applying(edits) {
            contract(out.count >= bytes.count - edits.reduce(0) { $0 + $1.range.count }, "edits lost bytes")
        } else if doc.source.encoding == .utf8 {
            contract(false, "setting alttext on \(edits.count) elements failed")
        }
    }
    guard size <= 2048 else { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    for format in [DocumentFormat.markdown, .text] {
        // Conversion: every byte outside the edits is the input's.
        if let converted = try? DocumentConverter(processor: processor).convert(bytes: Array(text.utf8), format: format) {
            checkUnchangedOutside(converted)
        }
        // Streaming: the same segments as the whole text.
        let whole = processor.process(text: text, format: format)
        let stream = MathStream(processor: processor, format: format)
        var pieces: [StreamSegment] = []
        var rest = Substring(text)
        var k = 0
        while !rest.isEmpty {
            let n = 1 + Int(bytes[k % max(1, bytes.count)] % 7)
            pieces += stream.append(String(rest.prefix(n)))
            rest = rest.dropFirst(n)
            k += 1
        }
        pieces += stream.finish()
        let streamed = pieces.compactMap { if case .formula(let f) = $0 { f.segment.range } else { nil } }
        let expected = whole.formulas.map(\.segment.range)
        // YAML front matter and indented code blocks are known only in whole Markdown documents (README,
        // Streams: a stream reads them as prose), so a text that may hold one is not compared.
        let wholeOnly = format == .markdown && (text.hasPrefix("---") || text.split(separator: "\n", omittingEmptySubsequences: false)
            .contains { $0.hasPrefix("    ") || $0.hasPrefix("\t") || $0.hasPrefix(" \t") || $0.hasPrefix("  \t") || $0.hasPrefix("   \t") })
        contract(wholeOnly || streamed == expected, "stream formulas \(streamed) differ from \(expected) (\(format))")
        var covered = 0
        for p in pieces {
            contract(p.range.lowerBound == covered, "stream gap at \(covered)")
            covered = p.range.upperBound
        }
        contract(covered == text.utf8.count, "stream covers \(covered) of \(text.utf8.count) bytes")
    }
    return 0
}

private func check(_ doc: SegmentedDocument) {
    let count = doc.source.bytes.count
    var offset = 0
    for s in doc.segments {
        contract(s.range.lowerBound == offset && s.range.count > 0, "segment \(s.range) after \(offset)")
        contract(s.range.upperBound <= count, "segment \(s.range) outside 0..<\(count)")
        contract(s.start == doc.source.location(of: s.range.lowerBound), "start of \(s.range)")
        contract(s.end == doc.source.location(of: s.range.upperBound), "end of \(s.range)")
        if let f = s.formula {
            contract(f.contentRange.lowerBound >= s.range.lowerBound && f.contentRange.upperBound <= s.range.upperBound,
                     "content \(f.contentRange) outside \(s.range)")
            let n = f.source.utf8.count
            for probe in [0, n / 2, n] {
                let r = f.fileRange(ofSourceRange: SourceRange(probe, n))
                contract(r.lowerBound >= 0 && r.upperBound <= count, "mapped \(r) outside the file")
            }
        }
        if let e = s.element {
            for a in e.attributes {
                contract(a.range.lowerBound >= e.range.lowerBound && a.range.upperBound <= e.range.upperBound,
                         "attribute \(a.range) outside \(e.range)")
            }
        }
        offset = s.range.upperBound
    }
    contract(offset == count, "segments end at \(offset) of \(count)")
    for d in doc.diagnostics {
        if let r = d.range { contract(r.upperBound <= count, "diagnostic \(r) outside the file") }
    }
}

private func checkUnchangedOutside(_ converted: ConvertedDocument) {
    let input = converted.processed.document.source.bytes
    let output = converted.bytes
    var i = 0, o = 0
    for edit in converted.edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
        let same = input[i..<edit.range.lowerBound]
        contract(o + same.count <= output.count && Array(output[o..<(o + same.count)]) == Array(same), "bytes before \(edit.range) changed")
        o += same.count + (converted.processed.document.source.encode(edit.embedding.escape(edit.text))?.count ?? 0)
        i = edit.range.upperBound
    }
    contract(Array(output[min(o, output.count)...]) == Array(input[i...]), "bytes after the last edit changed")
}

private func contract(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("contract: " + message()) }
}
