// What test runs add to the viewer's loop, kept out of it: scripted window events
// (--exercise-window, --resize-storm), the end of the run (--frames, --quit-after), the
// screenshot of the last frame (--screenshot), drop logging and the run summary printed at exit.
// The loop calls these hooks; a run without test options gets hooks that do nothing.
#pragma once

#include "vhist/command_line/viewer_options.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace vhist::viewer {

class Player;

// What the loop tells the hooks about a finished tick.
struct TickReport {
  std::chrono::steady_clock::time_point now;  // when the tick started
  std::int64_t dropped_before = 0;            // the player's dropped count before its tick
};

class LoopHooks {
 public:
  virtual ~LoopHooks() = default;
  // Before a tick's events are handled: scripted window events. `rendered`: frames so far.
  virtual void before_tick(GLFWwindow* /*window*/, int /*rendered*/) {}
  // After the player's tick.
  virtual void after_tick(const TickReport& /*tick*/, const Player& /*player*/) {}
  // Whether the frame about to be drawn is the run's last.
  virtual bool last_frame(int /*rendered*/) { return false; }
  // How long the loop may wait for a window event when nothing changes, in seconds: < 0 no
  // limit, 0 never (a run that counts frames), else until the run's end (--quit-after).
  virtual double max_idle_wait() const { return -1; }
  // Whether to capture the frame about to be drawn (the last, with --screenshot).
  virtual bool wants_screenshot(bool /*last*/) const { return false; }
  // The captured frame (RGBA, top row first); returns an error message, empty on success.
  virtual std::string save_screenshot(std::vector<std::uint8_t> /*pixels*/, std::uint32_t /*width*/,
                                      std::uint32_t /*height*/) {
    return {};
  }
  // After each tick drawn: `rendered` frames so far, and the state line (test_state_line) when
  // asked for. With VHIST_TEST_STATE=FILE the test drivers write "rendered N, STATE" to FILE
  // (replaced whole, never half-written), so that a test waits for a frame or a state rather
  // than for a number of seconds (tests/window_script.sh).
  virtual void drawn(int /*rendered*/, const std::function<std::string()>& /*state_line*/) {}
  // A frame was presented; `camera_age_ms` >= 0 when it showed a new camera frame.
  virtual void presented(double /*camera_age_ms*/) {}
  // At exit: the run's summary on stderr.
  virtual void summary(int /*rendered*/, double /*fps*/, const char* /*engine*/, const Player& /*player*/) {}
};

// The hooks for `options`: the test drivers when a test option is given, else hooks that do
// nothing. `width` x `height`: the window's first size (--exercise-window goes back to it).
std::unique_ptr<LoopHooks> make_loop_hooks(const ViewerOptions& options, int width, int height);

}  // namespace vhist::viewer
