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

// Runs `vhist ARGS` under Xvfb with `settings`; `script` runs beside it once the window is up
// (shell; $W is the window's id, $pid the viewer's). Collects stderr and the S screenshots.
// The screen the input tests run on, and a small one for the fullscreen test: fullscreen draws
// the whole screen each frame, and a double click needs frames faster than its 0.4 s (lavapipe
// composites 1920x1200 at about two frames a second on a loaded machine).
constexpr const char* kScreen = "1920x1200";
constexpr const char* kSmallScreen = "1024x640";

ViewerRun run_scripted(const std::string& settings, const std::string& args, const std::string& script,
                       const std::string& screen = kScreen) {
  static int counter = 0;
  ViewerRun r;
  r.dir = clip_dir() / ("input-" + std::to_string(counter++));
  fs::create_directories(r.dir / "config" / "vhist");
  // The timeline has tests of its own (test_viewer_timeline.cpp): off, so that no scan runs beside.
  std::ofstream(r.dir / "config" / "vhist" / "settings.ini", std::ios::binary) << "timeline = false\n" << settings;
  const std::string inner = "VHIST_VALIDATION=1 " + quote(VHIST_BINARY) + " " + args + " 2> stderr.txt & pid=$!; " +
                            "echo $pid > pid.txt; W=$(xdotool search --sync --name '^vhist'); " +
                            "xdotool windowfocus --sync $W; " + script + "; wait $pid";
  r.command = "cd " + quote(r.dir.string()) + " && env -u XDG_PICTURES_DIR XDG_CONFIG_HOME=" +
              quote((r.dir / "config").string()) +
              " timeout -k 10 200 " + test::with_display(screen) + "sh -c " + quote(inner) + " > stdout.txt";
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

// The share of one core the viewer used from 4 to 8 s after it started, running `args`.
// The viewer's CPU share; `state` receives its state line.
double cpu_share(const std::string& args, std::string* err, const std::string& settings = kQuietSettings,
                 std::string* state = nullptr) {
  ViewerRun r;
  std::thread viewer([&] { r = run_scripted(settings, args, "true"); });
  // The run's folder is the newest input-N; wait for its pid file.
  long pid = -1;
  const auto start = std::chrono::steady_clock::now();
  while (pid < 0 && std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (const auto& e : fs::directory_iterator(clip_dir())) {
      const fs::path p = e.path() / "pid.txt";
      if (e.path().filename().string().starts_with("input-") && fs::exists(p) && !fs::exists(e.path() / "measured")) {
        long read = -1;
        std::ifstream(p) >> read;  // the shell may not have written it yet: then again next time
        if (read > 0) {
          pid = read;
          std::ofstream(e.path() / "measured") << "1";
        }
      }
    }
  }
  double share = -1;
  if (pid > 0) {
    std::this_thread::sleep_for(std::chrono::seconds(4));  // the window up, the OSD gone
    const long a = cpu_ticks(pid);
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(4));
    const long b = cpu_ticks(pid);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (a >= 0 && b >= 0) share = static_cast<double>(b - a) / static_cast<double>(sysconf(_SC_CLK_TCK)) / seconds;
  }
  viewer.join();
  *err = context(r) + "\nstate: " + r.state;
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
      cpu_share(quote(clip) + " --size 640x360 --paused-at 1 --quit-after 11", &err, kQuietSettings, &paused_state);
  ASSERT_GE(paused, 0) << "could not measure\n" << err;
  EXPECT_LT(paused, 0.02) << "paused: " << paused * 100 << "% of a core\n" << err;
  EXPECT_NE(err.find("idle waits "), std::string::npos) << err;
  const double playing =
      cpu_share(quote(clip) + " --size 640x360 --quit-after 11", &err, kQuietSettings, &playing_state);
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
  const double ended = cpu_share(quote(short_clip) + " --size 640x360 --quit-after 11", &err,
                                 std::string(kQuietSettings) + "loop = false\n");
  ASSERT_GE(ended, 0) << "could not measure\n" << err;
  EXPECT_LT(ended, 0.02) << "ended: " << ended * 100 << "% of a core\n" << err;
}

// --- gestures ----------------------------------------------------------------------------------

