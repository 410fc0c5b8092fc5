// Live cameras against a real V4L2 driver: meant to run INSIDE the vivid VM that
// tests/camera/run_vivid_tests.sh boots (the kernel's vivid driver gives /dev/video0, or
// /dev/video0 and /dev/video1 for the TwoCameras tests). It runs as root there, so it can
// unbind and bind the driver to simulate an unplug. Not for the host: it would fail without vivid.
//
// The VM is slow (software emulation), so the scenarios are short and the frame sizes small.
#include "vhist/media/camera.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_stats.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace vhist {
namespace {

using namespace std::chrono_literals;
using media::CameraOptions;
using media::CameraSource;
using media::DecodedFrame;
using media::MediaError;
using media::MediaSource;
using Clock = std::chrono::steady_clock;

double monotonic_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The message of the MediaError `f` throws, or "" (and a failure) when it throws none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const MediaError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no MediaError thrown";
  return {};
}

bool write_sysfs(const std::string& file, const std::string& value) {
  std::ofstream out(file);
  out << value << std::flush;
  return static_cast<bool>(out);
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Waits for `path` to exist (after a bind).
bool wait_for_node(const std::string& path, std::chrono::milliseconds timeout) {
  const auto until = Clock::now() + timeout;
  while (!exists(path)) {
    if (Clock::now() > until) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

// Destroys `source` and returns how long that took, in seconds.
double destroy(std::unique_ptr<CameraSource>& source) {
  const auto t0 = Clock::now();
  source.reset();
  return seconds_since(t0);
}

const media::CameraInfo* find_camera(const media::CameraListing& l, const std::string& path) {
  for (const auto& c : l.cameras) {
    if (c.path == path) return &c;
  }
  return nullptr;
}

// --- finding cameras ----------------------------------------------------------------------

TEST(Camera, ListFindsVivid) {
  const media::CameraListing listing = media::list_cameras();
  for (const auto& e : listing.errors) ADD_FAILURE() << "listing error: " << e;
  const media::CameraInfo* cam = find_camera(listing, "/dev/video0");
  ASSERT_NE(cam, nullptr) << "no /dev/video0 among " << listing.cameras.size() << " cameras";
  EXPECT_EQ(cam->driver, "vivid");
  EXPECT_FALSE(cam->name.empty());
  EXPECT_FALSE(cam->bus.empty());
  bool yuyv = false, nv12 = false, size = false, fps30 = false;
  for (const auto& m : cam->modes) {
    yuyv = yuyv || m.pixel_format == "YUYV";
    nv12 = nv12 || m.pixel_format == "NV12";
    if (m.pixel_format == "YUYV" && m.width == 640 && m.height == 360) {
      size = true;
      for (double r : m.frame_rates) fps30 = fps30 || std::abs(r - 30.0) < 1e-6;
    }
  }
  EXPECT_TRUE(yuyv);
  EXPECT_TRUE(nv12);
  EXPECT_TRUE(size) << "640x360 YUYV not listed";
  EXPECT_TRUE(fps30) << "30 fps not offered at 640x360 YUYV";
  EXPECT_TRUE(media::is_camera_path("/dev/video0"));
  EXPECT_TRUE(media::is_camera_path("/dev/video9"));  // missing, but meant as a camera
  EXPECT_FALSE(media::is_camera_path("/dev/null"));
  EXPECT_FALSE(media::is_camera_path("/etc/hostname"));
}

// --- capturing -----------------------------------------------------------------------------

struct CaptureCase {
  const char* fourcc;
  const char* ffmpeg;
  std::uint32_t planes;
  std::uint32_t shift_y;
};

class Capture : public ::testing::TestWithParam<CaptureCase> {};

TEST_P(Capture, ThirtyFramesAtThirtyFps) {
  const CaptureCase& c = GetParam();
  CameraOptions options;
  options.pixel_format = c.fourcc;
  options.width = 640;
  options.height = 360;
  options.frame_rate = 30;
  const auto t_open = Clock::now();
  auto source = CameraSource::open("/dev/video0", options);
  std::printf("[ info     ] %s: open took %.3f s\n", c.fourcc, seconds_since(t_open));
  EXPECT_EQ(source->info().width, 640u);
  EXPECT_EQ(source->info().height, 360u);
  EXPECT_EQ(source->info().frame_count, -1);
  EXPECT_NEAR(source->info().frame_rate, 30.0, 1e-6);

  std::vector<DecodedFrame> frames;
  std::vector<double> ages;  // capture to next(), ms
  double previous_pts = -1;
  while (frames.size() < 30) {
    DecodedFrame f;
    ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame) << "after " << frames.size() << " frames";
    const double now = monotonic_now();
    EXPECT_LT(std::abs(now - f.pts), 1.0) << "pts " << f.pts << " is not close to CLOCK_MONOTONIC " << now;
    ages.push_back((now - f.pts) * 1000.0);
    EXPECT_GT(f.pts, previous_pts) << "pts not increasing at frame " << frames.size();
    previous_pts = f.pts;
    frames.push_back(std::move(f));
  }
  const auto status = source->status();
  EXPECT_TRUE(status.connected) << status.message;
  EXPECT_GE(status.captured, 30);

  // The rate from the timestamps, over the frames captured (dropped ones included).
  const double span = frames.back().pts - frames.front().pts;
  const double count = static_cast<double>(frames.back().index - frames.front().index);
  ASSERT_GT(span, 0);
  const double rate = count / span;
  std::printf("[ info     ] %s: %.2f fps measured, %lld captured, %lld dropped, capture to next() median %.1f ms\n",
              c.fourcc, rate, static_cast<long long>(status.captured), static_cast<long long>(status.dropped),
              median(ages));
  EXPECT_NEAR(rate, 30.0, 6.0);

  for (const DecodedFrame& f : frames) {
    EXPECT_EQ(f.format.width, 640u);
    EXPECT_EQ(f.format.height, 360u);
    EXPECT_EQ(f.format.pixel_format, c.ffmpeg);
    EXPECT_EQ(f.format.model, ColourModel::yuv);
    EXPECT_EQ(f.format.bits, 8u);
    EXPECT_EQ(f.format.plane_count, c.planes);
    EXPECT_EQ(f.format.chroma_shift_x, 1u);
    EXPECT_EQ(f.format.chroma_shift_y, c.shift_y);
    // vivid's webcam: sRGB, whose default Y'CbCr encoding is BT.601, limited range.
    EXPECT_EQ(f.format.matrix, ColourMatrix::bt601);
    EXPECT_EQ(f.format.range, ColourRange::limited);
    EXPECT_FALSE(f.converted);
    EXPECT_FALSE(f.damaged);
  }
  // A few frames through the CPU engine against the reference, exactly.
  CpuEngine cpu(2);
  for (std::size_t i : {std::size_t{0}, std::size_t{14}, std::size_t{29}}) {
    const DecodedFrame& f = frames[i];
    const std::uint32_t bins = stats_levels(f.format.bits);
    const auto rgb = reference_convert(f.format, f.planes);
    const Histogram want = reference_histogram(rgb, converted_format(f.format), bins);
    EXPECT_EQ(cpu.histogram(f.format, f.planes, bins), want) << c.fourcc << " frame " << i;
  }
  frames.clear();
  EXPECT_LT(destroy(source), 1.0);
}

INSTANTIATE_TEST_SUITE_P(Vivid, Capture,
                         ::testing::Values(CaptureCase{"YUYV", "yuyv422", 1, 0}, CaptureCase{"nv12", "nv12", 2, 1}),
                         [](const auto& p) { return std::string(p.param.ffmpeg); });

// Luma only: vivid fills GREY with full-range values (black 0), as V4L2's default quantization
// says for it; the frames say so, and the histogram follows.
TEST(Camera, GreyIsFullRange) {
  CameraOptions options;
  options.pixel_format = "GREY";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  EXPECT_EQ(f.format.pixel_format, "gray");
  EXPECT_EQ(f.format.model, ColourModel::gray);
  EXPECT_EQ(f.format.range, ColourRange::full);
  int darkest = 255;
  for (std::uint32_t y = 0; y < f.format.height; ++y) {
    for (std::uint32_t x = 0; x < f.format.width; ++x) {
      darkest = std::min(darkest, static_cast<int>(f.planes.data[0][std::size_t{y} * f.planes.stride[0] + x]));
    }
  }
  EXPECT_LT(darkest, 16) << "vivid's black bar should be below the limited-range floor";
  CpuEngine cpu(2);
  const auto rgb = reference_convert(f.format, f.planes);
  EXPECT_EQ(cpu.histogram(f.format, f.planes, 256), reference_histogram(rgb, converted_format(f.format), 256));
}

TEST(Camera, FfmpegNameWorksToo) {
  CameraOptions options;
  options.pixel_format = "yuyv422";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  EXPECT_EQ(f.format.pixel_format, "yuyv422");
  EXPECT_EQ(f.format.width, 320u);
  EXPECT_EQ(source->info().pixel_format, "yuyv422");
  EXPECT_TRUE(source->status().connected);
  EXPECT_EQ(source->status().message, "");
}

// --- refusals -------------------------------------------------------------------------------

TEST(Camera, RefusedModesSayWhatIsOffered) {
  CameraOptions size;
  size.pixel_format = "YUYV";
  size.width = 123;
  size.height = 45;
  const std::string bad_size = error_of([&] { CameraSource::open("/dev/video0", size); });
  std::printf("[ info     ] %s\n", bad_size.c_str());
  EXPECT_NE(bad_size.find("123x45"), std::string::npos);
  EXPECT_NE(bad_size.find("640x360"), std::string::npos);

  CameraOptions format;
  format.pixel_format = "ZZZZ";
  const std::string bad_format = error_of([&] { CameraSource::open("/dev/video0", format); });
  std::printf("[ info     ] %s\n", bad_format.c_str());
  EXPECT_NE(bad_format.find("ZZZZ"), std::string::npos);
  EXPECT_NE(bad_format.find("YUYV"), std::string::npos);
  EXPECT_NE(bad_format.find("NV12"), std::string::npos);

  CameraOptions rate;
  rate.pixel_format = "YUYV";
  rate.width = 640;
  rate.height = 360;
  rate.frame_rate = 1000;
  const std::string bad_rate = error_of([&] { CameraSource::open("/dev/video0", rate); });
  std::printf("[ info     ] %s\n", bad_rate.c_str());
  EXPECT_NE(bad_rate.find("1000 fps"), std::string::npos);
  EXPECT_NE(bad_rate.find("30"), std::string::npos);

  // Offered by the device, but not something FFmpeg's v4l2 input captures.
  CameraOptions yvyu;
  yvyu.pixel_format = "YVYU";
  const std::string bad_yvyu = error_of([&] { CameraSource::open("/dev/video0", yvyu); });
  std::printf("[ info     ] %s\n", bad_yvyu.c_str());
  EXPECT_NE(bad_yvyu.find("YVYU"), std::string::npos);
}

TEST(Camera, NoSuchCamera) {
  const std::string e = error_of([] { CameraSource::open("/dev/video9"); });
  std::printf("[ info     ] %s\n", e.c_str());
  EXPECT_NE(e.find("no such camera"), std::string::npos);
  EXPECT_NE(e.find("/dev/video0"), std::string::npos) << "the message should name the cameras there are";
  const std::string not_camera = error_of([] { CameraSource::open("/dev/null"); });
  std::printf("[ info     ] %s\n", not_camera.c_str());
  EXPECT_NE(not_camera.find("not a camera"), std::string::npos);
}

TEST(Camera, Busy) {
  CameraOptions options;
  options.pixel_format = "YUYV";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto first = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  ASSERT_EQ(first->next(f, 3000ms), MediaSource::Status::frame);
  const std::string e = error_of([&] { CameraSource::open("/dev/video0", options); });
  std::printf("[ info     ] %s\n", e.c_str());
  EXPECT_NE(e.find("busy"), std::string::npos);
}

// --- faults --------------------------------------------------------------------------------

TEST(Camera, UnplugAndBackAgain) {
  CameraOptions options;
  options.pixel_format = "YUYV";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  const double last_pts = f.pts;

  const auto t_unplug = Clock::now();
  ASSERT_TRUE(write_sysfs("/sys/bus/platform/drivers/vivid/unbind", "vivid.0"));
  while (source->status().connected && seconds_since(t_unplug) < 3.5) std::this_thread::sleep_for(10ms);
  const auto lost = source->status();
  const double t_lost = seconds_since(t_unplug);
  std::printf("[ info     ] lost after %.3f s: %s\n", t_lost, lost.message.c_str());
  ASSERT_FALSE(lost.connected) << "still connected " << t_lost << " s after the unbind";
  EXPECT_LT(t_lost, 3.0);
  EXPECT_NE(lost.message.find("camera lost"), std::string::npos) << lost.message;
  EXPECT_NE(lost.message.find("waiting for it to come back"), std::string::npos) << lost.message;
  while (source->next(f, 0ms) == MediaSource::Status::frame) {
  }  // frames from before the unplug
  EXPECT_EQ(source->next(f, 300ms), MediaSource::Status::timeout);

  const auto t_bind = Clock::now();
  ASSERT_TRUE(write_sysfs("/sys/bus/platform/drivers/vivid/bind", "vivid.0"));
  ASSERT_EQ(source->next(f, 5000ms), MediaSource::Status::frame) << source->status().message;
  std::printf("[ info     ] frames again %.3f s after the bind\n", seconds_since(t_bind));
  EXPECT_GT(f.pts, last_pts);
  EXPECT_LT(std::abs(monotonic_now() - f.pts), 1.0);
  const auto back = source->status();
  EXPECT_TRUE(back.connected) << back.message;
  EXPECT_EQ(back.reconnects, 1);
  EXPECT_TRUE(back.message.empty()) << back.message;
  const double t_destroy = destroy(source);
  std::printf("[ info     ] destroyed in %.3f s\n", t_destroy);
  EXPECT_LT(t_destroy, 1.0);
}

TEST(Camera, UnplugThenDestroy) {
  CameraOptions options;
  options.pixel_format = "NV12";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  ASSERT_TRUE(write_sysfs("/sys/bus/platform/drivers/vivid/unbind", "vivid.0"));
  std::this_thread::sleep_for(700ms);  // the source is between reopen tries now
  const double t_destroy = destroy(source);
  std::printf("[ info     ] destroyed while unplugged in %.3f s\n", t_destroy);
  EXPECT_LT(t_destroy, 1.0);
  ASSERT_TRUE(write_sysfs("/sys/bus/platform/drivers/vivid/bind", "vivid.0"));
  ASSERT_TRUE(wait_for_node("/dev/video0", 5000ms));
}

// vivid's disconnect control: every call on the open handles fails with ENODEV (like an unplug
// that leaves the node in /dev); vivid comes back once its last user has closed it, which the
// source does when it notices.
TEST(Camera, DisconnectControl) {
  CameraOptions options;
  options.pixel_format = "YUYV";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  const auto t0 = Clock::now();
  ASSERT_EQ(std::system("v4l2-ctl -d /dev/video0 -c disconnect=1"), 0);
  while (source->status().connected && seconds_since(t0) < 3.5) std::this_thread::sleep_for(10ms);
  const auto lost = source->status();
  std::printf("[ info     ] lost after %.3f s: %s\n", seconds_since(t0), lost.message.c_str());
  EXPECT_FALSE(lost.connected);
  EXPECT_NE(lost.message.find("camera lost"), std::string::npos) << lost.message;
  while (source->next(f, 0ms) == MediaSource::Status::frame) {
  }
  ASSERT_EQ(source->next(f, 5000ms), MediaSource::Status::frame) << source->status().message;
  std::printf("[ info     ] frames again %.3f s after the disconnect\n", seconds_since(t0));
  EXPECT_EQ(source->status().reconnects, 1);
  EXPECT_TRUE(source->status().connected);
  const double t_destroy = destroy(source);
  std::printf("[ info     ] destroyed in %.3f s\n", t_destroy);
  EXPECT_LT(t_destroy, 1.0);
}

// Disconnected, and destroyed before the camera comes back: prompt all the same.
TEST(Camera, DisconnectThenDestroy) {
  CameraOptions options;
  options.pixel_format = "YUYV";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  ASSERT_EQ(std::system("v4l2-ctl -d /dev/video0 -c disconnect=1"), 0);
  std::this_thread::sleep_for(100ms);
  const double t_destroy = destroy(source);
  std::printf("[ info     ] destroyed in %.3f s\n", t_destroy);
  EXPECT_LT(t_destroy, 1.0);
  ASSERT_TRUE(wait_for_node("/dev/video0", 3000ms));
}

// No frames and no errors (vivid drops every buffer): the watchdog notices, the source reopens
// the device, and frames come back once the camera sends them again.
TEST(Camera, WatchdogNoticesSilence) {
  CameraOptions options;
  options.pixel_format = "YUYV";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  options.watchdog = 800ms;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  const auto t0 = Clock::now();
  ASSERT_EQ(std::system("v4l2-ctl -d /dev/video0 -c percentage_of_dropped_buffers=100"), 0);
  while (source->status().connected && seconds_since(t0) < 3) std::this_thread::sleep_for(10ms);
  const auto lost = source->status();
  std::printf("[ info     ] lost after %.3f s: %s\n", seconds_since(t0), lost.message.c_str());
  EXPECT_FALSE(lost.connected);
  EXPECT_NE(lost.message.find("no frame for 0.8 s"), std::string::npos) << lost.message;
  while (source->next(f, 0ms) == MediaSource::Status::frame) {
  }
  std::this_thread::sleep_for(700ms);  // reopened, still nothing
  EXPECT_FALSE(source->status().connected);
  EXPECT_EQ(source->status().reconnects, 0);
  const auto t1 = Clock::now();
  ASSERT_EQ(std::system("v4l2-ctl -d /dev/video0 -c percentage_of_dropped_buffers=0"), 0);
  ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame) << source->status().message;
  std::printf("[ info     ] frames again %.3f s after the drops stopped\n", seconds_since(t1));
  EXPECT_TRUE(source->status().connected);
  EXPECT_EQ(source->status().reconnects, 1);
  EXPECT_LT(destroy(source), 1.0);
}

// Buffers the driver marks as bad (V4L2_BUF_FLAG_ERROR) are counted, not delivered.
TEST(Camera, BadBuffersAreCounted) {
  CameraOptions options;
  options.pixel_format = "YUYV";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  ASSERT_EQ(std::system("v4l2-ctl -d /dev/video0 -c inject_v4l2_buf_flag_error=1"), 0);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  const auto r = source->report();
  std::printf("[ info     ] packets %lld, frames %lld, lost %lld\n", static_cast<long long>(r.packets),
              static_cast<long long>(r.frames), static_cast<long long>(r.lost));
  EXPECT_EQ(r.lost, 1);
  EXPECT_EQ(r.packets, r.frames + r.lost);
  EXPECT_TRUE(source->status().connected);
}

TEST(Camera, FatalStreamingErrorRecovers) {
  CameraOptions options;
  options.pixel_format = "YUYV";
  options.width = 320;
  options.height = 180;
  options.frame_rate = 30;
  auto source = CameraSource::open("/dev/video0", options);
  DecodedFrame f;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame);
  ASSERT_EQ(std::system("v4l2-ctl -d /dev/video0 -c inject_fatal_streaming_error=1"), 0);
  const auto t0 = Clock::now();
  while (source->status().reconnects == 0 && seconds_since(t0) < 5) std::this_thread::sleep_for(10ms);
  const auto s = source->status();
  std::printf("[ info     ] reconnected after %.3f s; first error: %s\n", seconds_since(t0),
              source->report().first_error.c_str());
  EXPECT_EQ(s.reconnects, 1);
  while (source->next(f, 0ms) == MediaSource::Status::frame) {
  }
  EXPECT_EQ(source->next(f, 3000ms), MediaSource::Status::frame) << source->status().message;
  EXPECT_LT(destroy(source), 1.0);
}

