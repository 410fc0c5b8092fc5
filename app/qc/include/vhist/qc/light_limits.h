// The light limits a PQ stream's static HDR metadata declares, and which of them a measured
// light exceeds: the one rule of `vhist analyze`'s light warning (run_summary.h), `vhist qc`'s
// light check (checks.h) and the viewer's line under a frame's light. CTA-861.3 defines a MaxCLL
// or MaxFALL of 0 as unknown, so a 0 declares no limit (x265 writes 0, 0 for content whose light
// was not measured); a mastering display (SMPTE ST 2086) limits the brightest pixel by its peak
// luminance, when that is above 0. Where a figure is not a limit, nothing is checked against it,
// and light_limits_note() says so in the same words in analyze's summary and qc's notes.
// Plain C++.
#pragma once

#include "vhist/compute/source_colour.h"

#include <optional>
#include <string>

namespace vhist::qc {

struct LightLimits {
  std::optional<double> max_cll, max_fall, mastering_peak;  // cd/m2, each when declared
  bool any() const { return max_cll || max_fall || mastering_peak; }
};
LightLimits declared_light_limits(const SourceColour& colour);

// "MaxCLL 1000, MaxFALL 400, mastering peak 1000": the declared limits, in cd/m2 (empty: none).
std::string light_limits_text(const LightLimits& limits);

// Which limits a brightest pixel `max_cll` and a frame average `fall` (cd/m2) exceed by more
// than `slack` cd/m2: the pixel against MaxCLL and the mastering peak, the average against
// MaxFALL.
struct LightExcess {
  bool max_cll = false, max_fall = false, mastering_peak = false;
  bool any() const { return max_cll || max_fall || mastering_peak; }
};
LightExcess light_excess(double max_cll, double fall, const LightLimits& limits, double slack);

// What the metadata leaves unchecked, for a person: that the stream declares no limit at all,
// or which of its figures are 0 (unknown) and what the light is checked against instead. Empty
// when every figure it carries is a limit.
std::string light_limits_note(const SourceColour& colour);

}  // namespace vhist::qc
