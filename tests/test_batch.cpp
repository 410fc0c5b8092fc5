// `vhist batch` as a process (validation on) over real clips: one row per input in plan order,
// each row's numbers equal to what single-file runs give (its records byte for byte those of
// `vhist analyze`; its exposure columns recomputed here from those records' histograms; its
// verdict that of `vhist qc`), a corrupt file one error row, resuming, --key, --plan, refusals.
#include "analyze_process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace vhist::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A directory of clips: two in the top, one below, a corrupt one; fresh for each test.
struct Archive {
  fs::path dir, out;
  std::vector<std::string> keys;  // sorted, as the plan lists them
};

Archive make_archive(const std::string& name) {
  Archive a;
  a.dir = clip_dir() / name / "in";
  a.out = clip_dir() / name / "out";
  fs::remove_all(clip_dir() / name);
  fs::create_directories(a.dir / "day2");
  const std::string bars = make_clip("batch_bars.mp4", "-f lavfi -i smptebars=s=192x108:d=1 -pix_fmt yuv420p -c:v libx264");
  const std::string test = make_clip("batch_test.mkv", "-f lavfi -i testsrc2=s=160x90:d=1.2 -pix_fmt yuv420p -c:v ffv1");
  const std::string dark = make_clip("batch_dark.mp4",
                                     "-f lavfi -i color=c=0x101010:s=128x72:d=0.8 -pix_fmt yuv420p -c:v libx264");
  fs::copy_file(bars, a.dir / "bars.mp4");
  fs::copy_file(test, a.dir / "day2" / "test.mkv");
  fs::copy_file(dark, a.dir / "dark.mp4");
  std::string junk(8192, '\0');  // bytes no demuxer takes for video
  for (std::size_t k = 0; k < junk.size(); ++k) junk[k] = static_cast<char>((k * 7919u) >> 3);
  std::FILE* f = std::fopen((a.dir / "broken.mp4").c_str(), "wb");
  std::fwrite(junk.data(), 1, junk.size(), f);
  std::fclose(f);
  std::FILE* note = std::fopen((a.dir / "notes.txt").c_str(), "wb");  // not a video extension: not an input
  std::fclose(note);
  a.keys = {"bars.mp4", "broken.mp4", "dark.mp4", "day2/test.mkv"};
  return a;
}

std::vector<json> jsonl(const fs::path& path) {
  std::vector<json> out;
  for (const std::string& line : all_lines(read_file(path))) out.push_back(json::parse(line));
  return out;
}

// An events file (JSON Lines) without what differs from run to run by design: the header's `run`
// (when, where) and `command` (the outputs' paths differ between two runs).
std::string without_run(const std::string& events) {
  std::string out;
  for (const std::string& line : all_lines(events)) {
    json j = json::parse(line);
    if (j["type"] == "qc") j.erase("run"), j.erase("command");
    out += j.dump() + "\n";
  }
  return out;
}

// Each channel's mean, median and clip shares over all of a records file's frames, from the
// records' own 256-bin histograms (8-bit clips: one bin per code), counted here in 64 bits.
struct Exposure {
  double mean = 0, clip_low = 0, clip_high = 0;
  std::uint64_t p50 = 0;
};
Exposure exposure_of(const std::string& records, const std::string& channel) {
  std::vector<std::uint64_t> sum(256, 0);
  for (const std::string& line : lines(records)) {
    const std::vector<std::uint64_t> h = json_array(line, channel);
    for (std::size_t k = 0; k < h.size() && k < 256; ++k) sum[k] += h[k];
  }
  std::uint64_t total = 0;
  double weighted = 0;
  for (std::size_t k = 0; k < 256; ++k) total += sum[k], weighted += static_cast<double>(k) * static_cast<double>(sum[k]);
  Exposure e;
  e.mean = weighted / static_cast<double>(total);
  e.clip_low = static_cast<double>(sum[0]) / static_cast<double>(total);
  e.clip_high = static_cast<double>(sum[255]) / static_cast<double>(total);
  std::uint64_t running = 0;
  const std::uint64_t rank = (total + 1) / 2;  // nearest rank of the 50th percentile
  while ((running += sum[e.p50]) < rank) ++e.p50;
  return e;
}

