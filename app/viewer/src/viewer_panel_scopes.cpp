// The panel's scopes section (issue 26): which scopes are shown and where, how they are drawn,
// and their label lines as the renderer drew them (the mode and how many picture columns each
// plot column sums).
#include "viewer_app.h"

#include "vhist/viewer/panel_widgets.h"
#include "vhist/viewer/settings_table.h"

#include "vhist/picture/scope_layout.h"

#include <imgui.h>

#include <algorithm>
#include <initializer_list>

namespace vhist::viewer {

namespace {

float share_of(std::initializer_list<const char*> labels) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float rest = ImGui::GetContentRegionAvail().x;
  for (const char* label : labels) rest -= ImGui::CalcTextSize(label).x + style.ItemInnerSpacing.x;
  rest -= style.ItemSpacing.x * static_cast<float>(labels.size() - 1);
  return std::max(rest / static_cast<float>(labels.size()), 30.0f);
}

void draw_scope_toggles(Settings& s) {
  setting_widget(SettingId::waveform, s);
  ImGui::SameLine();
  setting_widget(SettingId::parade, s);
  ImGui::SameLine();
  setting_widget(SettingId::vectorscope, s);
}

void draw_scope_modes(Settings& s) {
  const PictureOptions& o = s.picture;
  if (o.waveform || o.parade) {
    const float half = share_of({"waveform", "parade"});
    if (o.waveform) setting_widget(SettingId::waveform_view, s, half);
    if (o.waveform && o.parade) ImGui::SameLine();
    if (o.parade) setting_widget(SettingId::parade_view, s, half);
  }
  const float pair = share_of({"place", "zoom"});
  setting_widget(SettingId::scope_place, s, pair);
  if (o.vectorscope) {
    ImGui::SameLine();
    setting_widget(SettingId::scope_zoom, s, pair);
  }
  const float colours = share_of({"colour", "mapping"});
  setting_widget(SettingId::scope_colour, s, colours);
  ImGui::SameLine();
  setting_widget(SettingId::scope_mapping, s, colours);
  setting_widget(SettingId::scope_gain, s, -1);
  if (o.waveform || o.parade) {
    setting_widget(SettingId::scope_units, s, share_of({"scale", "legal lines"}));
    ImGui::SameLine();
    setting_widget(SettingId::scope_legal, s);
  }
}

}  // namespace

void draw_scopes_section(App& app, const FrameStatistics& numbers) {
  Settings& s = app.settings;
  ImGui::Separator();
  draw_scope_toggles(s);
  if (!any_scope(s.picture)) return;
  draw_scope_modes(s);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  for (const std::string& line : numbers.scope_titles) text_wrapped_at_spaces("%s", line.c_str());
  ImGui::PopStyleColor();
}

}  // namespace vhist::viewer
