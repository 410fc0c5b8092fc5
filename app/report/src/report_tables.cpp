#include "report_tables.h"

#include "html_text.h"
#include "plot_scale.h"

#include <algorithm>

namespace vhist::report {

namespace {

std::string swatch(qc::Check check) {
  return "<i class=\"swatch\" style=\"background:" + std::string(check_colour(check)) + "\"></i>";
}

std::string result_badge(bool fails) {
  return fails ? "<span class=\"badge fail\">FAIL</span>" : "<span class=\"badge warn\">WARN</span>";
}

std::string frame_cell(const std::string& timecode, std::int64_t frame) {
  return "<td class=\"tc\">" + escape(timecode) + "<small>frame " + grouped(frame) + "</small></td>";
}

std::string worst_cell(const qc::Event& e) {
  if (e.unit.empty()) return "<td class=\"num\">\u2014</td>";
  const int digits = e.unit == "cd/m2" ? 1 : e.unit == "s" ? 3 : 2;
  const std::string unit = e.unit == "cd/m2" ? "cd/m\u00b2" : escape(e.unit);
  return "<td class=\"num\">" + fixed(e.worst, digits) + "\u202f" + unit + "<small>frame " + grouped(e.worst_frame) +
         "</small></td>";
}

std::string thumbnail_cell(const std::string& png, const qc::Event& e) {
  // Only a PNG is embedded (its signature checked), so the data: URI says what it holds.
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return "<td class=\"thumbcell\">\u2014</td>";
  return "<td class=\"thumbcell\"><img class=\"thumb\" alt=\"frame " + std::to_string(e.worst_frame) +
         "\" src=\"data:image/png;base64," + base64(png) + "\"></td>";
}

std::string event_row(const ReportInput& input, std::size_t k) {
  const qc::Event& e = input.events[k];
  std::string s = std::string("<tr class=\"") + (e.fails ? "fails" : "warns") + "\"><td class=\"num\">" +
                  std::to_string(k + 1) + "</td><td class=\"check\">" + swatch(e.check) +
                  escape(qc::check_title(e.check)) + "<small>" + escape(qc::check_name(e.check)) + "</small></td>";
  s += frame_cell(e.start_timecode, e.first_frame) + frame_cell(e.end_timecode, e.last_frame);
  s += "<td class=\"num\">" + duration_text(std::max(0.0, e.end - e.start)) + "<small>" +
       grouped(e.last_frame - e.first_frame + 1) + " frames</small></td>";
  s += worst_cell(e) + "<td class=\"num\">" + fixed(e.frame_share * 100.0, 2) + "\u202f%</td>";
  s += "<td class=\"detail\">" + escape(e.detail) + "</td><td>" + result_badge(e.fails) + "</td>";
  s += thumbnail_cell(k < input.thumbnails.size() ? input.thumbnails[k] : std::string(), e);
  return s + "</tr>";
}

}  // namespace

std::string provenance_table(const ReportInput& input) {
  std::string s = "<table class=\"kv\"><tbody>";
  for (const auto& [label, value] : input.provenance) {
    s += "<tr><th>" + escape(label) + "</th><td>" + escape(value) + "</td></tr>";
  }
  if (input.provenance.empty()) s += "<tr><td class=\"muted\">none given</td></tr>";
  return s + "</tbody></table>";
}

std::string thresholds_table(const qc::Thresholds& t) {
  struct Row {
    const char* name;
    double value;
    const char* unit;
    const char* what;
  };
  const Row rows[] = {
      {"r103-area", t.r103_area, "%", "picture area allowed outside the R 103 limits per frame"},
      {"clip-high", t.clip_high, "%", "Y\u2032 samples at or above white (100 %)"},
      {"clip-low", t.clip_low, "%", "the same at or below black (100: off)"},
      {"black-level", t.black_level, "%", "luma at or below which a sample is black"},
      {"black-area", t.black_area, "%", "picture black for the frame to be black"},
      {"black-min", t.black_min, "s", "shortest black segment reported"},
      {"frozen-min", t.frozen_min, "s", "shortest frozen segment reported"},
      {"frozen-change", t.frozen_change, "%", "largest mean change of a held frame's cells"},
      {"light-slack", t.light_slack, "cd/m\u00b2", "light above the metadata before it fails"},
  };
  std::string s = "<table class=\"kv thresholds\"><tbody>";
  for (const Row& r : rows) {
    s += std::string("<tr><th><code>") + r.name + "</code></th><td class=\"num\">" + fixed(r.value, 2) + "\u202f" +
         r.unit + "</td><td class=\"muted\">" + r.what + "</td></tr>";
  }
  std::string failing;
  for (const qc::Check c : t.failing) failing += (failing.empty() ? "" : ", ") + escape(qc::check_title(c));
  s += "<tr><th>failing checks</th><td colspan=\"2\">" + (failing.empty() ? std::string("none") : failing) +
       "</td></tr>";
  return s + "</tbody></table>";
}

std::string summary_table(const ReportInput& input, std::size_t frames) {
  std::string s = "<table class=\"grid summary\"><thead><tr><th>Check</th><th class=\"num\">Events</th>"
                  "<th class=\"num\">Frames</th><th class=\"num\">Share of frames</th><th>Fails the run</th>"
                  "<th>Result</th></tr></thead><tbody>";
  for (const qc::Check check : qc::kAllChecks) {
    std::size_t events = 0;
    std::int64_t in_events = 0;
    bool fails = false;
    for (const qc::Event& e : input.events) {
      if (e.check != check) continue;
      ++events;
      in_events += e.last_frame - e.first_frame + 1;
      fails = fails || e.fails;
    }
    const double share = frames > 0 ? 100.0 * static_cast<double>(in_events) / static_cast<double>(frames) : 0.0;
    s += "<tr><td class=\"check\">" + swatch(check) + escape(qc::check_title(check)) + "</td><td class=\"num\">" +
         grouped(static_cast<std::int64_t>(events)) + "</td><td class=\"num\">" + grouped(in_events) +
         "</td><td class=\"num\">" + fixed(share, 2) + "\u202f%</td><td>" +
         (input.thresholds.fails(check) ? "yes" : "no") + "</td><td>" +
         (events == 0 ? std::string("<span class=\"badge pass\">PASS</span>") : result_badge(fails)) + "</td></tr>";
  }
  return s + "</tbody></table>";
}

std::string event_table(const ReportInput& input) {
  if (input.events.empty()) return "<p class=\"muted\">No event: every check passed on every frame.</p>";
  std::string s = "<table class=\"grid events\" id=\"events\"><thead><tr><th class=\"num\">#</th><th>Check</th>"
                  "<th>Start</th><th>End</th><th class=\"num\">Duration</th><th class=\"num\">Worst</th>"
                  "<th class=\"num\">Frames</th><th>Detail</th><th>Result</th><th>Worst frame</th></tr></thead><tbody>";
  for (const qc::Check check : qc::kAllChecks) {
    std::size_t shown = 0, left_out = 0;
    for (std::size_t k = 0; k < input.events.size(); ++k) {
      if (input.events[k].check != check) continue;
      if (shown < kMaxRowsPerCheck) {
        s += event_row(input, k);
        ++shown;
      } else {
        ++left_out;
      }
    }
    if (left_out > 0) {
      s += "<tr class=\"more\"><td></td><td colspan=\"9\">\u2026 and " + grouped(static_cast<std::int64_t>(left_out)) +
           " more " + escape(qc::check_title(check)) +
           " events, not listed here (the events file lists every one)</td></tr>";
    }
  }
  return s + "</tbody></table>";
}

}  // namespace vhist::report
