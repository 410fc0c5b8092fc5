// The viewer's input and its calm, end to end in a real window under Xvfb: `vhist CLIP` runs as
// a process, xdotool types keys and clicks, and the test reads what the run ended in (the state
// line test runs print at exit: position, fullscreen, pin, region, stats page) and the window's
// screenshots (the S key). The CPU test reads the viewer's own CPU time from /proc.
#include "test_clips.h"

#include "vhist/media/png.h"
#include "vhist/picture/picture_geometry.h"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace vhist {
namespace {

namespace fs = std::filesystem;
using test::clip_dir;
using test::make_clip;
using test::read_file;

using test::quote;

bool have_xdotool() { return std::system("command -v xdotool > /dev/null 2>&1") == 0; }

// No panel, no OSD, so that screenshots show the picture and histograms alone.
constexpr const char* kQuietSettings = "show_panel = false\nosd = false\nbins = 64\n";

// 200 s of a moving test pattern, 10 frames a second with a keyframe each second, so that
// seeks of 10 and 60 s land on the frame asked for.
std::string long_clip() {
  return make_clip("long_testsrc.mkv", "-f lavfi -i testsrc2=s=320x180:r=10:d=200 -c:v mpeg4 -q:v 8 -g 10");
}

struct ViewerRun {
  int status = -1;
  std::string err, command;
  fs::path dir;
  std::vector<media::RgbaImage> shots;  // the S key's, oldest first
  // The state line's fields.
  std::string state;
};

// The screen the input tests run on, and a small one for the fullscreen test: fullscreen draws
// the whole screen each frame, and a double click needs frames faster than its 0.4 s (lavapipe
// composites 1920x1200 at about two frames a second on a loaded machine).
constexpr const char* kScreen = "1920x1200";
constexpr const char* kSmallScreen = "1024x640";

// Shell functions for the scripts, beside tests/window_script.sh's waits (a paused viewer draws
// only when something changes, so each asks for the frames it waits for):
// - frame_after: a frame drawn after now, asked for with a bare Shift (no key binds Shift alone);
// - step CMD...: the input CMD, then frames until one has begun after it (a frame drawn after
//   it, then one after that): ImGui 1.86 reads the pointer and the buttons once a frame, so a
//   drag's press, moves and release each need a frame of their own, and a click handled in the
//   last tick before the viewer waits would leave ImGui seeing its button down (the release
//   came in the same tick) until the next event;
// - shot: S, then until its screenshot is in the run's folder;
// - quit: Q, then until the viewer has ended: a Q handled in the last tick before the viewer
//   waits for events is acted on only once another event wakes it, so each look asks for a frame
//   (frame_after's Shift) until the viewer is gone.
constexpr const char* kScriptFunctions =
    "frame_after() { _r=$(vhist_rendered); xdotool key shift; until [ \"$(vhist_rendered)\" -gt \"$_r\" ]; do "
    "kill -0 $pid 2> /dev/null || { echo 'frame_after: the viewer ended' >&2; return 1; }; sleep 0.02; done; }; "
    "step() { \"$@\" && frame_after && frame_after; }; "
    "pngs() { ls -- *.png 2> /dev/null | wc -l; }; "
    "shot() { _n=$(pngs); xdotool key s; until [ \"$(pngs)\" -gt \"$_n\" ]; do "
    "kill -0 $pid 2> /dev/null || { echo 'shot: the viewer ended' >&2; return 1; }; sleep 0.02; done; }; "
    "quit() { xdotool key q; while kill -0 $pid 2> /dev/null; do _r=$(vhist_rendered); xdotool key shift; "
    "until [ \"$(vhist_rendered)\" -gt \"$_r\" ] || ! kill -0 $pid 2> /dev/null; do sleep 0.02; done; done; }; ";

// A new run's folder (input-N), its settings `settings`.
fs::path new_run_dir(const std::string& settings) {
  static int counter = 0;
  const fs::path dir = clip_dir() / ("input-" + std::to_string(counter++));
  fs::create_directories(dir / "config" / "vhist");
  // The timeline has tests of its own (test_viewer_timeline.cpp): off, so that no scan runs beside.
  std::ofstream(dir / "config" / "vhist" / "settings.ini", std::ios::binary) << "timeline = false\n" << settings;
  return dir;
}

// Runs `vhist ARGS` under Xvfb in `dir` (new_run_dir); `script` runs beside it once the window is
// up (test::beside_viewer: $W the window, $pid the viewer, the waits of tests/window_script.sh
// and kScriptFunctions). The scripts end the run with Q (quit) once they have seen what they wait for;
// --quit-after is only a ceiling for a viewer that never gets there. Collects stderr, the state
// line and the S screenshots.
ViewerRun run_in(const fs::path& dir, const std::string& args, const std::string& script, const std::string& screen) {
  ViewerRun r;
  r.dir = dir;
  const std::string viewer = "VHIST_VALIDATION=1 " + quote(VHIST_BINARY) + " " + args + " 2> stderr.txt";
  r.command = "cd " + quote(r.dir.string()) + " && env -u XDG_PICTURES_DIR XDG_CONFIG_HOME=" +
              quote((r.dir / "config").string()) + " timeout -k 10 200 " + test::with_display(screen) + "sh -c " +
              quote(test::beside_viewer(viewer, kScriptFunctions + script)) + " > stdout.txt";
  const int raw = std::system(r.command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.err = read_file(r.dir / "stderr.txt");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(r.dir)) {
    if (e.path().extension() == ".png") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end(),
            [](const fs::path& a, const fs::path& b) { return fs::last_write_time(a) < fs::last_write_time(b); });
  for (const auto& f : files) r.shots.push_back(media::read_png(f.string()));
  const auto at = r.err.find("vhist: state: ");
  if (at != std::string::npos) r.state = r.err.substr(at, r.err.find('\n', at) - at);
  return r;
}

// run_in a new folder with `settings`.
ViewerRun run_scripted(const std::string& settings, const std::string& args, const std::string& script,
                       const std::string& screen = kScreen) {
  return run_in(new_run_dir(settings), args, script, screen);
}

std::string context(const ViewerRun& r) { return "command: " + r.command + "\nstderr:\n" + r.err; }

// A number in the state line after `label` ("position 65.000 s": label "position ").
std::optional<double> state_number(const ViewerRun& r, const std::string& label) {
  const auto at = r.state.find(label);
  if (at == std::string::npos) return std::nullopt;
  return std::strtod(r.state.c_str() + at + label.size(), nullptr);
}

bool state_has(const ViewerRun& r, const std::string& text) { return r.state.find(text) != std::string::npos; }

// --- calm when idle ----------------------------------------------------------------------------

// The CPU time (user + system) of process `pid` in clock ticks; -1 when it is gone.
long cpu_ticks(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return -1;
  // Fields after the command name (which is in parentheses and may hold spaces): state is 3rd.
  std::istringstream rest(line.substr(line.rfind(')') + 2));
  std::vector<std::string> f;
  for (std::string x; rest >> x;) f.push_back(x);
  if (f.size() < 13) return -1;
  return std::stol(f[11]) + std::stol(f[12]);  // utime (14th field) + stime (15th)
}

// The frames the run in `dir` has drawn so far (its state file's "rendered N"); 0 before the first.
long rendered_in(const fs::path& dir) {
  const std::string line = read_file(dir / "state.txt");
  return line.starts_with("rendered ") ? std::strtol(line.c_str() + 9, nullptr, 10) : 0;
}

// The script's waits before a measurement of a paused (or ended) viewer: the state line matching
// `state_ere` with the OSD gone, then a wait for events done. The state's "idle waits N" shows
// the waits before the frame last drawn, and a viewer that waits draws again only on an event:
// frame_after's Shift gives it one until the state shows a wait.
std::string idle_in(const std::string& state_ere) {
  return "wait_state '" + state_ere + ".*osd hidden'; "
         "until grep -Eq 'idle waits [1-9]' \"$VHIST_TEST_STATE\"; do frame_after || break; done";
}

// The share of one core the viewer used over 4 s, running `args`, once the script's waits
// `settle` have seen the state to measure in (the script then says so with the file "calm", and
// ends the run with Q once the test has measured). With `idle` the 4 s are ones in which the
// viewer drew nothing: a woken viewer draws 3 ticks before it waits again (IdleWait's
// kSettleTicks, after settle's own nudge), so a frame drawn in the interval starts it again,
// for up to 6 frames (the nudge's press and release may wake it twice); frames after those count.
// `state` receives the state line at exit.
double cpu_share(const std::string& args, const std::string& settle, bool idle, std::string* err,
                 const std::string& settings = kQuietSettings, std::string* state = nullptr) {
  const fs::path dir = new_run_dir(settings);
  ViewerRun r;
  std::atomic<bool> ended{false};
  std::thread viewer([&] {
    r = run_in(dir, args, settle + "; touch calm; wait_file measured; quit", kScreen);
    ended = true;
  });
  // Looked at every 20 ms until the script says it is time, or the run is over.
  while (!ended && !fs::exists(dir / "calm")) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  double share = -1;
  int restarts = 0;
  long pid = -1;
  if (!ended) std::ifstream(dir / "pid.txt") >> pid;
  if (pid > 0) {
    using clock = std::chrono::steady_clock;
    auto t0 = clock::now();
    long a = cpu_ticks(pid), frames = rendered_in(dir);
    const long first = frames;
    while (!ended && clock::now() - t0 < std::chrono::seconds(4)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (const long now = rendered_in(dir); idle && now != frames && now - first <= 6) {
        ++restarts;
        t0 = clock::now();
        a = cpu_ticks(pid);
        frames = rendered_in(dir);
      }
    }
    const long b = cpu_ticks(pid);
    const double seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (a >= 0 && b >= 0) share = static_cast<double>(b - a) / static_cast<double>(sysconf(_SC_CLK_TCK)) / seconds;
  }
  std::ofstream(dir / "measured") << "1";
  viewer.join();
  if (idle) std::printf("[idle] measured from the viewer's last frame (started again %d time(s))\n", restarts);
  *err = context(r) + "\nstate: " + r.state + "\nmeasurement started again " + std::to_string(restarts) +
         " time(s) for frames drawn in it";
  if (state) *state = r.state;
  return share;
}

// Paused with nothing changing, the viewer waits for events: under 2% of a core. Playing (the
// control) it draws every frame and uses more.
TEST(Idle, PausedUsesUnderTwoPercentOfACore) {
  const std::string clip = long_clip();
  std::string err;
  std::string paused_state, playing_state;
  const double paused =
      cpu_share(quote(clip) + " --size 640x360 --paused-at 1 --quit-after 150", idle_in("frame at 1\\.000 s, paused"), true,
                &err, kQuietSettings, &paused_state);
  ASSERT_GE(paused, 0) << "could not measure\n" << err;
  EXPECT_LT(paused, 0.02) << "paused: " << paused * 100 << "% of a core\n" << err;
  EXPECT_NE(err.find("idle waits "), std::string::npos) << err;
  const double playing =
      cpu_share(quote(clip) + " --size 640x360 --quit-after 150", "wait_state 'frame at [0-9][^,]*, playing.*osd hidden'",
                false, &err, kQuietSettings, &playing_state);
  ASSERT_GE(playing, 0) << "could not measure\n" << err;
  EXPECT_GT(playing, 0.05) << "playing: " << playing * 100 << "% of a core (the control)\n" << err;
  EXPECT_GT(playing, 5 * std::max(paused, 0.001)) << err;
  std::printf("[idle] paused %.2f%% of a core, playing %.1f%%\n", paused * 100, playing * 100);
  // The rate shown is the video's (10 frames a second here, fewer if the machine drops some),
  // not redraws: 0 while paused (the panel says "paused").
  EXPECT_NE(paused_state.find("video 0.0 fps"), std::string::npos) << paused_state;
  const auto at = playing_state.find(", video ");
  ASSERT_NE(at, std::string::npos) << playing_state;
  const double fps = std::strtod(playing_state.c_str() + at + 8, nullptr);
  EXPECT_GT(fps, 3.0) << playing_state;
  // Redraws would show the window's rate (tens a second); a frame or so over 10 is the player
  // catching up after a slow tick (lavapipe's composite on a loaded machine).
  EXPECT_LT(fps, 12.5) << "faster than the clip's 10 fps: redraws counted?\n" << playing_state;
  std::printf("[idle] the rate shown while playing: %.1f fps (the clip: 10)\n", fps);
}

// A clip that has ended (1 s, loop off) shows its last frame and waits like a paused one.
TEST(Idle, AnEndedClipUsesUnderTwoPercentOfACore) {
  const std::string short_clip = make_clip("grey_small.mkv", "-f lavfi -i color=c=0x808080:s=320x180:r=10:d=1 -c:v ffv1");
  std::string err;
  // The last frame shown (0.9 s), the OSD gone and a wait for events done.
  const double ended = cpu_share(quote(short_clip) + " --size 640x360 --quit-after 150", idle_in("frame at 0\\.900 s"), true,
                                 &err, std::string(kQuietSettings) + "loop = false\n");
  ASSERT_GE(ended, 0) << "could not measure\n" << err;
  EXPECT_LT(ended, 0.02) << "ended: " << ended * 100 << "% of a core\n" << err;
}

// --- gestures ----------------------------------------------------------------------------------

// A double click toggles fullscreen and nothing else: twice (in and out) leaves no pinned pixel,
// no region, and the same picture and histograms as before.
TEST(Gestures, DoubleClickTogglesFullscreenAndNothingElse) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string clip = long_clip();
  // The clicks of a double click 80 ms apart (xdotool's --delay: the gesture itself). The
  // window's size once the state says fullscreen (the viewer has drawn since it asked X for the
  // screen); the second double click once it has drawn fullscreen (step true: frames begun since).
  const ViewerRun r = run_scripted(kQuietSettings, quote(clip) + " --size 640x360 --paused-at 1 --quit-after 150",
                                   "wait_state 'frame at 1\\.000 s, paused'; step xdotool mousemove --window $W 200 150; shot; "
                                   "step xdotool click --repeat 2 --delay 80 1; wait_state 'fullscreen on \\(1 toggles\\)'; "
                                   "xdotool getwindowgeometry $W > fullscreen.txt; step true; "
                                   "step xdotool mousemove --window $W 300 200 click --repeat 2 --delay 80 1; "
                                   "wait_state 'fullscreen off \\(2 toggles\\)'; "
                                   "step xdotool mousemove --window $W 200 150; shot; quit",
                                   kSmallScreen);
  ASSERT_EQ(r.status, 0) << context(r);
  const std::string geometry = read_file(r.dir / "fullscreen.txt");
  EXPECT_NE(geometry.find(kSmallScreen), std::string::npos) << "not fullscreen after a double click:\n" << geometry;
  EXPECT_TRUE(state_has(r, "fullscreen off (2 toggles)")) << r.state << "\n" << context(r);
  EXPECT_TRUE(state_has(r, "pinned none")) << r.state;
  EXPECT_TRUE(state_has(r, "region none")) << r.state;
  ASSERT_EQ(r.shots.size(), 2u) << context(r);
  ASSERT_EQ(r.shots[0].width, r.shots[1].width);
  ASSERT_EQ(r.shots[0].height, r.shots[1].height);
  EXPECT_TRUE(r.shots[0].pixels == r.shots[1].pixels) << "the window changed after fullscreen in and out";
}

