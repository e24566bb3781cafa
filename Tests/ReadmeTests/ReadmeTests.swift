import Foundation
import Testing

/// Every ```swift block of README.md, compiled into this target by the `ReadmeExamples` build-tool
/// plugin (a compile error in the README fails the build, at the README's line) and run here.
@Suite struct ReadmeSwiftExamplesTests {
    @Test func readmeHasSwiftExamples() { #expect(ReadmeExamples.all.count >= 5) }

    @Test(arguments: ReadmeExamples.all.map(\.line))
    func example(line: Int) throws {
        let example = try #require(ReadmeExamples.all.first { $0.line == line })
        try example.run()
    }
}
