#include "vhist/qc/checks.h"

#include "vhist/qc/light_limits.h"
#include "number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vhist::qc {

namespace {

struct CheckText {
  Check check;
  std::string_view name, title;
};
constexpr std::array<CheckText, kAllChecks.size()> kTexts{{
    {Check::r103_luma, "r103_luma", "EBU R 103 luma"},
    {Check::r103_rgb, "r103_rgb", "EBU R 103 R'G'B' gamut"},
    {Check::clipped, "clipped", "Clipped"},
    {Check::black, "black", "Black"},
    {Check::frozen, "frozen", "Frozen"},
    {Check::light, "light", "PQ light above metadata"},
    {Check::range, "range", "Range tag"},
    {Check::decode_error, "decode_error", "Decode errors"},
}};

// One check's verdict on one frame: whether it breaks the check, and its value there.
struct Verdict {
  bool broken = false;
  double value = 0;
};

// A frame's seconds on screen: the nominal rate's period, else the gap to the next frame.
double frame_period(std::span<const QcFrame> frames, std::size_t k, double rate) {
  if (rate > 0) return 1.0 / rate;
  if (k + 1 < frames.size()) return std::max(0.0, frames[k + 1].pts - frames[k].pts);
  return k > 0 ? std::max(0.0, frames[k].pts - frames[k - 1].pts) : 0.0;
}

class Finder {
 public:
  Finder(std::span<const QcFrame> frames, const Thresholds& t, const RunFacts& facts)
      : frames_(frames), t_(t), facts_(facts) {}

  // The runs of consecutive frames `verdict` breaks, lasting at least `min_seconds`.
  template <typename F>
  void runs(Check check, std::string_view unit, double min_seconds, F verdict, std::vector<Event>& out) const {
    std::size_t k = 0;
    while (k < frames_.size()) {
      Verdict v = verdict(k);
      if (!v.broken) {
        ++k;
        continue;
      }
      Event e = start(check, unit, k, v.value);
      double seconds = frame_period(frames_, k, facts_.frame_rate);
      std::size_t last = k;
      for (std::size_t j = k + 1; j < frames_.size(); ++j) {
        const Verdict w = verdict(j);
        if (!w.broken) break;
        last = j;
        seconds += frame_period(frames_, j, facts_.frame_rate);
        if (w.value > e.worst) e.worst = w.value, e.worst_frame = frames_[j].frame;
      }
      if (seconds + 1e-9 >= min_seconds) out.push_back(finish(std::move(e), k, last));
      k = last + 1;
    }
  }

  Event start(Check check, std::string_view unit, std::size_t k, double value) const {
    Event e;
    e.check = check;
    e.unit = unit;
    e.worst = value;
    e.worst_frame = frames_[k].frame;
    e.fails = t_.fails(check);
    return e;
  }

  Event finish(Event e, std::size_t first, std::size_t last) const {
    e.first_frame = frames_[first].frame;
    e.last_frame = frames_[last].frame;
    e.start = frames_[first].pts;
    e.end = frames_[last].pts + frame_period(frames_, last, facts_.frame_rate);
    e.start_timecode = timecode(first);
    e.end_timecode = timecode(last);
    e.frame_share = static_cast<double>(last - first + 1) / static_cast<double>(frames_.size());
    return e;
  }

  std::string timecode(std::size_t k) const {
    if (facts_.timecode) return facts_.timecode(frames_[k].frame, frames_[k].pts);
    return timecode_from_time(frames_[k].pts, facts_.frame_rate);
  }

  const QcFrame& at(std::size_t k) const { return frames_[k]; }
  std::size_t size() const { return frames_.size(); }

