// What a file input may open besides itself, and which demuxers may read it (internal to
// app/media). docs/security.md, "No network, no other files", says why.
//
// A playlist (HLS) names other files; FFmpeg asks for each through the format context's
// io_open, where FfmpegSource::nested_open applies confined_problem(): only local files below
// the input's own folder, after resolving `..` and symbolic links. The demuxers that open files
// or the network by other ways than io_open (the concat demuxer opens its entries in a format
// context of its own, DASH its segments with avio_open2; IMF's assets, SDP and RTSP, script
// formats) are left out of the formats
// FFmpeg may use (format_whitelist), so they are refused before they read anything; a concat
// list is read only after vhist has checked it itself (concat_list.h).
#pragma once

#include <string>
#include <vector>

namespace vhist::media {

// The folders an input on disk may name files below: the real path of the folder it was given
// in, and the folder of its real path (a link to a playlist elsewhere), without duplicates.
std::vector<std::string> input_roots(const std::string& input);

// Empty when `url`, as FFmpeg asks to open it ("file:/dir/seg.ts", "/dir/seg.ts"), is a local
// file below one of `roots`; otherwise why not, for a person ("'/etc/x.ts' is outside ...").
std::string confined_problem(const std::string& url, const std::vector<std::string>& roots);

// The demuxers vhist lets FFmpeg use: every demuxer of this FFmpeg build but those in
// refused_formats(), comma-separated, for the `format_whitelist` option.
const std::string& allowed_formats();
// The demuxers a checked concat list (concat_list.h) and its entries may be read with:
// "concat" and allowed_formats() but "hls" (an entry's own context opens files past io_open; the
// entries inherit this list, FFmpeg's ff_copy_whiteblacklists).
const std::string& concat_list_formats();
// The same without "concat": set on the list's context once it is open, so that the entries
// opened after the first (and any a seek reopens) cannot be concat lists either.
const std::string& concat_entry_formats();
// The demuxers left out, with why: "concat", "imf", ...
const std::vector<std::string>& refused_formats();

}  // namespace vhist::media
