// The viewer's timeline strip (issue 28), end to end in a real window under Xvfb with validation
// on: `vhist CLIP` runs as a process over a clip whose timeline the test wrote into the cache
// itself (from what the clip holds: a second of black, a second of white), xdotool clicks and
// types, and the test reads the screenshot and the state line test runs print at exit (the frame
// shown, the OSD's lines, the timeline's state and how many scans were started). The last test
// lets the viewer's own background scan (`vhist qc --timeline-file`, a child process) make the cache.
#include "test_clips.h"

#include "vhist/media/png.h"
#include "vhist/qc/timeline_file.h"

#include <sys/wait.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <chrono>
#include <sstream>
#include <string>

namespace vhist {
namespace {

namespace fs = std::filesystem;
using test::clip_dir;
using test::make_clip;
using test::quote;
using test::read_file;

constexpr int kFrames = 20;     // the clip's: 10 black, then 10 white
constexpr double kRate = 10.0;  // frames a second
constexpr std::uint32_t kWidth = 160, kHeight = 90;
constexpr const char* kSettings = "show_panel = false\nbins = 64\ntimeline = true\n";

bool have_xdotool() { return std::system("command -v xdotool > /dev/null 2>&1") == 0; }

// One second of black, one of white, every frame a keyframe (seeks land on the frame asked for).
std::string black_white_clip() {
  return make_clip("timeline_black_white.mkv",
                   "-f lavfi -i color=black:s=160x90:r=10:d=1 -f lavfi -i color=white:s=160x90:r=10:d=1 "
                   "-filter_complex concat=n=2:v=1 -c:v mpeg4 -q:v 2 -g 1 -pix_fmt yuv420p");
}

// The cache folder a run uses (XDG_CACHE_HOME), fresh.
fs::path fresh_cache(const std::string& name) {
  const fs::path dir = clip_dir() / ("timeline-cache-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The clip's timeline as its frames are: limited-range Y' 16 (black) then 235 (white) on every
// pixel, R'G'B' 0 then 255; and three events (black 0-9, clipped 12-14, R 103 16-17). `hlg`:
// the frames also carry an HLG light (MaxCLL 50 then 900 cd/m2), as `vhist qc` measures it.
void write_timeline(const std::string& clip, const fs::path& cache, bool hlg = false) {
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  const auto identity = qc::identify_input(clip);
  ASSERT_TRUE(identity);
  qc::TimelineFile file;
  file.input = *identity;
  file.frame_rate = kRate;
  file.duration = kFrames / kRate;
  file.complete = true;
  file.timeline = qc::Timeline(kFrames);
  for (int i = 0; i < kFrames; ++i) {
    const bool white = i >= kFrames / 2;
    qc::QcFrame f;
    f.frame = i, f.pts = i / kRate, f.limited = true;
    f.y_min = f.y_p10 = f.y_mean = f.y_p90 = f.y_max = white ? 100.0f : 0.0f;
    if (hlg) f.hlg = true, f.max_cll = white ? 900.0f : 50.0f, f.fall = white ? 400.0f : 20.0f;
    std::array<std::uint32_t, qc::kTimelineLevels * 4> h{};
    for (std::uint32_t c = 0; c < 3; ++c) h[(white ? 255u : 0u) * 4 + c] = kWidth * kHeight;
    h[(white ? 235u : 16u) * 4 + 3] = kWidth * kHeight;
    file.timeline.add(f, h);
  }
  const auto event = [](qc::Check check, std::int64_t first, std::int64_t last) {
    qc::Event e;
    e.check = check, e.first_frame = first, e.last_frame = last, e.start = first / kRate, e.end = (last + 1) / kRate;
    e.start_timecode = qc::timecode_from_time(e.start, kRate), e.end_timecode = qc::timecode_from_time(e.end, kRate);
    e.unit = "%";
    return e;
  };
  file.events = {event(qc::Check::black, 0, 9), event(qc::Check::clipped, 12, 14), event(qc::Check::r103_luma, 16, 17)};
  ASSERT_EQ(qc::save_timeline(qc::timeline_cache_path(*identity), file), "");
}

struct TimelineRun {
  int status = -1;
  std::string err, state, command;
  fs::path dir;
  media::RgbaImage shot;
};

// Runs `vhist ARGS` under Xvfb with the cache `cache`; `script` runs beside it once the window is
// up (test::beside_viewer: $W the window, the waits of tests/window_script.sh). With an empty
// script the run ends in a screenshot (--screenshot). The scripts end the run with Q once they
// have seen what they wait for; --quit-after is only a ceiling for a viewer that never gets there.
// The scan runs at the viewer's priority (VHIST_TEST_SCAN_PRIORITY=normal, a test hook): a test
// waits for the scan's progress, which on a loaded machine an idle-priority child may not make
// for a long while; Timeline.ScanRunsAtIdlePriority runs it as users get it (`idle_scan`).
TimelineRun run_timeline(const std::string& name, const fs::path& cache, const std::string& args, const std::string& script = "",
                         const std::string& settings = kSettings, bool idle_scan = false) {
  TimelineRun r;
  r.dir = clip_dir() / ("timeline-" + name);
  fs::remove_all(r.dir);
  fs::create_directories(r.dir / "config" / "vhist");
  std::ofstream(r.dir / "config" / "vhist" / "settings.ini", std::ios::binary) << settings;
  const std::string viewer = "VHIST_VALIDATION=1 " + quote(VHIST_BINARY) + " " + args +
                             (script.empty() ? " --screenshot shot.png" : "") + " 2> stderr.txt";
  const std::string inner = script.empty() ? viewer : test::beside_viewer(viewer, script);
  r.command = "cd " + quote(r.dir.string()) + " && env -u XDG_PICTURES_DIR" +
              (idle_scan ? " -u VHIST_TEST_SCAN_PRIORITY" : " VHIST_TEST_SCAN_PRIORITY=normal") + " XDG_CONFIG_HOME=" +
              quote((r.dir / "config").string()) + " XDG_CACHE_HOME=" + quote(cache.string()) +
              " timeout -k 10 200 " + test::with_display("1280x800") + "sh -c " + quote(inner) + " > stdout.txt";
  const int raw = std::system(r.command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.err = read_file(r.dir / "stderr.txt");
  // The screenshot: --screenshot's, or the one the S key saved (named after the clip).
  fs::path shot = r.dir / "shot.png";
  for (const auto& e : fs::directory_iterator(r.dir)) {
    if (!fs::exists(shot) && e.path().extension() == ".png") shot = e.path();
  }
  if (fs::exists(shot)) r.shot = media::read_png(shot.string());
  const auto at = r.err.find("vhist: state: ");
  if (at != std::string::npos) r.state = r.err.substr(at, r.err.find('\n', at) - at);
  return r;
}

// Where the OSD log names frame `n` ("frame 12", or "frame ~12" where the number is the player's
// estimate after a seek), from `from` on; npos when it does not.
std::size_t find_frame(const TimelineRun& r, int n, std::size_t from = 0) {
  for (std::size_t at = r.state.find("frame ", from); at != std::string::npos; at = r.state.find("frame ", at + 1)) {
    std::size_t digits = at + 6;
    if (digits < r.state.size() && r.state[digits] == '~') ++digits;
    const std::string number = std::to_string(n);
    if (r.state.compare(digits, number.size(), number) == 0 &&
        (digits + number.size() >= r.state.size() || !std::isdigit(static_cast<unsigned char>(r.state[digits + number.size()])))) {
      return at;
    }
  }
  return std::string::npos;
}

std::string context(const TimelineRun& r) { return "command: " + r.command + "\nstderr:\n" + r.err; }

// The state line's heatmap rectangle: x0, y0, x1, y1.
std::optional<std::array<int, 4>> heat_rect(const TimelineRun& r) {
  const auto at = r.state.find(" heat ");
  std::array<int, 4> v{};
  if (at == std::string::npos || std::sscanf(r.state.c_str() + at, " heat %d,%d-%d,%d", &v[0], &v[1], &v[2], &v[3]) != 4) {
    return std::nullopt;
  }
  return v;
}

// The row of `rect` with the most bright pixels (some channel above 150) in columns [x0, x1): the
// heatmap's busiest band runs across all of them (the label at its top left does not).
int brightest_row(const media::RgbaImage& img, const std::array<int, 4>& rect, int x0, int x1) {
  int best = -1, best_count = 0;
  for (int y = rect[1]; y < rect[3]; ++y) {
    int count = 0;
    for (int x = x0; x < x1; ++x) {
      const std::uint8_t* p = &img.pixels[(static_cast<std::size_t>(y) * img.width + static_cast<std::size_t>(x)) * 4];
      if (std::max({p[0], p[1], p[2]}) > 150) ++count;
    }
    if (count > best_count) best = y, best_count = count;
  }
  return best;
}

// (a) The strip under the picture draws the cached timeline: the black second's luma at level 16
// of 256 near the heatmap's bottom, the white second's at 235 near its top; loaded from the
// cache, no scan started.
TEST(Timeline, HeatmapShowsTheLevelsOfEachHalf) {
  const std::string clip = black_white_clip();
  const fs::path cache = fresh_cache("heatmap");
  write_timeline(clip, cache);
  const TimelineRun r = run_timeline("heatmap", cache, quote(clip) + " --frames 12 --paused-at 0.5 --size 640x360");
  ASSERT_EQ(r.status, 0) << context(r);
  EXPECT_NE(r.state.find("timeline ready (spawned 0)"), std::string::npos) << context(r);
  const auto rect = heat_rect(r);
  ASSERT_TRUE(rect) << context(r);
  ASSERT_EQ(r.shot.width, 640u);
  const int w = (*rect)[2] - (*rect)[0], h = (*rect)[3] - (*rect)[1];
  ASSERT_GT(h, 16) << "the heatmap is too small to read";
  EXPECT_GT((*rect)[1], 360 / 2) << "the strip is under the picture";
  const int left = brightest_row(r.shot, *rect, (*rect)[0] + w / 10, (*rect)[0] + 4 * w / 10);
  const int right = brightest_row(r.shot, *rect, (*rect)[0] + 6 * w / 10, (*rect)[0] + 9 * w / 10);
  const auto level_row = [&](double level) { return (*rect)[3] - (level + 0.5) / 256.0 * h; };
  const double tolerance = h / 32.0 + 2;  // a band of levels (32 bands at the fewest) and the curves' width
  EXPECT_NEAR(left, level_row(16), tolerance) << context(r);
  EXPECT_NEAR(right, level_row(235), tolerance) << context(r);
  // The playing position (paused at 0.5 s: frame 5 of 20) is a white line through the middle of
  // frame 5's column, where the heatmap itself is dark (no level between 16 and 235 is used).
  const int mid_y = ((*rect)[1] + (*rect)[3]) / 2;
  const int x = static_cast<int>(std::lround((*rect)[0] + w * 5.5 / kFrames));
  int white = 0;
  for (int dx = -1; dx <= 1; ++dx) {
    const std::uint8_t* p = &r.shot.pixels[(static_cast<std::size_t>(mid_y) * 640 + static_cast<std::size_t>(x + dx)) * 4];
    if (std::min({p[0], p[1], p[2]}) > 200) ++white;
  }
  EXPECT_GT(white, 0) << "no playhead at x " << x << "\n" << context(r);
  const std::uint8_t* away = &r.shot.pixels[(static_cast<std::size_t>(mid_y) * 640 + static_cast<std::size_t>(x + w / 4)) * 4];
  EXPECT_LT(std::max({away[0], away[1], away[2]}), 60) << "the heatmap is lit between the levels used";
}

// (b) A click at half the strip's width seeks to the middle frame (10 of 20: 1.0 s); then T
// turns the timeline off: no strip.
TEST(Timeline, ClickAtHalfTheWidthSeeksToTheMiddleFrame) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string clip = black_white_clip();
  const fs::path cache = fresh_cache("click");
  write_timeline(clip, cache);
  const TimelineRun r = run_timeline("click", cache, quote(clip) + " --paused-at 0.3 --quit-after 150 --size 640x360",
                                     "wait_state 'frame at 0.300 s.*timeline ready .* heat [0-9]'; "
                                     "xdotool mousemove --window $W 320 340 click 1; wait_state 'frame at 1.000 s'; "
                                     "xdotool key t; wait_state 'heat none'; xdotool key q");
  ASSERT_EQ(r.status, 0) << context(r);
  EXPECT_NE(r.state.find("frame at 1.000 s"), std::string::npos) << context(r);
  EXPECT_NE(find_frame(r, 10), std::string::npos) << context(r);
  EXPECT_NE(r.state.find("timeline none (spawned 0) heat none"), std::string::npos) << context(r);
}

// (c) PgDn and PgUp land on the first frame of the next and the previous event.
TEST(Timeline, EventKeysLandOnTheEventsFirstFrames) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string clip = black_white_clip();
  const fs::path cache = fresh_cache("keys");
  write_timeline(clip, cache);
  // Each key once the frame before it has come, so that the OSD names each landing.
  const TimelineRun r = run_timeline("keys", cache, quote(clip) + " --paused-at 0.5 --quit-after 150 --size 640x360",
                                     "wait_state 'frame at 0.500 s.*timeline ready'; xdotool key Next; "
                                     "wait_state 'frame at 1.200 s'; xdotool key Next; wait_state 'frame at 1.600 s'; "
                                     "xdotool key Prior; wait_state 'frame at 1.200 s'; xdotool key q");
  ASSERT_EQ(r.status, 0) << context(r);
  EXPECT_NE(r.state.find("frame at 1.200 s"), std::string::npos) << context(r);
  const auto first = find_frame(r, 12), second = find_frame(r, 16);
  ASSERT_NE(first, std::string::npos) << context(r);
  ASSERT_NE(second, std::string::npos) << context(r);
  EXPECT_LT(first, second);
  EXPECT_NE(find_frame(r, 12, second), std::string::npos) << context(r);
}

// (d) Without a cache the viewer runs `vhist qc --timeline-file` as a child, which writes the cache,
// and loads it; the next run loads it from the cache without starting a scan.
TEST(Timeline, BackgroundScanFillsTheCacheAndReopenUsesIt) {
  const std::string clip = black_white_clip();
  const fs::path cache = fresh_cache("scan");
  const TimelineRun first = run_timeline("scan-1", cache, quote(clip) + " --paused-at 0.5 --quit-after 150 --size 640x360",
                                         "wait_state 'timeline (ready|failed)'; xdotool key q");
  ASSERT_EQ(first.status, 0) << context(first);
  EXPECT_NE(first.state.find("timeline ready (spawned 1)"), std::string::npos) << context(first);
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  const auto identity = qc::identify_input(clip);
  ASSERT_TRUE(identity);
  std::string error;
  const auto file = qc::load_timeline(qc::timeline_cache_path(*identity), error);
  ASSERT_TRUE(file) << error;
  EXPECT_EQ(file->timeline.frames().size(), static_cast<std::size_t>(kFrames));
  const TimelineRun second = run_timeline("scan-2", cache, quote(clip) + " --frames 12 --paused-at 0.5 --size 640x360");
  ASSERT_EQ(second.status, 0) << context(second);
  EXPECT_NE(second.state.find("timeline ready (spawned 0)"), std::string::npos) << context(second);
}

// Ten minutes of a moving 720p pattern: its scan takes far longer than the runs below leave it.
// Ten seconds encoded, then copied 60 times over (timestamps run on: 6,000 frames, 600 s), which
// takes a second where encoding all ten minutes took 48 s; the scan decodes every frame alike.
std::string long_clip() {
  const std::string ten_seconds =
      make_clip("timeline_10s.mkv", "-f lavfi -i testsrc2=s=1280x720:r=10:d=10 -c:v mpeg4 -q:v 10 -g 100");
  return make_clip("timeline_long.mkv", "-stream_loop 59 -i " + quote(ten_seconds) + " -c copy");
}

// Whether a process runs `vhist qc CLIP` into the cache folder `cache` (its command line's
// arguments, from /proc): the scan of this test's viewer, not of another test's that scans the
// same shared clip at the same time.
bool scan_running(const std::string& clip, const fs::path& cache) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string args = read_file(e.path() / "cmdline");
    if (args.find(std::string("qc") + '\0' + clip + '\0') != std::string::npos &&
        args.find(cache.string() + "/") != std::string::npos) {
      return true;
    }
  }
  return false;
}

// While the scan runs the strip shows its progress (a bar in the scan's blue), and the child ends
// with the viewer: no `vhist qc` of the clip is left running once the viewer has quit.
TEST(Timeline, ScanShowsProgressAndEndsWithTheViewer) {
  const std::string clip = long_clip();
  const fs::path cache = fresh_cache("progress");
  // The screenshot (S) once the scan has done 1 % of the frames (a bar of a few pixels; a plain
  // build needs about 16 s for the whole clip, so it still runs), then Q while it runs.
  const TimelineRun r = run_timeline("progress", cache, quote(clip) + " --paused-at 1 --quit-after 150 --size 640x360",
                                     "wait_state 'timeline (scanning|failed|ready)'; "
                                     "scan_past_1_percent() { state_matches 'timeline (failed|ready)' || sed -n "
                                     "'s/.* scan \\([0-9]*\\)\\/\\([0-9]*\\),.*/\\1 \\2/p' \"$VHIST_TEST_STATE\" | "
                                     "awk '{ exit !($2 > 0 && $1 * 100 >= $2) }'; }; "
                                     "wait_until 'the scan passed 1 %' scan_past_1_percent; "
                                     "xdotool key s; wait_file_like '*.png'; xdotool key q");
  ASSERT_EQ(r.status, 0) << context(r);
  EXPECT_NE(r.state.find("timeline scanning (spawned 1)"), std::string::npos) << context(r);
  ASSERT_EQ(r.shot.width, 640u) << context(r);
  int bar = 0;  // pixels of the progress bar's filled part, in the strip (the window's bottom fifth)
  for (std::uint32_t y = 288; y < 360; ++y) {
    for (std::uint32_t x = 0; x < 640; ++x) {
      const std::uint8_t* p = &r.shot.pixels[(std::size_t{y} * 640 + x) * 4];
      if (p[0] == 90 && p[1] == 150 && p[2] == 255) ++bar;
    }
  }
  EXPECT_GT(bar, 0) << "no progress bar in the strip\n" << context(r);
  EXPECT_FALSE(scan_running(clip, cache)) << "a scan outlived the viewer";
}

// As users run it (no test hook), the scan's child runs at idle priority: SCHED_IDLE (or
// SCHED_BATCH where the kernel refuses it) and nice 10, so that it never takes a core from
// playback; the viewer's own threads keep theirs.
TEST(Timeline, ScanRunsAtIdlePriority) {
  const std::string clip = long_clip();
  const fs::path cache = fresh_cache("priority");
  // policy.txt: "child <chrt's policy line>", "nice <the child's nice: /proc's stat, field 19;
  // ps shows none for SCHED_IDLE>", "viewer <chrt's line>".
  const TimelineRun r = run_timeline(
      "priority", cache, quote(clip) + " --paused-at 1 --quit-after 150 --size 640x360",
      "wait_state 'timeline (scanning|failed|ready)'; child=$(pgrep -P \"$pid\" -f ' qc '); "
      "{ echo \"child $(chrt -p \"$child\" | head -1)\"; echo \"nice $(cut -d' ' -f19 /proc/$child/stat)\"; "
      "echo \"viewer $(chrt -p \"$pid\" | head -1)\"; } > policy.txt; xdotool key q",
      kSettings, true);
  ASSERT_EQ(r.status, 0) << context(r);
  const std::string policy = read_file(r.dir / "policy.txt");
  std::istringstream lines(policy);
  std::string child_policy, nice_line, viewer_policy;
  std::getline(lines, child_policy);
  std::getline(lines, nice_line);
  std::getline(lines, viewer_policy);
  EXPECT_TRUE(child_policy.find("SCHED_IDLE") != std::string::npos || child_policy.find("SCHED_BATCH") != std::string::npos)
      << policy << context(r);
  std::istringstream nice_words(nice_line);
  std::string word;
  int nice = -99;
  nice_words >> word >> nice;
  EXPECT_EQ(nice, 10) << policy;
  EXPECT_NE(viewer_policy.find("SCHED_OTHER"), std::string::npos) << "the viewer's own priority changed\n" << policy;
}

// Whether the viewer of the run in `dir` (its pid in pid.txt, test::beside_viewer) still runs.
bool viewer_running(const fs::path& dir) {
  const std::string pid = read_file(dir / "pid.txt");
  const std::string args = pid.empty() ? std::string() : read_file(fs::path("/proc") / pid.substr(0, pid.find('\n')) / "cmdline");
  return args.starts_with(std::string(VHIST_BINARY) + '\0');
}

// Opening another file (the panel's path field) ends the scan of the one before, while the viewer
// goes on; the new file's timeline comes from the cache.
TEST(Timeline, OpeningAnotherFileEndsTheScan) {
  if (!have_xdotool()) GTEST_SKIP() << "xdotool is not installed (scripts/setup.sh installs it)";
  const std::string small = black_white_clip();
  const fs::path cache = fresh_cache("reopen");
  write_timeline(small, cache);
  const std::string clip = long_clip();
  TimelineRun r;
  std::atomic<bool> ended{false};
  std::thread viewer([&] {
    r = run_timeline("reopen", cache, quote(clip) + " --size 1280x720 --paused-at 1 --quit-after 150",
                     // The path field: the panel's first row (the panel from x = 921.6 at 1280 wide),
                     // once the long clip's scan runs; then the small clip's timeline from the cache.
                     "wait_state 'timeline scanning.* scan [1-9]'; wait_frames 3; "
                     "xdotool mousemove --window $W 1000 36 click 1; wait_frames 3; "
                     "xdotool keydown ctrl+a; wait_frames 2; xdotool keyup ctrl+a; xdotool type --delay 20 " + quote(small) +
                         "; wait_frames 2; xdotool keydown Return; wait_frames 2; xdotool keyup Return; "
                         "wait_state 'timeline ready'; xdotool key q",
                     "osd = false\nshow_panel = true\ntimeline = true\n");
    ended = true;
  });
  // The long clip's scan starts, then ends while its viewer still runs (looked at every 20 ms
  // until the run is over: the script opens the other file only once the scan has done frames).
  bool seen = false, ended_in_time = false;
  while (!ended) {
    const bool scanning = scan_running(clip, cache);
    seen = seen || scanning;
    if (seen && !scanning) {
      ended_in_time = viewer_running(clip_dir() / "timeline-reopen");
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  viewer.join();
  ASSERT_EQ(r.status, 0) << context(r);
  EXPECT_TRUE(seen) << "the long clip's scan never ran\n" << context(r);
  EXPECT_TRUE(ended_in_time) << "the scan did not end when the other file was opened\n" << context(r);
  EXPECT_NE(r.state.find("timeline ready (spawned 1)"), std::string::npos) << context(r);
  EXPECT_NE(r.state.find("path field \"" + small + "\""), std::string::npos) << context(r);
  // Ended, not finished: no complete timeline of the long clip in the cache.
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  std::string error;
  const auto partial = qc::load_timeline(qc::timeline_cache_path(*qc::identify_input(clip)), error);
  EXPECT_FALSE(partial && partial->complete) << "the scan had finished before the other file was opened";
}

// Pixels of the light lane's MaxCLL curve below the heatmap: its yellow (255,230,120) as drawn
// (about 223,201,106), which no other lane or event uses.
int light_curve_pixels(const TimelineRun& r, const std::array<int, 4>& heat) {
  int n = 0;
  for (std::uint32_t y = static_cast<std::uint32_t>(heat[3]); y < r.shot.height; ++y) {
    for (std::uint32_t x = 0; x < r.shot.width; ++x) {
      const std::uint8_t* p = &r.shot.pixels[(static_cast<std::size_t>(y) * r.shot.width + x) * 4];
      if (p[0] > 200 && p[1] > 180 && p[1] < 235 && p[0] > p[1] && p[2] > 85 && p[2] < 135) ++n;
    }
  }
  return n;
}

// An HLG file's timeline has the light lane (its MaxCLL curve in yellow) under the heatmap; the
// same timeline without light has none.
TEST(Timeline, HlgFileHasALightLane) {
  const std::string clip = black_white_clip();
  int curve[2] = {0, 0};
  for (const bool hlg : {false, true}) {
    const fs::path cache = fresh_cache(hlg ? "hlg" : "sdr");
    write_timeline(clip, cache, hlg);
    const TimelineRun r = run_timeline(hlg ? "hlg" : "sdr", cache, quote(clip) + " --frames 12 --paused-at 0.5 --size 800x500");
    ASSERT_EQ(r.status, 0) << context(r);
    const auto rect = heat_rect(r);
    ASSERT_TRUE(rect) << context(r);
    curve[hlg ? 1 : 0] = light_curve_pixels(r, *rect);
  }
  EXPECT_EQ(curve[0], 0);
  EXPECT_GT(curve[1], 100) << "no MaxCLL curve under the heatmap";
}

}  // namespace
}  // namespace vhist