// A single click pins the pixel under it (once the double click's time has passed) and a drag
// sets a region: the gestures documented for them still work. The click comes first: its pin
// (once 0.4 s have passed with no second click) says when the drag's press can no longer make a
// double click with it, where a click after the drag would need a time waited.
TEST(Gestures, ClickPinsAndDragSetsARegion) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const ViewerRun r = run_scripted(kQuietSettings, quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 150",
                                   "wait_state 'frame at 1\\.000 s, paused'; "
                                   "step xdotool mousemove --window $W 320 180 click 1; wait_state 'pinned [0-9]'; "
                                   "step xdotool mousemove --window $W 100 60 mousedown 1; "
                                   "step xdotool mousemove --window $W 200 120; step xdotool mousemove --window $W 300 160; "
                                   "xdotool mouseup 1; wait_state 'region [0-9]'; quit");
  ASSERT_EQ(r.status, 0) << context(r);
  // 320x180 shown 2x in 640x360: window (320, 180) is stored pixel (160, 90).
  EXPECT_TRUE(state_has(r, "pinned 160,90")) << r.state << "\n" << context(r);
  EXPECT_TRUE(state_has(r, "region 50,30 ")) << r.state;
  EXPECT_TRUE(state_has(r, "fullscreen off (0 toggles)")) << r.state;
}

