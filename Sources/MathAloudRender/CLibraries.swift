import CCairo
import CHarfBuzz

// HarfBuzz and cairo are opened with dlopen on first use instead of being linked (see
// Sources/CHarfBuzz/shim.h and Sources/CCairo/shim.h): a program that links MathAloudRender — the
// `mathaloud` command among them — starts without loading them and the ~20 libraries they pull in
// (glib, fontconfig, X11…, which Debian builds with immediate binding), and its other commands run
// where they are absent. The tables are filled once, before any use, and only read afterwards.

/// HarfBuzz's functions (`hb.hb_shape(…)`); check ``CLibraries/harfBuzzProblem`` before the first call.
let hb: mathaloud_hb_api = CLibraries.harfBuzz.api

/// cairo's functions (`cairo.cairo_fill(…)`); check ``CLibraries/cairoProblem`` before the first call.
let cairo: mathaloud_cairo_api = CLibraries.cairo.api

enum CLibraries {
    static let harfBuzz: (api: mathaloud_hb_api, problem: String?) = {
        var api = mathaloud_hb_api()
        let problem = mathaloud_hb_load(&api).map { String(cString: $0) }
        return (api, problem)
    }()

    static let cairo: (api: mathaloud_cairo_api, problem: String?) = {
        var api = mathaloud_cairo_api()
        let problem = mathaloud_cairo_load(&api).map { String(cString: $0) }
        return (api, problem)
    }()

    /// Why HarfBuzz cannot be used (fonts, layout, SVG need it), or nil when it loaded.
    static var harfBuzzProblem: String? {
        harfBuzz.problem.map { "cannot load HarfBuzz (\($0)); install libharfbuzz0b (scripts/install-deps.sh does)" }
    }

    /// Why cairo cannot be used (PNG and PDF need it; SVG does not), or nil when it loaded.
    static var cairoProblem: String? {
        cairo.problem.map { "cannot load cairo (\($0)); install libcairo2 (scripts/install-deps.sh does)" }
    }
}
