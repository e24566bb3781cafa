import Foundation

/// A fixture file of the TeX front end's tests (`Tests/MathTeXTests/Fixtures`).
func texFixtureURL(_ name: String, file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MathTeXTests").appendingPathComponent("Fixtures").appendingPathComponent(name)
}
