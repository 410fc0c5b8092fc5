#include "vhist/picture/light_scale.h"

#include <algorithm>
#include <cmath>

namespace vhist::viewer {

LightScale light_scale_of(std::string_view transfer) {
  if (transfer == "smpte2084") return LightScale::pq;
  if (transfer == "arib-std-b67") return LightScale::hlg;
  return LightScale::none;
}

double pq_signal(double nits) {
  // SMPTE ST 2084, the inverse of its EOTF.
  constexpr double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
  constexpr double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
  const double y = std::pow(std::clamp(nits / 10000.0, 0.0, 1.0), m1);
  return std::pow((c1 + c2 * y) / (1 + c3 * y), m2);
}

double hlg_signal(double nits) {
  // BT.2100: an achromatic pixel's display light is peak * E^gamma (the OOTF with Ys = E), and
  // E' = OETF(E).
  constexpr double a = 0.17883277, b = 1 - 4 * a;
  const double c = 0.5 - a * std::log(4 * a);  // 0.55991073
  const double e = std::pow(std::clamp(nits / kHlgPeak, 0.0, 1.0), 1.0 / kHlgGamma);
  return e <= 1.0 / 12 ? std::sqrt(3 * e) : a * std::log(12 * e - b) + c;
}

std::vector<LightTick> light_ticks(LightScale scale, std::uint32_t bits) {
  if (scale == LightScale::none) return {};
  const double top = static_cast<double>((1u << bits) - 1);
  const bool pq = scale == LightScale::pq;
  std::vector<LightTick> ticks{{0, "0"}};
  const char* labels_pq[] = {"0.1", "1", "10", "100", "1000", "10000"};
  const char* labels_hlg[] = {"1", "10", "100", "1000"};
  const double first = pq ? 0.1 : 1.0;
  const std::size_t n = pq ? 6 : 4;
  for (std::size_t i = 0; i < n; ++i) {
    const double nits = first * std::pow(10.0, static_cast<double>(i));
    const double signal = pq ? pq_signal(nits) : hlg_signal(nits);
    ticks.push_back({static_cast<std::uint32_t>(std::lround(signal * top)), pq ? labels_pq[i] : labels_hlg[i]});
  }
  ticks.back().label += " nits";
  return ticks;
}

}  // namespace vhist::viewer
