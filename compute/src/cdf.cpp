#include "vhist/compute/cdf.h"

#include "vhist/compute/frame_stats.h"
#include "vhist/equalize_shared.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace vhist {

// The shaders take the mode as these codes (equalize_shared.h).
static_assert(static_cast<std::uint32_t>(EqualizeMode::off) == 0u &&
              static_cast<std::uint32_t>(EqualizeMode::luma) == shader::kEqualizeLuma &&
              static_cast<std::uint32_t>(EqualizeMode::channels) == shader::kEqualizeChannels);

Cdf reference_cdf(const Histogram& histogram) {
  Cdf out(histogram.bins);
  for (std::uint32_t c = 0; c < 4; ++c) {
    std::uint64_t running = 0;
    for (std::uint32_t bin = 0; bin < histogram.bins; ++bin) {
      running += histogram.counts[std::size_t{bin} * 4 + c];
      if (running > std::numeric_limits<std::uint32_t>::max()) {
        throw std::overflow_error("cumulative count exceeds 32 bits");
      }
      out.counts[std::size_t{bin} * 4 + c] = static_cast<std::uint32_t>(running);
    }
  }
  return out;
}

Cdf coarsen(const Cdf& fine, std::uint32_t bins) {
  const bool power_of_two = bins != 0 && (bins & (bins - 1)) == 0;
  if (!power_of_two || bins > fine.bins) throw std::invalid_argument("coarsen: bins must be a power of two <= the fine CDF's");
  const std::uint32_t ratio = fine.bins / bins;
  Cdf out(bins);
  for (std::uint32_t b = 0; b < bins; ++b) {
    const std::uint32_t last = (b + 1) * ratio - 1;
    for (std::uint32_t c = 0; c < 4; ++c) out.counts[std::size_t{b} * 4 + c] = fine.counts[std::size_t{last} * 4 + c];
  }
  return out;
}

EqualizeTable reference_equalize_table(const Cdf& cdf, std::uint32_t bits) {
  const bool power_of_two = cdf.bins != 0 && (cdf.bins & (cdf.bins - 1)) == 0;
  if (bits < 8 || bits > 16 || !power_of_two || cdf.bins > (1u << bits)) {
    throw std::invalid_argument("an equalization table needs a CDF of a power of two levels, at most 2^bits");
  }
  const std::uint64_t top = (std::uint64_t{1} << bits) - 1;
  const std::uint32_t codes_per_level = (1u << bits) / cdf.bins;
  EqualizeTable t{cdf.bins, bits, std::vector<std::uint32_t>(std::size_t{cdf.bins} * 4)};
  for (Channel ch : kAllChannels) {
    const std::uint32_t c = static_cast<std::uint32_t>(ch);
    const std::uint64_t total = cdf.total(ch);
    std::uint64_t first = 0;  // the smallest non-zero cumulative count
    for (std::uint32_t level = 0; level < cdf.bins && first == 0; ++level) first = cdf.at(ch, level);
    const std::uint64_t spread = total - first;
    for (std::uint32_t level = 0; level < cdf.bins; ++level) {
      std::uint64_t code;
      if (total == 0 || spread == 0) {
        code = std::uint64_t{level} * codes_per_level;  // nothing to spread: identity
      } else if (cdf.at(ch, level) < first) {
        code = 0;  // below the first level present
      } else {
        const std::uint64_t numerator = (cdf.at(ch, level) - first) * top;
        code = numerator / spread;
        if (2 * (numerator % spread) >= spread) ++code;  // halves up
      }
      t.codes[std::size_t{level} * 4 + c] = static_cast<std::uint32_t>(code);
    }
  }
  return t;
}

std::array<std::uint32_t, 3> equalize_pixel(const EqualizeTable& t, EqualizeMode mode, std::uint32_t r,
                                            std::uint32_t g, std::uint32_t b) {
  const auto level = [&](std::uint32_t v) { return shader::vhist_bin(v, t.levels, t.bits); };
  switch (mode) {
    case EqualizeMode::off: return {r, g, b};
    case EqualizeMode::channels:
      return {t.at(Channel::r, level(r)), t.at(Channel::g, level(g)), t.at(Channel::b, level(b))};
    case EqualizeMode::luma: {
      const std::uint32_t y = shader::vhist_luma(r, g, b);
      const std::uint32_t yeq = t.at(Channel::l, level(y));
      if (y == 0) return {yeq, yeq, yeq};
      const std::uint32_t top = (1u << t.bits) - 1, mx = std::max({r, g, b});
      const std::uint32_t gain = shader::vhist_luma_gain(y, yeq, mx, top);
      return {shader::vhist_apply_gain(r, gain), shader::vhist_apply_gain(g, gain), shader::vhist_apply_gain(b, gain)};
    }
  }
  return {r, g, b};
}

void reference_equalize(std::span<const std::byte> pixels, const FrameFormat& format, const EqualizeTable& table,
                        EqualizeMode mode, std::span<std::byte> out) {
  if (pixels.size() < format.byte_size() || out.size() < format.byte_size() || table.bits != format.bits) {
    throw std::invalid_argument("reference_equalize: buffer sizes or depth do not match the format");
  }
  const std::uint64_t n = format.pixel_count();
  if (format.packing == PixelPacking::rgba8) {
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint32_t w;
      std::memcpy(&w, pixels.data() + i * 4, 4);
      const auto e = equalize_pixel(table, mode, w & 0xffu, (w >> 8) & 0xffu, (w >> 16) & 0xffu);
      w = (w & 0xff000000u) | e[0] | (e[1] << 8) | (e[2] << 16);
      std::memcpy(out.data() + i * 4, &w, 4);
    }
    return;
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint32_t w[2];
    std::memcpy(w, pixels.data() + i * 8, 8);
    const auto e = equalize_pixel(table, mode, w[0] & 0xffffu, w[0] >> 16, w[1] & 0xffffu);
    w[0] = e[0] | (e[1] << 16);
    w[1] = (w[1] & 0xffff0000u) | e[2];
    std::memcpy(out.data() + i * 8, w, 8);
  }
}

}  // namespace vhist
