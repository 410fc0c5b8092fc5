// The curves' one rule: a column's frames' measures (qc_frame.h) aggregated into the column's
// values, the same for the HTML report's curves (app/report) and the viewer's timeline strip
// (timeline_cells.h), so that one file draws the same curves in both. A column holds one frame
// or a run of consecutive frames (timeline.h: 2,048 columns at most; the strip groups them
// further where it has fewer pixels). A defect in one frame must not vanish in its column:
//   y_min            the lowest of the minima        (a sub-black frame shows)
//   y_max            the highest of the maxima       (a super-white frame shows)
//   y_p10, y_mean,   the mean of the frames'         (the column's typical exposure: over frames
//   y_p90                                             of one size, the mean is the column's own)
//   clip_low, clip_high, r103_luma, r103_rgb
//                    the highest of the shares       (the checks judge each frame: a share over
//                                                     the limit in one frame is drawn over it)
//   max_cll          the highest brightest pixel     (CTA-861.3's MaxCLL of the frames)
//   fall             the highest frame average       (CTA-861.3's MaxFALL of the frames)
// Plain C++.
#pragma once

#include "vhist/qc/qc_frame.h"
#include "vhist/qc/timeline.h"

#include <cstdint>
#include <span>
#include <vector>

namespace vhist::qc {

struct ColumnMeasures {
  std::uint32_t frames = 0;                                       // 0: an empty column, all 0
  float y_min = 0, y_p10 = 0, y_mean = 0, y_p90 = 0, y_max = 0;  // percent of the nominal range
  float clip_low = 0, clip_high = 0, r103_luma = 0, r103_rgb = 0;  // shares, 0..1
  float max_cll = 0, fall = 0;                                     // cd/m2 (PQ and HLG frames)
  bool pq = false;   // any of its frames is PQ
  bool hlg = false;  // any is HLG (its light as shown on BT.2100's reference display)
};

// The frames' values by the rule above.
ColumnMeasures column_measures(std::span<const QcFrame> frames);
// One per timeline column, of the frames it holds (Timeline::column_of).
std::vector<ColumnMeasures> column_measures(const Timeline& timeline);

}  // namespace vhist::qc
