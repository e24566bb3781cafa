import Foundation
import PackagePlugin

/// Turns every ```swift block of the package's README.md into a function of the test target, so
/// `swift build --build-tests` compiles the README's library examples and `swift test` runs them
/// (offline, in the package's own build: no consumer package to fetch or build separately).
@main
struct ReadmeExamples: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let readme = context.package.directoryURL.appendingPathComponent("README.md")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("ReadmeExamples.swift")
        return [
            .buildCommand(
                displayName: "Extracting the Swift examples of README.md",
                executable: try context.tool(named: "ReadmeExamplesTool").url,
                arguments: [readme.path, output.path],
                inputFiles: [readme],
                outputFiles: [output]
            ),
        ]
    }
}
