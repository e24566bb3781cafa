// swift-tools-version:6.0
import PackageDescription

// MathAloud: TeX/MathML → speech, labels, audio, images, audits.
// The core (`MathAloud` and the stage targets it re-exports) is pure Swift + Foundation; C libraries
// (eSpeak-NG, HarfBuzz/cairo, libmicrohttpd) live only in their own optional targets.
let package = Package(
    name: "MathAloud",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "MathAloud", targets: ["MathAloud"]),
        .library(name: "MathAloudVoice", targets: ["MathAloudVoice"]),
        .library(name: "MathAloudRender", targets: ["MathAloudRender"]),
        .library(name: "MathAloudDocuments", targets: ["MathAloudDocuments"]),
        .library(name: "MathAloudDocumentsRender", targets: ["MathAloudDocumentsRender"]),
        .library(name: "MathAloudAudit", targets: ["MathAloudAudit"]),
        .library(name: "MathAloudServer", targets: ["MathAloudServer"]),
        .executable(name: "mathaloud", targets: ["mathaloud"]),
    ],
    targets: [
        // Pipeline stages (DESIGN.md §2); arrows point toward MathSyntax.
        .target(name: "MathSyntax"),
        .target(name: "MathTeX", dependencies: ["MathSyntax"]),
        .target(name: "MathMarkup", dependencies: ["MathSyntax"]),
        .target(name: "MathSemantics", dependencies: ["MathSyntax"]),
        .target(name: "MathSpeech", dependencies: ["MathSemantics", "MathSyntax"]),
        // The public façade, with the built-in Rules/ and Locales/ embedded at build time.
        .target(name: "MathAloud", dependencies: ["MathSyntax", "MathTeX", "MathMarkup", "MathSemantics", "MathSpeech"],
                plugins: ["EmbedSpeechResources"]),
        // Voice: speech → WAV through eSpeak-NG. Only the header is used at build time (Debian
        // libespeak-ng-dev puts it in /usr/include); the library is opened with dlopen when the voice is
        // first used, so programs start without it (see Sources/CESpeakNG/shim.h).
        .systemLibrary(name: "CESpeakNG", path: "Sources/CESpeakNG",
                       providers: [.apt(["libespeak-ng-dev", "espeak-ng"])]),
        .target(name: "MathAloudVoice", dependencies: ["MathAloud", "CESpeakNG"]),
        // Typesetting (DESIGN.md §2): HarfBuzz for OpenType MATH and outlines, cairo for drawing PNG and
        // PDF, zlib for writing PNG (with the label's text chunks). HarfBuzz and cairo: only the headers
        // are used at build time (<harfbuzz/hb.h>, <cairo/cairo.h> in /usr/include); the libraries are
        // opened with dlopen on first use, so programs start without them and their dependencies.
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "MathAloudRender", dependencies: ["MathAloud", "CHarfBuzz", "CCairo", "CZlib"]),
        // Math in documents and streams (DESIGN.md §2, §13): segmenters per format, the document API,
        // streams, accessible HTML/Markdown output. Pure Swift; images come through a protocol.
        .target(name: "MathAloudDocuments", dependencies: ["MathAloud"]),
        // Audit (DESIGN.md §2, §13): findings, rules, reports, --fix writers, sharding and merge, on the
        // documents' segmenters. zlib reads and rewrites EPUB containers (raw inflate/deflate, CRC-32).
        .target(name: "MathAloudAudit", dependencies: ["MathAloudDocuments", "MathAloud", "CZlib"]),
        // The HTTP service (DESIGN.md §12) on libmicrohttpd: only the header is used at build time
        // (<microhttpd.h> in /usr/include); the library is opened with dlopen when a server starts, so
        // `mathaloud` runs its other commands where it is absent.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "MathAloudServer", dependencies: ["MathAloud", "MathAloudVoice", "MathAloudRender", "CMicroHTTPD"]),
        // Documents drawn with MathAloudRender: the renderer as the documents' image maker.
        .target(name: "MathAloudDocumentsRender", dependencies: ["MathAloudDocuments", "MathAloudRender"]),
        .executableTarget(name: "mathaloud", dependencies: ["MathAloud", "MathAloudVoice", "MathAloudRender", "MathAloudServer",
                                                            "MathAloudAudit", "MathAloudDocuments", "MathAloudDocumentsRender"]),
        .executableTarget(name: "MathAloudBench", dependencies: ["MathAloud", "MathAloudVoice", "MathAloudRender", "MathAloudDocuments"],
                          path: "Sources/MathAloudBench"),
        // Build tooling.
        .executableTarget(name: "EmbedResourcesTool"),
        .plugin(name: "EmbedSpeechResources", capability: .buildTool(), dependencies: ["EmbedResourcesTool"]),
        .executableTarget(name: "ReadmeExamplesTool"),
        .plugin(name: "ReadmeExamples", capability: .buildTool(), dependencies: ["ReadmeExamplesTool"]),
        // Tests mirror Sources/; TestSupport holds what several test targets share (golden files).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "MathSyntaxTests", dependencies: ["MathSyntax"]),
        .testTarget(name: "MathTeXTests", dependencies: ["MathTeX", "MathSyntax", "MathMarkup", "TestSupport"],
                    exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "MathMarkupTests", dependencies: ["MathMarkup", "MathTeX", "MathSyntax", "TestSupport"]),
        .testTarget(name: "MathSemanticsTests", dependencies: ["MathSemantics", "MathTeX", "MathSyntax", "TestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "MathSpeechTests", dependencies: ["MathSpeech", "MathSemantics", "MathSyntax"]),
        .testTarget(name: "MathAloudTests", dependencies: ["MathAloud", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "MathAloudVoiceTests", dependencies: ["MathAloudVoice", "MathAloud"]),
        .testTarget(name: "MathAloudRenderTests", dependencies: ["MathAloudRender", "MathAloud", "CCairo", "TestSupport"],
                    exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "MathAloudDocumentsTests", dependencies: ["MathAloudDocuments", "MathAloudDocumentsRender", "MathAloud",
                                                                  "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "MathAloudAuditTests", dependencies: ["MathAloudAudit", "MathAloud"], exclude: ["Fixtures"]),
        .testTarget(name: "MathAloudServerTests", dependencies: ["MathAloudServer", "MathAloud", "CMicroHTTPD"]),
        .testTarget(name: "mathaloudTests", dependencies: ["mathaloud", "MathAloudVoice"]),
        // The README's Swift examples, compiled (by the ReadmeExamples plugin) and run.
        .testTarget(name: "ReadmeTests", dependencies: ["MathAloud", "MathAloudVoice", "MathAloudRender", "MathAloudDocuments"],
                    plugins: ["ReadmeExamples"]),
    ],
    swiftLanguageModes: [.v6]
)
