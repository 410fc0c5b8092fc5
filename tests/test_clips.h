// Clips for the media tests, made by the ffmpeg command-line tool once per build into the
// build's shared clip folder (VHIST_TEST_CLIPS, tests/CMakeLists.txt), where every test process
// finds them: each in a folder named by the hash of how it is made, written to a temporary file
// and renamed once complete, under a lock, so that two tests that need it at once make it once.
// The tests read them and never change them (a test that changes a file copies it first into
// clip_dir(), its process's own temporary folder, removed when the process ends).
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

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

// `s` quoted for a POSIX shell: in single quotes, each ' written as '\''.
inline std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The folder clips are shared in: the build's (made on first use), or without one the
// process's own.
inline std::filesystem::path shared_clip_dir() {
#ifdef VHIST_TEST_CLIPS
  static const std::filesystem::path dir = [] {
    std::filesystem::create_directories(VHIST_TEST_CLIPS);
    return std::filesystem::path(VHIST_TEST_CLIPS);
  }();
  return dir;
#else
  return clip_dir();
#endif
}

// 64-bit FNV-1a of `recipe`, in hexadecimal: the key of a clip made by it.
inline std::string recipe_key(std::string_view recipe) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : recipe) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// The shared file `name` made by `recipe`, in a folder named by the recipe's key (so that the
// file keeps its name: the viewer names screenshots after it, and an image sequence's pattern
// names its files): made once by make(PATH IN A TEMPORARY FOLDER), which returns whether it
// succeeded, and the folder then renamed into place whole, so that a folder that exists is
// complete. On failure the path returned does not exist.
inline std::string shared_file(const std::string& name, std::string_view recipe,
                               const std::function<bool(const std::string&)>& make) {
  // The name is part of the key: two tests may make the same recipe under different names.
  const std::string key = recipe_key(name + '\0' + std::string(recipe));
  const std::filesystem::path dir = shared_clip_dir() / key, path = dir / name;
  if (std::filesystem::exists(dir)) return path.string();
  const std::string lock_path = (shared_clip_dir() / (key + ".lock")).string();
  const int lock = ::open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock < 0 || ::flock(lock, LOCK_EX) != 0) throw std::runtime_error("cannot lock " + lock_path);
  if (!std::filesystem::exists(dir)) {  // not made by another test while this one waited
    const std::filesystem::path temp = shared_clip_dir() / (key + ".making-" + std::to_string(::getpid()));
    std::filesystem::remove_all(temp);
    std::filesystem::create_directories(temp);
    if (make((temp / name).string())) {
      std::filesystem::rename(temp, dir);
    } else {
      std::filesystem::remove_all(temp);
    }
  }
  ::close(lock);
  return path.string();
}

#ifdef VHIST_YCBCR_SCRIPT
// The standard output of `FUNCTION ARGS` of scripts/ycbcr.sh, the project's one recipe for
// Y'CbCr clips made from R'G'B' sources, without its newline; throws when it fails.
inline std::string ycbcr_recipe(const std::string& function, const std::string& args) {
  const std::string cmd = "bash -c " + quote(". " + quote(VHIST_YCBCR_SCRIPT) + " && " + function + " " + args);
  std::FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  char buf[256];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  if (::pclose(pipe) != 0 || out.empty()) throw std::runtime_error("failed: " + cmd);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}
// The filters that end a chain of R'G'B' pictures with their conversion to Y'CbCr in `matrix`
// (an ffmpeg -colorspace name: bt709, smpte170m, bt470bg, bt2020nc), `pix_fmt` and `range`
// (tv, pc); they go in the source's own graph (scripts/ycbcr.sh says why).
inline std::string ycbcr_vf(const std::string& matrix, const std::string& pix_fmt = "yuv420p",
                            const std::string& range = "tv") {
  return ycbcr_recipe("ycbcr_vf", matrix + " " + pix_fmt + " " + range);
}
// The encoder's tags for such a clip.
inline std::string ycbcr_tags(const std::string& matrix, const std::string& range = "tv") {
  return ycbcr_recipe("ycbcr_tags", matrix + " " + range);
}
#endif

// Whether `args` tag a matrix (-colorspace, x265's colormatrix) on a clip drawn by one of FFmpeg's R'G'B' sources
// without the recipe: such a clip's colours are wrong as tagged (scripts/ycbcr.sh).
inline bool tags_a_matrix_without_the_recipe(const std::string& args) {
  const bool tagged = args.find("-colorspace ") != std::string::npos || args.find("colormatrix=") != std::string::npos;
  const bool drawn = args.find("-f lavfi") != std::string::npos || args.find("-loop 1") != std::string::npos;
  // Sources of Y'CbCr: raw frames written by a test, and the generators that draw Y'CbCr in a
  // matrix of their own (yuvtestsrc; smptehdbars BT.709, smptebars and pal75bars BT.601), which a
  // test tags with that matrix.
  bool native_ycbcr = args.find("-f rawvideo") != std::string::npos;
  for (const char* g : {"yuvtestsrc", "smptebars", "smptehdbars", "pal75bars", "pal100bars"}) {
    native_ycbcr = native_ycbcr || args.find(g) != std::string::npos;
  }
  const bool recipe = args.find(",zscale=m=") != std::string::npos || args.find(",scale=out_color_matrix=") != std::string::npos;
  return tagged && drawn && !native_ycbcr && !recipe;
}

// Runs `ffmpeg ARGS FILE` once per build; returns the clip's path (shared_file). A clip that
// tags a matrix on an R'G'B' source must be made with the recipe (ycbcr_vf).
inline std::string make_clip(const std::string& name, const std::string& args) {
  EXPECT_FALSE(tags_a_matrix_without_the_recipe(args)) << name << ": tagged with a matrix but not made with "
                                                       << "ycbcr_vf (scripts/ycbcr.sh): " << args;
  return shared_file(name, args, [&](const std::string& temp) {
    const std::string cmd = "ffmpeg -nostdin -hide_banner -loglevel error -y " + args + " " + quote(temp);
    const int status = std::system(cmd.c_str());
    EXPECT_EQ(status, 0) << cmd;
    return status == 0;
  });
}

#ifdef VHIST_WITH_DISPLAY
// The start of a shell command that runs the rest of it under an X server of its own, `size`
// (WIDTHxHEIGHT) pixels: tests/with_display.sh, the one harness of the window tests (it waits for
// the server to be ready and cannot lose its display to a run beside it).
inline std::string with_display(const std::string& size) {
  return "bash " + quote(VHIST_WITH_DISPLAY) + " -s " + size + " ";
}
#endif

#ifdef VHIST_WINDOW_SCRIPT
// The script a window test runs under with_display(): `viewer` (a command that starts vhist) in
// the background, told to write its state to state.txt in the current folder after every frame,
// then, once its window is up ($W, focused; $pid the viewer), `script`, which waits with
// tests/window_script.sh's functions (wait_state, wait_frames, wait_file) for what it needs
// next, never for a number of seconds; then the viewer's end.
inline std::string beside_viewer(const std::string& viewer, const std::string& script) {
  return "export VHIST_TEST_STATE=\"$PWD/state.txt\"; . " + quote(VHIST_WINDOW_SCRIPT) + "; " + viewer +
         " & pid=$!; echo $pid > pid.txt; W=$(xdotool search --sync --name '^vhist'); xdotool windowfocus --sync $W; " +
         script + "; wait $pid";
}
#endif

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
