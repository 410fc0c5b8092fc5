#include "vhist/records/record_reader.h"

#include <nlohmann/json.hpp>

#include "vhist/util/unique_fd.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace vhist {

namespace {

using nlohmann::json;
using util::UniqueFd;

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

// The reference file, opened without blocking (a FIFO with no writer would wait for one) and
// checked to be a regular file: a FIFO, a device (/dev/zero) or a socket never ends, or ends when
// someone else decides.
UniqueFd open_reference(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!fd) fail(path, std::string("cannot be read (") + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) fail(path, std::string("cannot be read (") + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) fail(path, "is a folder: give a `vhist analyze` JSON Lines file");
  if (!S_ISREG(st.st_mode)) {
    fail(path, std::string("is not a regular file (") + (S_ISFIFO(st.st_mode) ? "a FIFO or pipe" : S_ISSOCK(st.st_mode) ? "a socket" : "a device") +
                   "): save `vhist analyze` JSON Lines output to a file and give that");
  }
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

// The next line of `fd` (without its newline) into `line`; false at the end of the file. A line
// longer than kMaxReferenceLine is refused: no record of analyze's is near it.
bool next_line(int fd, const std::string& path, std::string& buffer, std::string& line, std::int64_t number) {
  for (;;) {
    const std::size_t nl = buffer.find('\n');
    if (std::min(nl, buffer.size()) > kMaxReferenceLine) {
      fail(path, "line " + std::to_string(number) + " is longer than " + std::to_string(kMaxReferenceLine >> 20) +
                     " MiB, which no `vhist analyze` record is (its records are under 100 KiB): not a JSON Lines "
                     "output of vhist analyze");
    }
    if (nl != std::string::npos) {
      line.assign(buffer, 0, nl);
      buffer.erase(0, nl + 1);
      return true;
    }
    char chunk[1 << 16];
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, std::string("cannot be read (") + std::strerror(errno) + ")");
    if (n == 0) {
      if (buffer.empty()) return false;
      line.swap(buffer);
      buffer.clear();
      return true;
    }
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace

ReferenceRecord read_reference_record(const std::string& path, std::optional<std::int64_t> frame) {
  const UniqueFd fd = open_reference(path);
  std::string buffer, line;
  std::int64_t first = -1, last = -1, lines = 0;
  while (next_line(fd.get(), path, buffer, line, lines + 1)) {
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
