import Foundation
import CZlib

// Zip archives as EPUB 3 uses them (EPUB Open Container Format 3.3 §4: a zip per the PKWARE
// APPNOTE 6.3, entries stored or deflated, the `mimetype` entry first and stored). Read in place:
// only the central directory and the entries asked for are read, through zlib's raw inflate.

/// A problem with an archive.
public struct ZipError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// One entry of a zip's central directory (APPNOTE 4.3.12).
public struct ZipEntry: Sendable, Hashable {
    /// The entry's path in the archive (UTF-8, `/` separators).
    public let name: String
    /// Compression method: 0 stored, 8 deflated.
    public let method: UInt16
    /// General purpose flags (bit 0: encrypted, bit 3: sizes in a data descriptor, bit 11: UTF-8 name).
    public let flags: UInt16
    /// CRC-32 of the uncompressed data.
    public let crc32: UInt32
    /// Compressed size in bytes.
    public let compressedSize: Int
    /// Uncompressed size in bytes.
    public let uncompressedSize: Int
    /// Offset of the local file header.
    public let localHeaderOffset: Int
    /// DOS modification time and date, kept when the archive is rewritten.
    public let dosTime: UInt16, dosDate: UInt16
    /// External attributes (Unix mode in the high 16 bits when made on Unix).
    public let externalAttributes: UInt32
    /// "Version made by".
    public let versionMadeBy: UInt16
}

/// A zip archive opened for reading in place.
public final class ZipArchive: @unchecked Sendable {
    /// The entries, in central directory order.
    public let entries: [ZipEntry]
    /// The archive's size in bytes.
    public let size: Int
    private let handle: FileHandle
    private let lock = NSLock()
    /// The largest entry inflated (protects against zip bombs). Default 256 MiB.
    public var maxEntrySize = 256 << 20

