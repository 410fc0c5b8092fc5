#include "image_sequence.h"

extern "C" {
#include <libavformat/avformat.h>
}

#include <glob.h>

#include <array>
#include <filesystem>
#include <regex>

namespace vhist::media {

namespace {

// image2 looks for the first file of a numbered sequence among the numbers 0 to 4.
constexpr int kFirstNumbers = 5;

std::string quoted_path(const std::string& path) { return "'" + path + "'"; }

}  // namespace

SequenceKind sequence_kind(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return SequenceKind::none;
  static const std::regex numbered(R"(%0?[0-9]*d)");
  if (std::regex_search(path, numbered)) return SequenceKind::numbered;
  if (path.find_first_of("*?[") != std::string::npos) return SequenceKind::glob;
  return SequenceKind::none;
}

std::string check_sequence(const std::string& path, SequenceKind kind) {
  if (kind == SequenceKind::numbered) {
    std::array<char, 4096> name{};
    for (int n = 0; n < kFirstNumbers; ++n) {
      if (av_get_frame_filename2(name.data(), static_cast<int>(name.size()), path.c_str(), n, 0) < 0) {
        return quoted_path(path) + " is not a numbered pattern FFmpeg understands (one %d, e.g. img%03d.png)";
      }
      std::error_code ec;
      if (std::filesystem::is_regular_file(name.data(), ec)) return {};
    }
    av_get_frame_filename2(name.data(), static_cast<int>(name.size()), path.c_str(), 0, 0);
    return "no image of the sequence " + quoted_path(path) + " exists (the first must be numbered 0 to 4, e.g. " +
           quoted_path(name.data()) + "; for a sequence numbered from later on, such as 1001, give a quoted glob "
           "instead, e.g. 'img*.png')";
  }
  glob_t matches{};
  const int ret = ::glob(path.c_str(), 0, nullptr, &matches);
  const std::size_t count = ret == 0 ? matches.gl_pathc : 0;
  globfree(&matches);
  if (count == 0) return "no file matches " + quoted_path(path) + " (a glob pattern: check the folder and the name)";
  return {};
}

}  // namespace vhist::media
