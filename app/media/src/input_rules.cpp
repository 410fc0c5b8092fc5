#include "input_rules.h"

#include "vhist/util/files.h"

extern "C" {
#include <libavformat/avformat.h>
}

#include <cctype>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <system_error>

namespace vhist::media {

namespace {

// realpath(3) of `path`; for a path that does not exist (yet), its existing part resolved and
// the rest appended as written (std::filesystem::weakly_canonical).
std::string real_path(const std::string& path) {
  const std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(path.c_str(), nullptr), &std::free);
  if (resolved) return resolved.get();
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? std::string() : p.lexically_normal().string();
}

bool below(const std::string& path, const std::string& root) {
  if (root == "/") return !path.empty() && path[0] == '/';
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/';
}

// "http" for "http://host/x", "" for a path (a scheme is letters, digits, + - . before ':', not
// starting with a digit, and at least two characters, so "C:" is not one).
std::string scheme_of(const std::string& url) {
  std::size_t i = 0;
  while (i < url.size() && (std::isalnum(static_cast<unsigned char>(url[i])) || url[i] == '+' || url[i] == '-' ||
                            url[i] == '.')) {
    ++i;
  }
  if (i < 2 || i >= url.size() || url[i] != ':' || !std::isalpha(static_cast<unsigned char>(url[0]))) return {};
  return url.substr(0, i);
}

}  // namespace

std::vector<std::string> input_roots(const std::string& input) {
  std::vector<std::string> roots;
  std::error_code ec;
  const std::filesystem::path given = std::filesystem::absolute(input, ec);
  if (!ec) {
    if (std::string r = real_path(given.parent_path().string()); !r.empty()) roots.push_back(r);
  }
  if (const std::string real = real_path(input); !real.empty()) {
    const std::string r = std::filesystem::path(real).parent_path().string();
    if (!r.empty() && (roots.empty() || roots[0] != r)) roots.push_back(r);
  }
  return roots;
}

std::string confined_problem(const std::string& url, const std::vector<std::string>& roots) {
  std::string path = url;
  if (path.rfind("file:", 0) == 0) {
    path.erase(0, 5);
  } else if (const std::string scheme = scheme_of(path); !scheme.empty()) {
    return util::quoted(url) + " is a URL (" + scheme + ":), which is not allowed: only local files";
  }
  const std::string real = real_path(path);
  for (const std::string& root : roots) {
    if (!real.empty() && below(real, root)) return {};
  }
  std::string where = roots.empty() ? std::string("?") : util::quoted(roots[0]);
  return util::quoted(url) + (real.empty() || real == path ? std::string() : " (" + util::quoted(real) + ")") +
         " is outside the input's folder " + where;
}

const std::vector<std::string>& refused_formats() {
  // FFmpeg 5.1 (Debian 12), audited: concat opens its entries in a format context of its own,
  // past io_open (and its `option` lines set options on it), so it is allowed only for a list
  // vhist has checked itself (concat_list.h, concat_list_formats()); dash opens its segments with
  // avio_open2, past io_open; imf: an XML composition of asset files; vobsub opens the .sub beside
  // the .idx itself; sdp, rtsp, rtp: network sessions; avisynth, vapoursynth: scripts that run
  // code; lavfi: filter graphs that open files. HLS opens every playlist, key and segment through
  // io_open (and refuses nested references in a segment itself), so it stays, checked there.
  static const std::vector<std::string> refused = {"concat", "dash", "imf", "vobsub", "sdp", "rtsp", "rtp",
                                                   "avisynth", "vapoursynth", "lavfi"};
  return refused;
}

const std::string& allowed_formats() {
  static const std::string list = [] {
    std::string s;
    void* it = nullptr;
    while (const AVInputFormat* f = av_demuxer_iterate(&it)) {
      const std::string name = f->name ? f->name : "";
      bool refused = false;
      for (const std::string& r : refused_formats()) refused = refused || name == r;
      if (name.empty() || refused) continue;
      s += (s.empty() ? "" : ",") + name;
    }
    return s;
  }();
  return list;
}

const std::string& concat_entry_formats() {
  static const std::string list = [] {
    std::string s;
    std::size_t start = 0;
    const std::string& all = allowed_formats();
    while (start < all.size()) {
      std::size_t end = all.find(',', start);
      if (end == std::string::npos) end = all.size();
      if (const std::string name = all.substr(start, end - start); name != "hls") s += (s.empty() ? "" : ",") + name;
      start = end + 1;
    }
    return s;
  }();
  return list;
}

const std::string& concat_list_formats() {
  static const std::string list = "concat," + concat_entry_formats();
  return list;
}

}  // namespace vhist::media
