// `vhist qc` as a process (validation on) on clips with known events at known frames
// (qc_clips.h): every event found with its exact frames and timecodes and no other, R 103's 1 %
// rule at its boundary, the stream's timecode, the exit status, the outputs and their refusals;
// an HLG clip's light on the timeline, unchecked.
#include "analyze_process.h"
#include "qc_clips.h"

#include "vhist/qc/timeline_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <tuple>

namespace vhist::test {
namespace {

using nlohmann::json;

struct Found {
  std::string check;
  std::int64_t first, last;
  std::string start_tc, end_tc;
  bool operator<(const Found& o) const {
    return std::tie(check, first, last, start_tc, end_tc) < std::tie(o.check, o.first, o.last, o.start_tc, o.end_tc);
  }
  bool operator==(const Found& o) const = default;
};

std::ostream& operator<<(std::ostream& os, const Found& f) {
  return os << f.check << " " << f.first << "-" << f.last << " " << f.start_tc << "-" << f.end_tc;
}

std::vector<json> objects(const std::string& text) {
  std::vector<json> out;
  for (const std::string& line : all_lines(text)) out.push_back(json::parse(line));
  return out;
}

std::set<Found> events_of(const std::string& text) {
  std::set<Found> found;
  for (const json& j : objects(text)) {
    if (j["type"] != "event") continue;
    found.insert({j["check"], j["first_frame"], j["last_frame"], j["start_timecode"], j["end_timecode"]});
  }
  return found;
}

// The SDR clip's events, from its design (qc_clips.h), at 25 fps from 10:00:00:00.
const std::set<Found> kSdrEvents = {
    {"black", 50, 74, "10:00:02:00", "10:00:02:24"},
    {"r103_rgb", 90, 99, "10:00:03:15", "10:00:03:24"},
    {"frozen", 110, 169, "10:00:04:10", "10:00:06:19"},
    {"r103_rgb", 200, 201, "10:00:08:00", "10:00:08:01"},
    {"clipped", 180, 184, "10:00:07:05", "10:00:07:09"},
    {"clipped", 200, 201, "10:00:08:00", "10:00:08:01"},
    {"r103_luma", 200, 201, "10:00:08:00", "10:00:08:01"},
};

TEST(QcCommand, FindsEveryEventAtItsFramesAndTimecodesAndNoOther) {
  const ProcessResult r = run_vhist("qc -q " + quote(sdr_events_clip()));
  ASSERT_EQ(r.status, 3) << r.err;  // R 103 fails the run
  EXPECT_EQ(events_of(r.out), kSdrEvents);
  const std::vector<json> all = objects(r.out);
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all.front()["type"], "qc");
  EXPECT_EQ(all.front()["timecode"], "10:00:00:00");
  EXPECT_EQ(all.back()["type"], "qc_summary");
  EXPECT_EQ(all.back()["frames"], 210);
  EXPECT_EQ(all.back()["passed"], false);
  EXPECT_EQ(r.err.find("validation"), std::string::npos) << r.err;
}

TEST(QcCommand, GpuEngineFindsTheSameEvents) {
  // The GPU pipeline's measures (gamut counts in the convert pass, the checksum pass) against
  // the same design; on lavapipe here.
  const ProcessResult r = run_vhist("qc -q --engine gpu " + quote(sdr_events_clip()));
  ASSERT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(events_of(r.out), kSdrEvents);
  EXPECT_NE(r.out.find("engine gpu"), std::string::npos);
}

TEST(QcCommand, R103OnePercentRuleAtItsBoundary) {
  // Frames 190-191: Y' 250 on 0.9 % of the picture, within the rule; 200-201: 1.1 %, beyond it.
  const ProcessResult r = run_vhist("qc -q " + quote(sdr_events_clip()));
  bool at_09 = false, at_11 = false;
  for (const json& j : objects(r.out)) {
    if (j["type"] != "event" || (j["check"] != "r103_luma" && j["check"] != "r103_rgb")) continue;
    at_09 = at_09 || (j["first_frame"] <= 191 && j["last_frame"] >= 190);
    at_11 = at_11 || (j["first_frame"] == 200 && j["last_frame"] == 201);
    if (j["first_frame"] == 200) {
      EXPECT_NEAR(j["worst"].get<double>(), 704.0 / 64000.0 * 100.0, 1e-6);
    }
  }
  EXPECT_FALSE(at_09);
  EXPECT_TRUE(at_11);
}

TEST(QcCommand, PqFramesBrighterThanTheirMetadata) {
  const ProcessResult r = run_vhist("qc -q " + quote(pq_events_clip()));
  ASSERT_EQ(r.status, 3) << r.err;
  // No timecode track: timecodes from the timestamps at 25 fps.
  EXPECT_EQ(events_of(r.out), (std::set<Found>{{"light", 40, 59, "00:00:01:15", "00:00:02:09"}}));
  for (const json& j : objects(r.out)) {
    if (j["type"] == "qc") {
      EXPECT_EQ(j["timecode"], "none (times from timestamps)");
    }
    if (j["type"] == "event") {
      EXPECT_GT(j["worst"].get<double>(), 1000.0);
    }
  }
}

TEST(QcCommand, CsvCarriesTheSameEvents) {
  const std::string out = (clip_dir() / "events.csv").string();
  const ProcessResult r = run_vhist("qc -q " + quote(sdr_events_clip()) + " -o " + quote(out));
  ASSERT_EQ(r.status, 3) << r.err;
  std::set<Found> found;
  for (const std::string& line : all_lines(read_file(out))) {
    if (line.empty() || line[0] == '#' || line.rfind("check,", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string field; f.size() < 8 && std::getline(ss, field, ',');) f.push_back(field);
    ASSERT_EQ(f.size(), 8u) << line;
    found.insert({f[0], std::stoll(f[2]), std::stoll(f[3]), f[6], f[7]});
  }
  EXPECT_EQ(found, kSdrEvents);
}

TEST(QcCommand, ProfileFileSetsThresholdsAndTheCommandLineWins) {
  const std::string profile = (clip_dir() / "lenient.ini").string();
  std::ofstream(profile) << "# a lenient profile\nclip-high = 20\nfail = clipped\n";
  const ProcessResult r = run_vhist("qc -q " + quote(sdr_events_clip()) + " --profile " + quote(profile));
  EXPECT_EQ(r.status, 0) << r.err;  // only clipped fails, and 15.6 % is under 20 %
  for (const Found& f : events_of(r.out)) EXPECT_NE(f.check, "clipped") << f;
  const ProcessResult strict =
      run_vhist("qc -q " + quote(sdr_events_clip()) + " --profile " + quote(profile) + " --clip-high 10");
  EXPECT_EQ(strict.status, 3) << strict.err;
  EXPECT_EQ(events_of(strict.out).count({"clipped", 180, 184, "10:00:07:05", "10:00:07:09"}), 1u);
}

TEST(QcCommand, FailNonePassesAndEveryEventIsStillListed) {
  const ProcessResult r = run_vhist("qc -q --fail none " + quote(sdr_events_clip()));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(events_of(r.out), kSdrEvents);
}

TEST(QcCommand, TimelineFileHoldsEveryFrameAndTheEvents) {
  const std::string path = (clip_dir() / "sdr.vhtl").string();
  const ProcessResult r = run_vhist("qc -q " + quote(sdr_events_clip()) + " --timeline-file " + quote(path) + " -o /dev/null");
  ASSERT_EQ(r.status, 3) << r.err;
  // -o /dev/null wrote into the device: it is still one (a rename over it would make it a file).
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  std::string error;
  const auto file = qc::load_timeline(path, error);
  ASSERT_TRUE(file) << error;
  EXPECT_TRUE(file->complete);
  EXPECT_EQ(file->timeline.frames().size(), 210u);
  EXPECT_EQ(file->timeline.columns().size(), 210u);  // one column per frame under 2048 frames
  EXPECT_EQ(file->events.size(), kSdrEvents.size());
  EXPECT_EQ(file->input, *qc::identify_input(sdr_events_clip()));
  // Column 60 is a black frame: all of its luma at level 16.
  const qc::TimelineColumn& black = file->timeline.columns()[60];
  EXPECT_EQ(black.counts[16 * 4 + 3], kSdrWidth * kSdrHeight);
}

TEST(QcCommand, BadInputAndBadValuesAreRefused) {
  const ProcessResult missing = run_vhist("qc -q " + quote((clip_dir() / "nope.mp4").string()));
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("no such file"), std::string::npos) << missing.err;
  const ProcessResult bad = run_vhist("qc -q --r103-area 150 " + quote(sdr_events_clip()));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--r103-area needs a percentage from 0 to 100, not '150'"), std::string::npos) << bad.err;
  const ProcessResult none = run_vhist("qc -q --engine none " + quote(sdr_events_clip()));
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("--engine none decodes only"), std::string::npos) << none.err;
  const ProcessResult fail = run_vhist("qc -q --fail blackish " + quote(sdr_events_clip()));
  EXPECT_EQ(fail.status, 2);
  EXPECT_NE(fail.err.find("--fail needs"), std::string::npos) << fail.err;
}

