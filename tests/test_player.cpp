// Playback timing: viewer::Player on a real decoded 30 fps clip, ticked at times the test gives
// (the decoder runs for real; a short real sleep before each tick lets it fill its queue). Which
// frame each tick shows is checked against the frame's pts and the clock: regular ticks show
// every frame, a late tick shows the overtaken frame a little late instead of skipping it, a
// long stall skips only what is more than Player::kLateLimit behind, and the clock keeps to
// wall time throughout.
#include "test_clips.h"
#include "vhist/viewer/player.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

namespace vhist {
namespace {

using Clock = std::chrono::steady_clock;
using test::make_clip;

std::string clip_30fps() {
  // Intra-only, so every frame decodes on its own and the order is the pts order.
  return make_clip("player30.mp4", "-f lavfi -i testsrc2=s=64x48:r=30 -frames:v 90 -c:v libx264 -g 1 -pix_fmt yuv420p");
}

// Ticks a player at given offsets (ms from the first tick) and records what it shows.
class Ticker {
 public:
  explicit Ticker(const std::string& path) {
    player_.set_loop(false);
    player_.open(path);
    start_ = Clock::now();
    player_.tick(start_);  // the first frame, shown at once
    // The decoder fills its queue (4 frames) meanwhile; under the sanitizers on a busy machine
    // its thread can take a while to start.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  // The index of the frame on screen after a tick at `ms`.
  std::int64_t at(double ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the decoder refills its queue
    player_.tick(start_ + std::chrono::microseconds(static_cast<std::int64_t>(ms * 1000)));
    return player_.frame() ? player_.frame()->index : -1;
  }
  viewer::Player& player() { return player_; }

 private:
  viewer::Player player_;
  Clock::time_point start_;
};

constexpr double kTick = 1000.0 / 60;  // ms

TEST(Player, RegularTicksShowEveryFrameWhenDue) {
  Ticker t(clip_30fps());
  ASSERT_EQ(t.player().frame()->index, 0);
  std::int64_t last = 0;
  for (int k = 1; k <= 90; ++k) {
    const double ms = k * kTick + 1;  // 1 ms past the refresh: no tick lands on a frame's pts
    const std::int64_t shown = t.at(ms);
    // The frame due: the last whose pts (index / 30 s) has come.
    EXPECT_EQ(shown, static_cast<std::int64_t>(std::floor(ms * 30 / 1000 + 1e-6))) << "tick at " << ms << " ms";
    EXPECT_LE(shown - last, 1) << "a frame skipped at " << ms << " ms";
    last = shown;
  }
  EXPECT_EQ(t.player().dropped(), 0);
}

TEST(Player, ALateTickShowsTheOvertakenFrameInsteadOfSkippingIt) {
  Ticker t(clip_30fps());
  EXPECT_EQ(t.at(16.5), 0);
  EXPECT_EQ(t.at(33.0), 0);  // frame 1 (33.3 ms) not yet due
  // 37 ms late: frames 1 (33.3 ms) and 2 (66.7 ms) are both due. Frame 1 is shown now...
  EXPECT_EQ(t.at(70.0), 1);
  // ... and frame 2 on the next tick, then the clip is back on time.
  EXPECT_EQ(t.at(86.7), 2);
  EXPECT_EQ(t.at(103.4), 3);
  EXPECT_EQ(t.player().dropped(), 0);
  // The clock did not fall behind: a second in, frame 30 is on screen.
  std::int64_t shown = 0;
  for (double ms = 120; ms <= 1005; ms += kTick) shown = t.at(ms);
  EXPECT_EQ(shown, 30);
  EXPECT_EQ(t.player().dropped(), 0);
  EXPECT_NEAR(t.player().clock(), 1.0, 0.02);
}

TEST(Player, ALongStallSkipsOnlyFramesTooLateToShow) {
  Ticker t(clip_30fps());
  EXPECT_EQ(t.at(33.0), 0);
  // A 200 ms stall: frames 1 to 6 are due at 233 ms. Frames 1, 2 and 3 are more than
  // kLateLimit (100 ms) behind and are skipped; frame 4 (133.3 ms, 99.7 ms behind) is shown.
  ASSERT_DOUBLE_EQ(viewer::Player::kLateLimit, 0.1);
  EXPECT_EQ(t.at(233.0), 4);
  EXPECT_EQ(t.player().dropped(), 3);
  // Then one frame a tick until it has caught up, with no further drop.
  EXPECT_EQ(t.at(233.0 + kTick), 5);
  EXPECT_EQ(t.at(233.0 + 2 * kTick), 6);
  std::int64_t shown = 0;
  for (double ms = 233.0 + 3 * kTick; ms < 1000; ms += kTick) t.at(ms);
  shown = t.at(1005);
  EXPECT_EQ(shown, 30);
  EXPECT_EQ(t.player().dropped(), 3);
}

TEST(Player, PausedShowsNothingNewAndResumesWhereItWas) {
  Ticker t(clip_30fps());
  EXPECT_EQ(t.at(100.1), 1);  // one frame a tick after the start: 1, then 2 and 3 follow
  EXPECT_EQ(t.at(100.1 + kTick), 2);
  EXPECT_EQ(t.at(100.1 + 2 * kTick), 3);
  t.player().set_paused(true);
  EXPECT_EQ(t.at(500), 3);
  EXPECT_EQ(t.at(900), 3);
  t.player().set_paused(false);
  // The first tick after resuming only restarts the clock (frame 4, due at 133.3 ms of the
  // clock's 133.4 ms, comes now), then the clock runs on from where it stopped.
  EXPECT_EQ(t.at(910), 4);
  EXPECT_EQ(t.at(910 + kTick), 4);
  EXPECT_EQ(t.at(910 + 2 * kTick), 5);
  EXPECT_EQ(t.player().dropped(), 0);
}

}  // namespace
}  // namespace vhist
