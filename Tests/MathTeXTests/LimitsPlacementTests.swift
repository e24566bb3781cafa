import Testing
import MathSyntax
@testable import MathTeX

/// `\limits`, `\nolimits` and the default placement of a large operator's limits.
@Suite struct LimitsPlacementTests {
    private func base(_ tex: String) -> (kind: String, movableLimits: Bool?) {
        let root = TeXParser().parse(tex).root
        guard let scripted = root.children.first else { return ("none", nil) }
        var movable: Bool? = nil
        if case .operator(_, let p) = scripted.children.first?.kind { movable = p.movableLimits }
        switch scripted.kind {
        case .underOver: return ("munderover", movable)
        case .subSuperscript: return ("msubsup", movable)
        default: return ("other", movable)
        }
    }

    @Test func explicitLimitsDoNotMove() {
        // Default: under/over in display style, moving to script positions in text style.
        #expect(base(#"\sum_{i=1}^n a_i"#) == ("munderover", true))
        // \limits: under/over in every style.
        #expect(base(#"\sum\limits_{i=1}^n a_i"#) == ("munderover", false))
        // \nolimits: scripts in every style.
        #expect(base(#"\sum\nolimits_{i=1}^n a_i"#).kind == "msubsup")
        // \int takes scripts by default; \limits puts them above and below.
        #expect(base(#"\int\limits_0^1 f"#) == ("munderover", false))
    }
}