TEST(Batch, OneRowPerInputEqualToSingleFileRuns) {
  const Archive a = make_archive("batch_rows");
  const ProcessResult r = run_vhist("batch " + quote(a.dir.string()) + " --out " + quote(a.out.string()) + " --jobs 2");
  EXPECT_EQ(r.status, 1) << r.err;  // the broken file could not be analysed
  const std::vector<json> rows = jsonl(a.out / "summary.jsonl");
  ASSERT_EQ(rows.size(), a.keys.size()) << r.err;
  for (std::size_t k = 0; k < rows.size(); ++k) EXPECT_EQ(rows[k]["key"], a.keys[k]);
  EXPECT_EQ(rows[1]["status"], "error");
  EXPECT_NE(rows[1]["error"].get<std::string>().find("not a video file"), std::string::npos) << rows[1];
  EXPECT_TRUE(rows[1]["l_mean"].is_null());
  EXPECT_NE(r.err.find("broken.mp4"), std::string::npos) << r.err;
  for (const std::size_t k : {0u, 2u, 3u}) {
    const json& row = rows[k];
    const std::string input = (a.dir / a.keys[k]).string();
    ASSERT_EQ(row["status"], "ok") << row;
    EXPECT_EQ(row["input"], input);
    // The records are vhist analyze's of the same file.
    const ProcessResult single = run_vhist("analyze " + quote(input) + " -q");
    ASSERT_EQ(single.status, 0) << single.err;
    const std::string records = read_file(a.out / (a.keys[k] + ".jsonl"));
    EXPECT_EQ(lines(records), lines(single.out)) << a.keys[k];
    EXPECT_EQ(row["frames"].get<std::size_t>(), lines(single.out).size());
    for (const std::string c : {"r", "g", "b", "l"}) {
      const Exposure e = exposure_of(records, c);
      EXPECT_NEAR(row[c + "_mean"].get<double>(), e.mean, 1e-9) << a.keys[k] << " " << c;
      EXPECT_EQ(row[c + "_p50"].get<std::uint64_t>(), e.p50) << a.keys[k] << " " << c;
      EXPECT_NEAR(row[c + "_clip_low"].get<double>(), e.clip_low, 1e-12) << a.keys[k] << " " << c;
      EXPECT_NEAR(row[c + "_clip_high"].get<double>(), e.clip_high, 1e-12) << a.keys[k] << " " << c;
    }
    // The verdict is vhist qc's.
    const ProcessResult qc = run_vhist("qc " + quote(input) + " -q");
    ASSERT_TRUE(qc.status == 0 || qc.status == 3) << qc.err;
    EXPECT_EQ(row["qc"], qc.status == 0 ? "pass" : "fail") << a.keys[k];
    std::size_t events = 0;
    for (const std::string& line : all_lines(qc.out)) events += json::parse(line)["type"] == "event" ? 1 : 0;
    EXPECT_EQ(row["qc_events"].get<std::size_t>(), events) << a.keys[k];
    EXPECT_EQ(without_run(read_file(a.out / (a.keys[k] + ".qc.jsonl"))), without_run(qc.out));
  }
}

