// The curves under the heatmap, as inline SVG panels on the heatmap's horizontal scale: the
// event lanes (one per check with events), Y' levels (min, p10, mean, p90, max), the clipped
// shares, the R 103 shares and, for PQ and HLG input, the light (MaxCLL, FALL) in cd/m2 (HLG's
// as shown on BT.2100's reference display).
#pragma once

#include "plot_scale.h"
#include "vhist/qc/checks.h"
#include "vhist/qc/timeline.h"

#include <string>
#include <vector>

namespace vhist::report {

// The panels as HTML (each a heading with its legend, then its SVG).
std::string curve_panels(const qc::Timeline& timeline, const XScale& scale, const std::vector<qc::Event>& events,
                         const qc::Thresholds& thresholds);

// The event lanes (event_lanes.cpp): one row per check that has events, each event a span from
// its first frame to the end of its last, coloured by check, with a tooltip (its check, count
// and timecodes); events closer than half a unit of the viewBox are drawn as one span.
std::string event_lanes(const XScale& scale, const std::vector<qc::Event>& events);

}  // namespace vhist::report
