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

    init(service: MathAloudService, engines: SpeechEngines) {
        self.service = service
        self.processor = SpeechBatchProcessor(speakers: engines.speakers)
        // A batch line holds one formula and its settings; JSON escaping can double a formula's bytes.
        self.maxLineBytes = 2 * service.configuration.maxFormulaBytes + 4096
        self.timeLimit = service.configuration.requestTimeout
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
        if spool < 0 { return HTTPResponse(status: 200, contentType: "application/x-ndjson", body: Data()) }
        let fd = spool
        spool = -1
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/x-ndjson")], body: .file(descriptor: fd, size: written))
    }

    private func tooLong() -> String {
        BatchError(id: .null, message: "the line is longer than the limit of \(maxLineBytes) bytes").jsonLine
    }

    private func line(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Blank lines are skipped, as `speak --batch` skips them.
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let text = String(decoding: bytes, as: UTF8.self)
        let (out, expired) = FormulaDeadline.run(seconds: timeLimit) { processor.process(line: text) }
        if expired {
            // The line's id, when it can be read, goes with the error.
            let id: JSONValue
            switch FormulaRequest.read(line: text) {
            case .success(let request): id = request.id
            case .failure(let error): id = error.id
            }
            emit(BatchError(id: id, message: "stopped: the formula took longer than the time limit of \(timeLimit) s").jsonLine)
        } else {
            emit(out)
        }
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