TEST(Batch, CsvHasTheColumnsAndOneLinePerInput) {
  const Archive a = make_archive("batch_csv");
  const ProcessResult r = run_vhist("batch " + quote(a.dir.string()) + " --out " + quote(a.out.string()) + " -q");
  const std::vector<std::string> csv = all_lines(read_file(a.out / "summary.csv"));
  ASSERT_EQ(csv.size(), a.keys.size() + 1) << r.err;
  EXPECT_EQ(csv[0].rfind("type,input,key,status,error,container,codec,width,height,bits,", 0), 0u) << csv[0];
  EXPECT_NE(csv[0].find(",l_mean,l_p1,l_p50,l_p99,l_clip_low,l_clip_high,light,max_cll,max_fall,qc,"), std::string::npos);
  // The container name holds commas: quoted. SDR has no light: empty cells.
  EXPECT_NE(csv[1].find(",\"mov,mp4,m4a,3gp,3g2,mj2\",h264,192,108,8,"), std::string::npos) << csv[1];
  EXPECT_NE(csv[1].find(",,,,"), std::string::npos) << csv[1];
}

TEST(Batch, CompleteInputsAreSkippedUntilChangedOrForced) {
  const Archive a = make_archive("batch_resume");
  const std::string cmd = "batch " + quote(a.dir.string()) + " --out " + quote(a.out.string()) + " -q";
  ASSERT_EQ(run_vhist(cmd).status, 1);
  const fs::path row = a.out / "bars.mp4.row.json", other = a.out / "dark.mp4.row.json";
  const auto first = fs::last_write_time(row), first_other = fs::last_write_time(other);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(run_vhist(cmd).status, 1);
  EXPECT_EQ(fs::last_write_time(row), first);  // complete: not run again
  fs::last_write_time(a.dir / "bars.mp4", fs::file_time_type::clock::now());  // the input changed
  ASSERT_EQ(run_vhist(cmd).status, 1);
  EXPECT_GT(fs::last_write_time(row), first);
  EXPECT_EQ(fs::last_write_time(other), first_other);
  ASSERT_EQ(run_vhist(cmd + " --force").status, 1);
  EXPECT_GT(fs::last_write_time(other), first_other);
  EXPECT_EQ(jsonl(a.out / "summary.jsonl").size(), a.keys.size());
}

