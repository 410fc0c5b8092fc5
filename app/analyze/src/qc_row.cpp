#include "qc_row.h"

#include "vhist/compute/colour_names.h"
#include "vhist/version.h"

#include <filesystem>
#include <set>

namespace vhist::app {

using nlohmann::ordered_json;

namespace {

constexpr std::string_view kColumns[] = {
    "type", "input", "key", "status", "error", "container", "codec", "width", "height", "bits", "pixel_format",
    "range", "matrix", "primaries", "transfer", "frame_rate", "duration", "frames", "lost_frames",
    "r_mean", "r_p1", "r_p50", "r_p99", "r_clip_low", "r_clip_high",
    "g_mean", "g_p1", "g_p50", "g_p99", "g_clip_low", "g_clip_high",
    "b_mean", "b_p1", "b_p50", "b_p99", "b_clip_low", "b_clip_high",
    "l_mean", "l_p1", "l_p50", "l_p99", "l_clip_low", "l_clip_high",
    "light", "max_cll", "max_fall", "qc", "qc_events", "qc_failing", "engine", "vhist", "seconds",
    "size", "modified", "sha256", "streams", "run", "command", "profile"};

constexpr std::string_view kChannels[] = {"r", "g", "b", "l"};

// Every column null but the row's identity.
ordered_json empty_row(const std::string& input, const std::string& key) {
  ordered_json row;
  for (std::string_view c : kColumns) row[std::string(c)] = nullptr;
  row["type"] = "row";
  row["input"] = absolute_input(input);
  row["key"] = key;
  row["vhist"] = std::string(kVersion);
  return row;
}

void put_exposure(ordered_json& row, const qc::FileTotals& totals) {
  const auto stats = totals.stats();
  if (!stats) return;
  for (std::size_t c = 0; c < 4; ++c) {
    const ChannelStats& s = (*stats)[c];
    const std::string p(kChannels[c]);
    row[p + "_mean"] = s.mean;
    row[p + "_p1"] = s.p1;
    row[p + "_p50"] = s.median;
    row[p + "_p99"] = s.p99;
    row[p + "_clip_low"] = s.clip_low;
    row[p + "_clip_high"] = s.clip_high;
  }
}

void put_verdict(ordered_json& row, const QcRun& run) {
  std::set<std::string> failing;
  for (const qc::Event& e : run.events) {
    if (e.fails) failing.insert(std::string(qc::check_name(e.check)));
  }
  std::string names;
  for (const std::string& n : failing) names += (names.empty() ? "" : ",") + n;
  row["qc"] = run.passed ? "pass" : "fail";
  row["qc_events"] = run.events.size();
  row["qc_failing"] = names;
}

}  // namespace

std::span<const std::string_view> row_columns() { return kColumns; }

std::string row_line(const ordered_json& row) {
  return row.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string absolute_input(const std::string& input) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(input, ec);
  return ec ? input : p.lexically_normal().string();
}

ordered_json ok_row(const QcRun& run, const RunSummary& summary, const qc::FileTotals& totals, const RowFacts& facts) {
  const SourceHeader& h = run.header;
  ordered_json row = empty_row(h.input, facts.key);
  // A damaged input, judged as far as it decodes: "partial", its first decode error the error.
  row["status"] = run.partial ? "partial" : "ok";
  row["error"] = "";
  for (const qc::Event& e : run.events) {
    if (run.partial && e.check == qc::Check::decode_error) {
      row["error"] = e.detail;
      break;
    }
  }
  if (run.partial && row["error"] == "") row["error"] = "the input could not be decoded to its end";
  row["container"] = h.container;
  row["codec"] = h.codec;
  row["width"] = h.width;
  row["height"] = h.height;
  row["bits"] = h.bits;
  row["pixel_format"] = h.pixel_format;
  row["range"] = std::string(colour_id(h.colour.range));
  row["matrix"] = std::string(colour_id(h.colour.matrix));
  row["primaries"] = std::string(colour_id(h.colour.primaries));
  row["transfer"] = std::string(colour_id(h.colour.transfer));
  if (h.frame_rate > 0) row["frame_rate"] = h.frame_rate;
  if (facts.duration >= 0) row["duration"] = facts.duration;
  row["frames"] = facts.frames;
  row["lost_frames"] = summary.lost_frames;
  put_exposure(row, totals);
  if (summary.light_frames > 0) {
    // PQ's light is the signal's; HLG's is as BT.2100's reference display shows it (docs/colour.md).
    row["light"] = summary.hlg_light_frames > 0 ? "hlg" : "pq";
    row["max_cll"] = summary.max_cll;
    row["max_fall"] = summary.max_fall;
  }
  put_verdict(row, run);
  // The provenance (qc_command.cpp's, the report's and the header's): the file's identity, the
  // streams it carries, when and where and how it was run.
  const InputFacts& f = run.facts;
  if (f.size >= 0) {
    row["size"] = f.size;
    row["modified"] = f.modified;
    row["sha256"] = f.sha256;
  }
  row["streams"] = f.streams;
  row["run"] = f.run;
  row["command"] = f.command;
  row["profile"] = f.profile;
  row["engine"] = facts.engine;
  row["seconds"] = facts.seconds;
  return row;
}

ordered_json error_row(const std::string& input, const std::string& key, const std::string& error, double seconds) {
  ordered_json row = empty_row(input, key);
  row["status"] = "error";
  row["error"] = error;
  row["seconds"] = seconds;
  return row;
}

}  // namespace vhist::app