// A drag across the RGB histogram keeps its codes lit after the button is released and the
// pointer has left (64 bins over the 288-pixel bars from x = 16 at 640x360: x 60 is bin 9, x 150
// bin 29, codes 36 to 119 of R, G and B, mask 7); a right click on a histogram clears it.
TEST(Gestures, ADraggedHistogramRangeStaysUntilCleared) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  // The press, the moves and the release each in a frame of their own (step); the pointer leaves
  // once the release has kept the range, and step draws frames with it away.
  const std::string drag = "wait_state 'frame at 1\\.000 s, paused'; step xdotool mousemove --window $W 60 300 mousedown 1; "
                           "step xdotool mousemove --window $W 100 300; step xdotool mousemove --window $W 150 300; "
                           "xdotool mouseup 1; wait_state 'kept range [0-9]'; step xdotool mousemove --window $W 320 100";
  const ViewerRun kept = run_scripted(kQuietSettings, quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 150",
                                      drag + "; quit");
  ASSERT_EQ(kept.status, 0) << context(kept);
  EXPECT_TRUE(state_has(kept, "kept range 7:36-119")) << kept.state << "\n" << context(kept);
  EXPECT_TRUE(state_has(kept, "region none")) << kept.state;
  const ViewerRun cleared = run_scripted(kQuietSettings, quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 150",
                                         drag + "; step xdotool mousemove --window $W 200 300 click 3; "
                                                "wait_state 'kept range none'; quit");
  ASSERT_EQ(cleared.status, 0) << context(cleared);
  EXPECT_TRUE(state_has(cleared, "kept range none")) << cleared.state;
  EXPECT_TRUE(state_has(cleared, "Kept range cleared")) << cleared.state;
}

