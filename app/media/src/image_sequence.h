// An input that names a numbered or globbed sequence of images rather than one file, opened
// with FFmpeg's image2 demuxer: `img%03d.png` (a printf pattern) or `img*.png` (a glob).
#pragma once

#include <string>

namespace vhist::media {

enum class SequenceKind { none, numbered, glob };

// `none` when `path` is an existing file or has no pattern in it.
SequenceKind sequence_kind(const std::string& path);
// Empty when the pattern names at least one file, else what is wrong and what to do.
std::string check_sequence(const std::string& path, SequenceKind kind);

}  // namespace vhist::media
