// app/util, issue 25: the streamed atomic file (analyze's -o), same_file, and the escaping of
// untrusted text (printable, valid_utf8), on real files in a fresh temporary folder.
#include "vhist/util/atomic_file.h"
#include "vhist/util/files.h"
#include "vhist/util/text.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace vhist::util;

namespace {

class OutputDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "vhist_util_out_XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string content(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }
  static void put(const std::string& file, const std::string& bytes) { std::ofstream(file, std::ios::binary) << bytes; }
  // The names in the folder, sorted, joined by spaces: temporary files left behind show here.
  std::string listing() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.insert(e.path().filename().string());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : " ") + n;
    return out;
  }
  fs::path dir_;
};

// --- printable and valid_utf8 --------------------------------------------------------------

TEST(Printable, ControlCharactersAndStrayBytesAreEscaped) {
  EXPECT_EQ(printable("clip.mp4"), "clip.mp4");
  EXPECT_EQ(printable("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(printable("\x1b[2J"), "\\x1b[2J");  // a terminal's clear-screen, made harmless
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("\x7f"), "\\x7f");
  EXPECT_EQ(printable("a\xff" "b"), "a\\xffb");                 // not UTF-8
  EXPECT_EQ(printable("\xc3"), "\\xc3");                         // a sequence cut short
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");       // a surrogate
  EXPECT_EQ(printable("\xc2\x9b" "2J"), "\\u009b2J");            // C1 CSI
  EXPECT_EQ(printable("txt\xe2\x80\xae" "4pm.exe"), "txt\\u202e4pm.exe");  // right-to-left override
  EXPECT_EQ(printable("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x8e\xa5"), "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x8e\xa5");
  EXPECT_EQ(printable("a\\b"), "a\\b");
}

TEST(Printable, EscapingTwiceChangesNothing) {
  for (const std::string s : {"a\nb", "\xff\xfe", "x\x1b" "y", "caf\xc3\xa9", "\xc2\x85", "a\\nb"}) {
    EXPECT_EQ(printable(printable(s)), printable(s)) << s;
  }
}

TEST(Printable, QuotedNamesAreEscaped) { EXPECT_EQ(quoted("a\xff\nb.mp4"), "'a\\xff\\nb.mp4'"); }

TEST(ValidUtf8, EachStrayByteBecomesOneReplacementCharacter) {
  EXPECT_EQ(valid_utf8("plain"), "plain");
  EXPECT_EQ(valid_utf8("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(valid_utf8("a\xff" "b"), "a\xef\xbf\xbd" "b");
  EXPECT_EQ(valid_utf8("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(valid_utf8("\xe6\x97"), "\xef\xbf\xbd\xef\xbf\xbd");  // cut short: both bytes
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(valid_utf8("\xf4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // above U+10FFFF
}

// --- same_file -------------------------------------------------------------------------------

TEST(Formatted, WritesWhatPrintfWouldHoweverLong) {
  EXPECT_EQ(formatted("%d frames at %.3f s, %s", 42, 1.5, "paused"), "42 frames at 1.500 s, paused");
  EXPECT_EQ(formatted("%s", ""), "");
  const std::string long_name(5000, 'x');  // past any fixed buffer
  const std::string text = formatted("[%s] %d", long_name.c_str(), 7);
  EXPECT_EQ(text.size(), long_name.size() + 4);
  EXPECT_EQ(text.substr(0, 3), "[xx");
  EXPECT_EQ(text.substr(text.size() - 3), "] 7");
}

TEST_F(OutputDir, SameFileFollowsLinksAndSeesHardLinks) {
  put(path("v.mp4"), "video");
  put(path("other.mp4"), "video");
  fs::create_symlink("v.mp4", path("link.jsonl"));
  fs::create_hard_link(path("v.mp4"), path("hard.jsonl"));
  EXPECT_TRUE(same_file(path("v.mp4"), path("v.mp4")));
  EXPECT_TRUE(same_file(path("v.mp4"), (dir_ / "." / "v.mp4").string()));
  EXPECT_TRUE(same_file(path("v.mp4"), path("link.jsonl")));
  EXPECT_TRUE(same_file(path("v.mp4"), path("hard.jsonl")));
  EXPECT_FALSE(same_file(path("v.mp4"), path("other.mp4")));  // equal bytes, another file
  EXPECT_FALSE(same_file(path("v.mp4"), path("new.jsonl")));  // not there yet
}

// --- AtomicFile ------------------------------------------------------------------------------

TEST_F(OutputDir, CommittedFileReplacesTheOldOneAndKeepsItsMode) {
  put(path("out.jsonl"), "old\n");
  ::chmod(path("out.jsonl").c_str(), 0640);
  std::string error;
  auto file = AtomicFile::create(path("out.jsonl"), error);
  ASSERT_TRUE(file) << error;
  EXPECT_EQ(file->write("new "), "");
  EXPECT_EQ(file->write("records\n"), "");
  EXPECT_EQ(content(path("out.jsonl")), "old\n");  // untouched until the commit
  EXPECT_NE(listing().find(".tmp"), std::string::npos) << listing();
  EXPECT_EQ(file->commit(), "");
  EXPECT_EQ(content(path("out.jsonl")), "new records\n");
  EXPECT_EQ(fs::status(path("out.jsonl")).permissions() & fs::perms::all, fs::perms(0640));
  file.reset();
  EXPECT_EQ(listing(), "out.jsonl");
}

TEST_F(OutputDir, AbandonedFileLeavesTheOldOneAndNoTemporary) {
  put(path("out.jsonl"), "old\n");
  std::string error;
  auto file = AtomicFile::create(path("out.jsonl"), error);
  ASSERT_TRUE(file) << error;
  EXPECT_EQ(file->write("half a rec"), "");
  file.reset();
  EXPECT_EQ(content(path("out.jsonl")), "old\n");
  EXPECT_EQ(listing(), "out.jsonl");
}

TEST_F(OutputDir, ASymlinkKeepsPointingAtTheReplacedFile) {
  fs::create_directory(dir_ / "data");
  put(path("data/real.jsonl"), "old\n");
  fs::create_symlink("data/real.jsonl", path("link.jsonl"));
  std::string error;
  auto file = AtomicFile::create(path("link.jsonl"), error);
  ASSERT_TRUE(file) << error;
  EXPECT_EQ(file->write("new\n"), "");
  EXPECT_EQ(file->commit(), "");
  EXPECT_TRUE(fs::is_symlink(path("link.jsonl")));
  EXPECT_EQ(content(path("data/real.jsonl")), "new\n");
}

TEST_F(OutputDir, AFifoIsWrittenInPlace) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  // A reader, so that opening the FIFO for writing does not wait forever.
  const std::string cmd = "cat '" + path("pipe") + "' > '" + path("got") + "' &";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string error;
  auto file = AtomicFile::create(path("pipe"), error);
  ASSERT_TRUE(file) << error;
  EXPECT_TRUE(file->direct());
  EXPECT_EQ(file->write("through\n"), "");
  EXPECT_EQ(file->commit(), "");
  file.reset();
  for (int i = 0; i < 100 && content(path("got")).empty(); ++i) ::usleep(20000);
  EXPECT_EQ(content(path("got")), "through\n");
  EXPECT_TRUE(fs::is_fifo(path("pipe")));
}

TEST_F(OutputDir, NoFolderOrADirectoryIsSaidPlainly) {
  std::string error;
  EXPECT_FALSE(AtomicFile::create(path("missing/out.jsonl"), error));
  EXPECT_NE(error.find("No such file or directory (ENOENT)"), std::string::npos) << error;
  fs::create_directory(dir_ / "folder");
  EXPECT_FALSE(AtomicFile::create(path("folder"), error));
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

}  // namespace

namespace vhist::util {
namespace {

// A device or a FIFO named as the output is written into, never renamed over: /dev/null stays
// the device (a rename once replaced it with a regular file, and every later `< /dev/null` read
// that file); a folder is still refused at the rename.
TEST(WriteFileAtomically, DevicesAreWrittenIntoNotReplaced) {
  ASSERT_EQ(write_file_atomically("/dev/null", "bytes"), "");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_FALSE(std::filesystem::exists("/dev/null.tmp"));
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "vhist_wfa_dir";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(write_file_atomically(dir.string(), "x").rfind("cannot rename", 0), 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vhist::util
