#include "curves.h"
#include "html_text.h"

#include <algorithm>

namespace vhist::report {

namespace {

constexpr double kLaneTop = 6;
constexpr double kLaneHeight = 18;

// Events of one check merged where they touch on the plot.
struct Span {
  double x0 = 0, x1 = 0;
  std::size_t count = 0;
  std::string start, end;
  bool fails = false;
};

std::vector<Span> spans(const XScale& scale, const std::vector<qc::Event>& events, qc::Check check) {
  std::vector<Span> out;
  for (const qc::Event& e : events) {
    if (e.check != check) continue;
    double x0 = scale.x_of_frame(e.first_frame), x1 = scale.x_after_frame(e.last_frame);
    if (x1 - x0 < 1.5) {  // at least a visible sliver, centred on the event
      const double mid = (x0 + x1) / 2;
      x0 = std::max(kPlotLeft, mid - 0.75), x1 = std::min(kPlotRight, mid + 0.75);
    }
    if (!out.empty() && x0 <= out.back().x1 + 0.5) {
      Span& s = out.back();
      s.x1 = std::max(s.x1, x1);
      ++s.count;
      s.end = e.end_timecode;
      s.fails = s.fails || e.fails;
      continue;
    }
    out.push_back({x0, x1, 1, e.start_timecode, e.end_timecode, e.fails});
  }
  return out;
}

std::string lane(const XScale& scale, const std::vector<qc::Event>& events, qc::Check check, double top) {
  std::string s = "<rect class=\"lanebg\" x=\"" + fixed(kPlotLeft, 1) + "\" y=\"" + fixed(top + 2, 1) +
                  "\" width=\"" + fixed(kPlotWidth, 1) + "\" height=\"" + fixed(kLaneHeight - 4, 1) + "\"/>";
  s += "<text class=\"ylab\" x=\"" + fixed(kPlotLeft - 8, 1) + "\" y=\"" + fixed(top + kLaneHeight / 2, 1) + "\">" +
       escape(qc::check_name(check)) + "</text>";
  for (const Span& span : spans(scale, events, check)) {
    s += "<rect class=\"span\" data-check=\"" + escape(qc::check_name(check)) + "\" fill=\"" +
         std::string(check_colour(check)) + "\" x=\"" + fixed(span.x0, 2) + "\" y=\"" + fixed(top + 2, 1) +
         "\" width=\"" + fixed(span.x1 - span.x0, 2) + "\" height=\"" + fixed(kLaneHeight - 4, 1) + "\"><title>" +
         escape(qc::check_title(check)) + ": " + (span.count == 1 ? "1 event" : std::to_string(span.count) + " events") +
         ", " + escape(span.start) + " \u2013 " + escape(span.end) + (span.fails ? " (fails)" : "") +
         "</title></rect>";
  }
  return s;
}

}  // namespace

std::string event_lanes(const XScale& scale, const std::vector<qc::Event>& events) {
  std::vector<qc::Check> checks;
  std::string keys;
  for (const qc::Check check : qc::kAllChecks) {
    const auto n = std::count_if(events.begin(), events.end(), [&](const qc::Event& e) { return e.check == check; });
    if (n == 0) continue;
    checks.push_back(check);
    keys += "<span class=\"key\"><i class=\"swatch\" style=\"background:" + std::string(check_colour(check)) +
            "\"></i>" + escape(qc::check_title(check)) + " (" + std::to_string(n) + ")</span>";
  }
  std::string s = "<div class=\"panel-head\"><h3>Events</h3><div class=\"keys\">" +
                  (checks.empty() ? std::string("<span class=\"key\">none</span>") : keys) +
                  "</div><div class=\"caption\">each event from its first frame to the end of its last; hover "
                  "for its timecodes</div></div>";
  const double rows = std::max<double>(1, static_cast<double>(checks.size()));
  const double height = kLaneTop + rows * kLaneHeight + 22;
  s += "<svg class=\"plot\" id=\"event-lanes\" viewBox=\"0 0 " + fixed(kViewWidth, 0) + " " + fixed(height, 0) +
       "\" role=\"img\" aria-label=\"events over time\">";
  const double bottom = kLaneTop + rows * kLaneHeight;
  for (const TimeTick& t : time_ticks(scale)) {
    const std::string x = fixed(t.x, 1);
    s += "<line class=\"vgrid\" x1=\"" + x + "\" x2=\"" + x + "\" y1=\"" + fixed(kLaneTop, 1) + "\" y2=\"" +
         fixed(bottom, 1) + "\"/><text class=\"xlab\" x=\"" + x + "\" y=\"" + fixed(bottom + 15, 1) + "\">" +
         escape(t.label) + "</text>";
  }
  if (checks.empty()) {
    s += "<text class=\"none\" x=\"" + fixed(kPlotLeft + kPlotWidth / 2, 1) + "\" y=\"" +
         fixed(kLaneTop + kLaneHeight / 2, 1) + "\">no events</text>";
  }
  for (std::size_t k = 0; k < checks.size(); ++k) s += lane(scale, events, checks[k], kLaneTop + k * kLaneHeight);
  return s + "</svg>";
}

}  // namespace vhist::report
