import Foundation

/// 16-bit PCM mono audio at the engine's sample rate, and its WAV (RIFF) encoding.
public struct WAVAudio: Sendable, Hashable {
    /// The samples, signed 16-bit.
    public let samples: [Int16]
    /// Samples per second (eSpeak-NG: 22,050).
    public let sampleRate: Int

    /// Creates audio from samples.
    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// The length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }

    /// The size of the WAV header ``wavData()`` writes: RIFF, `fmt ` (16 bytes) and `data` chunk headers.
    public static let headerSize = 44

    /// The audio as a WAV file: a 44-byte RIFF header (`RIFF` size = 36 + data size, `fmt ` chunk of
    /// 16 bytes: PCM, 1 channel, the sample rate, byte rate = rate × 2, block align 2, 16 bits;
    /// `data` chunk) followed by the little-endian samples.
    public func wavData() -> Data {
        let dataSize = samples.count * 2
        var out = [UInt8]()
        out.reserveCapacity(WAVAudio.headerSize + dataSize)
        func tag(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
        func u32(_ v: Int) { let x = UInt32(truncatingIfNeeded: v); for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: x >> (8 * i))) } }
        func u16(_ v: Int) { let x = UInt16(truncatingIfNeeded: v); out.append(UInt8(x & 0xFF)); out.append(UInt8(x >> 8)) }
        tag("RIFF"); u32(36 + dataSize); tag("WAVE")
        tag("fmt "); u32(16); u16(1); u16(1); u32(sampleRate); u32(sampleRate * 2); u16(2); u16(16)
        tag("data"); u32(dataSize)
        if UInt16(1).littleEndian == 1 {
            // Little-endian host: the samples' memory is already the file's byte order.
            samples.withUnsafeBytes { out.append(contentsOf: $0) }
        } else {
            for s in samples { u16(Int(UInt16(bitPattern: s))) }
        }
        return Data(out)
    }

    /// Reads a 16-bit PCM mono WAV file (as ``wavData()`` writes it; other chunks before `data` are
    /// skipped). Checks that the RIFF, `fmt ` and `data` sizes agree with the bytes present.
    public init(wavData data: Data) throws(VoiceError) {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw .invalidWAV("no RIFF/WAVE header") }
        guard u32(4) == bytes.count - 8 else { throw .invalidWAV("RIFF size \(u32(4)) but \(bytes.count - 8) bytes follow") }
        var at = 12
        var rate: Int? = nil
        while at + 8 <= bytes.count {
            let id = tag(at), size = u32(at + 4)
            let body = at + 8
            guard body + size <= bytes.count else { throw .invalidWAV("chunk '\(id)' of \(size) bytes runs past the end") }
            if id == "fmt " {
                guard size >= 16 else { throw .invalidWAV("fmt chunk of \(size) bytes") }
                guard u16(body) == 1, u16(body + 2) == 1, u16(body + 14) == 16 else {
                    throw .invalidWAV("format \(u16(body)), \(u16(body + 2)) channels, \(u16(body + 14)) bits")
                }
                rate = u32(body + 4)
                guard u32(body + 8) == rate! * 2, u16(body + 12) == 2 else { throw .invalidWAV("byte rate or block align inconsistent") }
            } else if id == "data" {
                guard let rate else { throw .invalidWAV("data before fmt") }
                guard size % 2 == 0 else { throw .invalidWAV("odd data size \(size)") }
                var samples = [Int16](repeating: 0, count: size / 2)
                for i in 0..<samples.count { samples[i] = Int16(bitPattern: UInt16(u16(body + 2 * i))) }
                self.init(samples: samples, sampleRate: rate)
                return
            }
            at = body + size + (size & 1)
        }
        throw .invalidWAV("no data chunk")
    }

    /// Root-mean-square level of the samples in `range` (whole audio by default), 0…32768.
    public func rms(in range: Range<Int>? = nil) -> Double {
        let r = range ?? samples.indices
        guard !r.isEmpty else { return 0 }
        var sum = 0.0
        for i in r { let v = Double(samples[i]); sum += v * v }
        return (sum / Double(r.count)).squareRoot()
    }

    /// Spans of silence at least `minimum` seconds long: windows of 10 ms whose RMS is below `threshold`
    /// (out of 32768), merged. Leading and trailing silence are included. Times in seconds.
    public func silences(minimum: Double = 0.1, threshold: Double = 100) -> [ClosedRange<Double>] {
        let window = max(1, sampleRate / 100)
        var spans: [ClosedRange<Double>] = []
        var start: Int? = nil
        var i = 0
        func close(_ end: Int) {
            if let s = start, Double(end - s) / Double(sampleRate) >= minimum {
                spans.append(Double(s) / Double(sampleRate)...Double(end) / Double(sampleRate))
            }
            start = nil
        }
        while i < samples.count {
            let end = min(i + window, samples.count)
            if rms(in: i..<end) < threshold { if start == nil { start = i } } else { close(i) }
            i = end
        }
        close(samples.count)
        return spans
    }
}