 private:
  std::span<const QcFrame> frames_;
  const Thresholds& t_;
  const RunFacts& facts_;
};

void r103(const Finder& f, const Thresholds& t, std::vector<Event>& out) {
  const std::size_t before = out.size();
  f.runs(Check::r103_luma, "%", 0, [&](std::size_t k) {
    const double share = f.at(k).r103_luma * 100.0;
    return Verdict{f.at(k).limited && share > t.r103_area, share};
  }, out);
  for (std::size_t k = before; k < out.size(); ++k) {
    out[k].detail = "Y' outside codes 5-246 (8-bit scale) on up to " + fixed(out[k].worst, 2) +
                    " % of the picture; R 103 allows " + fixed(t.r103_area, 2) + " %";
  }
  const std::size_t rgb = out.size();
  f.runs(Check::r103_rgb, "%", 0, [&](std::size_t k) {
    const double share = f.at(k).r103_rgb * 100.0;
    return Verdict{share > t.r103_area, share};
  }, out);
  for (std::size_t k = rgb; k < out.size(); ++k) {
    out[k].detail = "R'G'B' outside -5 % to 105 % before clamping on up to " + fixed(out[k].worst, 2) +
                    " % of the picture; R 103 allows " + fixed(t.r103_area, 2) + " %";
  }
}

void clipped(const Finder& f, const Thresholds& t, std::vector<Event>& out) {
  const std::size_t before = out.size();
  f.runs(Check::clipped, "%", 0, [&](std::size_t k) {
    const double high = f.at(k).clip_high * 100.0, low = f.at(k).clip_low * 100.0;
    const bool low_on = t.clip_low < 100.0;
    const bool broken = high > t.clip_high || (low_on && low > t.clip_low);
    return Verdict{broken, std::max(high, low_on ? low : 0.0)};
  }, out);
  for (std::size_t k = before; k < out.size(); ++k) {
    out[k].detail = "up to " + fixed(out[k].worst, 2) + " % of the picture's Y' at or beyond white" +
                    (t.clip_low < 100.0 ? " or black" : "") + " (limit " + fixed(t.clip_high, 2) + " % at white" +
                    (t.clip_low < 100.0 ? ", " + fixed(t.clip_low, 2) + " % at black)" : std::string(")"));
  }
}

void black(const Finder& f, const Thresholds& t, std::vector<Event>& out) {
  const std::size_t before = out.size();
  f.runs(Check::black, "%", t.black_min, [&](std::size_t k) {
    const double share = f.at(k).black * 100.0;
    return Verdict{share >= t.black_area, share};
  }, out);
  for (std::size_t k = before; k < out.size(); ++k) {
    out[k].detail = fixed(out[k].worst, 2) + " % of the picture at or below " + fixed(t.black_level, 1) +
                    " % luma (a frame is black from " + fixed(t.black_area, 1) + " %)";
  }
}

// Frame k repeats frame k-1 bit for bit.
bool exact_repeat(const Finder& f, std::size_t k) {
  return f.at(k).checksum != 0 && f.at(k).checksum == f.at(k - 1).checksum &&
         f.at(k).histogram_hash == f.at(k - 1).histogram_hash;
}

// The detail of a frozen run of frames k..last: bit-exact repeats, or held within the change.
std::string frozen_detail(const Finder& f, const Thresholds& t, std::size_t k, std::size_t last, double seconds) {
  std::size_t exact = 0;
  double largest = 0;
  for (std::size_t i = k + 1; i <= last; ++i) {
    if (exact_repeat(f, i)) ++exact;
    largest = std::max(largest, static_cast<double>(f.at(i).held_change));
  }
  const std::string length = fixed(seconds, 3) + " s, " + std::to_string(last - k + 1) + " frames (from " +
                             fixed(t.frozen_min, 2) + " s)";
  if (exact == last - k) return "the same picture bit for bit (equal checksums and histograms) for " + length;
  return "the same picture within " + fixed(t.frozen_change, 3) + " % for " + length + ": the mean change of its " +
         "32 x 18 cells from the first frame up to " + fixed(largest, 3) + " %, " + std::to_string(exact) +
         " of " + std::to_string(last - k) + " repeats bit for bit";
}

void frozen(const Finder& f, const Thresholds& t, const RunFacts& facts, std::vector<Event>& out) {
  // Frame k repeats frame k-1 bit for bit, or holds the picture of the frame that began its run
  // (HeldPicture); a frozen run is one picture and its repeats (a run of another held picture
  // right after it is a run of its own).
  const auto repeats = [&](std::size_t k) { return exact_repeat(f, k) || f.at(k).held; };
  std::size_t k = 0;
  while (k + 1 < f.size()) {
    if (!repeats(k + 1)) {
      ++k;
      continue;
    }
    std::size_t last = k + 1;
    while (last + 1 < f.size() && repeats(last + 1)) ++last;
    const double period = facts.frame_rate > 0 ? 1.0 / facts.frame_rate : 0.0;
    const double seconds = facts.frame_rate > 0 ? static_cast<double>(last - k + 1) * period
                                                : f.at(last).pts - f.at(k).pts;
    if (seconds + 1e-9 >= t.frozen_min) {
      Event e = f.finish(f.start(Check::frozen, "s", k, seconds), k, last);
      e.detail = frozen_detail(f, t, k, last, seconds);
      out.push_back(std::move(e));
    }
    k = last + 1;
  }
}

void light(const Finder& f, const Thresholds& t, const RunFacts& facts, std::vector<Event>& out) {
  // The limits by analyze's rule too (light_limits.h: a MaxCLL or MaxFALL of 0 is unknown).
  const LightLimits limits = declared_light_limits(facts.colour);
  if (!limits.any()) return;  // nothing declared to exceed
  const std::size_t before = out.size();
  f.runs(Check::light, "cd/m2", 0, [&](std::size_t k) {
    const QcFrame& q = f.at(k);
    return Verdict{q.pq && light_excess(q.max_cll, q.fall, limits, t.light_slack).any(), q.max_cll};
  }, out);
  for (std::size_t k = before; k < out.size(); ++k) {
    out[k].detail = "brightest pixel up to " + fixed(out[k].worst, 1) + " cd/m2 against the stream's " +
                    light_limits_text(limits) + " cd/m2";
  }
}

void range(const Finder& f, const RunFacts& facts, const Thresholds& t, std::vector<Event>& out) {
  if (facts.range_warning.empty() || f.size() == 0) return;
  Event e = f.start(Check::range, "", 0, 0.0);
  e = f.finish(std::move(e), 0, f.size() - 1);
  e.detail = facts.range_warning;
  e.fails = t.fails(Check::range);
  out.push_back(std::move(e));
}

}  // namespace