// --- seeking as in mpv ---------------------------------------------------------------------------

// Up/Down seek 60 s, the wheel 10 s a notch (over the picture and the histograms alike),
// Left/Right 5 s: from 1 s, Up (61), two notches up (81), Down (21), a notch down (11), Right (16).
TEST(Seeking, UpDownAndTheWheelMoveByMpvsAmounts) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  // Each seek once the one before has landed (its frame shown).
  const ViewerRun r = run_scripted(kQuietSettings, quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 150",
                                   "wait_state 'frame at 1\\.000 s, paused'; xdotool mousemove --window $W 320 100; "
                                   "xdotool key Up; wait_state 'frame at 61\\.000 s'; "
                                   "xdotool click 4; wait_state 'frame at 71\\.000 s'; "
                                   "xdotool mousemove --window $W 100 320; xdotool click 4; wait_state 'frame at 81\\.000 s'; "
                                   "xdotool key Down; wait_state 'frame at 21\\.000 s'; "
                                   "xdotool click 5; wait_state 'frame at 11\\.000 s'; "
                                   "xdotool key Right; wait_state 'position 16\\.000 s, frame at 1[56]\\.'; quit");
  ASSERT_EQ(r.status, 0) << context(r);
  const auto frame = state_number(r, "frame at ");
  ASSERT_TRUE(frame) << r.state << "\n" << context(r);
  EXPECT_NEAR(*frame, 16.0, 0.11) << r.state;
  EXPECT_TRUE(state_has(r, "paused")) << r.state;
}

