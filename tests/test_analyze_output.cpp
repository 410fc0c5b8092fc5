// Issue 25, `vhist analyze` as a process: its output is never the input, is replaced only when
// complete (a failed run and a full disk leave an existing file as it was, with no temporary
// behind), and names that are not UTF-8 or hold a newline, quote or comma keep the records valid
// and the terminal clean; "--" ends the options; a time with 60 or more after a colon is refused.
#include "analyze_process.h"
#include "test_clips.h"

#include <nlohmann/json.hpp>

#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace vhist {
namespace {

using test::all_lines;
using test::clip_dir;
using test::header_of;
using test::lines;
using test::make_clip;
using test::ProcessResult;
using test::read_file;
using test::run_vhist;

// 8-bit 64x48, 10 frames: small records, quick on any engine.
std::string small_clip() {
  return make_clip("out_small.mkv", "-f lavfi -i testsrc2=s=64x48:r=25 -frames:v 10 -pix_fmt yuv420p -c:v ffv1");
}

// The files of `dir` whose names end in ".tmp": temporaries left behind.
std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".tmp") found.push_back(e.path().filename().string());
  }
  return found;
}

std::string quote(const fs::path& p) { return "'" + p.string() + "'"; }

// A fresh folder of clip_dir() for one test's outputs.
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = clip_dir() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// --- the output is never the input ------------------------------------------------------------

// `-o` naming the video, a symlink to it, a hard link to it or the same path spelled otherwise:
// refused with status 2 before anything is written, and the video is byte for byte as it was.
TEST(AnalyzeOutput, AnOutputThatIsTheInputIsRefused) {
  const fs::path dir = fresh_dir("same_file");
  const fs::path video = dir / "v.mkv";
  fs::copy_file(small_clip(), video);
  const std::string before = read_file(video);
  fs::create_symlink("v.mkv", dir / "link.jsonl");
  fs::create_hard_link(video, dir / "hard.jsonl");
  for (const fs::path& out : {video, dir / "link.jsonl", dir / "hard.jsonl", dir / "." / "v.mkv"}) {
    const ProcessResult r = run_vhist("analyze " + quote(video) + " --engine cpu -q -o " + quote(out));
    EXPECT_EQ(r.status, 2) << out << ": " << r.err;
    EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(video), before) << out << " destroyed the input";
    EXPECT_TRUE(temporaries(dir).empty());
  }
  EXPECT_TRUE(fs::is_symlink(dir / "link.jsonl"));
  // Standard output appended to the video (the shell does not truncate it first).
  const std::string cmd = "'" + std::string(VHIST_BINARY) + "' analyze " + quote(video) + " --engine cpu -q >> " +
                          quote(video) + " 2> " + quote(dir / "err.txt");
  const int raw = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 2);
  EXPECT_NE(read_file(dir / "err.txt").find("standard output is the input"), std::string::npos) << read_file(dir / "err.txt");
  EXPECT_EQ(read_file(video), before) << "records were appended to the input";
}

// --- a failed run leaves the output as it was -----------------------------------------------

TEST(AnalyzeOutput, AFailedRunLeavesAnExistingOutputUntouched) {
  const fs::path dir = fresh_dir("failed_runs");
  const fs::path out = dir / "out.jsonl";
  const std::string good = "{\"type\":\"header\"} previous results\n";
  std::ofstream(out, std::ios::binary) << good;
  const fs::path not_video = dir / "notes.mp4";
  std::ofstream(not_video) << "these are notes, not a video\n";
  struct Case {
    std::string input, options, words;
  };
  const Case cases[] = {
      {small_clip(), "--bins 512", "--bins 512"},                  // deeper than the 8-bit source
      {small_clip(), "--roi 0,0,100,100", "--roi"},                // outside the 64x48 frame
      {small_clip(), "--start 100", "no video frame"},             // past the end
      {not_video.string(), "", "notes.mp4"},                       // nothing to decode
  };
  for (const Case& c : cases) {
    const ProcessResult r = run_vhist("analyze " + quote(c.input) + " --engine cpu -q " + c.options + " -o " + quote(out));
    EXPECT_EQ(r.status, 2) << c.options << ": " << r.err;
    EXPECT_NE(r.err.find(c.words), std::string::npos) << r.err;
    EXPECT_EQ(read_file(out), good) << c.options << ": the output was touched";
    EXPECT_TRUE(temporaries(dir).empty()) << c.options << ": a temporary was left: " << temporaries(dir).front();
  }
  // And a good run replaces it, whole.
  const ProcessResult r = run_vhist("analyze " + quote(small_clip()) + " --engine cpu -q -o " + quote(out));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines(read_file(out)).size(), 10u);
  EXPECT_TRUE(temporaries(dir).empty());
}

