#include "vhist/report/html_report.h"

#include "curves.h"
#include "heatmap.h"
#include "html_text.h"
#include "plot_scale.h"
#include "report_tables.h"

#include <algorithm>
#include <stdexcept>

namespace vhist::report {

namespace {

// The page's one style sheet. System fonts only: nothing is fetched.
constexpr const char* kStyle = R"CSS(
:root{--ink:#1d232b;--muted:#5d6875;--line:#dfe3e8;--bg:#f4f6f8;--card:#fff;--pass:#1e7d45;--fail:#c0282d;--warn:#a86400}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Liberation Sans","DejaVu Sans",sans-serif}
main{max-width:1240px;margin:0 auto;padding:20px 24px 40px}
header.top{display:flex;align-items:center;gap:24px;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:18px 22px;margin-bottom:16px}
header.top .what{flex:1;min-width:0}
.brand{font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:var(--muted)}
h1{font-size:22px;margin:2px 0 6px;overflow-wrap:anywhere}
.facts{display:flex;flex-wrap:wrap;gap:6px 22px;color:var(--muted);font-size:13px}
.facts b{color:var(--ink);font-weight:600;font-variant-numeric:tabular-nums}
.verdict{min-width:170px;text-align:center;border-radius:8px;padding:10px 18px;color:#fff}
.verdict .word{display:block;font-size:30px;font-weight:800;letter-spacing:.06em}
.verdict small{display:block;font-size:12px;opacity:.92}
.verdict.pass{background:var(--pass)}.verdict.fail{background:var(--fail)}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 20px 18px;margin-bottom:16px}
h2{font-size:16px;margin:0 0 10px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:13px;margin:0}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:16px}
.cols section{margin-bottom:0}
@media (max-width:900px){.cols{grid-template-columns:1fr}}
table{border-collapse:collapse;width:100%;font-size:13px}
table.kv th{text-align:left;font-weight:600;color:var(--muted);padding:3px 14px 3px 0;white-space:nowrap;vertical-align:top;width:1%}
table.kv td{padding:3px 8px 3px 0;overflow-wrap:anywhere;vertical-align:top}
table.grid th{text-align:left;font-size:12px;color:var(--muted);font-weight:600;border-bottom:2px solid var(--line);padding:6px 8px}
table.grid td{border-bottom:1px solid var(--line);padding:6px 8px;vertical-align:top}
table.grid tbody tr:nth-child(even){background:#fafbfc}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.tc{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px;white-space:nowrap}
td small,th small{display:block;color:var(--muted);font-size:11px;font-family:system-ui,sans-serif}
td.check{white-space:nowrap}
td.detail{min-width:220px}
tr.fails td:first-child{box-shadow:inset 3px 0 var(--fail)}
tr.warns td:first-child{box-shadow:inset 3px 0 var(--warn)}
tr.more td{color:var(--muted);font-style:italic}
.muted{color:var(--muted)}
code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px}
.badge{display:inline-block;font-size:11px;font-weight:700;letter-spacing:.05em;border-radius:4px;padding:1px 7px;color:#fff}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.warn{background:var(--warn)}
i.swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:6px;vertical-align:-1px}
i.dash{display:inline-block;width:16px;height:0;border-top:2px dashed;margin-right:6px;vertical-align:3px}
img.thumb{display:block;width:160px;height:auto;border:1px solid var(--line);border-radius:3px;background:#000}
.panel{margin-top:8px}
.panel-head{display:flex;align-items:baseline;flex-wrap:wrap;gap:4px 16px;margin:0 0 2px 5.8%}
.keys{display:flex;flex-wrap:wrap;gap:2px 14px;font-size:12px}
.caption{font-size:11px;color:var(--muted);flex-basis:100%}
svg.plot{display:block;width:100%;height:auto;overflow:visible}
svg.plot text{font-size:11px;fill:#4a5563;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,"DejaVu Sans",sans-serif}
svg.plot .ylab{text-anchor:end;dominant-baseline:middle}
svg.plot .rlab,svg.plot .limlab{text-anchor:start;dominant-baseline:middle}
svg.plot .limlab{font-size:10px}
svg.plot .xlab{text-anchor:middle}
svg.plot .axtitle{text-anchor:middle;font-size:11px}
svg.plot .none{text-anchor:middle;dominant-baseline:middle;fill:#8a939e}
.tick{stroke:#7b8591;stroke-width:1}
.heatbg{fill:#000004}
.plotbg{fill:#fbfcfd;stroke:#d3d8de;stroke-width:1}
.lanebg{fill:#f1f3f5}
.grid{stroke:#e3e7eb;stroke-width:1}
.vgrid{stroke:#e9ecef;stroke-width:1}
.limit{stroke:#555;stroke-width:1;stroke-dasharray:5 4}
.curve{fill:none;stroke-linejoin:round}
.band{stroke:none}
.span{shape-rendering:crispEdges}
.heat-head{display:flex;align-items:center;flex-wrap:wrap;gap:4px 18px;margin:0 0 4px 5.8%}
svg.legend-bar{width:300px;height:30px}
svg.legend-bar text{font-size:10px;fill:#4a5563;text-anchor:middle;font-family:system-ui,sans-serif}
ul.notes{margin:6px 0 0;padding-left:20px}
footer{color:var(--muted);font-size:12px;text-align:center;margin-top:10px}
@media print{body{background:#fff}section,header.top{break-inside:avoid;border-color:#ccc}}
)CSS";

std::string verdict(const ReportInput& input) {
  const auto failing = std::count_if(input.events.begin(), input.events.end(), [](const qc::Event& e) { return e.fails; });
  const auto warnings = static_cast<std::ptrdiff_t>(input.events.size()) - failing;
  std::string why;
  if (failing > 0) why = grouped(failing) + (failing == 1 ? " event fails" : " events fail") + " the run";
  if (warnings > 0) why += (why.empty() ? "" : "; ") + grouped(warnings) + (warnings == 1 ? " warning" : " warnings");
  if (why.empty()) why = "no event";
  return std::string("<div class=\"verdict ") + (input.passed ? "pass" : "fail") + "\" id=\"verdict\"><span class=\"word\">" +
         (input.passed ? "PASS" : "FAIL") + "</span><small>" + escape(why) + "</small></div>";
}

std::string facts(const ReportInput& input) {
  std::string s = "<div class=\"facts\">";
  const qc::Timeline* t = input.timeline;
  const std::size_t frames = t ? t->frames().size() : 0;
  s += "<span>frames <b>" + grouped(static_cast<std::int64_t>(frames)) + "</b></span>";
  if (t && frames > 0) {
    const XScale scale(*t);
    s += "<span>duration <b>" + duration_text(scale.end_time() - scale.first_time()) + "</b></span>";
  }
  if (input.frame_rate > 0) s += "<span>frame rate <b>" + fixed(input.frame_rate, 3) + " fps</b></span>";
  if (t && !t->columns().empty()) {
    s += "<span>timeline <b>" + grouped(static_cast<std::int64_t>(t->columns().size())) + " columns</b> of " +
         grouped(t->frames_per_column()) + (t->frames_per_column() == 1 ? " frame" : " frames") + "</span>";
  }
  return s + "</div>";
}

std::string timeline_section(const ReportInput& input, std::string& error) {
  std::string s = "<section id=\"timeline\"><h2>Timeline</h2>";
  if (input.timeline == nullptr || input.timeline->columns().empty()) {
    return s + "<p class=\"muted\">No frame was scanned: there is no timeline to draw.</p></section>";
  }
  const XScale scale(*input.timeline);
  const std::string figure = heatmap_figure(*input.timeline, scale, error);
  if (figure.empty()) return {};
  s += "<div class=\"heat-head\"><h3>Y\u2032 histogram over time</h3><span class=\"caption\" style=\"flex-basis:auto\">"
       "share of each column\u2019s pixels at each 8-bit level, log scale</span>" +
       heatmap_legend() + "</div>" + figure;
  s += curve_panels(*input.timeline, scale, input.events, input.thresholds);
  return s + "</section>";
}

std::string notes_list(const std::vector<std::string>& notes) {
  if (notes.empty()) return {};
  std::string s = "<h3 style=\"margin-top:14px\">Notes</h3><ul class=\"notes\">";
  for (const std::string& n : notes) s += "<li>" + escape(n) + "</li>";
  return s + "</ul>";
}

}  // namespace

const char* style_sheet() { return kStyle; }

std::string html_report(const ReportInput& input) {
  std::string error;
  const std::string timeline = timeline_section(input, error);
  if (!error.empty()) throw std::runtime_error("cannot make the report's heatmap: " + error);
  const std::size_t frames = input.timeline ? input.timeline->frames().size() : 0;
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
                  "style-src 'unsafe-inline'\">"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                  "<meta name=\"generator\" content=\"vhist qc\"><title>QC report: " +
                  escape(input.title) + "</title><style>" + style_sheet() + "</style></head><body><main>";
  s += "<header class=\"top\"><div class=\"what\"><div class=\"brand\">vhist \u00b7 quality control report</div><h1>" +
       escape(input.title) + "</h1>" + facts(input) + "</div>" + verdict(input) + "</header>";
  s += "<div class=\"cols\"><section id=\"provenance\"><h2>Provenance</h2>" + provenance_table(input) +
       "</section><section id=\"thresholds\"><h2>Thresholds</h2>" + thresholds_table(input.thresholds) +
       "</section></div>";
  s += "<section id=\"summary\" style=\"margin-top:16px\"><h2>Summary</h2>" + summary_table(input, frames) +
       notes_list(input.notes) + "</section>";
  s += timeline;
  s += "<section id=\"event-list\"><h2>Events</h2>" + event_table(input) + "</section>";
  s += "<footer>Made by vhist qc. This file is self-contained: it loads nothing from anywhere.</footer>";
  return s + "</main></body></html>\n";
}

}  // namespace vhist::report
