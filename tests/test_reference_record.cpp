// The viewer's reference histogram read back from `vhist analyze` JSON Lines output (the
// --reference file): the counts equal the record's arrays, and each bad file is refused with
// what is wrong, also by the viewer at startup (exit 2, before any window).
#include "analyze_process.h"
#include "test_clips.h"

#include "vhist/records/record_reader.h"

#include <gtest/gtest.h>

#include <fstream>

namespace vhist {
namespace {

using test::make_clip;
using test::run_vhist;

std::string write_output(const std::string& name, const std::string& text) {
  const auto path = (test::clip_dir() / name).string();
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& path, std::optional<std::int64_t> frame) {
  try {
    read_reference_record(path, frame);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReferenceRecord, CountsAreTheRecordsArrays) {
  const std::string clip = make_clip("reference_src.mp4", "-f lavfi -i testsrc2=s=64x36:r=10 -frames:v 5 -pix_fmt yuv420p");
  const auto r = run_vhist("analyze '" + clip + "' --bins 64 -q");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string path = write_output("reference.jsonl", r.out);
  const auto records = test::lines(r.out);
  ASSERT_EQ(records.size(), 5u);
  const ReferenceRecord third = read_reference_record(path, 3);
  EXPECT_EQ(third.frame, 3);
  EXPECT_EQ(third.bits, 8u);
  ASSERT_EQ(third.histogram.bins, 64u);
  const char* names[] = {"r", "g", "b", "l"};
  for (std::uint32_t c = 0; c < 4; ++c) {
    const auto want = test::json_array(records[3], names[c]);
    ASSERT_EQ(want.size(), 64u);
    for (std::uint32_t b = 0; b < 64; ++b) EXPECT_EQ(third.histogram.counts[b * 4 + c], want[b]) << names[c] << b;
  }
  EXPECT_EQ(read_reference_record(path, std::nullopt).frame, 0);  // the first record by default
  EXPECT_NE(third.description.find("frame 3 (64 bins, 8 bits)"), std::string::npos) << third.description;
}

TEST(ReferenceRecord, BadFilesAreRefusedWithWhatIsWrong) {
  const std::string clip = make_clip("reference_src.mp4", "-f lavfi -i testsrc2=s=64x36:r=10 -frames:v 5 -pix_fmt yuv420p");
  const auto jsonl = run_vhist("analyze '" + clip + "' -q");
  const std::string good = write_output("reference_good.jsonl", jsonl.out);
  EXPECT_NE(error_of(good, 99).find("has no frame 99 (its frames run from 0 to 4)"), std::string::npos);
  EXPECT_NE(error_of("/nonexistent/ref.jsonl", {}).find("cannot be read"), std::string::npos);
  const auto csv = run_vhist("analyze '" + clip + "' --format csv -q");
  const std::string csv_path = write_output("reference.csv", csv.out);
  EXPECT_NE(error_of(csv_path, {}).find("CSV is not read"), std::string::npos) << error_of(csv_path, {});
  const auto planes = run_vhist("analyze '" + clip + "' --domain ycbcr -q");
  const std::string planes_path = write_output("reference_planes.jsonl", planes.out);
  EXPECT_NE(error_of(planes_path, {}).find("Y'CbCr"), std::string::npos) << error_of(planes_path, {});
  const std::string header_only = write_output("reference_header.jsonl", jsonl.out.substr(0, jsonl.out.find('\n') + 1));
  EXPECT_NE(error_of(header_only, {}).find("no frame records"), std::string::npos);
  std::string short_array = test::lines(jsonl.out)[0];
  short_array.replace(short_array.find("\"r\":["), 5, "\"r\":[1,");
  EXPECT_NE(error_of(write_output("reference_bad.jsonl", short_array), {}).find("\"r\" is not an array of 256"),
            std::string::npos);
  // A count no frame can have (it would wrap to 32 bits), a channel of no pixels, a folder.
  std::string huge = test::lines(jsonl.out)[0];
  const auto r_at = huge.find("\"r\":[") + 5;  // the first count of "r", replaced by 2^63
  huge.replace(r_at, huge.find(',', r_at) - r_at, "9223372036854775808");
  EXPECT_NE(error_of(write_output("reference_huge.jsonl", huge), {}).find("larger than any frame's pixels"),
            std::string::npos)
      << error_of(write_output("reference_huge.jsonl", huge), {});
  std::string empty = test::lines(jsonl.out)[0];
  const auto l_at = empty.find("\"l\":[") + 5;
  std::string zeros;
  for (int i = 0; i < 256; ++i) zeros += i == 0 ? "0" : ",0";
  empty.replace(l_at, empty.find(']', l_at) - l_at, zeros);
  EXPECT_NE(error_of(write_output("reference_empty.jsonl", empty), {}).find("\"l\" counts no pixel"), std::string::npos)
      << error_of(write_output("reference_empty.jsonl", empty), {});
  EXPECT_NE(error_of(test::clip_dir().string(), {}).find("is a folder"), std::string::npos);
  // The viewer refuses it before opening a window.
  const auto viewer = run_vhist("'" + clip + "' --reference /nonexistent/ref.jsonl");
  EXPECT_EQ(viewer.status, 2);
  EXPECT_NE(viewer.err.find("reference '/nonexistent/ref.jsonl': cannot be read"), std::string::npos) << viewer.err;
}

}  // namespace
}  // namespace vhist
