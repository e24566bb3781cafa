import Foundation
import MathAloud

/// A self-contained HTML report: summary cards, bar charts by rule and by document (inline SVG), and
/// a sortable table with each finding's formula rendered (MathML written by MathAloud, never the
/// document's own markup) and what it reads as. No external resources; every document string is
/// escaped. Rows stream as files are audited; the summary, written last, is shown first (CSS `order`).
public struct HTMLReportWriter: AuditReportWriter {
    let output: ReportOutput
    private var documents: [DocumentSummary] = []
    private var rows = 0
    private let parser = FormulaParser()
    /// Rows with a rendered formula, at most (later rows show the source only; keeps reports of huge sets light).
    public var maxRenderedFormulas = 5000

    /// Creates a writer.
    public init(output: ReportOutput) { self.output = output }

    static func esc(_ s: String) -> String { XMLEscaping.attribute(s) }

    public mutating func begin(shard: (index: Int, count: Int)?) {
        output.write("""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>MathAloud audit</title>
        <style>
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0;color:#1d2330;background:#f5f6f8}
        main{display:flex;flex-direction:column;max-width:1200px;margin:0 auto;padding:24px}
        #summary{order:1}#charts{order:2}#findings{order:3}
        h1{font-size:24px;margin:0 0 12px}h2{font-size:18px;margin:24px 0 8px}
        .cards{display:flex;gap:12px;flex-wrap:wrap}.card{background:#fff;border-radius:8px;padding:12px 16px;min-width:130px;box-shadow:0 1px 2px #0002}
        .card b{display:block;font-size:26px}.card span{color:#5a6275;font-size:13px}
        .charts{display:grid;grid-template-columns:1fr 1fr;gap:16px}.chart{background:#fff;border-radius:8px;padding:12px;box-shadow:0 1px 2px #0002}
        .chart svg{width:100%;height:auto}.chart text{font-size:12px;fill:#1d2330}
        table{border-collapse:collapse;width:100%;background:#fff;box-shadow:0 1px 2px #0002}
        th,td{padding:6px 8px;border-bottom:1px solid #e3e6ec;text-align:left;vertical-align:top}
        th{background:#eef0f4;cursor:pointer;user-select:none;position:sticky;top:0}th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
        .sev{font-weight:600;border-radius:4px;padding:1px 6px;font-size:12px}.error{background:#fde2e1;color:#9b1c1c}.warning{background:#fff1c2;color:#7a4d00}.note{background:#e0ecff;color:#1e4e9b}
        td.formula math{font-size:120%}code{font:12px ui-monospace,"DejaVu Sans Mono",monospace;white-space:pre-wrap;word-break:break-all}
        .speech{color:#2d5a27}.fix{color:#5a6275;font-size:13px}.path{word-break:break-all}
        @media (max-width:800px){.charts{grid-template-columns:1fr}}
        </style></head><body><main>
        <section id="findings"><h2>Findings</h2>
        <table id="table"><thead><tr><th data-type="text">Location</th><th data-type="severity">Severity</th><th data-type="text">Rule</th><th data-type="text">Message</th><th data-type="none">Formula</th><th data-type="text">Reads as / fix</th></tr></thead><tbody>

        """)
    }

    public mutating func add(_ file: FileAudit) {
        documents.append(file.summary)
        for f in file.findings {
            rows += 1
            let location = "\(f.displayPath):\(f.start.line):\(f.start.column)"
            var formula = ""
            if rows <= maxRenderedFormulas, let kind = f.kind, kind == .tex || kind == .mathML || (kind == .image && LabelText.isTeX(f.formula)),
               !f.formula.isEmpty, f.formula.utf8.count < 4000 {
                let parsed = parser.parse(f.formula, notation: kind == .mathML ? .mathml : .tex)
                formula = parser.write(parsed, as: .mathml)
            }
            let sourceText = "<code>\(Self.esc(String(f.formula.prefix(300))))</code>"
            let severityRank = f.severity == .error ? 2 : f.severity == .warning ? 1 : 0
            var readsAs = f.speech.map { "<div class=\"speech\">“\(Self.esc($0))”</div>" } ?? ""
            if let suggestion = f.suggestion { readsAs += "<div class=\"fix\">fix: \(Self.esc(suggestion))</div>" }
            output.write("<tr><td class=\"path\" data-key=\"\(Self.esc(f.displayPath))\u{1}\(String(format: "%09d", f.start.line))\">\(Self.esc(location))</td>"
                + "<td data-key=\"\(severityRank)\"><span class=\"sev \(f.severity.rawValue)\">\(f.severity.rawValue)</span></td>"
                + "<td><code>\(f.rule.rawValue)</code></td><td>\(Self.esc(f.message))</td>"
                + "<td class=\"formula\">\(formula)\(formula.isEmpty ? "" : "<br>")\(sourceText)</td><td>\(readsAs)</td></tr>\n")
        }
    }

