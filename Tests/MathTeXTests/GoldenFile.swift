import Foundation

/// A fixture file from `Tests/MathTeXTests/Fixtures`.
func fixtureURL(_ name: String, file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name)
}
