// swift-tools-version:6.0
import PackageDescription

// MathAloud: TeX/MathML → speech, labels, audio, images, audits.
// The core (`MathAloud` and the stage targets it re-exports) is pure Swift + Foundation.
let package = Package(
    name: "MathAloud",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "MathAloud", targets: ["MathAloud"]),
        .executable(name: "mathaloud", targets: ["mathaloud"]),
    ],
    targets: [
        .target(name: "MathSyntax"),
        .target(name: "MathTeX", dependencies: ["MathSyntax"]),
        .target(name: "MathMarkup", dependencies: ["MathSyntax"]),
        .target(name: "MathAloud", dependencies: ["MathSyntax", "MathTeX", "MathMarkup"]),
        .executableTarget(name: "mathaloud", dependencies: ["MathAloud"]),
        .executableTarget(
            name: "MathAloudBench", dependencies: ["MathAloud"],
            path: "Sources/MathAloudBench"),
        .testTarget(name: "MathSyntaxTests", dependencies: ["MathSyntax"]),
        .testTarget(name: "MathTeXTests", dependencies: ["MathTeX", "MathSyntax", "MathMarkup"],
                    exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "MathMarkupTests", dependencies: ["MathMarkup", "MathTeX", "MathSyntax"]),
    ],
    swiftLanguageModes: [.v6]
)
