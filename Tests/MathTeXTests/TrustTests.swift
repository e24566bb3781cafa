import Testing
import MathSyntax
@testable import MathTeX

/// The trust policy (KaTeX's `trust`): `\href`, `\url`, `\includegraphics` and the `\html…` commands act
/// only when trusted, and a link or image only with an allowed URL scheme.
@Suite struct TrustTests {
    /// Every attribute of the tree, as `name=value`.
    static func attributes(_ node: MathNode) -> [String] {
        (node.attributes ?? [:]).map { "\($0.key)=\($0.value)" }.sorted() + node.children.flatMap(attributes)
    }

    static func parse(_ tex: String, trust: TrustPolicy) -> TeXParseResult {
        var options = TeXParserOptions()
        options.trust = trust
        return TeXParser(options: options).parse(tex)
    }

    @Test func untrustedJavascriptLinkIsRefusedByDefault() {
        let tex = #"a + \href{javascript:alert(1)}{x}"#
        let result = TeXParser().parse(tex)
        #expect(TeXParserOptions().trust == .untrusted)
        let refused = result.diagnostics.filter { $0.id == .texUntrustedCommand }
        #expect(refused.count == 1)
        #expect(refused.first?.range?.lowerBound == 4)  // at the command
        #expect(refused.first?.severity == .warning)
        #expect(!result.hasErrors)
        #expect(Self.attributes(result.root).isEmpty, "no link survives: \(Self.attributes(result.root))")
        // The content is kept.
        #expect(result.root.treeDump(ranges: false).contains(#"mi "x""#))
    }

    @Test func everyCommandIsOffByDefault() {
        for tex in [#"\href{https://example.org}{x}"#, #"\url{https://example.org}"#, #"\includegraphics{a.png}"#,
                    #"\htmlClass{c}{x}"#, #"\htmlId{i}{x}"#, #"\htmlStyle{color:red}{x}"#, #"\htmlData{k=v}{x}"#] {
            let result = TeXParser().parse(tex)
            #expect(result.diagnostics.map(\.id) == [.texUntrustedCommand], "\(tex)")
            #expect(Self.attributes(result.root).isEmpty, "\(tex): \(Self.attributes(result.root))")
        }
    }

    @Test func trustedCommandsActWithSafeSchemes() {
        let cases: [(String, String)] = [
            (#"\href{https://example.org}{x}"#, "href=https://example.org"),
            (#"\href{#eq-1}{x}"#, "href=#eq-1"),
            (#"\url{mailto:a@example.org}"#, "href=mailto:a@example.org"),
            (#"\includegraphics[alt=logo]{img/a.png}"#, "src=img/a.png"),
            (#"\htmlClass{important}{x}"#, "class=important"),
        ]
        for (tex, attribute) in cases {
            let result = Self.parse(tex, trust: .trusted)
            #expect(result.diagnostics.isEmpty, "\(tex): \(result.diagnostics.map(\.message))")
            #expect(Self.attributes(result.root).contains(attribute), "\(tex): \(Self.attributes(result.root))")
        }
    }

    @Test func unsafeSchemesAreRefusedEvenWhenTheCommandIsTrusted() {
        for tex in [#"\href{javascript:alert(1)}{x}"#, "\\href{ JaVa\tScRiPt:alert(1)}{x}",
                    #"\url{data:text/html,<script>alert(1)</script>}"#, #"\includegraphics{file:///etc/passwd}"#,
                    #"\href{vbscript:x}{x}"#] {
            let result = Self.parse(tex, trust: .trusted)
            #expect(result.diagnostics.contains { $0.id == .texUntrustedCommand && $0.message.contains("scheme") }, "\(tex)")
            #expect(!Self.attributes(result.root).contains { $0.hasPrefix("href=") || $0.hasPrefix("src=") }, "\(tex)")
        }
        // A scheme the caller lists is allowed.
        let listed = Self.parse(#"\href{ftp://example.org}{x}"#, trust: TrustPolicy(allowed: [.links], urlSchemes: ["ftp"]))
        #expect(listed.diagnostics.isEmpty)
    }

    @Test func onlyTheListedCommandsAreTrusted() {
        let trust = TrustPolicy(allowed: [.links])
        #expect(Self.parse(#"\href{https://example.org}{x}"#, trust: trust).diagnostics.isEmpty)
        let result = Self.parse(#"\htmlStyle{color:red}{x}"#, trust: trust)
        #expect(result.diagnostics.map(\.id) == [.texUntrustedCommand])
        #expect(result.diagnostics.first?.message.contains(#"\htmlStyle is not allowed"#) == true)
    }

    @Test func urlSchemesAreReadAsABrowserReadsThem() {
        #expect(TrustPolicy.scheme(of: "HTTPS://x") == "https")
        #expect(TrustPolicy.scheme(of: " java\tscript:alert(1)") == "javascript")
        #expect(TrustPolicy.scheme(of: "a/b:c") == nil)
        #expect(TrustPolicy.scheme(of: "?q=a:b") == nil)
        #expect(TrustPolicy.scheme(of: "#x") == nil)
        #expect(TrustPolicy.scheme(of: "page.html") == nil)
    }
}
