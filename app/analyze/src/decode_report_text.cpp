#include "decode_report_text.h"

#include <algorithm>
#include <cstdio>

namespace vhist::app {

namespace {

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

std::string gap_text(const media::FrameGap& g) {
  return "between frame " + std::to_string(g.after_frame) + " at " + seconds(g.after_pts) + " and frame " +
         std::to_string(g.before_frame) + " at " + seconds(g.before_pts);
}

// "(between ... ; 2 between ...; and 3 more gaps)": where, when the timestamps told.
std::string where_text(const media::DecodeReport& r) {
  if (r.gaps.empty()) return "";
  std::string out;
  std::int64_t listed = 0;
  for (const media::FrameGap& g : r.gaps) {
    out += out.empty() ? " (" : "; ";
    if (r.gaps.size() > 1) out += std::to_string(g.frames) + " ";
    out += gap_text(g);
    listed += g.frames;
  }
  if (listed < r.missing) out += "; " + std::to_string(r.missing - listed) + " more elsewhere";
  return out + ")";
}

// Frames the timestamps show missing, else the packets the decoder rejected.
std::int64_t lost_frames(const media::DecodeReport& r) { return r.missing > 0 ? r.missing : r.lost; }

}  // namespace

void set_lost_frames(RunSummary& summary, const media::DecodeReport& r) {
  summary.lost_frames = lost_frames(r);
  summary.lost_gaps.clear();
  for (const media::FrameGap& g : r.gaps) {
    summary.lost_gaps.push_back({g.after_frame, g.after_pts, g.before_frame, g.before_pts, g.frames});
  }
}

bool input_damaged(const media::DecodeReport& r) { return r.truncated || !corruption_text(r).empty(); }

qc::DecodeDamage decode_damage(const media::DecodeReport& r) {
  qc::DecodeDamage d;
  std::int64_t placed = 0;
  for (const media::FrameGap& g : r.gaps) {
    d.gaps.push_back({g.after_frame, g.after_pts, g.before_frame, g.before_pts, g.frames});
    placed += g.frames;
  }
  d.unplaced_lost = std::max<std::int64_t>(0, lost_frames(r) - placed);
  d.first_error = r.first_error;
  d.errors = r.errors;
  d.truncated = r.truncated;
  d.truncation_reason = r.truncation_reason;
  return d;
}

std::string corruption_text(const media::DecodeReport& r) {
  if (r.missing <= 0 && r.lost <= 0 && r.damaged <= 0 && r.errors <= 0) return {};
  const std::int64_t lost = lost_frames(r);
  std::string out = "corrupt data in the middle: " + std::to_string(lost) + " frames lost" + where_text(r) + ", " +
                    std::to_string(r.damaged) + " damaged, " + std::to_string(r.errors) + " decoder errors";
  if (!r.first_error.empty()) out += " (first: " + r.first_error + ")";
  // NVDEC rejecting a frame looks the same from here: say which decoder it was.
  if (r.hw_frames > 0) out += "; decoded on NVDEC: --hwdec no decodes the same input on the CPU";
  return out;
}

}  // namespace vhist::app
