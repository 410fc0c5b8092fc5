// What the timeline strip draws, computed from a timeline file once (not every tick): the
// heatmap's cells (one display column per timeline column, or per group of them where the strip
// has fewer pixels than the timeline has columns; one row per band of levels) as colours, and
// each display column's measures for the curves and the hover. Plain C++.
#pragma once

#include "vhist/qc/column_measures.h"
#include "vhist/qc/timeline_file.h"

#include <cstdint>
#include <vector>

namespace vhist::viewer {

// The heatmap's channel: the timeline's histograms are R', G', B', luma (timeline.h).
enum class TimelineChannel : std::uint8_t { r = 0, g = 1, b = 2, luma = 3 };

// A display column's curves: its frames' values by qc::column_measures()'s rule (the report's
// too: the lowest Y' min, the means of p10, mean and p90, the highest max, shares and light),
// and where it is.
struct TimelineColumnMeasures : qc::ColumnMeasures {
  std::int64_t first_frame = 0, last_frame = 0;  // inclusive
  double start = 0;                               // the first frame's time, seconds
  bool limited = true;                            // the first frame's range
};

struct TimelineCells {
  // What the cells were made for (update_cells() remakes them when one differs).
  std::uint64_t version = ~std::uint64_t{0};
  TimelineChannel channel = TimelineChannel::luma;
  bool log = true;
  std::uint32_t bands = 0, columns = 0;
  // columns x bands colours as 0xAABBGGRR (ImGui's IM_COL32), band 0 the lowest levels; alpha 0:
  // no sample in the cell.
  std::vector<std::uint32_t> colours;
  std::vector<TimelineColumnMeasures> measures;  // one per display column
  std::int64_t frames = 0;                       // frames in the timeline
  float max_share = 0;                           // the highest clipped or R 103 share of any column
  float max_light = 0;                           // the highest MaxCLL of any column (PQ, HLG)
  bool any_pq = false, any_hlg = false;
};

// Remakes `cells` for `file` when any argument differs from what they were made for. `bands`:
// 32, 64, 128 or 256 rows of levels; `columns`: at most this many display columns (the strip's
// width in pixels). Each column is coloured by itself: log (the HTML report's rule: the share of
// the column's pixels in the band, 0.1 + 0.9 * clamp(1 + log10(share) / 6, 0, 1)) or linear
// (0.1 + 0.9 * count / the column's busiest band); a band without pixels is left transparent.
// Returns whether it remade them.
bool update_cells(TimelineCells& cells, const qc::TimelineFile& file, std::uint64_t version, TimelineChannel channel,
                  bool log, std::uint32_t bands, std::uint32_t columns);

// Where frame `frame` of `frames` starts on a strip whose columns run from x0 to x1.
float frame_x(float x0, float x1, std::int64_t frame, std::int64_t frames);

// The heatmap as an image of the pixels ImGui would fill with its cells' rectangles, for a heatmap
// from x0 to x1 and y0 (top) to y1 (window coordinates): round(x1) - round(x0) pixels wide
// (`width`), round(y1) - round(y0) high (`height`), from the rounded top left corner. A display
// column fills [round(frame_x(first)), max(round(frame_x(last + 1)), left + 1)) across, later
// columns over earlier ones; band k of h = (y1 - y0) / bands fills [round(y1 - h (k + 1)),
// round(y1 - h k)) down. Transparent cells and pixels of no column are `background`; a cell's
// colour is blended over it by its alpha. 0xAABBGGRR. Empty when the heatmap has no pixels.
std::vector<std::uint32_t> heat_image(const TimelineCells& cells, float x0, float x1, float y0, float y1,
                                      std::uint32_t background, std::uint32_t& width, std::uint32_t& height);

// The colour of intensity t (0..1) in the heatmap of `channel` (0xAABBGGRR).
std::uint32_t heat_colour(TimelineChannel channel, float t);

// A level in percent of the nominal range (qc_frame.h) on the timeline's 8-bit code scale
// (0..256), where the heatmap's rows are.
float percent_to_code(float percent, bool limited);

}  // namespace vhist::viewer
