import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MathAloud
@testable import MathAloudRender

/// One renderer per configuration, shared by the tests (fonts and rules load once).
enum Renderers {
    static let text: Renderer = try! Renderer()
    static let display: Renderer = {
        var o = RenderOptions()
        o.display = true
        return try! Renderer(options: o)
    }()
}

/// A fixture of another test target in this repository (the corpora are kept once, under MathTeXTests).
func repositoryFixture(_ relativePath: String, file: String = #filePath) -> URL {
    var dir = URL(fileURLWithPath: file).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path), dir.path != "/" {
        dir = dir.deletingLastPathComponent()
    }
    return dir.appendingPathComponent(relativePath)
}

/// The root element's attributes and the text of elements by id, read with Foundation's XMLParser;
/// nil when the document is not well-formed.
final class SVGInspector: NSObject, XMLParserDelegate {
    var rootName: String?
    var rootAttributes: [String: String] = [:]
    var textByID: [String: String] = [:]
    var elementNames: [String] = []
    private var currentID: String?
    private var buffer = ""

    static func inspect(_ svg: String) -> SVGInspector? {
        let inspector = SVGInspector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = inspector
        return parser.parse() ? inspector : nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if rootName == nil { rootName = elementName; rootAttributes = attributes }
        elementNames.append(elementName)
        if let id = attributes["id"], elementName == "title" || elementName == "desc" { currentID = id; buffer = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if currentID != nil { buffer += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if let id = currentID, elementName == "title" || elementName == "desc" { textByID[id] = buffer; currentID = nil }
    }
}

/// Checks that an SVG is well-formed and labelled: `role="img"`, `aria-labelledby` naming a `<title>`
/// holding `label`, `aria-describedby` naming a `<desc>` holding `source`. Returns the problems.
func svgLabelProblems(_ svg: String, label: String, source: String) -> [String] {
    guard let inspector = SVGInspector.inspect(svg) else { return ["not well-formed XML"] }
    var problems: [String] = []
    if inspector.rootName != "svg" { problems.append("root is \(inspector.rootName ?? "nil")") }
    if inspector.rootAttributes["role"] != "img" { problems.append("no role=img") }
    guard let titleID = inspector.rootAttributes["aria-labelledby"], let title = inspector.textByID[titleID] else {
        return problems + ["aria-labelledby does not name a <title>"]
    }
    if title != label { problems.append("title '\(title)' is not the label '\(label)'") }
    if label.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("empty label") }
    if let descID = inspector.rootAttributes["aria-describedby"], let desc = inspector.textByID[descID] {
        if desc != source { problems.append("desc is not the source") }
    } else {
        problems.append("aria-describedby does not name a <desc>")
    }
    return problems
}

extension Box {
    /// Whether every dimension in the tree is finite.
    var isFinite: Bool {
        width.isFinite && height.isFinite && depth.isFinite && children.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.box.isFinite }
    }
}