TEST(QcCommand, AnOutputThatIsTheInputIsRefusedAndTheInputKept) {
  const std::string copy = (clip_dir() / "keep.mov").string();
  std::filesystem::copy_file(sdr_events_clip(), copy, std::filesystem::copy_options::overwrite_existing);
  const auto before = std::filesystem::file_size(copy);
  for (const std::string flag : {"-o", "--report", "--timeline-file"}) {
    const ProcessResult r = run_vhist("qc -q " + quote(copy) + " " + flag + " " + quote(copy));
    EXPECT_EQ(r.status, 2) << flag;
    EXPECT_EQ(std::filesystem::file_size(copy), before) << flag;
  }
}

}  // namespace
}  // namespace vhist::test

namespace vhist::test {
namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(QcCommand, ReportHasTheHeatmapAThumbnailPerEventAndNothingRemote) {
  const std::string path = (clip_dir() / "report.html").string();
  const ProcessResult r = run_vhist("qc -q " + quote(sdr_events_clip()) + " -o /dev/null --report " + quote(path));
  ASSERT_EQ(r.status, 3) << r.err;
  const std::string html = read_file(path);
  ASSERT_FALSE(html.empty());
  // The heatmap and one thumbnail per event, every one inline.
  EXPECT_EQ(count_of(html, "data:image/png;base64,iVBOR"), 1 + kSdrEvents.size());
  EXPECT_EQ(count_of(html, "http://"), 0u);
  EXPECT_EQ(count_of(html, "https://"), 0u);
  EXPECT_NE(html.find("10:00:02:00"), std::string::npos);  // the black event's start timecode
  EXPECT_NE(html.find("FAIL"), std::string::npos);
}

// HLG: every frame's light (BT.2100's reference display) on the timeline and in the report's
// curves, the same as `vhist analyze` measures; no light event (nothing to check it against),
// and a note that says so.
TEST(QcCommand, HlgLightIsOnTheTimelineButNotChecked) {
  const std::string path = (clip_dir() / "hlg.vhtl").string(), report = (clip_dir() / "hlg.html").string();
  const ProcessResult r =
      run_vhist("qc -q " + quote(hlg_clip()) + " --timeline-file " + quote(path) + " --report " + quote(report));
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  std::string error;
  const auto file = qc::load_timeline(path, error);
  ASSERT_TRUE(file) << error;
  ASSERT_EQ(file->timeline.frames().size(), 25u);
  EXPECT_TRUE(file->events.empty());
  const ProcessResult analyzed = run_vhist("analyze -q " + quote(hlg_clip()) + " --bins 16");
  ASSERT_EQ(analyzed.status, 0) << analyzed.err;
  const auto records = lines(analyzed.out);
  ASSERT_EQ(records.size(), 25u);
  for (const qc::QcFrame& q : file->timeline.frames()) {
    EXPECT_TRUE(q.hlg);
    EXPECT_FALSE(q.pq);
    const bool box = q.frame >= 10 && q.frame <= 14;
    EXPECT_GT(q.max_cll, box ? 500.0f : 20.0f) << q.frame;
    EXPECT_LT(q.max_cll, box ? 1000.0f : 40.0f) << q.frame;
    const json record = json::parse(records[static_cast<std::size_t>(q.frame)]);
    EXPECT_NEAR(q.max_cll, record["max_cll"].get<double>(), 1e-3) << q.frame;
    EXPECT_NEAR(q.fall, record["fall"].get<double>(), 1e-3) << q.frame;
  }
  EXPECT_NE(r.out.find("PQ light: not checked, the input is HLG"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"type\":\"event\""), std::string::npos) << r.out;
  const std::string html = read_file(report);
  EXPECT_NE(html.find("MaxCLL and FALL are measured for the curves"), std::string::npos);
  EXPECT_NE(html.find("Light (HLG, on BT.2100\u2019s 1000 cd/m\u00b2 reference display"), std::string::npos);
}

// The provenance a desk signs: the file's absolute path, size, modification time and SHA-256
// (checked against coreutils' sha256sum), every stream it carries (an English AAC track beside
// the video), when and where it ran, the command line and the profile; the row says the same.
TEST(QcCommand, TheHeaderCarriesTheFilesIdentityItsStreamsAndHowItRan) {
  namespace fs = std::filesystem;
  const std::string clip = make_clip("provenance.mov", "-f lavfi -i testsrc2=s=64x48:r=25:d=1 -f lavfi -i sine=d=1 "
                                                       "-map 0 -map 1 -c:v libx264 -pix_fmt yuv420p -c:a aac "
                                                       "-metadata:s:a:0 language=eng");
  const fs::path profile = clip_dir() / "provenance.ini", row = clip_dir() / "provenance.row.json";
  std::FILE* f = std::fopen(profile.c_str(), "wb");
  std::fputs("r103-area = 1\n", f);
  std::fclose(f);
  const ProcessResult r = run_vhist("qc -q " + quote(clip) + " --profile " + quote(profile.string()) + " --row " +
                                    quote(row.string()));
  ASSERT_TRUE(r.status == 0 || r.status == 3) << r.err;
  const json header = objects(r.out).front();
  ASSERT_EQ(header["type"], "qc");
  EXPECT_EQ(header["input"], fs::absolute(clip).lexically_normal().string());
  EXPECT_EQ(header["size"], std::to_string(fs::file_size(clip)) + " bytes");
  EXPECT_TRUE(std::regex_match(header["modified"].get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << header["modified"];
  // The SHA-256 as coreutils computes it.
  const fs::path sum = clip_dir() / "provenance.sha256";
  ASSERT_EQ(std::system(("sha256sum " + quote(clip) + " > " + quote(sum.string())).c_str()), 0);
  EXPECT_EQ(header["sha256"], read_file(sum).substr(0, 64));
  EXPECT_NE(header["streams"].get<std::string>().find("0 video h264 64x48"), std::string::npos) << header["streams"];
  EXPECT_NE(header["streams"].get<std::string>().find("1 audio aac 44100 Hz, 1 channels"), std::string::npos)
      << header["streams"];
  EXPECT_NE(header["streams"].get<std::string>().find(" eng"), std::string::npos) << header["streams"];
  EXPECT_TRUE(std::regex_match(header["run"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ on .+)")))
      << header["run"];
  EXPECT_EQ(header["command"].get<std::string>().rfind("vhist qc -q " + clip + " --profile ", 0), 0u) << header["command"];
  EXPECT_EQ(header["profile"], fs::absolute(profile).lexically_normal().string());
  EXPECT_NE(header["vhist"].get<std::string>().find(", engine "), std::string::npos);
  const json row_json = json::parse(read_file(row));
  EXPECT_EQ(row_json["sha256"], header["sha256"]);
  EXPECT_EQ(row_json["size"].get<std::uintmax_t>(), fs::file_size(clip));
  EXPECT_EQ(row_json["streams"], header["streams"]);
  EXPECT_EQ(row_json["command"], header["command"]);
}

}  // namespace
}  // namespace vhist::test
