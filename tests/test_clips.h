// Clips for the media tests, made during the run by the ffmpeg command-line tool in a temporary
// folder of the test process (removed when the process ends).
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace vhist::test {

// The process's temporary folder, made on first use.
inline const std::filesystem::path& clip_dir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "vhist_clips_XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    return std::filesystem::path(pattern);
  }();
  return dir;
}

class ClipDirCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(clip_dir(), ec);
  }
};
inline ::testing::Environment* const g_clip_dir_cleanup = ::testing::AddGlobalTestEnvironment(new ClipDirCleanup);

#ifdef VHIST_BINARY
// The binaries that start vhist as a process (analyze, the viewer, the fault tests): vhist cannot
// run at all without a Vulkan device (analyze and the viewer both create one, whatever the
// engine), so there the tests are not run: GTEST_SKIP in the environment's SetUp, with a line
// that CTest's SKIP_REGULAR_EXPRESSION (tests/CMakeLists.txt) reports as skipped, since
// GoogleTest counts such tests as passed. With VHIST_REQUIRE_GPU=1 the tests run, and fail.
// One `vhist --list-devices` per process.
class NeedsVulkanDevice : public ::testing::Environment {
 public:
  void SetUp() override {
    const std::string cmd = std::string("'") + VHIST_BINARY + "' --list-devices > /dev/null 2>&1";
    const char* required = std::getenv("VHIST_REQUIRE_GPU");
    if ((required != nullptr && std::string(required) == "1") || std::system(cmd.c_str()) == 0) return;
    GTEST_SKIP() << "vhist tests skipped: no Vulkan device (`vhist --list-devices` fails), vhist cannot run here";
  }
};
inline ::testing::Environment* const g_needs_vulkan_device = ::testing::AddGlobalTestEnvironment(new NeedsVulkanDevice);
#endif

// Runs `ffmpeg ARGS clip_dir()/name` once per process; returns the clip's path.
// `s` quoted for a POSIX shell: in single quotes, each ' written as '\''.
inline std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string make_clip(const std::string& name, const std::string& args) {
  const std::filesystem::path path = clip_dir() / name;
  if (std::filesystem::exists(path)) return path.string();
  const std::string cmd = "ffmpeg -nostdin -hide_banner -loglevel error -y " + args + " '" + path.string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return path.string();
}

// The bytes of a file; empty when it cannot be read.
inline std::string read_file(const std::filesystem::path& path) {
  std::string bytes;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[1 << 16];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.append(buf, n);
    std::fclose(f);
  }
  return bytes;
}

}  // namespace vhist::test