// A small tmpfs mounted for the test (CI runs as root); unmounted when it goes.
class SmallTmpfs {
 public:
  SmallTmpfs(const fs::path& where, const std::string& size) : where_(where) {
    fs::create_directories(where);
    mounted_ = ::mount("tmpfs", where.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
    if (!mounted_) why_ = std::strerror(errno);
  }
  ~SmallTmpfs() {
    if (mounted_) ::umount2(where_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& why() const { return why_; }

 private:
  fs::path where_;
  bool mounted_ = false;
  std::string why_;
};

// A full disk: the run fails (status 1) naming ENOSPC, and the good output already there is
// neither truncated nor replaced by a partial one; no temporary is left on the full disk.
TEST(AnalyzeOutput, AFullDiskNeverReplacesAGoodFileWithAPartialOne) {
  const fs::path disk = clip_dir() / "full_disk";
  const SmallTmpfs tmpfs(disk, "64k");
  if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs (" << tmpfs.why() << "; needs root)";
  const fs::path out = disk / "out.jsonl";
  ProcessResult r = run_vhist("analyze " + quote(small_clip()) + " --engine cpu -q -o " + quote(out));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string good = read_file(out);
  ASSERT_EQ(lines(good).size(), 10u);
  // 200 frames of 64x48 need about 600 KB of records: far more than the 64 KiB disk.
  const std::string longer =
      make_clip("out_longer.mkv", "-f lavfi -i testsrc2=s=64x48:r=25 -frames:v 200 -pix_fmt yuv420p -c:v ffv1");
  r = run_vhist("analyze " + quote(longer) + " --engine cpu -q -o " + quote(out));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("No space left on device (ENOSPC)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is left as it was"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(out), good) << "the good file was replaced";
  EXPECT_TRUE(temporaries(disk).empty()) << temporaries(disk).front();
}

// `-o` through a symlink to another file (not the input): the file it points to gets the
// records and the link stays a link.
TEST(AnalyzeOutput, ASymlinkedOutputWritesItsTarget) {
  const fs::path dir = fresh_dir("symlinked_out");
  std::ofstream(dir / "real.jsonl") << "old\n";
  fs::create_symlink("real.jsonl", dir / "link.jsonl");
  const ProcessResult r = run_vhist("analyze " + quote(small_clip()) + " --engine cpu -q -o " + quote(dir / "link.jsonl"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir / "link.jsonl"));
  EXPECT_EQ(lines(read_file(dir / "real.jsonl")).size(), 10u);
  EXPECT_TRUE(temporaries(dir).empty());
}

// --- names ------------------------------------------------------------------------------------

// A name with a byte that is not UTF-8 (0xFF), a newline, a quote and a comma: the JSON header
// is valid JSON (0xFF as U+FFFD), the CSV keeps its shape (the name is one quoted field on its
// '#' line), and the terminal sees the name escaped, with no raw newline or 0xFF.
TEST(AnalyzeNames, AnyBytesInANameKeepTheRecordsValid) {
  const fs::path dir = fresh_dir("odd_names");
  const std::string name = "a\xff\nb,\"c\".mkv";
  const fs::path video = dir / name;
  fs::copy_file(small_clip(), video);

  ProcessResult r = run_vhist("analyze " + quote(video) + " --engine cpu -q --frames 2");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json header = nlohmann::json::parse(header_of(r.out));  // throws on invalid UTF-8
  EXPECT_EQ(header["input"], dir.string() + "/a\xef\xbf\xbd\nb,\"c\".mkv");
  for (const auto& record : lines(r.out)) EXPECT_TRUE(nlohmann::json::accept(record)) << record;

  r = run_vhist("analyze " + quote(video) + " --engine cpu -q --frames 2 --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto all = all_lines(r.out);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all[0], "# vhist analyze: \"" + dir.string() + "/a\\xff\\nb,\"\"c\"\".mkv\"");
  // Comment lines first, then the header row, then rows of as many fields as it has.
  std::size_t at = 0;
  while (at < all.size() && all[at].rfind("#", 0) == 0) ++at;
  ASSERT_LT(at, all.size());
  EXPECT_EQ(all[at].rfind("frame,pts,", 0), 0u) << "a stray row before the header: " << all[at];
  const auto fields = [](const std::string& row) { return std::count(row.begin(), row.end(), ',') + 1; };
  std::size_t rows = 0;
  for (std::size_t i = at + 1; i < all.size(); ++i) {
    if (all[i].rfind("#", 0) == 0) continue;  // the summary
    EXPECT_EQ(fields(all[i]), fields(all[at])) << all[i];
    ++rows;
  }
  EXPECT_EQ(rows, 2u * 4u);  // two frames, r g b l

  r = run_vhist("analyze " + quote(video) + " --engine cpu -q --bins 512");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("a\\xff\\nb,\"c\".mkv"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\xff'), std::string::npos) << "a raw 0xFF reached the terminal";
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "the name's newline reached the terminal:\n" << r.err;
}

// --- corruption in the middle is not truncation -----------------------------------------------

// 200 frames at 25 fps in MP4 (a constant rate, a frame count), keyframes every 10, with 3000
// bytes in the middle overwritten: frames are lost there, not at the end. The run says corrupt
// data in the middle, how many frames and between which, not "the file ends after"; every
// record's frame is its place at the rate (frame == pts x 25), so the numbers skip the lost ones;
// and the last frame is number 199.
TEST(AnalyzeCorruption, FramesLostInTheMiddleAreSaidSoAndFrameFollowsPts) {
  const std::string clip = make_clip("to_damage.mp4", "-f lavfi -i testsrc2=s=128x96:r=25 -frames:v 200 -c:v libx264 -g 10 "
                                                      "-bf 0 -pix_fmt yuv420p -movflags +faststart");
  std::string bytes = read_file(clip);
  for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 3000; ++i) bytes[i] = static_cast<char>(0xff);
  const fs::path bad = clip_dir() / "damaged_middle.mp4";
  std::ofstream(bad, std::ios::binary) << bytes;
  const ProcessResult r = run_vhist("analyze " + quote(bad) + " --engine cpu -q --bins 16");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("corrupt data in the middle"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("between frame"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("ends after"), std::string::npos) << "called truncation: " << r.err;
  const auto records = lines(r.out);
  ASSERT_GT(records.size(), 150u);
  ASSERT_LT(records.size(), 200u) << "nothing was lost: the damage missed";
  std::int64_t previous = -1, skipped = 0;
  for (const auto& record : records) {
    const nlohmann::json j = nlohmann::json::parse(record);
    const std::int64_t frame = j["frame"];
    const double pts = j["pts"];
    EXPECT_EQ(frame, std::llround(pts * 25)) << record.substr(0, 60);
    skipped += frame - previous - 1;
    previous = frame;
  }
  EXPECT_EQ(previous, 199);
  EXPECT_EQ(skipped, 200 - static_cast<std::int64_t>(records.size()));
  EXPECT_NE(r.err.find(std::to_string(skipped) + " frames lost"), std::string::npos) << r.err;
  // The summary says the same, with where: each gap's frames are the numbers skipped there.
  const nlohmann::json summary = nlohmann::json::parse(test::summary_of(r.out));
  ASSERT_TRUE(summary.contains("lost")) << summary.dump();
  EXPECT_EQ(summary["lost"]["frames"], skipped);
  std::int64_t in_gaps = 0;
  for (const auto& gap : summary["lost"]["gaps"]) {
    EXPECT_EQ(gap["before_frame"].get<std::int64_t>() - gap["after_frame"].get<std::int64_t>() - 1, gap["frames"]);
    in_gaps += gap["frames"].get<std::int64_t>();
  }
  EXPECT_EQ(in_gaps, skipped);
}

// --- the command line ---------------------------------------------------------------------------

// "--" ends the options: a file whose name starts with a dash is the input after it.
TEST(AnalyzeCommandLine, DoubleDashEndsTheOptions) {
  const fs::path dir = fresh_dir("dash_names");
  fs::copy_file(small_clip(), dir / "-weird.mkv");
  const std::string run = "cd " + quote(dir) + " && VHIST_VALIDATION=1 '" + std::string(VHIST_BINARY) + "' analyze";
  const fs::path out = dir / "out.jsonl", err = dir / "err.txt";
  int raw = std::system((run + " --engine cpu -q -o out.jsonl -- -weird.mkv 2> err.txt").c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 0) << read_file(err);
  EXPECT_EQ(lines(read_file(out)).size(), 10u);
  // Without "--" the name is an option, and said to be unknown.
  raw = std::system((run + " --engine cpu -q -weird.mkv 2> err.txt").c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 2);
  EXPECT_NE(read_file(err).find("unknown option '-weird.mkv'"), std::string::npos) << read_file(err);
}

// "1:99" is no time: refused (it was taken as 159 s), with what a time is.
TEST(AnalyzeCommandLine, ATimeWithSixtyOrMoreAfterAColonIsRefused) {
  for (const char* time : {"1:99", "0:60", "1:60:00"}) {
    const ProcessResult r = run_vhist("analyze " + quote(small_clip()) + " --engine cpu -q --start " + time);
    EXPECT_EQ(r.status, 2) << time << ": " << r.err;
    EXPECT_NE(r.err.find("below 60"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  const ProcessResult ok = run_vhist("analyze " + quote(small_clip()) + " --engine cpu -q --start 0:00.2");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(lines(ok.out).size(), 5u);  // frames at 0.2, 0.24 ... 0.36 s
}

}  // namespace
}  // namespace vhist
