// `vhist analyze` run as a process, and reading its output: shared by the analyze tests.
#pragma once

#include "test_clips.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace vhist::test {

struct ProcessResult {
  int status = -1;
  std::string out, err;
};

// Runs `vhist ARGS` with validation on, capturing stdout and stderr.
inline ProcessResult run_vhist(const std::string& args) {
  const std::filesystem::path out = clip_dir() / "stdout.txt", err = clip_dir() / "stderr.txt";
  const std::string cmd = "VHIST_VALIDATION=1 '" + std::string(VHIST_BINARY) + "' " + args + " > '" + out.string() +
                          "' 2> '" + err.string() + "'";
  const int raw = std::system(cmd.c_str());
  ProcessResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

inline std::vector<std::string> all_lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) out.push_back(line);
  return out;
}

// The records of an output: its lines without the provenance header and the summary (the JSON
// Lines header and summary objects, CSV's '#' lines).
inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  for (std::string& line : all_lines(text)) {
    if (line.rfind("{\"type\":\"header\"", 0) == 0 || line.rfind("{\"type\":\"summary\"", 0) == 0 ||
        line.rfind("#", 0) == 0) {
      continue;
    }
    out.push_back(std::move(line));
  }
  return out;
}

// The integers of the JSON array named `key` in one JSON Lines record.
inline std::vector<std::uint64_t> json_array(const std::string& record, const std::string& key) {
  const std::size_t at = record.find("\"" + key + "\":[");
  if (at == std::string::npos) return {};
  std::vector<std::uint64_t> values;
  std::size_t i = record.find('[', at) + 1;
  while (record[i] != ']') {
    std::size_t end = 0;
    values.push_back(std::stoull(record.substr(i), &end));
    i += end;
    if (record[i] == ',') ++i;
  }
  return values;
}

// The integers of the array `key` inside the object `object` ("cdf": {"r": [...], ...}).
inline std::vector<std::uint64_t> json_array_in(const std::string& record, const std::string& object, const std::string& key) {
  const std::size_t at = record.find("\"" + object + "\":{");
  if (at == std::string::npos) return {};
  return json_array(record.substr(at), key);
}


inline std::string header_of(const std::string& out) {
  const auto all = all_lines(out);
  return !all.empty() && all[0].rfind("{\"type\":\"header\"", 0) == 0 ? all[0] : "";
}

// `"key":{"value":"V","source":"S"` in the header: what vhist used and where it came from.
inline ::testing::AssertionResult has_tag(const std::string& header, const std::string& key, const std::string& value,
                                   const std::string& source) {
  const std::string want = "\"" + key + "\":{\"value\":\"" + value + "\",\"source\":\"" + source + "\"";
  if (header.find(want) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no " << want << " in " << header;
}

// The last line of the output when it is the summary object, else "".
inline std::string summary_of(const std::string& out) {
  const auto all = all_lines(out);
  return !all.empty() && all.back().rfind("{\"type\":\"summary\"", 0) == 0 ? all.back() : "";
}

}  // namespace vhist::test
