// The on-screen message and the stats page. Osd is changed by show_message() alone (the loop,
// the keys and the panel call it); StatsPage by record_tick_times() and the i key
// (viewer_stats.cpp, viewer_input.cpp). Main thread only.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace vhist::viewer {

// The on-screen message (OSD): what, since when, and whether it reports a failure.
struct Osd {
  std::string text;
  std::chrono::steady_clock::time_point since{};
  bool error = false;
  std::vector<std::string> log;  // the last 16 OSD lines, for the test state line
};

// The stats page's numbers: the device, and each tick's times in ms (the last kTimeSamples).
struct StatsPage {
  static constexpr std::size_t kTimeSamples = 60;
  struct TickTimes {
    double decode = 0, decode_wait = 0, cpu_draw = 0, gpu_upload = 0, gpu_histogram = 0, gpu_draw = 0;
  };
  bool shown = false;  // i: the stats page over the picture
  std::string gpu_name, gpu_driver;
  std::vector<TickTimes> tick_times;  // a ring: the newest at tick_times_next - 1
  std::size_t tick_times_next = 0;
};

}  // namespace vhist::viewer