    /// Opens `url` and reads its central directory.
    public init(url: URL) throws(ZipError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw ZipError("cannot open the file") }
        self.handle = handle
        do {
            let end = try handle.seekToEnd()
            size = Int(end)
            entries = try ZipArchive.readDirectory(handle: handle, size: Int(end))
        } catch let error as ZipError {
            try? handle.close()
            throw error
        } catch {
            try? handle.close()
            throw ZipError("cannot read the file: \(error.localizedDescription)")
        }
    }

    deinit { try? handle.close() }

    /// The entry named `name`.
    public func entry(named name: String) -> ZipEntry? { entries.first { $0.name == name } }

    /// `count` bytes at `offset`.
    func read(at offset: Int, count: Int) throws(ZipError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset + count <= size else { throw ZipError("an entry points past the end of the archive") }
        lock.lock(); defer { lock.unlock() }
        do {
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw ZipError("the archive is truncated") }
            return [UInt8](data)
        } catch let error as ZipError { throw error } catch {
            throw ZipError("cannot read the archive: \(error.localizedDescription)")
        }
    }

    /// Where an entry's compressed data starts (after its local header, APPNOTE 4.3.7).
    func dataOffset(of entry: ZipEntry) throws(ZipError) -> Int {
        let header = try read(at: entry.localHeaderOffset, count: 30)
        guard ZipArchive.u32(header, 0) == 0x0403_4B50 else { throw ZipError("\(entry.name): bad local header") }
        return entry.localHeaderOffset + 30 + Int(ZipArchive.u16(header, 26)) + Int(ZipArchive.u16(header, 28))
    }

    /// The compressed bytes of an entry, as stored.
    public func rawData(of entry: ZipEntry) throws(ZipError) -> [UInt8] {
        try read(at: try dataOffset(of: entry), count: entry.compressedSize)
    }

    /// The uncompressed bytes of an entry, checked against its CRC-32.
    public func contents(of entry: ZipEntry) throws(ZipError) -> [UInt8] {
        if entry.flags & 1 != 0 { throw ZipError("\(entry.name) is encrypted") }
        if entry.uncompressedSize > maxEntrySize {
            throw ZipError("\(entry.name) is \(entry.uncompressedSize) bytes uncompressed, more than the limit of \(maxEntrySize)")
        }
        let raw = try rawData(of: entry)
        let bytes: [UInt8]
        switch entry.method {
        case 0: bytes = raw
        case 8: bytes = try Deflate.inflate(raw, expectedSize: entry.uncompressedSize, limit: maxEntrySize, name: entry.name)
        default: throw ZipError("\(entry.name) uses compression method \(entry.method), which is not supported")
        }
        guard bytes.count == entry.uncompressedSize else { throw ZipError("\(entry.name): size does not match the directory") }
        guard Deflate.crc32(bytes) == entry.crc32 else { throw ZipError("\(entry.name): CRC-32 does not match (the archive is damaged)") }
        return bytes
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }

    /// Finds the end of central directory record (APPNOTE 4.3.16, and the ZIP64 ones, 4.3.14–15) and
    /// reads every central directory header.
    private static func readDirectory(handle: FileHandle, size: Int) throws -> [ZipEntry] {
        func read(_ offset: Int, _ count: Int) throws -> [UInt8] {
            guard offset >= 0, offset + count <= size else { throw ZipError("the archive is truncated") }
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw ZipError("the archive is truncated") }
            return [UInt8](data)
        }
        guard size >= 22 else { throw ZipError("not a zip archive (too short)") }
        let tailLength = min(size, 22 + 0xFFFF)
        let tail = try read(size - tailLength, tailLength)
        var eocd = -1
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 5, tail[i + 3] == 6 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw ZipError("not a zip archive (no end of central directory)") }
        var count = Int(u16(tail, eocd + 10))
        var directorySize = Int(u32(tail, eocd + 12))
        var directoryOffset = Int(u32(tail, eocd + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // ZIP64: the locator sits right before the end record.
            let locatorAt = size - tailLength + eocd - 20
            guard locatorAt >= 0 else { throw ZipError("ZIP64 locator missing") }
            let locator = try read(locatorAt, 20)
            guard u32(locator, 0) == 0x0706_4B50 else { throw ZipError("ZIP64 locator missing") }
            let recordAt = Int(clamping: u64(locator, 8))
            let record = try read(recordAt, 56)
            guard u32(record, 0) == 0x0606_4B50 else { throw ZipError("ZIP64 end record missing") }
            count = Int(clamping: u64(record, 32))
            directorySize = Int(clamping: u64(record, 40))
            directoryOffset = Int(clamping: u64(record, 48))
        }
        guard directoryOffset + directorySize <= size, directorySize <= 64 << 20, count <= directorySize / 46 + 1 else {
            throw ZipError("the central directory is damaged")
        }
        let directory = try read(directoryOffset, directorySize)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(count)
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= directory.count, u32(directory, p) == 0x0201_4B50 else { throw ZipError("the central directory is damaged") }
            let nameLength = Int(u16(directory, p + 28)), extraLength = Int(u16(directory, p + 30)),
                commentLength = Int(u16(directory, p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= directory.count else {
                throw ZipError("the central directory is damaged")
            }
            var compressed = Int(u32(directory, p + 20)), uncompressed = Int(u32(directory, p + 24)),
                local = Int(u32(directory, p + 42))
            // ZIP64 extended information (APPNOTE 4.5.3): present fields in a fixed order.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let tag = u16(directory, e), length = Int(u16(directory, e + 2))
                if tag == 1 {
                    var f = e + 4
                    if uncompressed == 0xFFFF_FFFF, f + 8 <= e + 4 + length { uncompressed = Int(clamping: u64(directory, f)); f += 8 }
                    if compressed == 0xFFFF_FFFF, f + 8 <= e + 4 + length { compressed = Int(clamping: u64(directory, f)); f += 8 }
                    if local == 0xFFFF_FFFF, f + 8 <= e + 4 + length { local = Int(clamping: u64(directory, f)) }
                }
                e += 4 + length
            }
            let name = String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            entries.append(ZipEntry(name: name, method: u16(directory, p + 10), flags: u16(directory, p + 8),
                                    crc32: u32(directory, p + 16), compressedSize: compressed, uncompressedSize: uncompressed,
                                    localHeaderOffset: local, dosTime: u16(directory, p + 12), dosDate: u16(directory, p + 14),
                                    externalAttributes: u32(directory, p + 38), versionMadeBy: u16(directory, p + 4)))
            p += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }
}

/// zlib's raw deflate and inflate (RFC 1951, no zlib header: windowBits −15) and CRC-32.
enum Deflate {
    /// CRC-32 (ISO 3309) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc: uLong = CZlib.crc32(0, nil, 0)
            var offset = 0
            while offset < buffer.count {
                let n = min(buffer.count - offset, Int(UInt32.max >> 1))
                crc = CZlib.crc32(crc, buffer.baseAddress! + offset, uInt(n))
                offset += n
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }

    /// Inflates raw deflate data; at most `limit` bytes come out.
    static func inflate(_ input: [UInt8], expectedSize: Int, limit: Int, name: String) throws(ZipError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ZipError("\(name): zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(1, min(expectedSize, limit)))
        var produced = 0
        var status: Int32 = Z_OK
        var input = input
        input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while status == Z_OK {
                if produced == output.count {
                    if output.count >= limit { status = Z_BUF_ERROR; break }
                    output.append(contentsOf: repeatElement(0, count: min(output.count, limit - output.count)))
                }
                output.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress! + produced
                    stream.avail_out = uInt(outBuffer.count - produced)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    produced = outBuffer.count - Int(stream.avail_out)
                }
                if status == Z_BUF_ERROR, stream.avail_in == 0 { break }
                if status == Z_BUF_ERROR { status = Z_OK }
            }
        }
        guard status == Z_STREAM_END else {
            throw ZipError(produced >= limit ? "\(name) inflates to more than \(limit) bytes" : "\(name): the compressed data is damaged")
        }
        output.removeSubrange(produced...)
        return output
    }

    /// Deflates `input` (raw, best compression).
    static func deflate(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        var input = input
        let written: Int = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                let status = CZlib.deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflateBound was not enough")
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }
}

