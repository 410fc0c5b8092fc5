// GPU faults, injected: `vhist --self-test`, `vhist analyze --engine gpu` and the viewer under
// Xvfb run with VHIST_FAULT=KIND@POINT:N (render/include/vhist/render/vk_check.h: the Nth call
// of POINT returns KIND instead of being made; a lost device stays lost) and validation on. Each
// run must end within its time limit (no hang) with exit status 1, the injection reported, one
// line saying what failed, why and what to do, no validation message and no sanitizer report;
// except a lost window surface, which the viewer remakes and plays on (exit status 0).
#include "test_clips.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace vhist {
namespace {

using test::clip_dir;
using test::make_clip;
using test::read_file;

struct FaultRun {
  int status = -1;
  double seconds = 0;
  std::string out, err, command;
};

using test::quote;

// `vhist ARGS` with VHIST_FAULT=fault and validation on, killed after `limit` seconds (status
// 124 or 137: a hang). `window`: under its own Xvfb server, with a fresh settings folder.
FaultRun run_vhist(const std::string& fault, const std::string& args, int limit, bool window = false,
              const std::string& env = "") {
  static std::atomic<int> counter{0};
  const fs::path dir = clip_dir() / ("run-" + std::to_string(counter++));
  fs::create_directories(dir / "config");
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  FaultRun r;
  r.command = "cd " + quote(dir.string()) + " && " + env + " XDG_CONFIG_HOME=" + quote((dir / "config").string()) +
              " VHIST_VALIDATION=1 VHIST_FAULT=" + quote(fault) + " timeout -k 5 " + std::to_string(limit) + " " +
              (window ? test::with_display("1280x720") : "") + quote(VHIST_BINARY) + " " + args + " > " +
              quote(out.string()) + " 2> " + quote(err.string());
  const auto start = std::chrono::steady_clock::now();
  const int raw = std::system(r.command.c_str());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

std::string context(const FaultRun& r) {
  return "command: " + r.command + "\nstatus " + std::to_string(r.status) + " after " + std::to_string(r.seconds) +
         " s\nstderr:\n" + r.err;
}

// The checks every injected fault shares. `message`: the start of the explanation line.
void expect_clean_failure(const FaultRun& r, const std::string& injected, const std::string& message,
                          const std::string& advice) {
  EXPECT_NE(r.status, 124) << "hang (killed by timeout)\n" << context(r);
  EXPECT_NE(r.status, 137) << "hang (killed by timeout -k)\n" << context(r);
  EXPECT_EQ(r.status, 1) << context(r);
  EXPECT_NE(r.err.find("VHIST_FAULT: " + injected + " injected"), std::string::npos) << context(r);
  // One line: what (the message), why (the call and result), what to do (the advice).
  const auto at = r.err.find(message);
  ASSERT_NE(at, std::string::npos) << context(r);
  const std::string line = r.err.substr(at, r.err.find('\n', at) - at);
  EXPECT_NE(line.find(injected), std::string::npos) << line;
  EXPECT_NE(line.find(advice), std::string::npos) << line;
  EXPECT_EQ(r.err.find("Vulkan validation"), std::string::npos) << context(r);
  for (const char* report : {"AddressSanitizer", "LeakSanitizer", "runtime error:", "terminate called"}) {
    EXPECT_EQ(r.err.find(report), std::string::npos) << report << "\n" << context(r);
  }
}

constexpr const char* kLost = "VK_ERROR_DEVICE_LOST";
constexpr const char* kOom = "VK_ERROR_OUT_OF_DEVICE_MEMORY";
constexpr const char* kSurface = "VK_ERROR_SURFACE_LOST_KHR";
constexpr const char* kLostMessage = "the GPU device was lost";
constexpr const char* kOomMessage = "out of GPU memory";
constexpr const char* kSurfaceMessage = "the window's drawing surface was lost";

std::string small_clip() {
  return make_clip("faults.mp4", "-f lavfi -i testsrc2=s=96x64:r=25 -frames:v 12 -c:v libx264 -pix_fmt yuv420p");
}

// --- vhist --self-test ------------------------------------------------------------------------

TEST(SelfTestFault, DeviceLostAtSubmit) {
  expect_clean_failure(run_vhist("device_lost@submit:3", "--self-test", 240), kLost, kLostMessage, "--device");
}

TEST(SelfTestFault, DeviceLostAtWait) {
  expect_clean_failure(run_vhist("device_lost@wait:2", "--self-test", 240), kLost, kLostMessage, "dmesg");
}

TEST(SelfTestFault, OutOfDeviceMemoryAtAllocation) {
  expect_clean_failure(run_vhist("out_of_device_memory@alloc:4", "--self-test", 240), kOom, kOomMessage,
                       "--device");
}

// --- vhist analyze ----------------------------------------------------------------------------

TEST(AnalyzeFault, DeviceLostMidStream) {
  const FaultRun r = run_vhist("device_lost@submit:6", "analyze --engine gpu " + quote(small_clip()), 120);
  expect_clean_failure(r, kLost, "vhist analyze: " + std::string(kLostMessage), "--device");
  // Frames submitted after the loss have no result: fewer than the clip's 12 records.
  EXPECT_LT(std::count(r.out.begin(), r.out.end(), '\n'), 12) << context(r);
}

TEST(AnalyzeFault, DeviceLostAtWait) {
  const FaultRun r = run_vhist("device_lost@wait:3", "analyze --engine gpu " + quote(small_clip()), 120);
  expect_clean_failure(r, kLost, "vhist analyze: " + std::string(kLostMessage), "--device");
}

TEST(AnalyzeFault, OutOfDeviceMemory) {
  const FaultRun r = run_vhist("out_of_device_memory@alloc:6", "analyze --engine gpu " + quote(small_clip()), 120);
  expect_clean_failure(r, kOom, "vhist analyze: " + std::string(kOomMessage), "--device");
}

// Not set or not understood: inert (a warning for a spec it cannot read), the run is normal.
TEST(AnalyzeFault, UnreadableSpecIsIgnored) {
  const FaultRun r = run_vhist("device_lost@nowhere:1", "analyze --engine gpu " + quote(small_clip()), 120);
  EXPECT_EQ(r.status, 0) << context(r);
  EXPECT_NE(r.err.find("VHIST_FAULT='device_lost@nowhere:1' ignored"), std::string::npos) << context(r);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 12 + 1) << context(r);  // header, 12 records, summary
}

// --- the viewer under Xvfb ----------------------------------------------------------------------

// The timeline off: its background scan (a child process) would also meet the injected fault.
std::string viewer_args() { return quote(small_clip()) + " --frames 30 --size 320x240 --timeline off"; }

TEST(ViewerFault, DeviceLostAtSubmitGpuEngine) {
  expect_clean_failure(run_vhist("device_lost@submit:8", viewer_args(), 180, true, "VHIST_ENGINE=gpu"), kLost,
                       "vhist: " + std::string(kLostMessage), "--device");
}

TEST(ViewerFault, DeviceLostAtSubmitCpuEngine) {
  expect_clean_failure(run_vhist("device_lost@submit:8", viewer_args(), 180, true, "VHIST_ENGINE=cpu"), kLost,
                       "vhist: " + std::string(kLostMessage), "--device");
}

TEST(ViewerFault, DeviceLostAtAcquire) {
  expect_clean_failure(run_vhist("device_lost@acquire:4", viewer_args(), 180, true), kLost,
                       "vhist: " + std::string(kLostMessage), "--device");
}

TEST(ViewerFault, DeviceLostAtPresent) {
  expect_clean_failure(run_vhist("device_lost@present:4", viewer_args(), 180, true), kLost,
                       "vhist: " + std::string(kLostMessage), "--device");
}

TEST(ViewerFault, OutOfDeviceMemory) {
  expect_clean_failure(run_vhist("out_of_device_memory@alloc:8", viewer_args(), 180, true), kOom,
                       "vhist: " + std::string(kOomMessage), "--device");
}

// A lost surface is remade from the same window and playback goes on: the run reaches its
// frame count and exits 0, having said what happened, with no validation message.
void expect_surface_recovered(const FaultRun& r) {
  EXPECT_EQ(r.status, 0) << context(r);
  EXPECT_NE(r.err.find("VHIST_FAULT: " + std::string(kSurface) + " injected"), std::string::npos) << context(r);
  EXPECT_NE(r.err.find("vhist: lost the window's drawing surface (vk"), std::string::npos) << context(r);
  EXPECT_NE(r.err.find("making a new one (attempt 1 of 3)"), std::string::npos) << context(r);
  EXPECT_EQ(r.err.find("attempt 2 of 3"), std::string::npos) << context(r);
  EXPECT_NE(r.err.find("vhist: 30 frames rendered"), std::string::npos) << context(r);
  EXPECT_EQ(r.err.find("Vulkan validation"), std::string::npos) << context(r);
  for (const char* report : {"AddressSanitizer", "LeakSanitizer", "runtime error:", "terminate called"}) {
    EXPECT_EQ(r.err.find(report), std::string::npos) << report << "\n" << context(r);
  }
}

TEST(ViewerFault, SurfaceLostAtAcquireIsRecovered) {
  expect_surface_recovered(run_vhist("surface_lost@acquire:4", viewer_args(), 180, true));
}

TEST(ViewerFault, SurfaceLostAtPresentIsRecovered) {
  expect_surface_recovered(run_vhist("surface_lost@present:4", viewer_args(), 180, true));
}

// The GPU engine draws from its own frame copy: the frame due when the surface went is sent again.
TEST(ViewerFault, SurfaceLostAtPresentIsRecoveredGpuEngine) {
  expect_surface_recovered(run_vhist("surface_lost@present:6", viewer_args(), 180, true, "VHIST_ENGINE=gpu"));
}

// A surface that cannot be kept: three new ones fail in turn, then a clean exit that says so.
TEST(ViewerFault, SurfaceLostForGood) {
  const FaultRun r = run_vhist("surface_lost@acquire:4+", viewer_args(), 180, true);
  expect_clean_failure(r, kSurface, "vhist: " + std::string(kSurfaceMessage), "Run vhist again");
  EXPECT_NE(r.err.find("attempt 3 of 3"), std::string::npos) << context(r);
  EXPECT_NE(r.err.find("failed three times"), std::string::npos) << context(r);
}

}  // namespace
}  // namespace vhist
