// The records `vhist analyze` writes: one JSON object per line (JSON Lines), or CSV with one row
// per frame and channel. docs/user-guide.md documents both formats.
#pragma once

#include "vhist/compute/cdf.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/histogram_types.h"
#include "vhist/compute/source_measures.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace vhist::app {

// What a record's histograms count: R', G', B' and luma (arrays r, g, b, l), the Y'CbCr planes
// as decoded (y, cb, cr: `--domain ycbcr`), or a gray frame's one plane (y).
enum class RecordDomain { rgb, ycbcr, y };

// One of a record's histograms: where it is in the Histogram, and its name in the output.
struct NamedChannel {
  Channel slot;
  const char* name;
};
std::span<const NamedChannel> record_channels(RecordDomain domain);

struct FrameRecord {
  std::int64_t frame = 0;
  // Whether `frame` is known: false after --start in a stream whose frame rate may vary, where
  // it could not be the number a run from the start gives (JSON leaves it out, CSV empty).
  bool frame_known = true;
  double pts = 0;
  std::uint32_t width = 0, height = 0;  // stored size: what the histograms count
  // How the frame is shown: degrees clockwise that turn it upright (0, 90, 180, 270), and its
  // size after the sample aspect ratio and the rotation (VideoFormat::display_width/height).
  std::uint32_t rotation = 0;
  std::uint32_t display_width = 0, display_height = 0;
  std::uint32_t bits = 8;     // source depth: the unit of the statistics' code values
  RecordDomain domain = RecordDomain::rgb;
  Histogram histogram;        // at the requested bins (ycbcr: a PlaneCounts histogram)
  Cdf cdf;                    // its cumulative counts when asked for (--cdf), else cdf.bins == 0
  std::array<ChannelStats, 4> stats{};  // by slot, as the histogram's channels
  // The range check (frames with Y'CbCr or gray planes) and, for PQ frames, their light.
  std::optional<RangeCheck> range;
  std::optional<LightLevel> light;
  // With --alpha skip, the pixels counted (width x height less the fully transparent ones).
  std::optional<std::uint64_t> counted;
};

enum class RecordFormat { jsonl, csv };

// Appends one record (JSON Lines: one line) to `out`.
void append_jsonl(std::string& out, const FrameRecord& record);
// CSV: the header line for `bins` bins (and as many cumulative columns with `cdf`), then one
// row per histogram (r, g, b, l; or y, cb, cr) per record.
void append_csv_header(std::string& out, std::uint32_t bins, bool cdf);
void append_csv(std::string& out, const FrameRecord& record);

}  // namespace vhist::app
