// app/util: the fd owner, the scope guard, the local-file check, reading a small file and the
// atomic file write, on real files in a fresh temporary folder.
#include "vhist/util/files.h"
#include "vhist/util/scope_guard.h"
#include "vhist/util/unique_fd.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace vhist::util;

namespace {

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "vhist_util_XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string content(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }
  static void put(const std::string& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }
  // Root opens and writes files whatever their permission bits say.
  static bool permissions_apply() { return ::geteuid() != 0; }

  fs::path dir_;
};

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

// ---------------------------------------------------------------------------------------------

TEST(UniqueFd, ClosesWithTheObject) {
  int raw = -1;
  {
    const UniqueFd fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    ASSERT_TRUE(fd.valid());
    raw = fd.get();
    EXPECT_TRUE(is_open(raw));
  }
  EXPECT_FALSE(is_open(raw));
}

TEST(UniqueFd, MoveReleaseAndClose) {
  UniqueFd a(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  const int raw = a.get();
  UniqueFd b(std::move(a));
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(b.get(), raw);
  EXPECT_TRUE(is_open(raw));

  const int kept = b.release();
  EXPECT_FALSE(b.valid());
  EXPECT_TRUE(is_open(kept));  // release does not close
  UniqueFd c(kept);
  EXPECT_EQ(c.close(), 0);
  EXPECT_FALSE(is_open(kept));
  EXPECT_EQ(c.close(), EBADF);  // nothing left to close
  EXPECT_FALSE(UniqueFd().valid());
  EXPECT_FALSE(UniqueFd(-1));
}

TEST(ScopeGuard, RunsUnlessDismissed) {
  int runs = 0;
  { ScopeGuard guard([&] { ++runs; }); }
  EXPECT_EQ(runs, 1);
  {
    ScopeGuard guard([&] { ++runs; });
    guard.dismiss();
  }
  EXPECT_EQ(runs, 1);
}

// ---------------------------------------------------------------------------------------------

TEST_F(TempDir, CheckLocalFileMessages) {
  const std::string missing = path("missing.mkv");
  EXPECT_EQ(check_local_file(missing, "a video file"), "cannot open '" + missing + "': no such file");
  EXPECT_EQ(check_local_file(path("missing/under.mkv"), "a video file"),
            "cannot open '" + path("missing/under.mkv") + "': no such file");
  EXPECT_EQ(check_local_file(dir_.string(), "an image file"),
            "'" + dir_.string() + "' is a directory, not an image file");
  const std::string empty = path("empty.png");
  put(empty, "");
  EXPECT_EQ(check_local_file(empty, "an image file"), "'" + empty + "' is empty (0 bytes)");
  const std::string good = path("good.mkv");
  put(good, "x");
  EXPECT_EQ(check_local_file(good, "a video file"), "");
  EXPECT_EQ(check_local_file("/dev/null", "a video file"), "");  // not regular: no size check
}

TEST_F(TempDir, CheckLocalFileUnreadable) {
  if (!permissions_apply()) GTEST_SKIP() << "running as root";
  const std::string locked = path("locked.mkv");
  put(locked, "data");
  fs::permissions(locked, fs::perms::none);
  EXPECT_EQ(check_local_file(locked, "a video file"), "cannot open '" + locked + "': permission denied");
}

TEST_F(TempDir, ReadSmallFile) {
  std::string error;
  const std::string file = path("a.txt");
  put(file, std::string("line\n\0binary", 12));
  EXPECT_EQ(read_small_file(file, 100, error), std::string("line\n\0binary", 12));
  EXPECT_EQ(read_small_file(file, 12, error), std::string("line\n\0binary", 12));  // the limit itself is fine

  EXPECT_FALSE(read_small_file(file, 11, error));
  EXPECT_EQ(error, "larger than 11 bytes");
  EXPECT_FALSE(read_small_file(path("none.txt"), 100, error));
  EXPECT_EQ(error, "No such file or directory");
  EXPECT_FALSE(read_small_file(dir_.string(), 100, error));
  EXPECT_EQ(error, "not a regular file");
}

// ---------------------------------------------------------------------------------------------

TEST_F(TempDir, AtomicWriteCreatesAndReplaces) {
  const std::string file = path("out.bin");
  ASSERT_EQ(write_file_atomically(file, "first version, longer"), "");
  EXPECT_EQ(content(file), "first version, longer");
  ASSERT_EQ(write_file_atomically(file, "second"), "");
  EXPECT_EQ(content(file), "second");  // replaced, not overwritten in place (no tail left)
  ASSERT_EQ(write_file_atomically(file, ""), "");
  EXPECT_EQ(content(file), "");
  EXPECT_FALSE(fs::exists(file + ".tmp"));
}

TEST_F(TempDir, AtomicWriteNeverSharesATemporary) {
  // A temporary of another writer (or one left by a crash) is neither written into nor removed:
  // each write makes a new one (O_EXCL) and leaves none behind.
  const std::string file = path("out.bin");
  const std::string other = file + "." + std::to_string(::getpid()) + "-0.tmp";
  put(other, "another writer's");
  put(file + ".tmp", "left over from an older vhist");
  ASSERT_EQ(write_file_atomically(file, "new"), "");
  ASSERT_EQ(write_file_atomically(file, "newer"), "");
  EXPECT_EQ(content(file), "newer");
  EXPECT_EQ(content(other), "another writer's");
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(fs::path(file).parent_path())) entries += e.path() != fs::path(file) ? 1 : 0;
  EXPECT_EQ(entries, 2u);  // the two that were there, nothing of ours
}

