#include "vhist/compute/transfer.h"

#include <algorithm>
#include <cmath>

namespace vhist {

namespace {

// SMPTE ST 2084's constants.
constexpr double kM1 = 2610.0 / 16384, kM2 = 2523.0 / 4096 * 128;
constexpr double kC1 = 3424.0 / 4096, kC2 = 2413.0 / 4096 * 32, kC3 = 2392.0 / 4096 * 32;
// BT.2100 HLG's OETF constants.
constexpr double kA = 0.17883277, kB = 1 - 4 * kA;
const double kC = 0.5 - kA * std::log(4 * kA);  // 0.55991073

}  // namespace

double pq_nits(double signal) {
  const double p = std::pow(std::clamp(signal, 0.0, 1.0), 1 / kM2);
  return kPqPeak * std::pow(std::max(p - kC1, 0.0) / (kC2 - kC3 * p), 1 / kM1);
}

double pq_signal(double nits) {
  const double y = std::pow(std::clamp(nits / kPqPeak, 0.0, 1.0), kM1);
  return std::pow((kC1 + kC2 * y) / (1 + kC3 * y), kM2);
}

double hlg_signal(double nits) {
  const double e = std::pow(std::clamp(nits / kHlgPeak, 0.0, 1.0), 1.0 / kHlgGamma);
  return e <= 1.0 / 12 ? std::sqrt(3 * e) : kA * std::log(12 * e - kB) + kC;
}

double hlg_scene(double signal) {
  const double s = std::clamp(signal, 0.0, 1.0);
  return std::min(s <= 0.5 ? s * s / 3 : (std::exp((s - kC) / kA) + kB) / 12, 1.0);
}

double hlg_nits(double signal) { return kHlgPeak * std::pow(hlg_scene(signal), kHlgGamma); }

}  // namespace vhist
