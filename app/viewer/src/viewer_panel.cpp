// The control panel, section by section: file, camera, playback, histogram, status and numbers.
// The settings' widgets come from their rows (panel_widgets.h); this file places them.
#include "vhist/viewer/panel_widgets.h"
#include "viewer_app.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace vhist::viewer {

namespace {

const char* channel_name(int c) { return c == 0 ? "R" : c == 1 ? "G" : c == 2 ? "B" : "L"; }

void draw_file_section(App& app) {
  ImGui::SetNextItemWidth(-110);
  const bool enter = ImGui::InputText("##path", &app.open_path, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) app.pending_open = app.open_path;
  ImGui::SameLine();
  if (ImGui::Button("Browse")) {
    app.browser.open(app.open_path.empty() ? std::filesystem::current_path()
                                           : std::filesystem::path(app.open_path).parent_path());
  }
  const auto& recent = app.settings.recent_files;
  if (!recent.empty()) {
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##recent", "Recent files")) {
      for (const auto& f : recent) {
        if (ImGui::Selectable(f.c_str())) app.pending_open = f;
      }
      ImGui::EndCombo();
    }
  }
  if (ImGui::Button("Cameras")) app.cameras = media::list_cameras();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  const char* camera_hint = app.cameras.cameras.empty() ? "(press Cameras to look for cameras)" : "Open a camera";
  if (ImGui::BeginCombo("##cameras", camera_hint)) {
    for (const auto& c : app.cameras.cameras) {
      if (ImGui::Selectable((c.path + "  " + c.name + "  (" + c.bus + ")").c_str())) app.pending_open = c.path;
    }
    for (const auto& e : app.cameras.errors) ImGui::TextDisabled("%s", e.c_str());
    ImGui::EndCombo();
  }
  if (!app.error.empty()) ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%s", app.error.c_str());
}

// A camera: live state instead of playback controls.
void draw_camera_section(Player& p) {
  ImGui::Separator();
  const media::CameraStatus cs = p.camera_status();
  if (ImGui::Button(p.paused() ? "Resume" : "Freeze")) p.set_paused(!p.paused());
  ImGui::SameLine();
  if (cs.connected) {
    ImGui::Text("live  %lld captured  %lld dropped  latency %.1f ms", static_cast<long long>(cs.captured),
                static_cast<long long>(cs.dropped), p.frame_age_ms());
  } else {
    ImGui::TextColored(ImVec4(1, 0.7f, 0.2f, 1), "%s", cs.message.c_str());
  }
}

void draw_playback_section(App& app) {
  Player& p = app.player;
  ImGui::Separator();
  if (ImGui::Button(p.paused() ? "Play" : "Pause")) p.set_paused(!p.paused());
  ImGui::SameLine();
  if (ImGui::Button("<")) p.step_back();
  ImGui::SameLine();
  if (ImGui::Button(">")) p.step_forward();
  ImGui::SameLine();
  setting_widget("loop", app.settings);
  ImGui::SameLine();
  setting_widget("speed", app.settings, -1);
  float t = static_cast<float>(p.clock());
  const float duration = static_cast<float>(std::max(p.duration(), 0.001));
  ImGui::SetNextItemWidth(-1);
  const std::string label = format_time(p.clock()) + " / " + format_time(p.duration());
  if (ImGui::SliderFloat("##seek", &t, 0.0f, duration, label.c_str())) p.seek(t);
}

// The bins offered go up to what the frame's depth allows.
void draw_bins(App& app, const FrameStatistics& numbers) {
  Settings& s = app.settings;
  const std::uint32_t max_bins = numbers.valid ? max_bins_for_bits(numbers.bits) : kMaxBins;
  ImGui::SetNextItemWidth(110);
  if (ImGui::BeginCombo("bins", std::to_string(s.bins).c_str())) {
    for (std::uint32_t b = kMinBins; b <= max_bins; b *= 2) {
      if (ImGui::Selectable(std::to_string(b).c_str(), b == s.bins)) {
        s.bins = b;
        app.rehistogram = true;
      }
    }
    ImGui::EndCombo();
  }
}

void draw_histogram_section(App& app, const FrameStatistics& numbers) {
  Settings& s = app.settings;
  ImGui::Separator();
  for (const char* name : {"channel_r", "channel_g", "channel_b", "channel_l"}) {
    if (name[8] != 'r') ImGui::SameLine();
    setting_widget(name, s);
  }
  ImGui::TextUnformatted("CDF");
  for (const char* name : {"cdf_r", "cdf_g", "cdf_b", "cdf_l"}) {
    ImGui::SameLine();
    setting_widget(name, s, 80);
  }
  setting_widget("equalize", s, 150);
  if (s.equalize != EqualizeMode::off) {
    ImGui::SameLine();
    setting_widget("split_view", s);
    if (s.split_view) {
      ImGui::SameLine();
      setting_widget("split_position", s, -1);
    }
  }
  setting_widget("scale", s, 120);
  ImGui::SameLine();
  draw_bins(app, numbers);
  setting_widget("layout", s, 120);
  ImGui::SameLine();
  setting_widget("palette", s, 110);
  setting_widget("opacity", s, -80);
}