// Stops a batch (`workers`: processes or threads) with SIGTERM once its first input is complete,
// then runs it again: it goes on from there. The batch's test hook VHIST_TEST_BATCH_HOLD=1 has it
// start no input after the first has finished (and wait for the signal): without it a fast
// machine finished all four inputs between the first row and the signal.
void interrupt_and_resume(const std::string& name, const char* workers) {
  const fs::path dir = clip_dir() / name / "in", out = clip_dir() / name / "out";
  fs::remove_all(clip_dir() / name);
  fs::create_directories(dir);
  const std::string clip = make_clip("batch_long.mkv", "-f lavfi -i testsrc2=s=320x180:d=6 -pix_fmt yuv420p -c:v ffv1");
  for (int k = 0; k < 4; ++k) fs::copy_file(clip, dir / ("c" + std::to_string(k) + ".mkv"));
  const std::string vhist = VHIST_BINARY;
  const pid_t pid = fork();
  if (pid == 0) {
    ::setenv("VHIST_TEST_BATCH_HOLD", "1", 1);
    execl(vhist.c_str(), vhist.c_str(), "batch", dir.c_str(), "--out", out.c_str(), "-q", "--workers", workers,
          "--jobs", "2", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Stopped once the first input is complete (its row is written last); with --jobs 2 and the
  // hold, c0, c1 and at most c2 (started as c0's worker ended, before its row was counted) run,
  // c3 never does.
  int status = 0;
  bool ended = false;  // the batch ended by itself (a failure the checks below report)
  while (!fs::exists(out / "c0.mkv.row.json") && !(ended = ::waitpid(pid, &status, WNOHANG) == pid)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!ended) {
    ::kill(pid, SIGTERM);
    ::waitpid(pid, &status, 0);
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_FALSE(fs::exists(out / "summary.jsonl"));
  EXPECT_FALSE(fs::exists(out / "c3.mkv.row.json"));
  for (const auto& entry : fs::directory_iterator(out)) {  // no temporary file left behind
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  }
  const auto first = fs::last_write_time(out / "c0.mkv.row.json");
  const ProcessResult again = run_vhist("batch " + quote(dir.string()) + " --out " + quote(out.string()) + " -q --workers " +
                                        workers);
  EXPECT_TRUE(again.status == 0 || again.status == 3) << again.err;
  EXPECT_EQ(fs::last_write_time(out / "c0.mkv.row.json"), first);
  const std::vector<json> rows = jsonl(out / "summary.jsonl");
  ASSERT_EQ(rows.size(), 4u);
  for (const json& row : rows) EXPECT_EQ(row["frames"], 150) << row;
}

TEST(Batch, AnInterruptedBatchGoesOnWhereItStopped) { interrupt_and_resume("batch_stop", "processes"); }

TEST(Batch, AnInterruptedBatchOfThreadsGoesOnWhereItStopped) { interrupt_and_resume("batch_stop_threads", "threads"); }

// --workers threads: every input on a thread of one process, on one shared Vulkan device (the
// GPU engine, so that the threads' frames share its queue; validation on, whose thread-safety
// checks see a queue used by two threads at once). Every file is what child processes write,
// byte for byte (the rows but for their seconds), the broken file's error row included.
TEST(Batch, ThreadWorkersWriteWhatProcessesWrite) {
  const Archive a = make_archive("batch_threads");
  const fs::path threads_out = clip_dir() / "batch_threads" / "threads";
  const std::string common = "batch " + quote(a.dir.string()) + " --jobs 3 --engine gpu --out ";
  const ProcessResult processes = run_vhist(common + quote(a.out.string()) + " -q");
  const ProcessResult threads = run_vhist(common + quote(threads_out.string()) + " --workers threads");
  EXPECT_EQ(processes.status, 1) << processes.err;
  EXPECT_EQ(threads.status, 1) << threads.err;
  EXPECT_EQ(threads.err.find("validation"), std::string::npos) << threads.err;
  EXPECT_NE(threads.err.find("broken.mp4' is not a video file"), std::string::npos) << threads.err;
  const auto without_seconds = [](json row) {
    EXPECT_GT(row.value("seconds", -1.0), 0.0) << row;
    row.erase("seconds"), row.erase("run"), row.erase("command");  // when, where, and the outputs' paths
    return row;
  };
  const std::vector<json> rows = jsonl(threads_out / "summary.jsonl"), expected = jsonl(a.out / "summary.jsonl");
  ASSERT_EQ(rows.size(), a.keys.size());
  ASSERT_EQ(expected.size(), a.keys.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k]["key"], a.keys[k]);
    EXPECT_EQ(without_seconds(rows[k]), without_seconds(expected[k])) << a.keys[k];
    if (rows[k]["status"] == "error") continue;
    EXPECT_NE(rows[k]["engine"].get<std::string>().find("gpu on "), std::string::npos) << rows[k];
    for (const std::string suffix : {".jsonl", ".qc.jsonl"}) {
      const std::string made = read_file(threads_out / (a.keys[k] + suffix));
      EXPECT_FALSE(made.empty()) << a.keys[k] << suffix;
      const std::string other = read_file(a.out / (a.keys[k] + suffix));
      EXPECT_EQ(suffix == ".qc.jsonl" ? without_run(made) : made, suffix == ".qc.jsonl" ? without_run(other) : other)
          << a.keys[k] << suffix;
    }
  }
  EXPECT_EQ(rows[1]["status"], "error");
}

TEST(Batch, ShowsProgressAtATerminalAndALinePerFileInALog) {
  const Archive a = make_archive("batch_progress");
  // At a terminal (script(1) gives it one): files done, frames per second, the time left; the
  // same with worker threads.
  for (const std::string workers : {"processes", "threads"}) {
    const std::string cmd = "VHIST_VALIDATION=1 " + quote(VHIST_BINARY) + " batch " + quote(a.dir.string()) +
                            " --force --out " + quote(a.out.string()) + " --workers " + workers;
    const std::string typescript = (clip_dir() / "batch_progress" / ("typescript." + workers)).string();
    std::system(("script -qec " + quote(cmd) + " " + quote(typescript) + " > /dev/null 2>&1").c_str());
    const std::string shown = read_file(typescript);
    EXPECT_NE(shown.find("\rvhist batch: 4/4 files, "), std::string::npos) << workers << shown;
    EXPECT_NE(shown.find(" fps, ETA "), std::string::npos) << workers << shown;
    EXPECT_NE(shown.find("4 inputs: "), std::string::npos) << workers << shown;
    EXPECT_NE(shown.find(" failed QC, 1 could not be analysed"), std::string::npos) << workers << shown;
  }
  // Into a log: one line per input as it ends.
  const ProcessResult log = run_vhist("batch " + quote(a.dir.string()) + " --out " + quote(a.out.string()) + " --force");
  EXPECT_NE(log.err.find("] day2/test.mkv: "), std::string::npos) << log.err;
  EXPECT_NE(log.err.find(" frames, "), std::string::npos) << log.err;
  EXPECT_EQ(log.err.find('\r'), std::string::npos) << log.err;
}

TEST(Batch, HdrRowsCarryTheFilesLightAndSaySignal) {
  const fs::path dir = clip_dir() / "batch_hdr" / "in", out = clip_dir() / "batch_hdr" / "out";
  fs::remove_all(clip_dir() / "batch_hdr");
  fs::create_directories(dir);
  const std::string hdr = "-f lavfi -i testsrc2=s=128x72:d=0.4," + ycbcr_vf("bt2020nc", "yuv420p10le") +
                          " -pix_fmt yuv420p10le -color_primaries bt2020 -colorspace bt2020nc -color_range tv -c:v ffv1 -color_trc ";
  fs::copy_file(make_clip("batch_pq.mkv", hdr + "smpte2084"), dir / "pq.mkv");
  fs::copy_file(make_clip("batch_hlg.mkv", hdr + "arib-std-b67"), dir / "hlg.mkv");
  const ProcessResult r = run_vhist("batch " + quote(dir.string()) + " --out " + quote(out.string()) + " -q");
  ASSERT_TRUE(r.status == 0 || r.status == 3) << r.err;
  const std::vector<json> rows = jsonl(out / "summary.jsonl");
  ASSERT_EQ(rows.size(), 2u);
  for (const json& row : rows) {
    const ProcessResult single = run_vhist("analyze " + quote(row["input"].get<std::string>()) + " -q");
    const json summary = json::parse(all_lines(single.out).back());
    ASSERT_TRUE(summary.contains("light")) << summary;
    EXPECT_EQ(row["light"], row["key"] == "hlg.mkv" ? "hlg" : "pq") << row;
    EXPECT_EQ(summary["light"].value("signal", "pq"), row["light"]) << summary;
    EXPECT_NEAR(row["max_cll"].get<double>(), summary["light"]["max_cll"].get<double>(), 1e-3) << row;
    EXPECT_NEAR(row["max_fall"].get<double>(), summary["light"]["max_fall"].get<double>(), 1e-3) << row;
  }
}

TEST(Batch, LinksToFoldersAreFollowedOnceAndNamesWithDotsAreKeys) {
  const Archive a = make_archive("batch_links");
  fs::create_directory_symlink(".", a.dir / "self");        // a loop
  fs::create_directory_symlink("day2", a.dir / "latest");    // another path to a folder
  fs::copy_file(a.dir / "dark.mp4", a.dir / "take1..final.mp4");
  const ProcessResult plan = run_vhist("batch " + quote(a.dir.string()) + " --out " + quote(a.out.string()) + " --plan");
  ASSERT_EQ(plan.status, 0) << plan.err;
  std::vector<std::string> keys;
  for (const std::string& line : all_lines(plan.out)) keys.push_back(json::parse(line)["key"]);
  const std::vector<std::string> expected = {"bars.mp4", "broken.mp4", "dark.mp4", "day2/test.mkv", "take1..final.mp4"};
  EXPECT_EQ(keys, expected);  // each file once: not again through self/ or latest/
  const std::string input = (a.dir / "take1..final.mp4").string();
  const ProcessResult key = run_vhist("batch " + quote(input) + " --out " + quote(a.out.string()) + " --key take1..final -q");
  EXPECT_TRUE(key.status == 0 || key.status == 3) << key.err;
  EXPECT_EQ(run_vhist("batch " + quote(input) + " --out " + quote(a.out.string()) + " --key ../x").status, 2);
  EXPECT_EQ(run_vhist("batch " + quote(input) + " --out " + quote(a.out.string()) + " --key a/../../x").status, 2);
}

TEST(Batch, ARowOfAnotherInputUnderTheSameKeyIsNotReused) {
  const Archive a = make_archive("batch_other");
  const fs::path other = clip_dir() / "batch_other" / "other";
  fs::create_directories(other);
  fs::copy_file(a.dir / "bars.mp4", other / "dark.mp4");  // another picture under dark.mp4's key
  fs::last_write_time(other / "dark.mp4", fs::file_time_type::clock::now() - std::chrono::hours(24));
  ASSERT_EQ(run_vhist("batch " + quote(a.dir.string()) + " --out " + quote(a.out.string()) + " -q").status, 1);
  const ProcessResult r = run_vhist("batch " + quote(other.string()) + " --out " + quote(a.out.string()) + " -q");
  ASSERT_TRUE(r.status == 0 || r.status == 3) << r.err;
  const std::vector<json> rows = jsonl(a.out / "summary.jsonl");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["input"], (other / "dark.mp4").string());
  EXPECT_EQ(rows[0]["width"], 192);  // the bars' picture, analysed: not the dark clip's row
}

