#include "vhist/records/run_summary.h"

#include "json_text.h"
#include "vhist/compute/colour_names.h"

#include "vhist/compute/frame_stats.h"

namespace vhist::app {

void RunSummary::add_planes(const PlaneCounts& levels, std::uint32_t frame_bits) {
  const auto y = static_cast<std::uint32_t>(kPlaneY);
  const auto cb = static_cast<std::uint32_t>(kPlaneCb), cr = static_cast<std::uint32_t>(kPlaneCr);
  ++plane_frames;
  bits = frame_bits;
  luma += levels.histogram.total(kPlaneY);
  luma_below += levels.below[y];
  luma_above += levels.above[y];
  luma_levels.add(levels);
  chroma += levels.chroma_total();
  chroma_below += std::uint64_t{levels.below[cb]} + levels.below[cr];
  chroma_above += std::uint64_t{levels.above[cb]} + levels.above[cr];
  const std::uint32_t codes = (1u << frame_bits) / levels.histogram.bins;
  for (std::uint32_t level = 0; level < levels.histogram.bins; ++level) {
    if (levels.histogram.at(kPlaneY, level) == 0) continue;
    luma_min = std::min(luma_min, level * codes);
    luma_max = std::max(luma_max, level * codes + codes - 1);
  }
}

void RunSummary::add_light(const LightLevel& light, std::int64_t frame, bool hlg) {
  ++light_frames;
  if (hlg) ++hlg_light_frames;
  if (light_frames == 1 || light.max_cll > max_cll) {
    max_cll = light.max_cll;
    max_cll_frame = frame;
  }
  if (light_frames == 1 || light.fall > max_fall) {
    max_fall = light.fall;
    max_fall_frame = frame;
  }
}

namespace {

// How an HLG run's light is measured, said beside it.
constexpr const char* kHlgDisplayText = "as shown on the BT.2100 HLG reference display: 1000 cd/m2 peak, black 0, "
                                        "system gamma 1.2";

std::string percent(double share) { return number(share * 100, 2) + "%"; }

std::string limits_text(std::uint32_t bits) {
  return std::to_string(shader::vhist_limited_low(bits)) + "-" + std::to_string(shader::vhist_limited_high(bits, false));
}

double share(std::uint64_t n, std::uint64_t total) {
  return total != 0 ? static_cast<double>(n) / static_cast<double>(total) : 0.0;
}

// A share as a percentage, with the count where it rounds to 0.00% but is not zero.
std::string samples_text(std::uint64_t n, std::uint64_t total) {
  const std::string shown = percent(share(n, total));
  if (n == 0 || shown != "0.00%") return shown;
  return "<0.01% (" + std::to_string(n) + (n == 1 ? " sample)" : " samples)");
}

// Levels [from, to] of the 8-bit scale as the source's codes: "0-3", or "0-15" at 10 bits.
std::string codes_text(std::uint32_t from, std::uint32_t to, std::uint32_t bits) {
  const std::uint32_t shift = bits > 8 ? bits - 8 : 0;
  const std::uint32_t low = from << shift, high = ((to + 1) << shift) - 1;
  return low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high);
}

// The shares outside the limited range, exactly as counted: "12.69% of the luma samples over
// 12 frames lie below 16 and 22.15% above 235", `detail` after "below 16".
std::string outside_text(const RunSummary& s, const std::string& detail = {}) {
  return samples_text(s.luma_below, s.luma) + " of the luma samples over " + std::to_string(s.plane_frames) +
         " frames lie below " + std::to_string(shader::vhist_limited_low(s.bits)) + detail + " and " +
         samples_text(s.luma_above, s.luma) + " above " + std::to_string(shader::vhist_limited_high(s.bits, false));
}

std::string percentiles_text(const RangeVerdict& v, std::uint32_t bits) {
  return "its 1st percentile is " + codes_text(v.p1, v.p1, bits) + " and its 99th " + codes_text(v.p99, v.p99, bits);
}

}  // namespace

std::string range_warning(const RunSummary& s, const ColourTag<ColourRange>& range, bool whole_input) {
  if (s.plane_frames == 0 || (s.plane_frames < kVerdictFrames && !whole_input)) return {};
  const RangeVerdict v = judge_range(s.luma_levels, range.value);
  const std::string said = "the range is " + std::string(colour_id(range)) + " (" + std::string(colour_id(range.source)) + ")";
  if (v.look == RangeLook::full_as_limited) {
    return said + " but the luma's black level sits below " + std::to_string(shader::vhist_limited_low(s.bits)) +
           ": " +
           outside_text(s, " (" + percent(v.bottom) + " at " + codes_text(0, 3, s.bits) + ", " + percent(v.peak) +
                               " at " + codes_text(v.peak_level, v.peak_level, s.bits) + " alone, against " +
                               percent(v.near_black) + " at " + codes_text(16, 31, s.bits) + ")") +
           "; " + percentiles_text(v, s.bits) +
           ": the stream is probably full range, mis-tagged";
  }
  if (v.look == RangeLook::limited_as_full) {
    return said + " but the luma's black and white levels sit at the limited range's ends: " +
           percentiles_text(v, s.bits) + ", and " + outside_text(s) +
           ": the stream is probably limited range, mis-tagged";
  }
  return {};
}

