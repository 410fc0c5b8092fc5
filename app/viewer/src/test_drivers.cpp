#include "test_drivers.h"

#include "vhist/media/png.h"
#include "vhist/cli/peak_rss.h"
#include "vhist/viewer/player.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace vhist::viewer {

namespace {

class TestDrivers final : public LoopHooks {
 public:
  TestDrivers(const ViewerOptions& options, int width, int height)
      : options_(options), width_(width), height_(height) {}

  void before_tick(GLFWwindow* window, int rendered) override {
    if (options_.exercise_window) exercise_window(window, rendered);
    if (storm_events_ < options_.resize_storm && rendered > 0 && rendered % 3 == 0) resize_storm(window);
  }

  void after_tick(const TickReport& tick, const Player& player) override {
    const double elapsed = seconds_since_start();
    if (dropped_at_one_second_ < 0 && elapsed >= 1.0) dropped_at_one_second_ = player.dropped();
    // Test runs say when each drop after the first second happened and how late the tick was, so
    // that a soak's drops can be laid beside what else the machine was doing (the first 50).
    const bool dropped = player.dropped() > tick.dropped_before;
    if (options_.test_mode() && dropped_at_one_second_ >= 0 && dropped && drop_lines_ < 50) {
      ++drop_lines_;
      std::fprintf(stderr, "vhist: at %.1f s: %lld frame(s) dropped; %.1f ms since the tick before\n", elapsed,
                   static_cast<long long>(player.dropped() - tick.dropped_before),
                   std::chrono::duration<double, std::milli>(tick.now - previous_tick_).count());
    }
    previous_tick_ = tick.now;
  }

  bool last_frame(int rendered) override {
    return (options_.frames > 0 && rendered + 1 >= options_.frames) ||
           (options_.quit_after > 0 && seconds_since_start() >= options_.quit_after &&
            (options_.resize_storm == 0 || storm_events_ >= options_.resize_storm));
  }

  double max_idle_wait() const override {
    if (options_.frames > 0 || options_.exercise_window || options_.resize_storm > 0) return 0;
    return options_.quit_after > 0 ? std::max(options_.quit_after - seconds_since_start(), 0.001) : -1;
  }

  bool wants_screenshot(bool last) const override { return last && !options_.screenshot.empty(); }

  std::string save_screenshot(std::vector<std::uint8_t> pixels, std::uint32_t width, std::uint32_t height) override {
    media::RgbaImage image;
    image.width = width;
    image.height = height;
    image.pixels = std::move(pixels);
    for (std::size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;  // shown opaque
    return media::write_png(options_.screenshot, image);
  }

  void drawn(int rendered, const std::function<std::string()>& state_line) override {
    if (state_file_.empty()) return;
    const std::string temp = state_file_ + ".tmp";
    std::FILE* f = std::fopen(temp.c_str(), "w");
    if (f == nullptr) return;
    std::fprintf(f, "rendered %d, %s\n", rendered, state_line().c_str());
    if (std::fclose(f) == 0) std::rename(temp.c_str(), state_file_.c_str());
  }

  void presented(double camera_age_ms) override {
    if (camera_age_ms >= 0) latencies_ms_.push_back(camera_age_ms);
  }

  void summary(int rendered, double fps, const char* engine, const Player& player) override {
    if (!options_.test_mode()) return;
    if (!latencies_ms_.empty()) camera_summary(player);
    // For scripts and benchmarks: what this run did.
    const std::int64_t dropped_later = dropped_at_one_second_ < 0 ? 0 : player.dropped() - dropped_at_one_second_;
    std::fprintf(stderr,
                 "vhist: %d frames rendered at %.1f fps (engine %s), %lld video frames shown, %lld dropped "
                 "(%lld after the first second), peak RSS %.1f MiB, %d resize/minimize events\n",
                 rendered, fps, engine, static_cast<long long>(player.shown()),
                 static_cast<long long>(player.dropped()), static_cast<long long>(dropped_later), peak_rss_mib(),
                 storm_events_);
  }

 private:
  double seconds_since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

  // A scripted sequence of what people do to windows: grow, shrink to a sliver, minimize,
  // restore, go back. Once: later frames have the size asked for.
  void exercise_window(GLFWwindow* window, int step) {
    if (step == 5) glfwSetWindowSize(window, 900, 500);
    if (step == 15) glfwSetWindowSize(window, 200, 130);
    if (step == 25) {
      // Minimized windows render nothing (the loop waits); restore after a moment. Without a
      // window manager (Xvfb) minimizing may do nothing at all.
      glfwIconifyWindow(window);
      for (int i = 0; i < 5; ++i) glfwWaitEventsTimeout(0.02);
      glfwRestoreWindow(window);
    }
    if (step == 35) glfwSetWindowSize(window, width_, height_);
  }

  // Sizes cycling through small, large, odd and extreme aspect ratios, and every tenth event a
  // minimize and restore.
  void resize_storm(GLFWwindow* window) {
    static constexpr int kSizes[][2] = {{320, 180}, {1280, 720}, {641, 359}, {1600, 200}, {200, 900}, {960, 540}};
    if (storm_events_ % 10 == 9) {
      glfwIconifyWindow(window);
      for (int i = 0; i < 3; ++i) glfwWaitEventsTimeout(0.01);
      glfwRestoreWindow(window);
    } else {
      const auto& size = kSizes[static_cast<std::size_t>(storm_events_) % std::size(kSizes)];
      glfwSetWindowSize(window, size[0], size[1]);
    }
    ++storm_events_;
  }

  void camera_summary(const Player& player) {
    auto l = latencies_ms_;
    std::sort(l.begin(), l.end());
    const media::CameraStatus cs = player.camera_status();
    std::fprintf(stderr,
                 "vhist: camera: %zu frames shown, capture to present median %.1f ms (min %.1f, max %.1f), "
                 "%lld captured, %lld dropped by the camera source, %lld reconnects\n",
                 l.size(), l[l.size() / 2], l.front(), l.back(), static_cast<long long>(cs.captured),
                 static_cast<long long>(cs.dropped), static_cast<long long>(cs.reconnects));
  }

  const ViewerOptions& options_;
  int width_, height_;
  const std::string state_file_ = [] {
    const char* path = std::getenv("VHIST_TEST_STATE");
    return std::string(path != nullptr ? path : "");
  }();
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point previous_tick_ = started_;
  std::int64_t dropped_at_one_second_ = -1;  // the player's dropped count one second in
  int drop_lines_ = 0;                        // drops reported as they happen
  int storm_events_ = 0;
  std::vector<double> latencies_ms_;  // capture to present of each new camera frame
};

}  // namespace

std::unique_ptr<LoopHooks> make_loop_hooks(const ViewerOptions& options, int width, int height) {
  const bool testing = options.test_mode() || options.exercise_window || options.resize_storm > 0;
  if (!testing) return std::make_unique<LoopHooks>();
  return std::make_unique<TestDrivers>(options, width, height);
}

}  // namespace vhist::viewer
