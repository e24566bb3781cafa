import Foundation
import PackagePlugin

/// Embeds the package's `Rules/` and `Locales/` files into the target as one generated Swift file,
/// so the built-in speech rules load from any directory (a relocatable binary). Locale authors
/// override them at run time with `--rules-dir` / `MATHALOUD_RULES` instead of rebuilding.
@main
struct EmbedSpeechResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        for folder in ["Rules", "Locales"] {
            let base = root.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in enumerator {
                let name = url.lastPathComponent
                if name.hasSuffix(".rules") || name.hasSuffix(".words") || name.hasSuffix(".txt") || name.hasSuffix(".phrases") {
                    inputs.append(url)
                }
            }
        }
        inputs.sort { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedSpeechResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) rule and locale files",
                executable: try context.tool(named: "EmbedResourcesTool").url,
                arguments: [root.path, output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
