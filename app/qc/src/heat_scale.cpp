#include "vhist/qc/heat_scale.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace vhist::qc {

namespace {

constexpr std::array<std::array<std::uint8_t, 3>, 11> kInferno{{{0x00, 0x00, 0x04},
                                                                 {0x16, 0x0b, 0x39},
                                                                 {0x42, 0x0a, 0x68},
                                                                 {0x6a, 0x17, 0x6e},
                                                                 {0x93, 0x26, 0x67},
                                                                 {0xbc, 0x37, 0x54},
                                                                 {0xdd, 0x51, 0x3a},
                                                                 {0xf3, 0x78, 0x19},
                                                                 {0xfc, 0xa5, 0x0a},
                                                                 {0xf6, 0xd7, 0x46},
                                                                 {0xfc, 0xff, 0xa4}}};

}  // namespace

double heat_position(double share) {
  if (!(share > 0)) return 0;
  return 0.1 + 0.9 * std::clamp(1 + std::log10(share) / kHeatDecades, 0.0, 1.0);
}

std::array<std::uint8_t, 3> inferno(double t) {
  const double p = std::clamp(t, 0.0, 1.0) * 10.0;
  const auto k = std::min<std::size_t>(9, static_cast<std::size_t>(p));
  const double f = p - static_cast<double>(k);
  std::array<std::uint8_t, 3> c{};
  for (std::size_t i = 0; i < 3; ++i) {
    c[i] = static_cast<std::uint8_t>(std::lround(kInferno[k][i] + (kInferno[k + 1][i] - kInferno[k][i]) * f));
  }
  return c;
}

}  // namespace vhist::qc
