// The stats page (i), after mpv's stats.lua: what decodes, how fast each stage of a tick runs,
// what was dropped and what waits. Times are medians over the last StatsPage::kTimeSamples ticks drawn.
#include "viewer_app.h"
#include "viewer_hwdec.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace vhist::viewer {

namespace {

double median_of(const std::vector<StatsPage::TickTimes>& samples, double StatsPage::TickTimes::*field) {
  if (samples.empty()) return 0;
  std::vector<double> v;
  v.reserve(samples.size());
  for (const auto& s : samples) v.push_back(s.*field);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

void time_row(const char* what, double ms) { ImGui::Text("  %-34s %7.2f ms", what, ms); }

void decoder_lines(const App& app) {
  const Player& p = app.transport.player;
  const media::MediaInfo& info = p.info();
  ImGui::TextUnformatted("Decoder");
  if (p.live()) {
    ImGui::Text("  camera %s (%s)", p.path().c_str(), info.decoder.empty() ? "raw frames" : info.decoder.c_str());
  } else {
    ImGui::Text("  %s  %s, %d thread%s (%s threading)", info.codec.c_str(), info.decoder.c_str(),
                info.decoder_threads, info.decoder_threads == 1 ? "" : "s", info.thread_type.c_str());
  }
  ImGui::TextWrapped("  hardware decoding: %s", hardware_decoding_text(app).c_str());
  if (p.frame()) ImGui::Text("  %ux%u %s", p.frame()->format.width, p.frame()->format.height, p.frame()->format.pixel_format.c_str());
}

}  // namespace

void record_tick_times(App& app, double cpu_draw_ms, const FrameStatistics& numbers) {
  const StatsPage::TickTimes t{app.transport.player.frame() ? app.transport.player.frame()->decode_ms : 0, app.transport.player.decode_wait_ms(), cpu_draw_ms, numbers.gpu_upload_ms, numbers.gpu_histogram_ms,
                         numbers.gpu_draw_ms};
  if (app.stats.tick_times.size() < StatsPage::kTimeSamples) {
    app.stats.tick_times.push_back(t);
  } else {
    app.stats.tick_times[app.stats.tick_times_next % StatsPage::kTimeSamples] = t;
  }
  app.stats.tick_times_next = (app.stats.tick_times_next + 1) % StatsPage::kTimeSamples;
}

void draw_stats_page(App& app, const FrameStatistics& numbers) {
  if (!app.stats.shown) return;
  const auto& a = app.layout.picture_area;
  // Below the OSD line; raised (over the OSD) where the picture is too short for the whole page
  // below it: at 640x360 its last lines were cut at the window's bottom.
  const float t = app.window.ui_scale;
  const float top = std::max(a[1] + 4.0f * t, std::min(a[1] + 40.0f * t, a[3] - app.layout.stats_page_height - 4.0f * t));
  ImGui::SetNextWindowPos(ImVec2(a[0] + 10.0f * t, top));
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("##stats_page", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoNav);
  ImGui::TextUnformatted("Stats (i hides)");
  if (app.transport.player.is_open()) decoder_lines(app);
  const auto& s = app.stats.tick_times;
  ImGui::Text("Times, median of the last %zu ticks", s.size());
  // With frame threading the decoder works on its own threads: the calls return quickly and the
  // figure is not the whole decoding cost, which the page then says.
  time_row("decode: FFmpeg calls for a frame", median_of(s, &StatsPage::TickTimes::decode));
  if (app.transport.player.is_open() && app.transport.player.info().thread_type == "frame") {
    ImGui::TextUnformatted("    (frame threads decode in parallel beside it)");
  }
  time_row("waiting for the decoder", median_of(s, &StatsPage::TickTimes::decode_wait));
  time_row(app.decoding.engine_name == std::string("cpu") ? "CPU: convert, count, record, submit" : "CPU: record, submit",
           median_of(s, &StatsPage::TickTimes::cpu_draw));
  time_row("GPU: upload, convert", median_of(s, &StatsPage::TickTimes::gpu_upload));
  time_row("GPU: histograms, CDF, equalize", median_of(s, &StatsPage::TickTimes::gpu_histogram));
  time_row("GPU: draw (picture, bars, panel)", median_of(s, &StatsPage::TickTimes::gpu_draw));
  const Player& p = app.transport.player;
  ImGui::Text("Frames: %lld shown, %lld dropped", static_cast<long long>(p.shown()), static_cast<long long>(p.dropped()));
  if (const auto q = p.queue_depth(); q[0] >= 0) {
    ImGui::Text("Queue: %lld of %lld decoded frames waiting", static_cast<long long>(q[0]), static_cast<long long>(q[1]));
  }
  if (p.paused()) {
    ImGui::TextUnformatted("Playback: paused (the window waits for input)");
  } else {
    ImGui::Text("Playback: %.1f fps shown", app.transport.video_fps);
  }
  ImGui::Text("Engine: %s (counting on the %s)", app.decoding.engine_name, app.decoding.engine_name == std::string("cpu") ? "CPU" : "GPU");
  ImGui::Text("GPU: %s", app.stats.gpu_name.c_str());
  ImGui::Text("Driver: %s", app.stats.gpu_driver.c_str());
  (void)numbers;
  app.layout.stats_page_height = ImGui::GetWindowHeight();
  ImGui::End();
}

}  // namespace vhist::viewer
