import Foundation
import MathAloud

/// `POST /v1/speech:batch`: JSON Lines in, JSON Lines out, one output line per input line in order —
/// the contract of `mathaloud speak --batch` (``SpeechBatchProcessor``). Lines are spoken as the body
/// arrives, and the output goes to an unlinked temporary file that the response then streams, so
/// memory stays flat whatever the number of lines and however slowly the client reads. (HTTP/1.1
/// through libmicrohttpd answers after the whole request is read, so output cannot start earlier.)
final class BatchStream: StreamingBody {
    private let service: MathAloudService
    private let processor: SpeechBatchProcessor
    private let maxLineBytes: Int
    private let timeLimit: Double
    private var partial: [UInt8] = []
    private var skippingLongLine = false
    private var spool: Int32 = -1
    private var pending: [UInt8] = []
    private var written: UInt64 = 0
    private var lines = 0
    private var failed = false
    /// The BCP 47 tags of the locales the answered lines speak, each once, in order of first use; nil
    /// once there are more than ``maxLanguages`` (the response then names none).
    private var languages: [String]? = []
    private let defaultLocale: LocaleTag

    /// The most languages `Content-Language` lists for a batch (a tag such as `en-US-x-a1` speaks
    /// with `en`'s rules, so the distinct tags of a long batch are not bounded by the locales there are).
    static let maxLanguages = 32

    init(service: MathAloudService, engines: SpeechEngines) {
        self.service = service
        self.processor = SpeechBatchProcessor(speakers: engines.speakers)
        // A batch line holds one formula and its settings; JSON escaping can double a formula's bytes.
        self.maxLineBytes = 2 * service.configuration.maxFormulaBytes + 4096
        self.timeLimit = service.configuration.requestTimeout
        self.defaultLocale = engines.speakers.defaults.locale
        pending.reserveCapacity(1 << 16)
    }

    deinit {
        if spool >= 0 { close(spool) }
        service.metrics.recordBatchLines(lines)
        service.batchEnded()
    }

    func append(_ bytes: UnsafeRawBufferPointer) -> HTTPResponse? {
        var start = 0
        let data = bytes.bindMemory(to: UInt8.self)
        while let newline = data[start...].firstIndex(of: 0x0A) {
            if skippingLongLine {
                skippingLongLine = false
            } else if partial.count + (newline - start) > maxLineBytes {
                emit(tooLong())
            } else if partial.isEmpty {
                line(UnsafeBufferPointer(rebasing: data[start..<newline]))
            } else {
                partial.append(contentsOf: data[start..<newline])
                partial.withUnsafeBufferPointer { line($0) }
            }
            partial.removeAll(keepingCapacity: true)
            start = newline + 1
        }
        if start < data.count && !skippingLongLine {
            if partial.count + (data.count - start) > maxLineBytes {
                emit(tooLong())
                partial.removeAll()
                skippingLongLine = true
            } else {
                partial.append(contentsOf: data[start...])
            }
        }
        return failed ? ServiceError(503, .unavailable, "the server cannot store the batch's output").response : nil
    }

    func finish() -> HTTPResponse {
        if !partial.isEmpty && !skippingLongLine { partial.withUnsafeBufferPointer { line($0) } }
        partial = []
        flush()
        if failed || spool < 0 && written > 0 {
            return ServiceError(503, .unavailable, "the server cannot store the batch's output").response
        }
        var response: HTTPResponse
        if spool < 0 {
            response = HTTPResponse(status: 200, contentType: "application/x-ndjson", body: Data())
        } else {
            response = HTTPResponse(status: 200, headers: [("Content-Type", "application/x-ndjson")], body: .file(descriptor: spool, size: written))
            spool = -1
        }
        // The languages of the lines spoken (RFC 9110 §8.5: a list is content for audiences of each);
        // error lines, in English whatever their locale, add none.
        if let languages, !languages.isEmpty { response.setLanguage(languages.joined(separator: ", ")) }
        return response
    }

    private func tooLong() -> String {
        BatchError(id: .null, message: "the line is longer than the limit of \(maxLineBytes) bytes").jsonLine
    }

    private func line(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Blank lines are skipped, as `speak --batch` skips them.
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let text = String(decoding: bytes, as: UTF8.self)
        let read = FormulaRequest.read(line: text)
        // What `processor.process(line:)` answers, with the request at hand for its language.
        let (out, expired) = FormulaDeadline.run(seconds: timeLimit) { () -> BatchResult<SpeechResponse> in
            switch read {
            case .success(let request): processor.process(request)
            case .failure(let error): .failure(error)
            }
        }
        if expired {
            // The line's id, when it can be read, goes with the error.
            let id: JSONValue
            switch read {
            case .success(let request): id = request.id
            case .failure(let error): id = error.id
            }
            emit(BatchError(id: id, message: "stopped: the formula took longer than the time limit of \(timeLimit) s").jsonLine)
            return
        }
        if case .success = out, case .success(let request) = read { spoke(request.locale ?? defaultLocale) }
        emit(out.jsonLine)
    }

    /// Notes the language of a line answered with speech.
    private func spoke(_ locale: LocaleTag) {
        guard let tag = locale.bcp47, languages?.contains(tag) == false else { return }
        languages?.append(tag)
        if languages?.count ?? 0 > BatchStream.maxLanguages { languages = nil }
    }

    private func emit(_ line: String) {
        lines += 1
        pending.append(contentsOf: line.utf8)
        pending.append(0x0A)
        if pending.count >= 1 << 16 { flush() }
    }

    private func flush() {
        guard !pending.isEmpty, !failed else { return }
        if spool < 0 {
            spool = BatchStream.openSpool()
            if spool < 0 { failed = true; return }
        }
        let ok = pending.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(spool, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        if !ok { failed = true }
        written += UInt64(pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    /// A temporary file in the temporary directory, unlinked at once (it disappears with its descriptor).
    static func openSpool() -> Int32 {
        var template = Array((FileManager.default.temporaryDirectory.path + "/mathaloud-batch-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        return fd
    }
}