// --- keys that speak -----------------------------------------------------------------------------

// The OSD speaks words, not true/false; a key that does not apply says why and changes nothing:
// N (the HDR axis) on an SDR clip, M without a reference. With a reference kept (K), M matches.
TEST(KeysSpeak, WordsAndKeysThatDoNotApply) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  // Each key once the one before has spoken (its words in the state's OSD log); M once K's
  // reference is kept.
  const ViewerRun r = run_scripted(std::string(kQuietSettings) + "osd = true\n",
                                   quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 150",
                                   "wait_state 'frame at 1\\.000 s, paused'; xdotool key n; wait_state 'osd log \"[^\"]*HDR axis'; "
                                   "xdotool key m; wait_state 'osd log \"[^\"]*Matching needs'; "
                                   "xdotool key g; wait_state 'osd log \"[^\"]*Legal-range guides'; "
                                   "xdotool key k; wait_state 'osd log \"[^\"]*Reference: '; "
                                   "xdotool key m; wait_state 'match on'; quit");
  ASSERT_EQ(r.status, 0) << context(r);
  // The transfer named as people say it (the clip's is untagged, taken as BT.709), not bt709.
  EXPECT_TRUE(state_has(r, "HDR axis: only for PQ or HLG video (this one's transfer is BT.709); nothing changed"))
      << r.state;
  EXPECT_TRUE(state_has(r, "light axis nits")) << r.state;
  EXPECT_TRUE(state_has(r, "Matching needs a reference: keep one first (K); nothing changed")) << r.state;
  EXPECT_TRUE(state_has(r, "Legal-range guides on")) << r.state;
  EXPECT_TRUE(state_has(r, "Matching on")) << r.state;
  EXPECT_TRUE(state_has(r, "match on")) << r.state;
  EXPECT_FALSE(state_has(r, "true") || state_has(r, "false")) << r.state;
}