    /// A horizontal bar chart in SVG.
    static func barChart(title: String, bars: [(label: String, value: Int, color: String)]) -> String {
        let width = 560, rowHeight = 22, labelWidth = 250
        let maximum = max(1, bars.map(\.value).max() ?? 1)
        var svg = "<div class=\"chart\"><h3>\(esc(title))</h3><svg viewBox=\"0 0 \(width) \(max(1, bars.count) * rowHeight + 4)\" role=\"img\" aria-label=\"\(esc(title))\">"
        for (i, bar) in bars.enumerated() {
            let y = i * rowHeight + 2
            let w = Int((Double(bar.value) / Double(maximum)) * Double(width - labelWidth - 60))
            let label = bar.label.count > 38 ? "…" + String(bar.label.suffix(37)) : bar.label
            svg += "<text x=\"0\" y=\"\(y + 15)\">\(esc(label))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(max(1, w))\" height=\"\(rowHeight - 6)\" rx=\"3\" fill=\"\(bar.color)\"><title>\(esc(bar.label)): \(bar.value)</title></rect>"
            svg += "<text x=\"\(labelWidth + max(1, w) + 6)\" y=\"\(y + 15)\">\(bar.value)</text>"
        }
        if bars.isEmpty { svg += "<text x=\"0\" y=\"16\">no findings</text>" }
        return svg + "</svg></div>"
    }

    public mutating func finish(_ summary: AuditSummary) {
        output.write("</tbody></table></section>\n")
        let score = summary.score.map { String(format: "%.1f", $0) } ?? "–"
        let errors = summary.findingsBySeverity[.error] ?? 0, warnings = summary.findingsBySeverity[.warning] ?? 0
        output.write("""
        <section id="summary"><h1>MathAloud audit</h1><div class="cards">
        <div class="card"><b id="score">\(score)</b><span>accessibility score (good formulas %)</span></div>
        <div class="card"><b>\(summary.documents)</b><span>files (\(summary.documentsWithMath) with math)</span></div>
        <div class="card"><b>\(summary.formulas)</b><span>formulas (\(summary.good) good)</span></div>
        <div class="card"><b id="finding-count">\(summary.findings)</b><span>findings: \(errors) errors, \(warnings) warnings</span></div>
        </div></section>

        """)
        let byRule = summary.findingsByRule.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { entry in
            (label: entry.key.rawValue, value: entry.value, color: entry.key.defaultSeverity == .error ? "#d64545" : "#e0a800")
        }
        let byDocument = documents.filter { $0.findings > 0 }.sorted { ($1.findings, $0.file) < ($0.findings, $1.file) }.prefix(15).map {
            (label: $0.file, value: $0.findings, color: "#4a6fd6")
        }
        output.write("<section id=\"charts\"><h2>Findings by rule and by document</h2><div class=\"charts\">"
            + Self.barChart(title: "By rule", bars: byRule)
            + Self.barChart(title: "By document (top \(byDocument.count) of \(documents.filter { $0.findings > 0 }.count))", bars: Array(byDocument))
            + "</div></section>\n")
        // Sorting: click a header; the order is kept in the URL fragment (#sort=column,direction) so a
        // link (and a test) can open the table sorted.
        output.write("""
        </main><script>
        (function(){
          var table=document.getElementById('table'),heads=table.tHead.rows[0].cells;
          function key(row,i){var c=row.cells[i];return c.getAttribute('data-key')||c.textContent;}
          function sort(i,dir){
            var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows),numeric=heads[i].getAttribute('data-type')==='severity';
            rows.sort(function(a,b){var x=key(a,i),y=key(b,i);var r=numeric?(x-y):(x<y?-1:x>y?1:0);return dir==='descending'?-r:r;});
            rows.forEach(function(r){body.appendChild(r);});
            for(var j=0;j<heads.length;j++)heads[j].removeAttribute('aria-sort');
            heads[i].setAttribute('aria-sort',dir);
          }
          for(var i=0;i<heads.length;i++)(function(i){
            if(heads[i].getAttribute('data-type')==='none')return;
            heads[i].tabIndex=0;
            function go(){var dir=heads[i].getAttribute('aria-sort')==='ascending'?'descending':'ascending';sort(i,dir);history.replaceState(null,'','#sort='+i+','+dir);}
            heads[i].addEventListener('click',go);
            heads[i].addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){e.preventDefault();go();}});
          })(i);
          var m=/#sort=(\\d+),(ascending|descending)/.exec(location.hash);
          if(m&&heads[+m[1]])sort(+m[1],m[2]);
          document.body.setAttribute('data-ready','true');
        })();
        </script></body></html>

        """)
        output.flush()
    }
}
