#include "viewer_idle.h"

#include "viewer_app.h"
#include "viewer_hwdec.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "vhist/util/text.h"

namespace vhist::viewer {

bool changing_without_input(const App& app) {
  const Player& p = app.transport.player;
  // Playing (a file that ended without looping shows its last frame: nothing changes), or a
  // frame still to come after a seek or a step.
  if (p.is_open() && ((!p.paused() && (!p.at_end() || p.live())) || p.awaiting_frame())) return true;
  if (osd_seconds_left(app) > 0) return true;
  const PictureOptions& o = app.settings.picture;
  if (p.is_open() && o.zebra != ZebraMode::off && o.zebra_style != ZebraStyle::solid) return true;
  if (ImGui::GetIO().WantTextInput) return true;  // typing in a field: its cursor blinks
  // A button held (a drag across bins or the picture): its release is read by polling the
  // button at the next frame (ImGui 1.86's GLFW glue), so keep drawing until it comes.
  if (ImGui::IsAnyMouseDown() || app.pointer.range_drag_bin) return true;
  if (app.window.quit) return true;  // Q read in the last tick before a wait: the loop ends, it does not wait
  return app.pointer.pending_pin || app.window.screenshot_requested || app.reference.keep_requested || !app.transport.pending_open.empty() || app.picture.rehistogram ||
         app.window.close_popups;
}

void IdleWait::after_tick(const App& app, double max_wait_s) {
  if (max_wait_s == 0 || changing_without_input(app)) {
    calm_ticks_ = 0;
    return;
  }
  if (++calm_ticks_ < kSettleTicks) return;
  ++waits_;
  // A frozen camera still reports a loss or a reconnection (Viewer::announce): look once a second.
  if (app.transport.player.live()) max_wait_s = max_wait_s < 0 ? 1.0 : std::min(max_wait_s, 1.0);
  // The timeline's scan moves its progress bar and ends without an event: look four times a second.
  if (app.timeline.scan.state() == TimelineScan::State::scanning) max_wait_s = max_wait_s < 0 ? 0.25 : std::min(max_wait_s, 0.25);
  if (max_wait_s < 0) {
    glfwWaitEvents();
  } else {
    glfwWaitEventsTimeout(max_wait_s);
  }
  calm_ticks_ = 0;  // an event (or the time limit): draw a few ticks again
}

void VideoRate::update(std::int64_t frames_shown, bool paused, std::chrono::steady_clock::time_point now) {
  if (paused) {
    fps_ = 0;
    shown_ = -1;
    return;
  }
  if (frames_shown == shown_) return;
  if (shown_ >= 0 && frames_shown == shown_ + 1) {
    const double dt = std::max(std::chrono::duration<double>(now - last_).count(), 1e-6);
    fps_ = fps_ == 0 ? 1 / dt : 0.9 * fps_ + 0.1 / dt;
  }
  shown_ = frames_shown;
  last_ = now;
}

std::string test_state_line(const App& app, std::int64_t idle_waits) {
  const auto pixel = [](const auto& p) {
    return p ? std::to_string((*p)[0]) + "," + std::to_string((*p)[1]) : std::string("none");
  };
  const std::string region =
      app.pointer.region ? std::to_string(app.pointer.region->x) + "," + std::to_string(app.pointer.region->y) + " " +
                       std::to_string(app.pointer.region->width) + "x" + std::to_string(app.pointer.region->height)
                 : std::string("none");
  const std::string kept = app.pointer.kept_range ? std::to_string((*app.pointer.kept_range)[0]) + ":" +
                                               std::to_string((*app.pointer.kept_range)[1]) + "-" +
                                               std::to_string((*app.pointer.kept_range)[2])
                                         : std::string("none");
  std::string log;
  for (const auto& line : app.osd.log) log += (log.empty() ? "" : " | ") + line;
  char tab[64] = "none";
  if (app.layout.panel_tab != std::array<float, 4>{}) {
    std::snprintf(tab, sizeof tab, "%.0f,%.0f-%.0f,%.0f", static_cast<double>(app.layout.panel_tab[0]),
                  static_cast<double>(app.layout.panel_tab[1]), static_cast<double>(app.layout.panel_tab[2]),
                  static_cast<double>(app.layout.panel_tab[3]));
  }
  char heat[64] = "none";
  if (app.timeline.heat_area != std::array<float, 4>{}) {
    std::snprintf(heat, sizeof heat, "%.0f,%.0f-%.0f,%.0f", static_cast<double>(app.timeline.heat_area[0]),
                  static_cast<double>(app.timeline.heat_area[1]), static_cast<double>(app.timeline.heat_area[2]),
                  static_cast<double>(app.timeline.heat_area[3]));
  }
  return util::formatted(
               "position %.3f s, frame at %.3f s, %s, video %.1f fps, fullscreen %s (%d toggles), pinned %s, region %s, "
               "kept range %s, stats page %s, light axis %s, match %s, idle waits %lld, path field \"%s\", osd log \"%s\", panel tab %s, "
               "timeline %s (spawned %d) heat %s, panel decoder line \"%s\", timeline message \"%s\", osd %s, scan %lld/%lld, "
               "mouse %.0f,%.0f down %d%d%d, browser %s, pending pin %s",
               app.transport.player.is_open() ? app.transport.player.clock() : 0.0,
               app.transport.player.frame() ? app.transport.player.frame()->pts : -1.0, app.transport.player.paused() ? "paused" : "playing", app.transport.video_fps,
               app.window.fullscreen ? "on" : "off", app.window.fullscreen_toggles, pixel(app.pointer.pinned_pixel).c_str(),
               region.c_str(), kept.c_str(), app.stats.shown ? "on" : "off", std::string(to_string(app.settings.picture.light_axis)).c_str(),
               app.settings.match ? "on" : "off", static_cast<long long>(idle_waits), app.transport.open_path.c_str(), log.c_str(), tab,
               std::string(to_string(app.timeline.scan.state())).c_str(), app.timeline.scan.spawned(), heat,
               decoder_line(app).c_str(), app.timeline.scan.message().c_str(), osd_seconds_left(app) > 0 ? "shown" : "hidden",
               static_cast<long long>(app.timeline.scan.frames_done()), static_cast<long long>(app.timeline.scan.frames_expected()),
               ImGui::IsMousePosValid() ? static_cast<double>(ImGui::GetIO().MousePos.x) : -1.0,
               ImGui::IsMousePosValid() ? static_cast<double>(ImGui::GetIO().MousePos.y) : -1.0,
               ImGui::GetIO().MouseDown[0] ? 1 : 0, ImGui::GetIO().MouseDown[1] ? 1 : 0, ImGui::GetIO().MouseDown[2] ? 1 : 0,
               app.transport.browser.is_open() ? "open" : "closed", pixel(app.pointer.pending_pin).c_str());
}

void print_test_state(const App& app, std::int64_t idle_waits) {
  std::fprintf(stderr, "vhist: state: %s\n", test_state_line(app, idle_waits).c_str());
}

}  // namespace vhist::viewer