// After a failed open from the panel's path field, the field shows the file still playing.
TEST(KeysSpeak, AFailedOpenLeavesThePlayingFileInThePathField) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string clip = long_clip();
  // The path field: the panel's first row (the panel from x = 921.6 at 1280 wide).
  // With the field active its cursor blinks and the viewer draws every tick: wait_frames there.
  // The click on the picture that ends the editing pins a pixel: its pin says it was handled.
  const ViewerRun r = run_scripted("osd = false\nshow_panel = true\n",
                                   quote(clip) + " --size 1280x720 --paused-at 1 --quit-after 150",
                                   "wait_state 'frame at 1\\.000 s, paused'; "
                                   "step xdotool mousemove --window $W 1000 36 click 1; wait_frames 3; "
                                   // Held for frames: ImGui 1.86 misses a key pressed and released within one frame.
                                   "xdotool keydown ctrl+a; wait_frames 2; xdotool keyup ctrl+a; "
                                   "xdotool type --delay 20 /no/such/file.mkv; wait_frames 2; "
                                   "xdotool keydown Return; wait_frames 2; xdotool keyup Return; "
                                   "wait_state 'osd log \"[^\"]*/no/such/file\\.mkv'; "
                                   "step xdotool mousemove --window $W 300 300 click 1; wait_state 'pinned [0-9]'; quit");
  ASSERT_EQ(r.status, 0) << context(r);
  EXPECT_TRUE(state_has(r, "/no/such/file.mkv")) << "the failure was not reported\n" << r.state << "\n" << context(r);
  EXPECT_TRUE(state_has(r, "path field \"" + clip + "\"")) << r.state;
}

// --- the stats page ----------------------------------------------------------------------------

// i shows the stats page over the picture (light text on a dark box at the top left, where the
// clip's picture is a flat grey), whole, and a second i hides it.
TEST(StatsPage, IShowsAndHidesIt) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string grey = make_clip("grey_long.mkv", "-f lavfi -i color=c=0x808080:s=320x180:r=10:d=30 -c:v ffv1");
  // The clip plays, so the viewer draws every tick: wait_frames lets the page lay itself out
  // (ImGui sizes a new window over its first frames) before the screenshot.
  const ViewerRun r = run_scripted(kQuietSettings, quote(grey) + " --size 640x340 --fit cover --quit-after 150",
                                   "wait_state 'frame at [0-9][^,]*, playing'; wait_frames 3; shot; "
                                   "xdotool key i; wait_state 'stats page on'; wait_frames 3; shot; "
                                   "xdotool key i; wait_state 'stats page off'; xdotool key i; wait_state 'stats page on'; "
                                   "quit");
  ASSERT_EQ(r.status, 0) << context(r);
  EXPECT_TRUE(state_has(r, "stats page on")) << r.state << "\n" << context(r);
  ASSERT_EQ(r.shots.size(), 2u) << context(r);
  const auto count = [](const media::RgbaImage& img, bool bright) {
    int n = 0;
    for (std::uint32_t y = 20; y < 200; ++y) {
      for (std::uint32_t x = 0; x < 300; ++x) {
        const auto p = img.at(x, y);
        n += bright ? (p[0] > 200 && p[1] > 200 && p[2] > 200) : (p[0] < 80 && p[1] < 80 && p[2] < 80);
      }
    }
    return n;
  };
  EXPECT_EQ(count(r.shots[0], true), 0) << "text over the grey picture before i";
  EXPECT_GT(count(r.shots[1], true), 500) << "no stats text after i";
  EXPECT_GT(count(r.shots[1], false), 10000) << "no stats box after i";
  // At 640x340 the page (about 317 rows for this clip) is taller than the room below the OSD line
  // (from y 40): it is raised so that its box ends inside the window (its last lines were cut at
  // the window's bottom). Column 12: inside the box (from x 10), left of the RGB histogram (from
  // x 16); the picture's grey below the box (cover: no bars beside the 16:9 picture).
  const auto column = [&](std::uint32_t y) { return r.shots[1].at(12, y); };
  EXPECT_LT(column(200)[0], 80) << "no stats box at x 12";
  EXPECT_NEAR(column(339)[0], 128, 12) << "the stats box runs past the window's bottom";
}

// --- readable at every size ---------------------------------------------------------------------