// --- MJPEG (the v4l2loopback boot) ----------------------------------------------------------
// tests/camera/mjpeg.sh runs these with a producer inside the guest that writes JPEG frames to
// a v4l2loopback node: VHIST_MJPEG_CAMERA names that node; VHIST_MJPEG_COLOURS lists the
// R'G'B' colours (RRGGBB, comma-separated) of the solid frames the colour clip cycles through.

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

TEST(MjpegCamera, ListedWithItsMode) {
  const std::string path = env_or_empty("VHIST_MJPEG_CAMERA");
  if (path.empty()) GTEST_SKIP() << "VHIST_MJPEG_CAMERA not set (tests/camera/mjpeg.sh sets it)";
  const media::CameraListing listing = media::list_cameras();
  const media::CameraInfo* cam = find_camera(listing, path);
  ASSERT_NE(cam, nullptr) << path << " not listed";
  bool mode = false;
  for (const auto& m : cam->modes) {
    if (m.pixel_format == "MJPG" && m.width == 640 && m.height == 360) {
      for (double r : m.frame_rates) mode = mode || std::abs(r - 30.0) < 1e-6;
    }
  }
  EXPECT_TRUE(mode) << "MJPG 640x360 at 30 fps not listed for " << path;
}

// 30 frames of a 640x360 MJPEG camera at 30 fps: size, rate, full-range BT.601 Y'CbCr 4:2:0
// from the JPEG decoder, and histograms equal to the reference's of the decoded frames.
TEST(MjpegCamera, ThirtyFramesAtThirtyFps) {
  const std::string path = env_or_empty("VHIST_MJPEG_CAMERA");
  if (path.empty()) GTEST_SKIP() << "VHIST_MJPEG_CAMERA not set (tests/camera/mjpeg.sh sets it)";
  CameraOptions options;
  options.pixel_format = "mjpeg";  // FFmpeg's name; the fourcc MJPG works too
  options.width = 640;
  options.height = 360;
  options.frame_rate = 30;
  auto source = CameraSource::open(path, options);
  EXPECT_EQ(source->info().width, 640u);
  EXPECT_EQ(source->info().height, 360u);
  EXPECT_EQ(source->info().codec, "mjpeg");
  std::vector<DecodedFrame> frames;
  std::vector<double> ages;  // capture (the producer's write) to next(), ms
  double previous_pts = -1;
  while (frames.size() < 30) {
    DecodedFrame f;
    ASSERT_EQ(source->next(f, 3000ms), MediaSource::Status::frame) << "after " << frames.size() << " frames";
    const double now = monotonic_now();
    EXPECT_LT(std::abs(now - f.pts), 1.0) << "pts " << f.pts << " is not close to CLOCK_MONOTONIC";
    ages.push_back((now - f.pts) * 1000.0);
    EXPECT_GT(f.pts, previous_pts);
    previous_pts = f.pts;
    frames.push_back(std::move(f));
  }
  const auto status = source->status();
  EXPECT_TRUE(status.connected) << status.message;
  const double span = frames.back().pts - frames.front().pts;
  const double count = static_cast<double>(frames.back().index - frames.front().index);
  ASSERT_GT(span, 0);
  std::printf("[ info     ] MJPEG: %.2f fps measured, %lld captured, %lld dropped, capture to next() median %.1f ms\n",
              count / span, static_cast<long long>(status.captured), static_cast<long long>(status.dropped),
              median(ages));
  EXPECT_NEAR(count / span, 30.0, 6.0);
  for (const DecodedFrame& f : frames) {
    EXPECT_EQ(f.format.width, 640u);
    EXPECT_EQ(f.format.height, 360u);
    EXPECT_EQ(f.format.pixel_format, "yuvj420p");
    EXPECT_EQ(f.format.model, ColourModel::yuv);
    EXPECT_EQ(f.format.plane_count, 3u);
    EXPECT_EQ(f.format.chroma_shift_x, 1u);
    EXPECT_EQ(f.format.chroma_shift_y, 1u);
    EXPECT_EQ(f.format.matrix, ColourMatrix::bt601);
    EXPECT_EQ(f.format.range, ColourRange::full);
    EXPECT_FALSE(f.damaged);
  }
  CpuEngine cpu(2);
  for (std::size_t i : {std::size_t{0}, std::size_t{14}, std::size_t{29}}) {
    const DecodedFrame& f = frames[i];
    const std::uint32_t bins = stats_levels(f.format.bits);
    const auto rgb = reference_convert(f.format, f.planes);
    EXPECT_EQ(cpu.histogram(f.format, f.planes, bins), reference_histogram(rgb, converted_format(f.format), bins))
        << "MJPEG frame " << i;
  }
  frames.clear();
  EXPECT_LT(destroy(source), 1.0);
}