/// Writes a zip archive (APPNOTE 6.3; no ZIP64, so at most 4 GiB and 65,535 entries).
struct ZipWriter {
    private(set) var bytes: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0

    private static func put16(_ v: UInt16, _ out: inout [UInt8]) { out.append(UInt8(v & 0xFF)); out.append(UInt8(v >> 8)) }
    private static func put32(_ v: UInt32, _ out: inout [UInt8]) { put16(UInt16(v & 0xFFFF), &out); put16(UInt16(v >> 16), &out) }

    /// Adds an entry from data already compressed with `method` (copied byte for byte).
    mutating func add(name: String, method: UInt16, compressed: [UInt8], crc32: UInt32, uncompressedSize: Int,
                      dosTime: UInt16, dosDate: UInt16, externalAttributes: UInt32, versionMadeBy: UInt16) throws(ZipError) {
        guard bytes.count < Int(UInt32.max), compressed.count < Int(UInt32.max), uncompressedSize < Int(UInt32.max), count < 0xFFFF else {
            throw ZipError("the archive would need ZIP64, which is not written")
        }
        let nameBytes = Array(name.utf8)
        let flags: UInt16 = nameBytes.contains { $0 >= 0x80 } ? 0x0800 : 0   // bit 11: UTF-8 name
        let version: UInt16 = method == 8 ? 20 : 10
        let offset = UInt32(bytes.count)
        // Local file header (APPNOTE 4.3.7); sizes known, so no data descriptor.
        Self.put32(0x0403_4B50, &bytes); Self.put16(version, &bytes); Self.put16(flags, &bytes); Self.put16(method, &bytes)
        Self.put16(dosTime, &bytes); Self.put16(dosDate, &bytes); Self.put32(crc32, &bytes)
        Self.put32(UInt32(compressed.count), &bytes); Self.put32(UInt32(uncompressedSize), &bytes)
        Self.put16(UInt16(nameBytes.count), &bytes); Self.put16(0, &bytes)
        bytes.append(contentsOf: nameBytes)
        bytes.append(contentsOf: compressed)
        // Central directory header (APPNOTE 4.3.12).
        Self.put32(0x0201_4B50, &directory); Self.put16(versionMadeBy, &directory); Self.put16(version, &directory)
        Self.put16(flags, &directory); Self.put16(method, &directory); Self.put16(dosTime, &directory); Self.put16(dosDate, &directory)
        Self.put32(crc32, &directory); Self.put32(UInt32(compressed.count), &directory); Self.put32(UInt32(uncompressedSize), &directory)
        Self.put16(UInt16(nameBytes.count), &directory); Self.put16(0, &directory); Self.put16(0, &directory)
        Self.put16(0, &directory); Self.put16(0, &directory); Self.put32(externalAttributes, &directory); Self.put32(offset, &directory)
        directory.append(contentsOf: nameBytes)
        count += 1
    }

    /// Adds an entry from its uncompressed bytes: stored when `store`, else deflated.
    mutating func add(name: String, contents: [UInt8], store: Bool, dosTime: UInt16 = 0, dosDate: UInt16 = 0x21,
                      externalAttributes: UInt32 = 0, versionMadeBy: UInt16 = 20) throws(ZipError) {
        let compressed = store ? contents : Deflate.deflate(contents)
        try add(name: name, method: store ? 0 : 8, compressed: compressed, crc32: Deflate.crc32(contents),
                uncompressedSize: contents.count, dosTime: dosTime, dosDate: dosDate,
                externalAttributes: externalAttributes, versionMadeBy: versionMadeBy)
    }

    /// The archive: entries, central directory and the end record (APPNOTE 4.3.16).
    mutating func finish() throws(ZipError) -> [UInt8] {
        guard bytes.count + directory.count < Int(UInt32.max) else { throw ZipError("the archive would need ZIP64, which is not written") }
        let directoryOffset = UInt32(bytes.count)
        bytes.append(contentsOf: directory)
        Self.put32(0x0605_4B50, &bytes); Self.put16(0, &bytes); Self.put16(0, &bytes)
        Self.put16(UInt16(count), &bytes); Self.put16(UInt16(count), &bytes)
        Self.put32(UInt32(directory.count), &bytes); Self.put32(directoryOffset, &bytes); Self.put16(0, &bytes)
        directory = []
        return bytes
    }
}
