// The reference histogram: kept from the frame on screen or read from an analyze record, drawn
// as an outline over the live histograms (DrawStyle::reference), compared with them per channel
// (histogram_match.h: earth mover's distance in bins and total variation), and matched to
// (DrawStyle::match: the picture transform through the match pass's table).
#include "vhist/compute/histogram_match.h"
#include "vhist/viewer/panel_widgets.h"
#include "viewer_app.h"

#include <imgui.h>

#include <cmath>

namespace vhist::viewer {

bool matching(const App& app, bool ycbcr) { return app.settings.match && app.reference.kept && !ycbcr; }

void keep_reference(App& app, const FrameStatistics& numbers) {
  if (!numbers.valid || numbers.levels.bins == 0) {
    show_message(app, "No histogram to keep yet", true);
    return;
  }
  if (numbers.ycbcr) {
    show_message(app, "A reference is kept of R'G'B' histograms: press Y for the R'G'B' domain first", true);
    return;
  }
  std::string source = "this file";
  if (app.transport.player.is_open() && app.transport.player.frame()) {
    const media::DecodedFrame& f = *app.transport.player.frame();
    source = "frame " + frame_number_text(f) + " at " + format_time(f.pts);
  }
  if (app.pointer.region) {
    source += ", region " + std::to_string(app.pointer.region->x) + "," + std::to_string(app.pointer.region->y) + " " +
              std::to_string(app.pointer.region->width) + "x" + std::to_string(app.pointer.region->height);
  }
  app.reference.kept = Reference{std::make_shared<const Histogram>(numbers.levels), numbers.bits, source};
  app.picture.rehistogram = true;  // a match follows the new reference
  show_message(app, "Reference: " + source);
}

void drop_reference(App& app) {
  if (!app.reference.kept) return;
  app.reference.kept.reset();
  app.picture.rehistogram = true;
  show_message(app, "Reference dropped");
}

namespace {

void draw_distances(const FrameStatistics& numbers, const Histogram& reference) {
  const HistogramDistances d = histogram_distances(numbers.levels, reference);
  if (!ImGui::BeginTable("distances", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) return;
  for (const char* h : {"", "R", "G", "B", "L"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  const char* rows[] = {"EMD (bins)", "TV %"};
  for (int row = 0; row < 2; ++row) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(rows[row]);
    for (std::size_t c = 0; c < 4; ++c) {
      ImGui::TableNextColumn();
      const double v = row == 0 ? d.emd[c] : 100 * d.total_variation[c];
      if (std::isnan(v)) {
        ImGui::TextUnformatted("-");
      } else {
        ImGui::Text(row == 0 ? "%.2f" : "%.1f", v);
      }
    }
  }
  ImGui::EndTable();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped_at_spaces("at %u bins; EMD: bins the histogram moves, TV: pixels in other bins", d.bins);
  ImGui::PopStyleColor();
}

}  // namespace

void draw_reference_section(App& app, const FrameStatistics& numbers) {
  if (ImGui::Button("Keep as reference (K)")) keep_reference(app, numbers);
  if (!app.reference.kept) {
    same_line_if_room(ImGui::CalcTextSize("no reference").x);
    ImGui::TextDisabled("no reference");
    return;
  }
  same_line_if_room(ImGui::CalcTextSize("Drop").x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button("Drop")) drop_reference(app);
  same_line_if_room(ImGui::CalcTextSize("match reference").x + ImGui::GetFrameHeight() +
                    ImGui::GetStyle().ItemInnerSpacing.x);
  if (setting_widget(SettingId::match, app.settings)) app.picture.rehistogram = true;
  ImGui::TextWrapped("reference: %s", app.reference.kept->source.c_str());
  if (numbers.ycbcr) {
    ImGui::TextDisabled("(not compared with the Y'CbCr planes)");
  } else if (numbers.valid && numbers.levels.bins != 0) {
    draw_distances(numbers, *app.reference.kept->histogram);
  }
}

}  // namespace vhist::viewer