// The window at `w` x `h` (panel hidden) on a flat grey clip, its last frame saved.
media::RgbaImage window_shot(int w, int h, std::string* err) {
  static int counter = 0;
  const std::string grey = make_clip("grey_small.mkv", "-f lavfi -i color=c=0x808080:s=320x180:r=10:d=1 -c:v ffv1");
  const fs::path dir = clip_dir() / ("size-" + std::to_string(counter++));
  fs::create_directories(dir / "config" / "vhist");
  std::ofstream(dir / "config" / "vhist" / "settings.ini", std::ios::binary)
      << "show_panel = false\nosd = false\nopacity = 1.0\nbins = 64\ntimeline = false\n";
  const std::string size = std::to_string(w) + "x" + std::to_string(h);
  const std::string command = "cd " + quote(dir.string()) + " && XDG_CONFIG_HOME=" + quote((dir / "config").string()) +
                              " VHIST_VALIDATION=1 timeout -k 10 300 " + test::with_display("3840x2160") +
                              quote(VHIST_BINARY) + " " + quote(grey) + " --size " + size +
                              " --paused-at 0 --frames 4 --screenshot shot.png 2> stderr.txt";
  const int status = std::system(command.c_str());
  *err = command + "\nstatus " + std::to_string(status) + "\n" + read_file(dir / "stderr.txt");
  if (!fs::exists(dir / "shot.png")) return {};
  return media::read_png((dir / "shot.png").string());
}

// The height in pixels of the axis labels under the left histogram's bars: the last run of rows
// below the bars holding the overlay's text grey (204), the rows of the axis line and ticks
// being the runs before it.
int label_height(const media::RgbaImage& img, const viewer::HistogramQuad& q) {
  const auto text_row = [&](std::uint32_t y) {
    for (auto x = static_cast<std::uint32_t>(q.rect[0]); x < static_cast<std::uint32_t>(q.rect[2]); ++x) {
      const auto p = img.at(x, y);
      if (std::abs(p[0] - 204) <= 2 && std::abs(p[1] - 204) <= 2 && std::abs(p[2] - 204) <= 2) return true;
    }
    return false;
  };
  int run = 0, last_run = 0;
  for (auto y = static_cast<std::uint32_t>(q.bars[3]); y < static_cast<std::uint32_t>(q.rect[3]) && y < img.height; ++y) {
    if (text_row(y)) {
      ++run;
    } else if (run > 0) {
      last_run = run;
      run = 0;
    }
  }
  return run > 0 ? run : last_run;
}

// The minimum text size (picture_geometry.h: glyphs at least kMinGlyphHeight = 7 pixels tall)
// holds at every window size, and above 720 pixels the text grows with the window, with no step:
// 7 rows at 360 and 720, about 9 at 900, 10 at 1080, 21 at 2160 (7 font rows at h / 720 pixels each).
TEST(TextSize, AxisLabelsAreAtLeastTheMinimumAndGrowWithTheWindow) {
  const int sizes[][2] = {{640, 360}, {1280, 720}, {1600, 900}, {1920, 1080}, {3840, 2160}};
  int last = 0;
  for (const auto& [w, h] : sizes) {
    std::string err;
    const media::RgbaImage shot = window_shot(w, h, &err);
    ASSERT_EQ(shot.width, static_cast<std::uint32_t>(w)) << err;
    viewer::DrawStyle style;
    style.bins = 64;
    style.ui_scale = viewer::picture_ui_scale(1.0f, static_cast<float>(h));  // content scale 1 under Xvfb
    const auto quads = viewer::layout_quads(style, static_cast<float>(w), static_cast<float>(h));
    ASSERT_FALSE(quads.empty());
    ASSERT_TRUE(quads[0].axis) << w << "x" << h;
    const int rows = label_height(shot, quads[0]);
    // The glyphs' 7 font rows at max(1, h / 720) pixels each, give or take a row of rounding.
    const double want = 7.0 * std::max(1.0, h / 720.0);
    EXPECT_GE(rows, viewer::kMinGlyphHeight) << w << "x" << h << "\n" << err;
    EXPECT_NEAR(rows, want, 1.0) << w << "x" << h << "\n" << err;
    if (h > 720) {
      EXPECT_GT(rows, last) << "no growth at " << w << "x" << h;
    }
    last = rows;
    std::printf("[text] %dx%d: axis labels %d pixels tall\n", w, h, rows);
  }
}

}  // namespace
}  // namespace vhist
