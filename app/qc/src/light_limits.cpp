#include "vhist/qc/light_limits.h"

#include "number_text.h"

#include <cstdio>
#include <vector>

namespace vhist::qc {

namespace {

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t k = 0; k < items.size(); ++k) {
    out += (k == 0 ? "" : k + 1 == items.size() ? " and " : ", ") + items[k];
  }
  return out;
}

}  // namespace

LightLimits declared_light_limits(const SourceColour& colour) {
  LightLimits l;
  if (colour.content_light) {
    if (colour.content_light->max_cll > 0) l.max_cll = colour.content_light->max_cll;
    if (colour.content_light->max_fall > 0) l.max_fall = colour.content_light->max_fall;
  }
  if (colour.mastering && colour.mastering->max_luminance > 0) l.mastering_peak = colour.mastering->max_luminance;
  return l;
}

std::string light_limits_text(const LightLimits& l) {
  std::string out;
  const auto add = [&out](const char* name, const std::optional<double>& v) {
    if (v) out += (out.empty() ? "" : ", ") + std::string(name) + " " + fixed(*v, 0);
  };
  add("MaxCLL", l.max_cll);
  add("MaxFALL", l.max_fall);
  add("mastering peak", l.mastering_peak);
  return out;
}

LightExcess light_excess(double max_cll, double fall, const LightLimits& l, double slack) {
  LightExcess e;
  e.max_cll = l.max_cll && max_cll > *l.max_cll + slack;
  e.max_fall = l.max_fall && fall > *l.max_fall + slack;
  e.mastering_peak = l.mastering_peak && max_cll > *l.mastering_peak + slack;
  return e;
}

std::string light_limits_note(const SourceColour& colour) {
  const LightLimits l = declared_light_limits(colour);
  std::vector<std::string> unknown;  // tagged 0
  if (colour.content_light && !l.max_cll) unknown.push_back("MaxCLL");
  if (colour.content_light && !l.max_fall) unknown.push_back("MaxFALL");
  if (unknown.empty()) return l.any() ? std::string() : "the stream declares no MaxCLL, MaxFALL or mastering display to check against";
  return "the stream's " + listed(unknown) + (unknown.size() == 1 ? " is" : " are") +
         " 0, which CTA-861.3 defines as unknown, not a limit: " +
         (l.any() ? "checked against its " + light_limits_text(l) + " cd/m2 only" : "nothing declared to check against");
}

}  // namespace vhist::qc
