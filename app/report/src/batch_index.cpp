// vhist batch --report's index.html (html_report.h).
#include "vhist/report/html_report.h"

#include "html_text.h"
#include "vhist/qc/batch_tally.h"

namespace vhist::report {

namespace {

std::string cell(const std::string& text) { return "<td>" + escape(text) + "</td>"; }

// The verdict's badge: PASS, FAIL, PARTIAL (damaged, judged as far as it decodes), ERROR.
std::string badge(const BatchIndexRow& r) {
  if (r.status == "error") return "<span class=\"badge fail\">ERROR</span>";
  const std::string word = r.verdict == "pass" ? "PASS" : "FAIL";
  std::string s = "<span class=\"badge " + std::string(r.verdict == "pass" ? "pass" : "fail") + "\">" + word + "</span>";
  if (r.status == "partial") s += " <span class=\"badge warn\">PARTIAL</span>";
  return s;
}

std::string row_html(const BatchIndexRow& r) {
  const std::string name = r.report.empty() ? escape(r.key)
                                            : "<a href=\"" + escape(r.report) + "\">" + escape(r.key) + "</a>";
  std::string s = "<tr><td>" + name + "</td><td>" + badge(r) + "</td>";
  s += cell(r.status == "error" ? r.error : r.failing + (r.status == "partial" ? (r.failing.empty() ? "" : "; ") + r.error : ""));
  s += "<td class=\"num\">" + (r.duration >= 0 ? escape(duration_text(r.duration)) : std::string()) + "</td>";
  s += "<td class=\"num\">" + (r.frames >= 0 ? std::to_string(r.frames) : std::string()) + "</td>";
  return s + cell(r.codec) + cell(r.picture) + cell(r.colour) + cell(r.input) + "</tr>";
}

}  // namespace

std::string batch_index_html(const std::vector<BatchIndexRow>& rows, const std::string& title) {
  qc::BatchTally t;
  for (const BatchIndexRow& r : rows) t.add(r.status, r.verdict);
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
                  "style-src 'unsafe-inline'\">"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                  "<meta name=\"generator\" content=\"vhist batch\"><title>QC batch: " + escape(title) +
                  "</title><style>" + std::string(style_sheet()) + "</style></head><body><main>";
  s += "<header class=\"top\"><div class=\"what\"><div class=\"brand\">vhist \u00b7 quality control batch</div><h1>" +
       escape(title) + "</h1><p>" + std::to_string(rows.size()) + " files: " + std::to_string(t.passed) + " passed, " +
       std::to_string(t.failed) + " failed QC (" + std::to_string(t.partial) +
       " of them damaged, judged as far as they decode), " + std::to_string(t.errors) +
       " could not be analysed</p></div></header>";
  s += "<section id=\"files\"><h2>Files</h2><table><thead><tr><th>File</th><th>Verdict</th><th>Failing checks</th>"
       "<th>Duration</th><th>Frames</th><th>Codec</th><th>Picture</th><th>Colour</th><th>Input</th></tr></thead><tbody>";
  for (const BatchIndexRow& r : rows) s += row_html(r);
  s += "</tbody></table></section>";
  s += "<footer>Made by vhist batch. This file is self-contained: it loads nothing from anywhere; each file's name "
       "links to its own report beside it.</footer>";
  return s + "</main></body></html>\n";
}

}  // namespace vhist::report
