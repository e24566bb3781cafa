import Foundation
import MathAloud
import MathAloudDocuments
import MathAloudDocumentsRender
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium (Debian's `chromium`, installed by scripts/install-deps.sh) driven through the
/// DevTools protocol over `--remote-debugging-pipe` (two FIFOs: fd 3 in, fd 4 out, messages ended by
/// NUL): it loads a page and returns the accessibility tree's nodes.
final class HeadlessChromium {
    struct Node: Hashable {
        var role: String
        var name: String
    }

    enum Failure: Error, CustomStringConvertible {
        case notInstalled
        case protocolError(String)
        case timeout
        var description: String {
            switch self {
            case .notInstalled: "chromium is not installed (scripts/install-deps.sh installs it)"
            case .protocolError(let s): "DevTools: \(s)"
            case .timeout: "DevTools: no answer in time"
            }
        }
    }

    static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private let process = Process()
    private let directory: URL
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var buffer: [UInt8] = []
    private var nextID = 0

    init() throws {
        guard let chromium = Self.executable else { throw Failure.notInstalled }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fin = directory.appendingPathComponent("in").path, fout = directory.appendingPathComponent("out").path
        guard mkfifo(fin, 0o600) == 0, mkfifo(fout, 0o600) == 0 else { throw Failure.protocolError("mkfifo failed") }
        let profile = directory.appendingPathComponent("profile").path
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec '\(chromium)' --headless=new --no-sandbox --disable-gpu --no-first-run "
                             + "--remote-debugging-pipe --user-data-dir='\(profile)' 3<'\(fin)' 4>'\(fout)' 2>/dev/null"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input = open(fin, O_WRONLY)
        output = open(fout, O_RDONLY)
        guard input >= 0, output >= 0 else { throw Failure.protocolError("cannot open the pipes") }
    }

    deinit {
        if input >= 0 { _ = send("Browser.close") ; close(input) }
        if output >= 0 { close(output) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    private func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil) -> Int {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var data = (try? JSONSerialization.data(withJSONObject: message)) ?? Data()
        data.append(0)
        data.withUnsafeBytes { _ = write(input, $0.baseAddress, $0.count) }
        return nextID
    }

    /// The answer to message `id` (events are skipped), within `seconds`.
    private func answer(_ id: Int, seconds: Double = 30) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let zero = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<zero])
                buffer.removeSubrange(...zero)
                if let object = try? JSONSerialization.jsonObject(with: Data(message)) as? [String: Any],
                   object["id"] as? Int == id {
                    if let error = object["error"] as? [String: Any] { throw Failure.protocolError("\(error)") }
                    return object["result"] as? [String: Any] ?? [:]
                }
                continue
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure.timeout }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(remaining * 1000)) > 0 else { throw Failure.timeout }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(output, &chunk, chunk.count)
            guard n > 0 else { throw Failure.protocolError("the browser closed the pipe") }
            buffer += chunk[..<n]
        }
    }

    /// Loads `file` and returns the nodes of its accessibility tree that have a name.
    func accessibilityTree(of file: URL) throws -> [Node] {
        let target = try answer(send("Target.createTarget", ["url": "about:blank"]))["targetId"] as? String ?? ""
        let session = try answer(send("Target.attachToTarget", ["targetId": target, "flatten": true]))["sessionId"] as? String ?? ""
        _ = try answer(send("Page.enable", session: session))
        _ = try answer(send("Page.navigate", ["url": file.absoluteString], session: session))
        // Wait until the document has loaded.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let state = try answer(send("Runtime.evaluate", ["expression": "document.readyState", "returnByValue": true], session: session))
            if ((state["result"] as? [String: Any])?["value"] as? String) == "complete" { break }
            usleep(50_000)
        }
        _ = try answer(send("Accessibility.enable", session: session))
        let tree = try answer(send("Accessibility.getFullAXTree", session: session))
        _ = try? answer(send("Target.closeTarget", ["targetId": target]))
        let nodes = tree["nodes"] as? [[String: Any]] ?? []
        return nodes.compactMap { node in
            guard (node["ignored"] as? Bool) != true else { return nil }
            let role = (node["role"] as? [String: Any])?["value"] as? String ?? ""
            let name = (node["name"] as? [String: Any])?["value"] as? String ?? ""
            return name.isEmpty ? nil : Node(role: role, name: name)
        }
    }
}

/// A converted sample page opened in a real browser: the accessibility tree exposes each formula's
/// label (MathML as role `math` named by its `aria-label`, inline SVG and `<img>` as images named by
/// their `<title>` and `alt`).
@Suite("Documents: labels in a real browser", .serialized)
struct BrowserAccessibilityTests {
    static func samplePage() throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sample-page.html")
        return try String(contentsOf: url, encoding: .utf8)
    }

    func check(style: HTMLMathStyle, browser: HeadlessChromium) throws {
        let page = try Self.samplePage()
        var conversion = ConversionOptions()
        conversion.mathStyle = style
        conversion.inlineImages = true
        var options = DocumentOptions()
        options.products = DocumentConverter.products(for: conversion)
        let maker = RendererImageMaker(renderer: sharedRenderer)
        let processor = DocumentProcessor(options: options, speaker: testSpeaker, imageMaker: maker)
        let result = try DocumentConverter(processor: processor, options: conversion).convert(bytes: Array(page.utf8), format: .html)
        checkTextOutsideFormulasUnchanged(result)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mathaloud-\(style.rawValue)-\(UUID().uuidString).html")
        try Data(result.bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let nodes = try browser.accessibilityTree(of: file)
        let formulaRoles: Set<String> = ["MathMLMath", "math", "image", "img"]
        let exposed = nodes.filter { formulaRoles.contains($0.role) }.map(\.name)
        let labels = result.processed.formulas.compactMap(\.label)
        #expect(labels.count == result.processed.formulas.count)
        #expect(labels.count >= 8)
        // getFullAXTree lists nodes by tree level, not in reading order: compare the labels as a set.
        #expect(exposed.sorted() == labels.sorted(), "\(style): the browser exposes \(exposed)")
    }

    /// MathML (`aria-label`), inline SVG (`<title>`) and `<img alt>`, one browser for the three pages.
    @Test func everyFormulaIsNamedInTheAccessibilityTree() throws {
        let browser = try HeadlessChromium()
        for style in HTMLMathStyle.allCases { try check(style: style, browser: browser) }
    }
}
