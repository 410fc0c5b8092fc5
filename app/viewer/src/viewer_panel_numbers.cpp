// The panel's numbers: the statistics table (per channel, one table or two stacked where the
// panel is narrow), the frame's range verdict and legal range, and a PQ frame's light.
#include "vhist/viewer/panel_widgets.h"
#include "viewer_app.h"

#include "vhist/records/run_summary.h"

#include <imgui.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>

namespace vhist::viewer {

namespace {

// The statistics table's columns after the channel's name: header and text of a channel's value.
struct StatColumn {
  const char* header;
  std::string (*text)(const ChannelStats&);
};

std::string percent_text(double share) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%.2f", 100 * share);
  return buf;
}

const StatColumn kStatColumns[] = {
    {"min", [](const ChannelStats& st) { return std::to_string(st.min); }},
    {"max", [](const ChannelStats& st) { return std::to_string(st.max); }},
    {"mean",
     [](const ChannelStats& st) {
       char buf[24];
       std::snprintf(buf, sizeof buf, "%.1f", st.mean);
       return std::string(buf);
     }},
    {"median", [](const ChannelStats& st) { return std::to_string(st.median); }},
    {"p1", [](const ChannelStats& st) { return std::to_string(st.p1); }},
    {"p99", [](const ChannelStats& st) { return std::to_string(st.p99); }},
    {"low %", [](const ChannelStats& st) { return percent_text(st.clip_low); }},
    {"high %", [](const ChannelStats& st) { return percent_text(st.clip_high); }},
};

// Rows in the order the histograms are named: R, G, B, L; or Y', Cb, Cr.
std::array<std::size_t, 4> stat_rows(const FrameStatistics& numbers) {
  return numbers.ycbcr ? std::array<std::size_t, 4>{3, 2, 0, 1} : std::array<std::size_t, 4>{0, 1, 2, 3};
}

// The width a table of `columns` needs: each column as wide as its widest text, with padding.
float stats_width(const FrameStatistics& numbers, std::span<const StatColumn> columns) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float pad = 2 * style.CellPadding.x + 1;
  float width = ImGui::CalcTextSize("Cb").x + pad;
  for (const StatColumn& col : columns) {
    float w = ImGui::CalcTextSize(col.header).x;
    for (const std::size_t c : stat_rows(numbers)) w = std::max(w, ImGui::CalcTextSize(col.text(numbers.stats[c]).c_str()).x);
    width += w + pad;
  }
  return width + 1;
}

void draw_stats_columns(const FrameStatistics& numbers, const char* id, std::span<const StatColumn> columns) {
  if (!ImGui::BeginTable(id, static_cast<int>(columns.size()) + 1, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    return;
  }
  ImGui::TableSetupColumn("");
  for (const StatColumn& col : columns) ImGui::TableSetupColumn(col.header);
  ImGui::TableHeadersRow();
  for (const std::size_t c : stat_rows(numbers)) {
    if (*channel_label(c, numbers.ycbcr) == '\0') continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(channel_label(c, numbers.ycbcr));
    for (const StatColumn& col : columns) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(col.text(numbers.stats[c]).c_str());
    }
  }
  ImGui::EndTable();
}

// The frame's verdict on its range tag (range_verdict.h, analyze's rule on this frame's luma), in
// amber when its codes contradict the tag, with what was seen.
void draw_range_verdict(const RangeVerdict& v, std::uint32_t bits) {
  if (v.look == RangeLook::as_tagged) return;
  const std::uint32_t shift = bits > 8 ? bits - 8 : 0;  // the verdict's levels are on the 8-bit scale
  const ImVec4 amber(1, 0.8f, 0.4f, 1);
  if (v.look == RangeLook::full_as_limited) {
    ImGui::TextColored(amber, "this frame looks full range");
    ImGui::TextColored(amber, "  (tagged limited): Y' %.1f%% below %u,", 100 * v.below, 16u << shift);
    ImGui::TextColored(amber, "  1st percentile %u", v.p1 << shift);
  } else {
    ImGui::TextColored(amber, "this frame looks limited range");
    ImGui::TextColored(amber, "  (tagged full): Y' 1st-99th percentile");
    ImGui::TextColored(amber, "  %u-%u, %.2f%% beyond", v.p1 << shift, v.p99 << shift, 100 * (v.below + v.above));
  }
}

}  // namespace

// One table where the panel is wide enough for every column, else two, one above the other
// (min to median; p1 to high %), so that no column is cut at any panel width.
void draw_stats_table(const FrameStatistics& numbers) {
  if (!numbers.valid) return;
  const std::span<const StatColumn> all(kStatColumns);
  if (stats_width(numbers, all) <= ImGui::GetContentRegionAvail().x) {
    draw_stats_columns(numbers, "stats", all);
    return;
  }
  draw_stats_columns(numbers, "stats_a", all.first(4));
  draw_stats_columns(numbers, "stats_b", all.subspan(4));
}

// The range check of the frame: the tag's verdict, and for limited-range frames the legal range
// (the share of samples outside 16-235/240, scaled), a QC figure in the text colour, not a
// warning: sub-blacks and super-whites occur in honest footage. And a PQ frame's light, as
// analyze's records give them.
void draw_source_measures(const App& app, const FrameStatistics& numbers) {
  const Player& p = app.transport.player;
  if (numbers.range && p.frame()) draw_range_verdict(numbers.range->verdict, numbers.bits);
  if (numbers.range && p.frame() && p.frame()->format.range == ColourRange::limited) {
    const RangeCheck& r = *numbers.range;
    // A line per plane, not wrapped text: ImGui may wrap after the '.' of a number.
    ImGui::TextUnformatted("legal range (QC), outside:");
    ImGui::Text("  Y'   %.2f%% below, %.2f%% above", 100 * r.luma.below, 100 * r.luma.above);
    if (r.has_chroma) {
      ImGui::Text("  CbCr %.2f%% below, %.2f%% above", 100 * r.chroma.below, 100 * r.chroma.above);
    }
  }
  if (numbers.light && p.frame() && light_signal_of(p.frame()->colour.transfer.value) == LightSignal::hlg) {
    // HLG's light is the reference display's; no stream metadata speaks of it.
    text_wrapped_at_spaces("this frame, on BT.2100's 1000 cd/m2 HLG reference display: MaxCLL %.1f  FALL %.1f cd/m2",
                           numbers.light->max_cll, numbers.light->fall);
  } else if (numbers.light) {
    text_wrapped_at_spaces("this frame: MaxCLL %.1f  FALL %.1f cd/m2", numbers.light->max_cll, numbers.light->fall);
    // Brighter than the stream's HDR metadata says, by analyze's rule (run_summary.h).
    const app::LightExcess e = app::light_excess(numbers.light->max_cll, numbers.light->fall, p.frame()->colour);
    if (e.any()) {
      ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "  above the stream's %s%s%s", e.max_cll ? "MaxCLL " : "",
                         e.max_fall ? "MaxFALL " : "", e.mastering_peak ? "mastering peak" : "");
    }
  }
}

}  // namespace vhist::viewer