std::string legal_range_note(const RunSummary& s, const ColourTag<ColourRange>& range, bool warned) {
  if (warned || range.value != ColourRange::limited || s.luma_below + s.luma_above == 0) return {};
  return "legal range: " + outside_text(s) + ": sub-black and super-white excursions (a QC finding, not a range verdict)";
}

LightExcess light_excess(double max_cll, double fall, const SourceColour& colour) {
  return qc::light_excess(max_cll, fall, qc::declared_light_limits(colour), kLightSlack);
}

std::string light_note(const RunSummary& s, const SourceColour& colour) {
  if (s.light_frames == 0 || s.hlg_light_frames > 0) return {};
  return qc::light_limits_note(colour);
}

std::string light_warning(const RunSummary& s, const SourceColour& colour) {
  // HLG's light is the reference display's, not the stream's own: no static metadata speaks of it.
  if (s.light_frames == 0 || s.hlg_light_frames > 0) return {};
  const qc::LightLimits limits = qc::declared_light_limits(colour);
  const LightExcess e = qc::light_excess(s.max_cll, s.max_fall, limits, kLightSlack);
  std::string found;
  const auto add = [&found](const std::string& part) { found += (found.empty() ? "" : "; ") + part; };
  if (e.max_cll) {
    add("MaxCLL " + number(s.max_cll, 1) + " cd/m2 (frame " + std::to_string(s.max_cll_frame) +
        ") against the stream's " + number(*limits.max_cll, 0));
  }
  if (e.max_fall) {
    add("MaxFALL " + number(s.max_fall, 1) + " cd/m2 (frame " + std::to_string(s.max_fall_frame) +
        ") against the stream's " + number(*limits.max_fall, 0));
  }
  if (e.mastering_peak) {
    add("pixels brighter than the mastering display's peak of " + number(*limits.mastering_peak, 0) + " cd/m2");
  }
  if (found.empty()) return {};
  return "the pixels are brighter than the stream's HDR metadata says (" + found +
         "): a display would tone-map for the wrong peak";
}

namespace {

// ,"lost":{"frames":N,"gaps":[{...}]}: frames lost in the middle, when any.
std::string lost_json(const RunSummary& s) {
  if (s.lost_frames <= 0) return {};
  std::string out = ",\"lost\":{\"frames\":" + std::to_string(s.lost_frames) + ",\"gaps\":[";
  for (const LostGap& g : s.lost_gaps) {
    if (out.back() != '[') out += ',';
    out += "{\"after_frame\":" + std::to_string(g.after_frame) + ",\"after_pts\":" + number(g.after_pts, 6) +
           ",\"before_frame\":" + std::to_string(g.before_frame) + ",\"before_pts\":" + number(g.before_pts, 6) +
           ",\"frames\":" + std::to_string(g.frames) + "}";
  }
  return out + "]}";
}

// "3 frames in the middle of the input (3 between frame 100 at 4.000000 s and frame 104 at
// 4.160000 s)": the CSV summary's line.
std::string lost_text(const RunSummary& s) {
  std::string out = std::to_string(s.lost_frames) + " frames in the middle of the input";
  for (const LostGap& g : s.lost_gaps) {
    out += &g == s.lost_gaps.data() ? " (" : "; ";
    out += std::to_string(g.frames) + " between frame " + std::to_string(g.after_frame) + " at " +
           number(g.after_pts, 6) + " s and frame " + std::to_string(g.before_frame) + " at " + number(g.before_pts, 6) + " s";
  }
  return out + (s.lost_gaps.empty() ? "" : ")");
}

}  // namespace