TEST(Batch, KeyRunsOneInputAndPrintsItsRow) {
  const Archive a = make_archive("batch_key");
  const std::string input = (a.dir / "day2" / "test.mkv").string();
  const ProcessResult r = run_vhist("batch " + quote(input) + " --out " + quote(a.out.string()) + " --key x/y -q");
  ASSERT_TRUE(r.status == 0 || r.status == 3) << r.err;
  const json row = json::parse(r.out);
  EXPECT_EQ(row["key"], "x/y");
  EXPECT_EQ(row, jsonl(a.out / "x" / "y.row.json").front());
  EXPECT_FALSE(fs::exists(a.out / "summary.csv"));
  const ProcessResult bad = run_vhist("batch " + quote((a.dir / "broken.mp4").string()) + " --out " +
                                      quote(a.out.string()) + " --key b");
  EXPECT_EQ(bad.status, 1);
  const json error = json::parse(bad.out);
  EXPECT_EQ(error["status"], "error");
  EXPECT_NE(error["error"].get<std::string>().find("not a video file"), std::string::npos) << error;
  EXPECT_NE(bad.err.find("not a video file"), std::string::npos) << bad.err;  // said, without -q
  EXPECT_FALSE(fs::exists(a.out / "b.row.json"));  // not complete: a later run tries it again
}