// A double click toggles fullscreen and nothing else: twice (in and out) leaves no pinned pixel,
// no region, and the same picture and histograms as before.
TEST(Gestures, DoubleClickTogglesFullscreenAndNothingElse) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string clip = long_clip();
  const ViewerRun r = run_scripted(kQuietSettings, quote(clip) + " --size 640x360 --paused-at 1 --quit-after 16",
                             "sleep 3; xdotool mousemove --window $W 200 150; sleep 1; xdotool key s; sleep 1; "
                             "xdotool click --repeat 2 --delay 80 1; sleep 2; "
                             "xdotool getwindowgeometry $W > fullscreen.txt; "
                             "xdotool mousemove --window $W 300 200 click --repeat 2 --delay 80 1; sleep 2; "
                             "xdotool mousemove --window $W 200 150; sleep 1; xdotool key s",
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
// sets a region: the gestures documented for them still work.
TEST(Gestures, ClickPinsAndDragSetsARegion) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const ViewerRun r = run_scripted(kQuietSettings, quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 12",
                             "sleep 3; xdotool mousemove --window $W 100 60 mousedown 1; sleep 0.3; "
                             "xdotool mousemove --window $W 200 120; sleep 0.3; xdotool mousemove --window $W 300 160; "
                             "sleep 0.3; xdotool mouseup 1; sleep 1; "
                             "xdotool mousemove --window $W 320 180 click 1; sleep 1");
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
  const std::string drag = "xdotool mousemove --window $W 60 300 mousedown 1; sleep 0.3; "
                           "xdotool mousemove --window $W 100 300; sleep 0.3; xdotool mousemove --window $W 150 300; "
                           "sleep 0.3; xdotool mouseup 1; sleep 0.5; xdotool mousemove --window $W 320 100; sleep 1";
  const ViewerRun kept = run_scripted(kQuietSettings, quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 10",
                                      "sleep 3; " + drag);
  ASSERT_EQ(kept.status, 0) << context(kept);
  EXPECT_TRUE(state_has(kept, "kept range 7:36-119")) << kept.state << "\n" << context(kept);
  EXPECT_TRUE(state_has(kept, "region none")) << kept.state;
  const ViewerRun cleared = run_scripted(kQuietSettings, quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 12",
                                         "sleep 3; " + drag + "; xdotool mousemove --window $W 200 300 click 3; sleep 1");
  ASSERT_EQ(cleared.status, 0) << context(cleared);
  EXPECT_TRUE(state_has(cleared, "kept range none")) << cleared.state;
  EXPECT_TRUE(state_has(cleared, "Kept range cleared")) << cleared.state;
}

// --- seeking as in mpv ---------------------------------------------------------------------------

// Up/Down seek 60 s, the wheel 10 s a notch (over the picture and the histograms alike),
// Left/Right 5 s: from 1 s, Up (61), two notches up (81), Down (21), a notch down (11), Right (16).
TEST(Seeking, UpDownAndTheWheelMoveByMpvsAmounts) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const ViewerRun r = run_scripted(kQuietSettings, quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 20",
                                   "sleep 3; xdotool mousemove --window $W 320 100; "
                                   "xdotool key Up; sleep 1.5; xdotool click 4; sleep 1.5; "
                                   "xdotool mousemove --window $W 100 320; xdotool click 4; sleep 1.5; "
                                   "xdotool key Down; sleep 1.5; xdotool click 5; sleep 1.5; xdotool key Right; sleep 1.5");
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
  const ViewerRun r = run_scripted(std::string(kQuietSettings) + "osd = true\n",
                                   quote(long_clip()) + " --size 640x360 --paused-at 1 --quit-after 14",
                                   "sleep 3; xdotool key n; sleep 0.5; xdotool key m; sleep 0.5; xdotool key g; "
                                   "sleep 0.5; xdotool key k; sleep 1; xdotool key m; sleep 1");
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
  const ViewerRun r = run_scripted("osd = false\nshow_panel = true\n",
                                   quote(clip) + " --size 1280x720 --paused-at 1 --quit-after 14",
                                   "sleep 3; xdotool mousemove --window $W 1000 36 click 1; sleep 0.5; "
                                   "xdotool keydown ctrl+a; sleep 0.3; xdotool keyup ctrl+a; "
                                   "xdotool type --delay 20 /no/such/file.mkv; sleep 0.3; "
                                   // Held a moment: ImGui 1.86 misses a key pressed and released within one frame.
                                   "xdotool keydown Return; sleep 0.3; xdotool keyup Return; sleep 2; "
                                   "xdotool mousemove --window $W 300 300 click 1; sleep 1");
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
  const ViewerRun r = run_scripted(kQuietSettings, quote(grey) + " --size 640x340 --fit cover --quit-after 14",
                                   "sleep 3; xdotool key s; sleep 1; xdotool key i; sleep 2; xdotool key s; sleep 1; "
                                   "xdotool key i; sleep 1; xdotool key i; sleep 1");
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