// Solid frames of known R'G'B' through JPEG (full-range BT.601 Y'CbCr, as JFIF says) and the
// camera: every channel's histogram must peak within 2 codes of the colour. Reading the frames
// as limited range, or with the BT.709 matrix that untagged HD video gets, would be off by 5 to
// 18 codes for these colours. The clip is 1280x720, so that the HD rule would show.
TEST(MjpegCamera, DecodesToFullRangeBt601) {
  const std::string path = env_or_empty("VHIST_MJPEG_CAMERA");
  const std::string list = env_or_empty("VHIST_MJPEG_COLOURS");
  if (path.empty() || list.empty()) GTEST_SKIP() << "VHIST_MJPEG_CAMERA/COLOURS not set (tests/camera/mjpeg.sh sets them)";
  std::vector<std::array<int, 3>> colours;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    const unsigned long v = std::stoul(list.substr(at, end - at), nullptr, 16);
    colours.push_back({static_cast<int>((v >> 16) & 255), static_cast<int>((v >> 8) & 255), static_cast<int>(v & 255)});
    at = end + 1;
  }
  ASSERT_GE(colours.size(), 2u);
  CameraOptions options;
  options.pixel_format = "MJPG";
  auto source = CameraSource::open(path, options);
  ASSERT_GE(source->info().height, 720u) << "the colour clip should be HD";
  std::vector<int> seen(colours.size(), 0);
  CpuEngine cpu(2);
  int frames = 0;
  const auto t0 = Clock::now();
  while (std::count(seen.begin(), seen.end(), 0) > 0 && seconds_since(t0) < 30) {
    DecodedFrame f;
    if (source->next(f, 3000ms) != MediaSource::Status::frame) break;
    ++frames;
    EXPECT_EQ(f.format.matrix, ColourMatrix::bt601);
    EXPECT_EQ(f.format.range, ColourRange::full);
    const Histogram h = cpu.histogram(f.format, f.planes, 256);
    std::array<int, 3> peak{};
    std::uint64_t in_peaks = 0;
    for (int c = 0; c < 3; ++c) {
      const auto ch = static_cast<Channel>(c);
      for (std::uint32_t b = 1; b < 256; ++b) {
        if (h.at(ch, b) > h.at(ch, static_cast<std::uint32_t>(peak[c]))) peak[c] = static_cast<int>(b);
      }
      in_peaks += h.at(ch, static_cast<std::uint32_t>(peak[c]));
    }
    // Solid frames: (nearly) every pixel in the peak bin.
    EXPECT_GE(static_cast<double>(in_peaks), 0.99 * 3.0 * f.format.width * f.format.height)
        << "frame " << frames << " is not solid";
    std::size_t nearest = 0;
    int nearest_error = 1 << 30;
    for (std::size_t k = 0; k < colours.size(); ++k) {
      int error = 0;
      for (int c = 0; c < 3; ++c) error = std::max(error, std::abs(peak[c] - colours[k][static_cast<std::size_t>(c)]));
      if (error < nearest_error) {
        nearest_error = error;
        nearest = k;
      }
    }
    EXPECT_LE(nearest_error, 2) << "frame " << frames << " peaks at R'G'B' " << peak[0] << "," << peak[1] << ","
                                << peak[2] << "; the nearest colour of the clip is " << colours[nearest][0] << ","
                                << colours[nearest][1] << "," << colours[nearest][2];
    if (nearest_error <= 2 && seen[nearest]++ == 0) {
      std::printf("[ info     ] %02X%02X%02X decoded as %d,%d,%d\n", colours[nearest][0], colours[nearest][1],
                  colours[nearest][2], peak[0], peak[1], peak[2]);
    }
  }
  for (std::size_t k = 0; k < colours.size(); ++k) {
    EXPECT_GT(seen[k], 0) << "colour " << k << " never came in " << frames << " frames";
  }
  EXPECT_LT(destroy(source), 1.0);
}

