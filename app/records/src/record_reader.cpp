#include "vhist/records/record_reader.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace vhist {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("reference '" + path + "': " + what);
}

// The record's histogram, checked: bins a power of two up to kMaxBins matching the arrays.
Histogram record_histogram(const std::string& path, const json& record) {
  if (record.contains("y") || record.value("domain", "rgb") == "ycbcr") {
    fail(path, "it holds Y'CbCr plane histograms (--domain ycbcr); a reference is R'G'B': run analyze without "
               "--domain ycbcr");
  }
  const auto bins = record.value("bins", 0u);
  if (bins < 2 || bins > shader::kMaxBins || (bins & (bins - 1)) != 0) {
    fail(path, "its record has no usable \"bins\" (" + std::to_string(bins) + "): expected a power of two up to " +
                   std::to_string(shader::kMaxBins));
  }
  Histogram h(bins);
  const char* names[] = {"r", "g", "b", "l"};
  for (std::uint32_t c = 0; c < 4; ++c) {
    const auto it = record.find(names[c]);
    if (it == record.end() || !it->is_array() || it->size() != bins) {
      fail(path, std::string("its record's \"") + names[c] + "\" is not an array of " + std::to_string(bins) +
                     " counts");
    }
    for (std::uint32_t b = 0; b < bins; ++b) {
      const json& v = (*it)[b];
      if (!v.is_number_unsigned()) fail(path, std::string("a count of \"") + names[c] + "\" is not a whole number");
      // A frame has fewer than 2^32 pixels (analyze's own records never exceed it): a larger
      // count is not a frame's, and would wrap.
      if (v.get<std::uint64_t>() > 0xffffffffu) {
        fail(path, std::string("a count of \"") + names[c] + "\" (" + v.dump() + ") is larger than any frame's pixels");
      }
      h.counts[std::size_t{b} * 4 + c] = v.get<std::uint32_t>();
    }
    if (h.total(static_cast<Channel>(c)) == 0) fail(path, std::string("its record's \"") + names[c] + "\" counts no pixel");
  }
  return h;
}

}  // namespace

ReferenceRecord read_reference_record(const std::string& path, std::optional<std::int64_t> frame) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(path, "is a folder: give a `vhist analyze` JSON Lines file");
  std::ifstream in(path);
  if (!in) fail(path, "cannot be read (does it exist?)");
  std::string line;
  std::int64_t first = -1, last = -1, lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    if (line.empty()) continue;
    const json record = json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.is_object()) {
      fail(path, "line " + std::to_string(lines) + " is not a JSON object: a reference is read from `vhist analyze` "
                 "JSON Lines output (--format jsonl, the default; CSV is not read)");
    }
    if (record.value("type", "") != "frame") continue;
    const auto number = record.value("frame", std::int64_t{-1});
    if (first < 0) first = number;
    last = number;
    if (frame && number != *frame) continue;
    ReferenceRecord r;
    r.histogram = record_histogram(path, record);
    r.bits = record.value("bits", 8u);
    if (r.bits < 8 || r.bits > 16) fail(path, "its record's \"bits\" (" + std::to_string(r.bits) + ") is not 8 to 16");
    r.frame = number;
    r.description = std::filesystem::path(path).filename().string() + ", frame " + std::to_string(number) + " (" +
                    std::to_string(r.histogram.bins) + " bins, " + std::to_string(r.bits) + " bits)";
    return r;
  }
  if (first < 0) fail(path, "it has no frame records: write one with `vhist analyze CLIP > FILE.jsonl`");
  fail(path, "it has no frame " + std::to_string(*frame) + " (its frames run from " + std::to_string(first) + " to " +
                 std::to_string(last) + ")");
}

}  // namespace vhist
