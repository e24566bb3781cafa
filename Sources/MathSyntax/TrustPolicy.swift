import Foundation

/// What input may put into output beyond mathematics: links, HTML classes, ids and data, styles,
/// images. Off by default, as KaTeX's `trust` option is: formulas often come from people other than the
/// page's author, and a link or a style is a way to run script or leak data in a reader's browser.
///
/// - TeX: `\href`, `\url` need ``Feature/links``; `\htmlClass`, `\htmlId`, `\htmlData` need
///   ``Feature/htmlAttributes``; `\htmlStyle` needs ``Feature/styles``; `\includegraphics` needs
///   ``Feature/images``. A command that is not trusted is refused with `tex.untrusted-command` (its
///   math content is kept; the link, class or style is not).
/// - MathML: `href` (and `xlink:href`) need ``Feature/links``, `style` needs ``Feature/styles``; they are
///   dropped with `mathml.untrusted-attribute` otherwise.
/// - Always, trusted or not: event-handler attributes (`onclick`, any `on…`) are dropped from MathML
///   input and never written to MathML output, and a URL is kept only when its scheme is in
///   ``urlSchemes`` (a relative URL, with no scheme, is kept) — in a link or image attribute and in a
///   style's `url(…)` alike (``styleProblem(_:)``).
///
/// The policy is a value shared by the TeX parser (``TeXParserOptions``), the MathML reader and the
/// documents layer, so each applies the same rules.
public struct TrustPolicy: Sendable, Hashable {
    /// A kind of output a formula can ask for beyond its mathematics.
    public enum Feature: String, Sendable, Hashable, CaseIterable {
        /// Links: `\href`, `\url`, MathML `href`.
        case links
        /// HTML classes, ids and data attributes: `\htmlClass`, `\htmlId`, `\htmlData`.
        case htmlAttributes
        /// Inline CSS: `\htmlStyle`, MathML `style`.
        case styles
        /// Images: `\includegraphics`.
        case images
    }

    /// The features allowed (none by default).
    public var allowed: Set<Feature>
    /// URL schemes a link or image may use, lowercase (default `http`, `https`, `mailto`).
    public var urlSchemes: Set<String>

    /// A policy.
    public init(allowed: Set<Feature> = [], urlSchemes: Set<String> = ["http", "https", "mailto"]) {
        self.allowed = allowed
        self.urlSchemes = urlSchemes
    }

    /// Nothing beyond mathematics (the default).
    public static let untrusted = TrustPolicy()
    /// Every feature, URLs still limited to ``urlSchemes`` and event handlers still dropped.
    public static let trusted = TrustPolicy(allowed: Set(Feature.allCases))

    /// Whether a feature is allowed.
    public func allows(_ feature: Feature) -> Bool { allowed.contains(feature) }

    /// The URL's scheme, lowercased (`javascript` for ` JaVa\tScript:alert(1)`), or nil for a relative
    /// URL. As browsers read it (WHATWG URL): leading spaces and control characters are skipped, tabs
    /// and newlines anywhere are removed, and the scheme ends at the first `:` before any `/`, `?`, `#`.
    public static func scheme(of url: String) -> String? {
        var scheme = ""
        var started = false
        for scalar in url.unicodeScalars {
            if scalar == "\t" || scalar == "\n" || scalar == "\r" { continue }
            if !started && scalar.value <= 0x20 { continue }
            started = true
            if scalar == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            if scalar == "/" || scalar == "?" || scalar == "#" { return nil }
            let ok = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
                || (!scheme.isEmpty && ((scalar >= "0" && scalar <= "9") || scalar == "+" || scalar == "-" || scalar == "."))
            // Anything else before a `:` means the text is not a scheme; a browser would then read the
            // whole as a relative URL, but a stray `:` later is safer refused.
            if !ok { return url.contains(":") ? "" : nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    /// Whether a URL may be kept: relative, or with a scheme in ``urlSchemes``.
    public func allows(url: String) -> Bool {
        guard let scheme = TrustPolicy.scheme(of: url) else { return true }
        return urlSchemes.contains(scheme)
    }

    /// Whether an attribute is an event handler (`onclick`, `ONLOAD`, any `on…` name), which is never kept.
    public static func isEventHandler(_ name: String) -> Bool {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        return local.count > 2 && local.lowercased().hasPrefix("on")
    }

    /// Attributes whose value is a URL.
    public static let urlAttributes: Set<String> = ["href", "xlink:href", "src", "altimg", "definitionURL", "cite", "action", "formaction"]

    /// Why an attribute must be dropped under this policy (nil: it may be kept).
    public func refusal(attribute name: String, value: String) -> String? {
        if TrustPolicy.isEventHandler(name) { return "event-handler attribute \(name) is never kept" }
        let lower = name.lowercased()
        if TrustPolicy.urlAttributes.contains(name) || TrustPolicy.urlAttributes.contains(lower) {
            if (lower == "href" || lower == "xlink:href") && !allows(.links) {
                return "attribute \(name) (a link) needs trust (links)"
            }
            if !allows(url: value) {
                return "attribute \(name) has a URL scheme that is not allowed (\(TrustPolicy.scheme(of: value) ?? "")); allowed: \(urlSchemes.sorted().joined(separator: ", "))"
            }
        }
        if lower == "style" {
            if !allows(.styles) { return "attribute style needs trust (styles)" }
            if let problem = styleProblem(value) { return "attribute style \(problem)" }
        }
        return nil
    }

    /// Why an inline style may not be kept, even trusted (nil: it may): a `url(…)` whose scheme is not
    /// in ``urlSchemes`` (CSS `background:url(javascript:…)`), or what could hide one from this check —
    /// a CSS escape (`u\72l(`), a comment, `expression(` (old browsers run it as script) or `@import`.
    public func styleProblem(_ css: String) -> String? {
        let lower = css.lowercased()
        if lower.contains("\\") || lower.contains("/*") { return "has a CSS escape or comment, which could hide a URL; not kept" }
        if lower.contains("expression(") || lower.contains("@import") || lower.contains("behavior:") || lower.contains("-moz-binding") {
            return "can run script (expression, @import, behavior, -moz-binding); not kept"
        }
        var rest = Substring(lower)
        while let open = rest.range(of: "url(") {
            var argument = rest[open.upperBound...]
            let close = argument.firstIndex(of: ")") ?? argument.endIndex
            argument = argument[..<close]
            let quoteOrSpace: (Character) -> Bool = { " \t\n\r\u{0C}\"'".contains($0) }
            let url = String(argument.drop(while: quoteOrSpace).reversed().drop(while: quoteOrSpace).reversed())
            if !allows(url: url) {
                return "has a URL scheme that is not allowed (\(TrustPolicy.scheme(of: url) ?? "")); allowed: \(urlSchemes.sorted().joined(separator: ", "))"
            }
            rest = rest[close...]
        }
        return nil
    }
}