TEST(Batch, PlanListsInputsKeysAndDoneWithoutRunning) {
  const Archive a = make_archive("batch_plan");
  const std::string list = (clip_dir() / "batch_plan" / "list.txt").string();
  std::FILE* f = std::fopen(list.c_str(), "wb");
  std::fprintf(f, "# inputs\n%s\n\n", (a.dir / "dark.mp4").c_str());
  std::fclose(f);
  const ProcessResult r = run_vhist("batch --list " + quote(list) + " " + quote((a.dir / "day2").string()) +
                                    " --out " + quote(a.out.string()) + " --plan");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> plan = all_lines(r.out);
  ASSERT_EQ(plan.size(), 2u);
  const json first = json::parse(plan[1]), second = json::parse(plan[0]);  // the list's inputs come after
  EXPECT_EQ(second["key"], "test.mkv");
  EXPECT_EQ(first["key"], "dark.mp4");
  EXPECT_EQ(first["row"], (a.out / "dark.mp4.row.json").string());
  EXPECT_EQ(first["done"], false);
  EXPECT_FALSE(fs::exists(a.out));
}

TEST(Batch, RefusesCollidingKeysAndBadOptionsBeforeRunning) {
  const Archive a = make_archive("batch_refuse");
  fs::copy_file(a.dir / "dark.mp4", a.dir / "day2" / "dark.mp4");
  const ProcessResult same = run_vhist("batch " + quote((a.dir / "dark.mp4").string()) + " " +
                                       quote((a.dir / "day2" / "dark.mp4").string()) + " --out " + quote(a.out.string()));
  EXPECT_EQ(same.status, 2);
  EXPECT_NE(same.err.find("would write the same outputs"), std::string::npos) << same.err;
  const ProcessResult engine = run_vhist("batch " + quote(a.dir.string()) + " --out " + quote(a.out.string()) +
                                         " --engine warp");
  EXPECT_EQ(engine.status, 2);
  EXPECT_NE(engine.err.find("--engine"), std::string::npos) << engine.err;
  const ProcessResult workers = run_vhist("batch " + quote(a.dir.string()) + " --out " + quote(a.out.string()) +
                                          " --workers fibers");
  EXPECT_EQ(workers.status, 2);
  EXPECT_NE(workers.err.find("--workers"), std::string::npos) << workers.err;
  const ProcessResult no_out = run_vhist("batch " + quote(a.dir.string()));
  EXPECT_EQ(no_out.status, 2);
  EXPECT_NE(no_out.err.find("--out"), std::string::npos) << no_out.err;
  const ProcessResult empty = run_vhist("batch " + quote((a.dir / "day2").string()) + " --ext avi --out " +
                                        quote(a.out.string()));
  EXPECT_EQ(empty.status, 2);
  EXPECT_NE(empty.err.find("no inputs found"), std::string::npos) << empty.err;
  const ProcessResult summary = run_vhist("batch " + quote((a.dir / "dark.mp4").string()) + " --out " +
                                          quote(a.out.string()) + " --key summary");
  EXPECT_EQ(summary.status, 2);
  EXPECT_NE(summary.err.find("summary table"), std::string::npos) << summary.err;
  EXPECT_FALSE(fs::exists(a.out));
}

