// Concat lists (FFmpeg's `ffconcat` scripts) checked by vhist before FFmpeg reads them (internal
// to app/media). docs/security.md, "No network, no other files", says why.
//
// FFmpeg 5.1's concat demuxer opens each entry in a format context of its own, past the io_open
// check that keeps an HLS playlist inside its folder. So vhist reads the list itself first (at
// most 1 MiB) and checks every line: each `file` entry must be a relative path below the list's
// folder (after resolving `..` and symbolic links, input_rules.h), with no URL scheme, within
// FFmpeg's safe mode (letters, digits, '.', '_', '-' and '/', no component starting with '.'),
// an existing regular file that is neither a concat list nor an HLS playlist itself; `option`
// lines (options for the entry's own open) and unknown directives are refused. FFmpeg then
// parses the very bytes checked (FfmpegSource feeds them from memory), with safe=1, the `file`
// protocol only and no HLS among the formats an entry may be read as.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vhist::media {

// Whether a file that starts with `head` is a concat list as FFmpeg's concat demuxer probes it:
// its first 20 bytes are "ffconcat version 1.0".
bool is_concat_list(std::string_view head);

// The most bytes a concat list may have.
inline constexpr std::size_t kMaxConcatListBytes = 1 << 20;

struct ConcatCheck {
  bool is_list = false;  // the file starts as a concat list (is_concat_list)
  std::string problem;   // why it may not be read, for a person ("line 3: ..."); empty if it may
  std::string bytes;     // the list as read and checked (is_list and no problem)
};

// Reads the regular file `path` (the list, as the user gave it) and, when it is a concat list,
// checks it; `roots` are the folders its entries must lie below (input_roots). A file that is
// not regular (a FIFO, a device) is left alone: is_list false, nothing read.
ConcatCheck check_concat_list(const std::string& path, const std::vector<std::string>& roots);

// The URL FFmpeg opens the list as, and resolves its entries against as vhist checks them:
// "file:" + the real path of the folder `path` was given in + '/' + the list's own name.
std::string concat_list_url(const std::string& path);

}  // namespace vhist::media