// --- two cameras (the second boot: n_devs=2) ------------------------------------------------

TEST(TwoCameras, ListedAndCapturedAtOnce) {
  const media::CameraListing listing = media::list_cameras();
  ASSERT_NE(find_camera(listing, "/dev/video0"), nullptr);
  ASSERT_NE(find_camera(listing, "/dev/video1"), nullptr);
  EXPECT_EQ(listing.cameras.size(), 2u);
  CameraOptions a;
  a.pixel_format = "YUYV";
  a.width = 320;
  a.height = 180;
  a.frame_rate = 30;
  CameraOptions b = a;
  b.pixel_format = "NV12";
  auto first = CameraSource::open("/dev/video0", a);
  auto second = CameraSource::open("/dev/video1", b);
  int got_a = 0, got_b = 0;
  const auto t0 = Clock::now();
  while ((got_a < 10 || got_b < 10) && seconds_since(t0) < 10) {
    DecodedFrame f;
    if (first->next(f, 5ms) == MediaSource::Status::frame) {
      EXPECT_EQ(f.format.pixel_format, "yuyv422");
      ++got_a;
    }
    if (second->next(f, 5ms) == MediaSource::Status::frame) {
      EXPECT_EQ(f.format.pixel_format, "nv12");
      ++got_b;
    }
  }
  std::printf("[ info     ] %d and %d frames in %.3f s\n", got_a, got_b, seconds_since(t0));
  EXPECT_GE(got_a, 10);
  EXPECT_GE(got_b, 10);
  EXPECT_TRUE(first->status().connected);
  EXPECT_TRUE(second->status().connected);
  EXPECT_LT(destroy(first), 1.0);
  EXPECT_LT(destroy(second), 1.0);
}

}  // namespace
}  // namespace vhist