std::vector<Event> find_events(std::span<const QcFrame> frames, const Thresholds& thresholds, const RunFacts& facts) {
  std::vector<Event> out;
  const Finder f(frames, thresholds, facts);
  r103(f, thresholds, out);
  clipped(f, thresholds, out);
  black(f, thresholds, out);
  frozen(f, thresholds, facts, out);
  light(f, thresholds, facts, out);
  range(f, facts, thresholds, out);
  return out;
}

std::string_view check_name(Check check) {
  for (const CheckText& t : kTexts) {
    if (t.check == check) return t.name;
  }
  return "unknown";
}

std::string_view check_title(Check check) {
  for (const CheckText& t : kTexts) {
    if (t.check == check) return t.title;
  }
  return "unknown";
}

bool Thresholds::fails(Check check) const { return std::find(failing.begin(), failing.end(), check) != failing.end(); }

std::string timecode_from_time(double seconds, double frame_rate) {
  const double rate = frame_rate > 0 ? frame_rate : 25.0;
  const auto base = static_cast<std::int64_t>(std::llround(rate));
  std::int64_t n = std::max<std::int64_t>(0, std::llround(seconds * rate));
  const std::int64_t ff = n % base;
  n /= base;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld:%02lld", static_cast<long long>(n / 3600),
                static_cast<long long>((n / 60) % 60), static_cast<long long>(n % 60), static_cast<long long>(ff));
  return buf;
}

}  // namespace vhist::qc