TEST_F(TempDir, AtomicWriteIntoAMissingFolder) {
  const std::string file = path("no/such/folder/out.bin");
  const std::string error = write_file_atomically(file, "data");
  EXPECT_EQ(error.rfind("cannot create '" + file + ".", 0), 0u) << error;
  EXPECT_NE(error.find(".tmp': No such file or directory"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(path("no")));
}

TEST_F(TempDir, AtomicWriteIntoAReadOnlyFolderKeepsTheOldFile) {
  if (!permissions_apply()) GTEST_SKIP() << "running as root";
  const std::string file = path("out.bin");
  put(file, "old");
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  const std::string error = write_file_atomically(file, "new");
  fs::permissions(dir_, fs::perms::owner_all);
  EXPECT_NE(error.find("cannot create '" + file + ".tmp'"), std::string::npos) << error;
  EXPECT_NE(error.find("Permission denied"), std::string::npos) << error;
  EXPECT_EQ(content(file), "old");
  EXPECT_FALSE(fs::exists(file + ".tmp"));
}

TEST_F(TempDir, AtomicWriteOverADirectoryFailsAndCleansUp) {
  const std::string file = path("taken");
  fs::create_directory(file);
  put(file + "/inside", "x");
  const std::string error = write_file_atomically(file, "data");
  EXPECT_EQ(error.rfind("cannot rename '" + file + ".", 0), 0u) << error;
  EXPECT_NE(error.find(".tmp' to '" + file + "': "), std::string::npos) << error;
  for (const auto& e : fs::directory_iterator(fs::path(file).parent_path())) {
    EXPECT_EQ(e.path().extension(), "") << "a temporary left: " << e.path();
  }
  EXPECT_TRUE(fs::is_directory(file));
}

TEST_F(TempDir, AtomicWriteThroughASymbolicLink) {
  const std::string target = path("real.ini");
  const std::string link = path("link.ini");
  put(target, "old");
  fs::create_symlink(target, link);

  ASSERT_EQ(write_file_atomically(link, "followed", {.follow_symlink = true}), "");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(content(target), "followed");
  EXPECT_FALSE(fs::exists(target + ".tmp"));

  ASSERT_EQ(write_file_atomically(link, "replaced"), "");  // default: the link itself is replaced
  EXPECT_FALSE(fs::is_symlink(link));
  EXPECT_EQ(content(link), "replaced");
  EXPECT_EQ(content(target), "followed");
}

TEST_F(TempDir, AtomicWriteKeepsBinaryData) {
  std::string bytes;
  for (int i = 0; i < 300000; ++i) bytes += static_cast<char>(i * 7 + i / 256);
  const std::string file = path("big.bin");
  ASSERT_EQ(write_file_atomically(file, bytes), "");
  EXPECT_EQ(content(file), bytes);
}

}  // namespace
