// Calm when idle: paused with nothing changing, the loop sleeps in the window system's event
// wait instead of drawing the same picture again. What changes without input (playback, a frame
// still to come after a seek, the OSD fading, moving zebra stripes, an action asked for) keeps it
// drawing; any window event (a key, the mouse, a resize, an expose) wakes it for a few ticks.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace vhist::viewer {

struct App;

// Whether what is on screen changes this tick without any input.
bool changing_without_input(const App& app);

class IdleWait {
 public:
  // Ticks drawn after the last change before waiting: the numbers read back a frame late and
  // ImGui's windows that size themselves need a tick or two to settle.
  static constexpr int kSettleTicks = 3;
  // Call after each tick drawn. When nothing has changed for kSettleTicks ticks, blocks until
  // the next window event or `max_wait_s` seconds (< 0: no limit; 0: never waits).
  void after_tick(const App& app, double max_wait_s);
  std::int64_t waits() const noexcept { return waits_; }

 private:
  int calm_ticks_ = 0;
  std::int64_t waits_ = 0;
};

// The rate at which video frames come on screen (frames a second, smoothed), for the panel's
// readout: 0 while paused or before two frames were shown; redraws of the same frame do not count.
class VideoRate {
 public:
  void update(std::int64_t frames_shown, bool paused, std::chrono::steady_clock::time_point now);
  double fps() const noexcept { return fps_; }

 private:
  std::int64_t shown_ = -1;
  std::chrono::steady_clock::time_point last_{};
  double fps_ = 0;
};

// Test runs: what the viewer ended in, one line on stderr ("vhist: state: position 65.000 s,
// paused, fullscreen off, pinned none, region none, ..."), for the tests to check the effect of
// keys and gestures without reading text out of screenshots.
void print_test_state(const App& app, std::int64_t idle_waits);
// That line's text, without "vhist: state: " (also the live state's, LoopHooks::drawn).
std::string test_state_line(const App& app, std::int64_t idle_waits);

}  // namespace vhist::viewer
