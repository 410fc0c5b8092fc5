#include "vhist/picture/light_scale.h"

#include <cmath>

namespace vhist::viewer {

LightScale light_scale_of(std::string_view transfer) {
  if (transfer == "smpte2084") return LightScale::pq;
  if (transfer == "arib-std-b67") return LightScale::hlg;
  return LightScale::none;
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
