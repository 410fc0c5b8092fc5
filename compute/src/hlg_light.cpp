#include "vhist/compute/hlg_light.h"

#include "vhist/compute/transfer.h"
#include "vhist/hlg_light_shared.h"

#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace vhist {

namespace {

constexpr double kTwo31 = 2147483648.0;
constexpr double kTwo30 = 1073741824.0;

// Ys^0.2 * 2^31 at the middle of the Ys each index covers (vhist_hlg_pow_index).
void fill_pow(std::vector<std::uint32_t>& words) {
  constexpr std::uint32_t k = shader::kHlgPowMantissaBits;
  for (std::uint32_t e = 0; e < 32; ++e) {
    for (std::uint32_t m = 0; m < (1u << k); ++m) {
      const double first = std::ldexp(static_cast<double>((1u << k) + m), static_cast<int>(e) - static_cast<int>(k));
      // Above bit k the index covers 2^(e - k) integers; below it one value.
      const double width = e >= k ? std::ldexp(1.0, static_cast<int>(e - k)) : 1.0;
      const double ys = std::min((first + (width - 1) / 2) / kTwo31, 1.0);
      words[(e << k) | m] = static_cast<std::uint32_t>(std::llround(std::pow(ys, kHlgGamma - 1) * kTwo31));
    }
  }
}

std::vector<std::uint32_t> make_tables(std::uint32_t bits) {
  std::vector<std::uint32_t> words(shader::vhist_hlg_table_words(bits), 0u);
  fill_pow(words);
  const double top = static_cast<double>((1u << bits) - 1);
  for (std::uint32_t code = 0; code < (1u << bits); ++code) {
    words[shader::kHlgSceneOffset + code] = static_cast<std::uint32_t>(std::llround(hlg_scene(code / top) * kTwo31));
  }
  const std::uint32_t edges = shader::vhist_hlg_edge_offset(bits);
  for (std::uint32_t j = 1; j < shader::vhist_light_levels(bits); ++j) {
    // The least integer light at or above the edge (lights above 4 Lw never occur).
    const double edge = std::ceil(hlg_level_edge_nits(j, bits) / kHlgPeak * kTwo30);
    words[edges + j] = edge >= 4294967295.0 ? 0xffffffffu : static_cast<std::uint32_t>(edge);
  }
  return words;
}

}  // namespace

std::span<const std::uint32_t> hlg_light_tables(std::uint32_t bits) {
  if (bits < 8 || bits > 16) throw std::invalid_argument("no HLG light tables for " + std::to_string(bits) + "-bit codes");
  static std::mutex mutex;
  static std::array<std::unique_ptr<const std::vector<std::uint32_t>>, 17> made;
  const std::lock_guard lock(mutex);
  if (!made[bits]) made[bits] = std::make_unique<const std::vector<std::uint32_t>>(make_tables(bits));
  return *made[bits];
}

double hlg_level_edge_nits(std::uint32_t level, std::uint32_t bits) {
  const std::uint32_t codes = (1u << bits) / shader::vhist_light_levels(bits);
  return pq_nits((static_cast<double>(level) * codes - 0.5) / static_cast<double>((1u << bits) - 1));
}

std::uint32_t hlg_light_level(std::uint32_t r, std::uint32_t g, std::uint32_t b, std::uint32_t bits) {
  return shader::vhist_hlg_level({hlg_light_tables(bits).data()}, r, g, b, bits);
}

}  // namespace vhist
