#include "concat_list.h"
#include "input_rules.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vhist/util/files.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace vhist::media {

namespace {

constexpr std::string_view kMagic = "ffconcat version 1.0";
constexpr std::string_view kSpace = " \t\r\n";  // FFmpeg's SPACE_CHARS

bool is_space(char c) { return kSpace.find(c) != std::string_view::npos; }

// Up to `max` bytes from the start of the regular file `path`; `regular` false (nothing read)
// for anything else. Opened with O_NONBLOCK, so a FIFO named as a list cannot hang here.
std::string read_head(const std::string& path, std::size_t max, bool& regular, std::string& error) {
  regular = false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {};  // check_input has said why already
  struct stat st {};
  std::string bytes;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    regular = true;
    std::array<char, 65536> buf{};
    while (bytes.size() < max) {
      const ssize_t n = ::read(fd, buf.data(), std::min(buf.size(), max - bytes.size()));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) error = std::strerror(errno);
      if (n <= 0) break;
      bytes.append(buf.data(), static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return bytes;
}

// The next word of `line` from `pos` (FFmpeg's get_keyword: blanks skipped on both sides).
std::string keyword(std::string_view line, std::size_t& pos) {
  while (pos < line.size() && is_space(line[pos])) ++pos;
  const std::size_t start = pos;
  while (pos < line.size() && !is_space(line[pos])) ++pos;
  const std::string word(line.substr(start, pos - start));
  while (pos < line.size() && is_space(line[pos])) ++pos;
  return word;
}

// The next string of `line` from `pos`, unquoted as FFmpeg's av_get_token does: '\' takes the
// next character as it is, '...' takes everything up to the closing quote as it is, a blank
// outside quotes ends the string; blanks at its end that were neither quoted nor escaped go.
std::string token(std::string_view line, std::size_t& pos) {
  while (pos < line.size() && is_space(line[pos])) ++pos;
  std::string out;
  std::size_t keep = 0;  // out's length up to the last quoted or escaped character
  while (pos < line.size() && !is_space(line[pos])) {
    const char c = line[pos++];
    if (c == '\\' && pos < line.size()) {
      out += line[pos++];
      keep = out.size();
    } else if (c == '\'') {
      while (pos < line.size() && line[pos] != '\'') out += line[pos++];
      if (pos < line.size()) {
        ++pos;
        keep = out.size();
      }
    } else {
      out += c;
    }
  }
  while (out.size() > keep && is_space(out.back())) out.pop_back();
  return out;
}

// "http" for "http://x" or "subfile,,..." (FFmpeg takes a protocol name before ':' or ','), "" for
// a path.
std::string scheme_of_entry(const std::string& entry) {
  std::size_t i = 0;
  while (i < entry.size() && (std::isalnum(static_cast<unsigned char>(entry[i])) || entry[i] == '+' ||
                              entry[i] == '-' || entry[i] == '.')) {
    ++i;
  }
  if (i == 0 || i >= entry.size() || (entry[i] != ':' && entry[i] != ',')) return {};
  return entry.substr(0, i);
}

// FFmpeg's safe mode, as documented (doc/demuxers.texi, concat): relative, every component of
// letters, digits, '_', '-' and '.' only, none starting with '.'.
bool safe_name(const std::string& entry) {
  bool component_start = true;
  for (const char c : entry) {
    const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    if (component_start && !word) return false;
    if (!word && c != '.' && c != '/') return false;
    component_start = c == '/';
  }
  return !entry.empty();
}

// Why the entry `entry` of a list in `folder` may not be opened, to follow the entry's name
// (": ..." or " is ..."); empty if it may.
std::string entry_problem(const std::string& entry, const std::string& folder, const std::vector<std::string>& roots) {
  if (const std::string scheme = scheme_of_entry(entry); !scheme.empty()) {
    return " is a URL (" + scheme + "), which a concat list may not name: only paths relative to its folder";
  }
  const std::string path = entry.front() == '/' ? entry : folder + "/" + entry;
  if (std::string outside = confined_problem(path, roots); !outside.empty()) return ": " + outside;
  if (entry.front() == '/') return " is an absolute path: a concat list may name only paths relative to its folder";
  if (!safe_name(entry)) {
    return " is not a name FFmpeg's safe mode accepts (letters, digits, '_', '-', '.' and '/' only, no part "
           "starting with '.'): rename the file";
  }
  bool regular = false;
  std::string error;
  const std::string head = read_head(path, 64, regular, error);
  if (!regular) {
    struct stat st {};
    return ::stat(path.c_str(), &st) != 0 ? " does not exist (" + std::string(std::strerror(errno)) + ")"
                                          : std::string(" is not a regular file");
  }
  if (is_concat_list(head)) return " is itself a concat list: a concat list may name only media files";
  if (head.rfind("#EXTM3U", 0) == 0) return " is an HLS playlist: a concat list may name only media files";
  return {};
}

// Why line `text` (number `number`) of a list in `folder` may not be read; empty if it may.
std::string line_problem(std::string_view text, int number, const std::string& folder,
                         const std::vector<std::string>& roots) {
  static const std::array<std::string_view, 12> harmless = {
      "ffconcat", "duration", "inpoint", "outpoint", "file_packet_meta", "file_packet_metadata",
      "stream", "exact_stream_id", "stream_meta", "stream_codec", "stream_extradata", "chapter"};
  std::size_t pos = 0;
  const std::string word = keyword(text, pos);
  const std::string where = "line " + std::to_string(number) + ": ";
  if (word.empty() || word[0] == '#') return {};
  if (word == "file") {
    const std::string entry = token(text, pos);
    if (entry.empty()) return where + "'file' names no file";
    const std::string problem = entry_problem(entry, folder, roots);
    return problem.empty() ? problem : where + "file " + util::quoted(entry) + problem;
  }
  if (word == "option") {
    return where + "'option' is not allowed: it sets options on the opening of an entry (its protocols, its "
                   "formats), past vhist's checks";
  }
  for (const std::string_view h : harmless) {
    if (word == h) return {};
  }
  return where + "unknown directive " + util::quoted(word);
}

}  // namespace

bool is_concat_list(std::string_view head) { return head.substr(0, kMagic.size()) == kMagic; }

std::string concat_list_url(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path given = std::filesystem::absolute(path, ec);
  const std::vector<std::string> roots = input_roots(path);
  const std::string folder = roots.empty() ? given.parent_path().string() : roots.front();
  return "file:" + (folder == "/" ? std::string() : folder) + "/" + given.filename().string();
}

ConcatCheck check_concat_list(const std::string& path, const std::vector<std::string>& roots) {
  ConcatCheck check;
  bool regular = false;
  std::string error;
  std::string bytes = read_head(path, kMaxConcatListBytes + 1, regular, error);
  if (!regular || !is_concat_list(bytes)) return check;
  check.is_list = true;
  if (!error.empty()) {
    check.problem = "cannot read the concat list (" + error + ")";
    return check;
  }
  if (bytes.size() > kMaxConcatListBytes) {
    check.problem = "is a concat list longer than 1 MiB, which vhist does not read";
    return check;
  }
  // Entries are checked against the folder FFmpeg resolves them against (concat_list_url).
  const std::string url = concat_list_url(path);
  const std::string folder = url.substr(5, url.rfind('/') - 5);
  // Lines end at '\n', '\r' or a NUL byte, as FFmpeg reads them.
  int number = 0;
  std::size_t start = 0;
  while (start <= bytes.size()) {
    std::size_t end = bytes.find_first_of(std::string_view("\n\r\0", 3), start);
    if (end == std::string::npos) end = bytes.size();
    ++number;
    if (std::string problem = line_problem(std::string_view(bytes).substr(start, end - start), number, folder, roots);
        !problem.empty()) {
      check.problem = "is a concat list vhist may not read: " + problem;
      return check;
    }
    if (end < bytes.size() && bytes[end] == '\r' && end + 1 < bytes.size() && bytes[end + 1] == '\n') ++end;
    start = end + 1;
  }
  check.bytes = std::move(bytes);
  return check;
}

}  // namespace vhist::media
