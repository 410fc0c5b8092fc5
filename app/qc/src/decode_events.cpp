// The decode_error check (checks.h): what the decoder lost or damaged, and where, as events on
// the same time axis as the picture checks.
#include "vhist/qc/checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace vhist::qc {

namespace {

std::string frames_text(std::int64_t n) { return std::to_string(n) + (n == 1 ? " frame" : " frames"); }

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

class DamageEvents {
 public:
  DamageEvents(const DecodeDamage& d, const Thresholds& t, const RunFacts& facts)
      : d_(d), t_(t), facts_(facts), period_(facts.frame_rate > 0 ? 1.0 / facts.frame_rate : 0.0) {}

  Event make(std::int64_t first, double start, std::int64_t last, double end, double worst, std::string detail) const {
    Event e;
    e.check = Check::decode_error;
    e.first_frame = first;
    e.last_frame = last;
    e.start = start;
    e.end = std::max(start, end);
    e.start_timecode = facts_.timecode ? facts_.timecode(first, start) : timecode_from_time(start, facts_.frame_rate);
    e.end_timecode = facts_.timecode ? facts_.timecode(last, e.end) : timecode_from_time(e.end, facts_.frame_rate);
    e.worst = worst;
    e.worst_frame = first;
    e.unit = "frames";
    e.frame_share = d_.frames > 0 ? static_cast<double>(last - first + 1) / static_cast<double>(d_.frames) : 0.0;
    e.detail = std::move(detail);
    e.fails = t_.fails(Check::decode_error);
    return e;
  }

  // A gap: from the end of the frame before it to the frame after it.
  Event gap(const DecodeDamage::Gap& g) const {
    return make(g.after_frame, g.after_pts + period_, g.before_frame, g.before_pts, static_cast<double>(g.frames),
                frames_text(g.frames) + " lost between frame " + std::to_string(g.after_frame) + " at " +
                    seconds_text(g.after_pts) + " and frame " + std::to_string(g.before_frame) + " at " +
                    seconds_text(g.before_pts) + first_error());
  }

  // The runs of consecutive damaged frames.
  void damaged(std::vector<Event>& out) const {
    std::size_t k = 0;
    while (k < d_.damaged.size()) {
      std::size_t j = k;
      while (j + 1 < d_.damaged.size() && d_.damaged[j + 1].frame == d_.damaged[j].frame + 1) ++j;
      const auto count = static_cast<std::int64_t>(j - k + 1);
      out.push_back(make(d_.damaged[k].frame, d_.damaged[k].pts, d_.damaged[j].frame, d_.damaged[j].pts + period_,
                         static_cast<double>(count),
                         frames_text(count) + " decoded with errors the decoder concealed (the picture is damaged)" +
                             first_error()));
      k = j + 1;
    }
  }

  // The input ends before its promised duration: from the end of its last frame.
  Event truncated() const {
    const double end_of_last = d_.last.pts + period_;
    const double end = d_.duration > end_of_last ? d_.duration : end_of_last;
    const double lost = period_ > 0 ? std::max(0.0, std::round((end - end_of_last) / period_)) : 0.0;
    std::string detail = "the input ends early after frame " + std::to_string(d_.last.frame) + " at " +
                         seconds_text(d_.last.pts) + ": " + d_.truncation_reason;
    if (d_.duration > end_of_last) detail += "; the container says " + seconds_text(d_.duration);
    return make(d_.last.frame, end_of_last, d_.last.frame, end, lost, detail);
  }

  // Over the whole input: what no timestamp places.
  Event whole(double worst, const std::string& detail) const {
    const double end = std::max(d_.duration, d_.last.pts + period_);
    return make(0, 0.0, d_.last.frame, end, worst, detail + first_error());
  }
  Event unplaced() const {
    return whole(static_cast<double>(d_.unplaced_lost),
                 frames_text(d_.unplaced_lost) + " lost (packets the decoder rejected; the timestamps do not say where)");
  }
  Event errors_only() const {
    return whole(0, std::to_string(d_.errors) + " decoder errors, though no frame was marked lost or damaged");
  }

 private:
  std::string first_error() const { return d_.first_error.empty() ? "" : " (first error: " + d_.first_error + ")"; }

  const DecodeDamage& d_;
  const Thresholds& t_;
  const RunFacts& facts_;
  double period_;
};

}  // namespace

std::vector<Event> decode_events(const DecodeDamage& damage, const Thresholds& thresholds, const RunFacts& facts) {
  const DamageEvents make(damage, thresholds, facts);
  std::vector<Event> out;
  if (damage.unplaced_lost > 0) out.push_back(make.unplaced());
  for (const DecodeDamage::Gap& g : damage.gaps) out.push_back(make.gap(g));
  make.damaged(out);
  if (damage.truncated) out.push_back(make.truncated());
  if (out.empty() && damage.errors > 0) out.push_back(make.errors_only());
  std::stable_sort(out.begin(), out.end(), [](const Event& a, const Event& b) { return a.start < b.start; });
  return out;
}

}  // namespace vhist::qc
