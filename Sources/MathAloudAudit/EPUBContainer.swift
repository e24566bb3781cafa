import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An EPUB 3 publication read in place (EPUB 3.3 OCF §4–5, Packages §5): the container file names
/// the package document, whose manifest and spine give the content documents in reading order.
public struct EPUBContainer: Sendable {
    /// A content document of the spine.
    public struct SpineDocument: Sendable, Hashable {
        /// Its path in the archive.
        public let path: String
        /// Its media type (`application/xhtml+xml`, `image/svg+xml`, `text/html`).
        public let mediaType: String
    }

    /// The archive.
    public let archive: ZipArchive
    /// The package document's path.
    public let packagePath: String
    /// The spine's content documents, in reading order (documents listed twice are read once).
    public let spine: [SpineDocument]

    /// Opens an EPUB.
    public init(url: URL) throws(ZipError) {
        let archive = try ZipArchive(url: url)
        self.archive = archive
        guard let containerEntry = archive.entry(named: "META-INF/container.xml") else {
            throw ZipError("not an EPUB: META-INF/container.xml is missing")
        }
        let container = try archive.contents(of: containerEntry)
        let rootfiles = XMLAttributes.collect(element: "rootfile", in: container)
        guard let root = rootfiles.first(where: { $0["media-type"] == "application/oebps-package+xml" }) ?? rootfiles.first,
              let packagePath = root["full-path"], !packagePath.isEmpty else {
            throw ZipError("not an EPUB: the container names no package document")
        }
        guard let packageEntry = archive.entry(named: packagePath) else {
            throw ZipError("the package document \(packagePath) is missing")
        }
        let package = try archive.contents(of: packageEntry)
        let directory = packagePath.contains("/") ? String(packagePath[..<packagePath.lastIndex(of: "/")!]) + "/" : ""
        var items: [String: (String, String)] = [:]
        for item in XMLAttributes.collect(element: "item", in: package) {
            guard let id = item["id"], let href = item["href"] else { continue }
            items[id] = (EPUBContainer.resolve(href, in: directory), item["media-type"] ?? "")
        }
        var spine: [SpineDocument] = []
        var seen = Set<String>()
        for ref in XMLAttributes.collect(element: "itemref", in: package) {
            guard let idref = ref["idref"], let (path, type) = items[idref], seen.insert(path).inserted else { continue }
            spine.append(SpineDocument(path: path, mediaType: type))
        }
        self.packagePath = packagePath
        self.spine = spine
    }

    /// An `href` (percent-encoded, relative to the package document) as an archive path.
    static func resolve(_ href: String, in directory: String) -> String {
        let path = (href.split(separator: "#").first.map(String.init) ?? href).removingPercentEncoding ?? href
        var parts: [Substring] = []
        for part in (directory + path).split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    /// The EPUB with some entries replaced: a new zip with `mimetype` first and stored (OCF §4.2.3),
    /// every other entry in its original order, unchanged entries copied byte for byte.
    public func rewritten(replacing replacements: [String: [UInt8]]) throws(ZipError) -> [UInt8] {
        var writer = ZipWriter()
        if let mimetype = archive.entry(named: "mimetype") {
            var contents: [UInt8]
            if let replaced = replacements["mimetype"] { contents = replaced } else { contents = try archive.contents(of: mimetype) }
            try writer.add(name: "mimetype", contents: contents, store: true, dosTime: mimetype.dosTime, dosDate: mimetype.dosDate,
                           externalAttributes: mimetype.externalAttributes, versionMadeBy: mimetype.versionMadeBy)
        } else {
            try writer.add(name: "mimetype", contents: Array("application/epub+zip".utf8), store: true)
        }
        for entry in archive.entries where entry.name != "mimetype" {
            if let replacement = replacements[entry.name] {
                try writer.add(name: entry.name, contents: replacement, store: false, dosTime: entry.dosTime, dosDate: entry.dosDate,
                               externalAttributes: entry.externalAttributes, versionMadeBy: entry.versionMadeBy)
            } else {
                try writer.add(name: entry.name, method: entry.method, compressed: try archive.rawData(of: entry), crc32: entry.crc32,
                               uncompressedSize: entry.uncompressedSize, dosTime: entry.dosTime, dosDate: entry.dosDate,
                               externalAttributes: entry.externalAttributes, versionMadeBy: entry.versionMadeBy)
            }
        }
        return try writer.finish()
    }
}

/// The attributes of every element with a given local name in a small XML file (the EPUB container
/// and package documents), read with Foundation's XML parser; external entities are never resolved.
enum XMLAttributes {
    static func collect(element: String, in bytes: [UInt8]) -> [[String: String]] {
        final class Collector: NSObject, XMLParserDelegate {
            let element: String
            var found: [[String: String]] = []
            init(element: String) { self.element = element }
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String]) {
                let local = name.split(separator: ":").last.map(String.init) ?? name
                if local == element { found.append(attributes) }
            }
        }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        let collector = Collector(element: element)
        parser.delegate = collector
        _ = parser.parse()
        parser.delegate = nil
        return collector.found
    }
}