// The first `fraction` of a file's bytes, written to `to`.
void cut_file(const std::string& from, const fs::path& to, double fraction) {
  const std::string bytes = read_file(from);
  std::FILE* f = std::fopen(to.c_str(), "wb");
  std::fwrite(bytes.data(), 1, static_cast<std::size_t>(static_cast<double>(bytes.size()) * fraction), f);
  std::fclose(f);
}

// A damaged input (an MP4 cut at 70 % of its bytes: its index, at the front, promises 120 frames
// over 4.8 s) is judged as far as it decodes: vhist qc ends with status 2, whole_input false,
// and a decode_error event from the end of its last frame to 4.8 s; vhist batch keeps its row
// ("partial", provenance and exposure filled), its events and (--report) its report. An MP4 cut
// before its index (written at the end) cannot be opened at all and stays an error row.
TEST(Batch, ADamagedInputIsJudgedAsFarAsItDecodesAndAnUnreadableOneIsAnError) {
  const fs::path dir = clip_dir() / "batch_damage" / "in", out = clip_dir() / "batch_damage" / "out";
  fs::remove_all(clip_dir() / "batch_damage");
  fs::create_directories(dir);
  const std::string recipe = "-f lavfi -i testsrc2=s=160x90:r=25:d=4.8 -pix_fmt yuv420p -c:v libx264 -g 25";
  cut_file(make_clip("damage_faststart.mp4", recipe + " -movflags +faststart"), dir / "cut.mp4", 0.7);
  cut_file(make_clip("damage_index_last.mp4", recipe), dir / "no_index.mp4", 0.7);

  const ProcessResult qc = run_vhist("qc " + quote((dir / "cut.mp4").string()) + " -q");
  EXPECT_EQ(qc.status, 2) << qc.err;
  json summary, first_damage, last_damage;
  for (const std::string& line : all_lines(qc.out)) {
    const json j = json::parse(line);
    if (j["type"] == "qc_summary") summary = j;
    if (j["type"] == "event" && j["check"] == "decode_error") {
      if (first_damage.is_null()) first_damage = j;
      last_damage = j;
    }
  }
  ASSERT_FALSE(summary.is_null()) << qc.out;
  EXPECT_EQ(summary["whole_input"], false);
  EXPECT_EQ(summary["passed"], false);
  ASSERT_FALSE(last_damage.is_null()) << qc.out;
  EXPECT_NE(last_damage["detail"].get<std::string>().find("ends early"), std::string::npos) << last_damage;
  EXPECT_DOUBLE_EQ(last_damage["end"].get<double>(), 4.8);
  // From the last frame decoded (numbered from the start, frames lost before it counted).
  EXPECT_EQ(last_damage["first_frame"], last_damage["last_frame"]);
  EXPECT_GE(last_damage["last_frame"].get<std::int64_t>() + 1, summary["frames"].get<std::int64_t>());
  EXPECT_LT(summary["frames"].get<std::int64_t>(), 120);

  const ProcessResult r = run_vhist("batch " + quote(dir.string()) + " --out " + quote(out.string()) + " -q --report");
  EXPECT_EQ(r.status, 1) << r.err;  // the unreadable one
  const std::vector<json> rows = jsonl(out / "summary.jsonl");
  ASSERT_EQ(rows.size(), 2u) << r.err;
  EXPECT_EQ(rows[0]["key"], "cut.mp4");
  EXPECT_EQ(rows[0]["status"], "partial") << rows[0];
  EXPECT_EQ(rows[0]["error"], first_damage["detail"]) << rows[0];  // the first damage
  EXPECT_EQ(rows[0]["codec"], "h264");
  EXPECT_EQ(rows[0]["frames"], summary["frames"]);
  EXPECT_FALSE(rows[0]["l_mean"].is_null());
  EXPECT_EQ(rows[0]["qc"], "fail");
  EXPECT_NE(rows[0]["qc_failing"].get<std::string>().find("decode_error"), std::string::npos) << rows[0];
  EXPECT_EQ(without_run(read_file(out / "cut.mp4.qc.jsonl")), without_run(qc.out));
  EXPECT_EQ(rows[1]["key"], "no_index.mp4");
  EXPECT_EQ(rows[1]["status"], "error") << rows[1];
  EXPECT_TRUE(rows[1]["codec"].is_null());
  // --report: the damaged file's report from the same decode, and the index linking it; the
  // unreadable file has no report, and its row says why. Nothing is loaded from elsewhere.
  const std::string report = read_file(out / "cut.mp4.report.html");
  EXPECT_NE(report.find("Decode errors"), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "no_index.mp4.report.html"));
  const std::string index = read_file(out / "index.html");
  EXPECT_NE(index.find("<a href=\"cut.mp4.report.html\">cut.mp4</a>"), std::string::npos) << index;
  EXPECT_NE(index.find("PARTIAL"), std::string::npos);
  EXPECT_NE(index.find("ERROR"), std::string::npos);
  EXPECT_NE(index.find("moov atom not found"), std::string::npos);
  EXPECT_NE(index.find("2 files: 0 passed, 1 failed QC (1 of them damaged"), std::string::npos) << index;
  for (const std::string& page : {report, index}) {
    EXPECT_EQ(page.find("<script"), std::string::npos);
    EXPECT_EQ(page.find("http://"), std::string::npos);
    EXPECT_EQ(page.find("https://"), std::string::npos);
  }
}

}  // namespace
}  // namespace vhist::test