void draw_status_section(App& app, const FrameStatistics& numbers) {
  Player& p = app.player;
  ImGui::Separator();
  if (!p.is_open() || !p.frame()) return;
  const VideoFormat& f = p.frame()->format;
  const media::DecodeReport report = p.report();
  ImGui::Text("%ux%u %s %s %s%s", f.width, f.height, f.pixel_format.c_str(), std::string(matrix_name(f.matrix)).c_str(),
              std::string(range_name(f.range)).c_str(), p.frame()->converted ? " (via swscale)" : "");
  ImGui::Text("%.1f fps  decode wait %.2f ms  GPU %.2f ms  dropped %lld  engine %s", app.fps, p.decode_wait_ms(),
              numbers.gpu_ms, static_cast<long long>(p.dropped()), app.engine_name);
  if (report.lost > 0 || report.damaged > 0 || report.errors > 0) {
    ImGui::TextColored(ImVec4(1, 0.7f, 0.2f, 1), "corrupt data: %lld lost, %lld damaged, %lld decoder errors",
                       static_cast<long long>(report.lost), static_cast<long long>(report.damaged),
                       static_cast<long long>(report.errors));
  }
}

void draw_stats_table(const FrameStatistics& numbers) {
  if (!numbers.valid || !ImGui::BeginTable("stats", 9, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    return;
  }
  for (const char* h : {"", "min", "max", "mean", "median", "p1", "p99", "low %", "high %"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (int c = 0; c < 4; ++c) {
    const ChannelStats& st = numbers.stats[static_cast<std::size_t>(c)];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(channel_name(c));
    for (const std::uint32_t v : {st.min, st.max}) {
      ImGui::TableNextColumn();
      ImGui::Text("%u", v);
    }
    ImGui::TableNextColumn();
    ImGui::Text("%.1f", st.mean);
    for (const std::uint32_t v : {st.median, st.p1, st.p99}) {
      ImGui::TableNextColumn();
      ImGui::Text("%u", v);
    }
    for (const double v : {st.clip_low, st.clip_high}) {
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", 100 * v);
    }
  }
  ImGui::EndTable();
}

}  // namespace

std::string format_time(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  const auto total_ms = static_cast<long long>(std::llround(seconds * 1000));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld.%03lld", total_ms / 60000, (total_ms / 1000) % 60, total_ms % 1000);
  return buf;
}

void draw_panel(App& app, const FrameStatistics& numbers) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (!ImGui::Begin("vhist  (Tab hides)", &app.settings.show_panel, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  draw_file_section(app);
  if (app.player.is_open() && app.player.live()) draw_camera_section(app.player);
  if (app.player.is_open() && !app.player.live()) draw_playback_section(app);
  draw_histogram_section(app, numbers);
  draw_status_section(app, numbers);
  draw_stats_table(numbers);
  ImGui::TextDisabled("space play  <- -> 5 s  , . frame  1-4 channels  C cdf  E equalize  S split  F full  Q quit");
  ImGui::End();

  if (auto chosen = app.browser.draw()) app.pending_open = chosen->string();
}

void draw_split(App& app) {
  const Settings& s = app.settings;
  ImGuiIO& io = ImGui::GetIO();
  const float width = io.DisplaySize.x;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const char* name = s.equalize == EqualizeMode::luma ? "equalized (luma)" : "equalized (per channel)";
  const float top = io.DisplaySize.y * 0.02f;
  if (!s.split_view) {
    draw->AddText(ImVec2(width - ImGui::CalcTextSize(name).x - 12, top), IM_COL32(255, 255, 255, 220), name);
    return;
  }
  const float x = s.split_position * width;
  const bool near = std::abs(io.MousePos.x - x) <= 6.0f;
  if (!io.WantCaptureMouse && near && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) app.dragging_divider = true;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) app.dragging_divider = false;
  if (app.dragging_divider && width > 0) app.settings.split_position = std::clamp(io.MousePos.x / width, 0.0f, 1.0f);
  if (app.dragging_divider || (near && !io.WantCaptureMouse)) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
  draw->AddText(ImVec2(x - ImGui::CalcTextSize("original").x - 10, top), IM_COL32(255, 255, 255, 220), "original");
  draw->AddText(ImVec2(x + 10, top), IM_COL32(255, 255, 255, 220), name);
}

}  // namespace vhist::viewer
