// Reading a histogram back from `vhist analyze`'s JSON Lines output, for the viewer's reference
// (--reference): a frame record's R', G', B', luma arrays, its bins and depth.
#pragma once

#include "vhist/compute/histogram_types.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace vhist {

struct ReferenceRecord {
  Histogram histogram;  // R, G, B, L at the record's bins
  std::uint32_t bits = 8;
  std::int64_t frame = 0;
  std::string description;  // "clip.jsonl, frame 12 (256 bins, 8 bits)"
};

// The frame record numbered `frame` ("frame" field), or the first frame record, of the JSON
// Lines file at `path`. Throws std::runtime_error saying what is wrong and what to do: the file
// cannot be read, is not analyze's JSON Lines (CSV is not read: write it with --format jsonl),
// has no such frame (and which it has), holds Y'CbCr planes (--domain ycbcr) rather than R'G'B',
// or a record whose arrays do not match its bins.
// Only a regular file is read (a FIFO, device or socket is refused at once, opened without
// blocking), a line at a time, each line at most kMaxReferenceLine bytes (a record of analyze at
// 1024 bins is under 100 KiB), so memory stays bounded whatever the file holds.
inline constexpr std::size_t kMaxReferenceLine = std::size_t{1} << 20;
ReferenceRecord read_reference_record(const std::string& path, std::optional<std::int64_t> frame);

}  // namespace vhist