void append_jsonl_summary(std::string& out, const RunSummary& s, const SourceColour& colour,
                          const SummaryWarnings& warnings) {
  const std::string& warning = warnings.range;
  const bool limited = colour.range.value == ColourRange::limited;
  out += "{\"type\":\"summary\",\"frames\":" + std::to_string(s.frames);
  out += lost_json(s);
  if (s.plane_frames > 0) {
    out += ",\"range\":{\"frames\":" + std::to_string(s.plane_frames) + ",\"nominal\":" + quoted_json(std::string(colour_id(colour.range))) +
           ",\"y_below\":" + number(limited ? share(s.luma_below, s.luma) : 0, 8) +
           ",\"y_above\":" + number(limited ? share(s.luma_above, s.luma) : 0, 8);
    if (s.chroma != 0) {
      out += ",\"c_below\":" + number(limited ? share(s.chroma_below, s.chroma) : 0, 8) +
             ",\"c_above\":" + number(limited ? share(s.chroma_above, s.chroma) : 0, 8);
    }
    out += ",\"y_min\":" + std::to_string(s.luma_min) + ",\"y_max\":" + std::to_string(s.luma_max);
    const RangeVerdict v = judge_range(s.luma_levels, ColourRange::limited);
    const std::uint32_t shift = s.bits > 8 ? s.bits - 8 : 0;  // the verdict's levels: steps of 2^(bits-8) codes
    out += ",\"y_p1\":" + std::to_string(v.p1 << shift) + ",\"y_p99\":" + std::to_string(v.p99 << shift);
    const std::string legal = legal_range_note(s, colour.range, !warning.empty());
    if (!legal.empty()) out += ",\"legal\":" + quoted_json(legal);
    if (!warning.empty()) out += ",\"warning\":" + quoted_json(warning);
    out += "}";
  }
  if (s.light_frames > 0) {
    out += ",\"light\":{\"frames\":" + std::to_string(s.light_frames) + ",\"max_cll\":" + number(s.max_cll, 4) +
           ",\"max_cll_frame\":" + std::to_string(s.max_cll_frame) + ",\"max_fall\":" + number(s.max_fall, 4) +
           ",\"max_fall_frame\":" + std::to_string(s.max_fall_frame);
    if (s.hlg_light_frames > 0) out += ",\"signal\":\"hlg\",\"display\":" + quoted_json(kHlgDisplayText);
    if (colour.content_light) {
      out += ",\"stream_max_cll\":" + std::to_string(colour.content_light->max_cll) +
             ",\"stream_max_fall\":" + std::to_string(colour.content_light->max_fall);
    }
    if (colour.mastering) out += ",\"mastering_max_luminance\":" + number(colour.mastering->max_luminance, 4);
    const std::string note = light_note(s, colour);
    if (!note.empty()) out += ",\"note\":" + quoted_json(note);
    if (!warnings.light.empty()) out += ",\"warning\":" + quoted_json(warnings.light);
    out += "}";
  }
  out += "}\n";
}

void append_csv_summary(std::string& out, const RunSummary& s, const SourceColour& colour,
                        const SummaryWarnings& warnings) {
  const std::string& warning = warnings.range;
  out += "# summary: " + std::to_string(s.frames) + " frames\n";
  if (s.lost_frames > 0) out += "# lost: " + lost_text(s) + "\n";
  if (s.plane_frames > 0) {
    out += "# range check (" + std::to_string(s.plane_frames) + " frames read as " + std::string(colour_id(colour.range)) +
           " range): luma samples outside the limited range " + limits_text(s.bits) + ": " +
           percent(share(s.luma_below, s.luma)) + " below, " + percent(share(s.luma_above, s.luma)) +
           " above; luma codes " + std::to_string(s.luma_min) + " to " + std::to_string(s.luma_max) + "\n";
    const RangeVerdict v = judge_range(s.luma_levels, ColourRange::limited);
    out += "# luma percentiles: 1st " + codes_text(v.p1, v.p1, s.bits) + ", 99th " + codes_text(v.p99, v.p99, s.bits) + "\n";
    const std::string legal = legal_range_note(s, colour.range, !warning.empty());
    if (!legal.empty()) out += "# " + comment_text(legal) + "\n";
    if (!warning.empty()) out += "# warning: " + comment_text(warning) + "\n";
  }
  if (s.light_frames > 0) {
    const std::string of = s.hlg_light_frames > 0 ? " HLG frames, " + std::string(kHlgDisplayText) : " PQ frames";
    out += "# light (" + std::to_string(s.light_frames) + of + "): MaxCLL " + number(s.max_cll, 4) +
           " cd/m2 (frame " + std::to_string(s.max_cll_frame) + "), MaxFALL " + number(s.max_fall, 4) + " cd/m2 (frame " +
           std::to_string(s.max_fall_frame) + ")";
    if (colour.content_light) {
      out += "; the stream says MaxCLL " + std::to_string(colour.content_light->max_cll) + ", MaxFALL " +
             std::to_string(colour.content_light->max_fall);
    }
    out += "\n";
    const std::string note = light_note(s, colour);
    if (!note.empty()) out += "# light note: " + comment_text(note) + "\n";
    if (!warnings.light.empty()) out += "# warning: " + comment_text(warnings.light) + "\n";
  }
}

}  // namespace vhist::app
