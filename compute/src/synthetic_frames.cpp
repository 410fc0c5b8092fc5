#include "vhist/compute/synthetic_frames.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace vhist {
namespace {

// xorshift32: fast, deterministic, good enough for test content.
struct Rng {
  std::uint32_t state;
  std::uint32_t next() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  }
};

void store(std::vector<std::byte>& out, const FrameFormat& f, std::uint64_t i, std::uint32_t r, std::uint32_t g,
           std::uint32_t b, std::uint32_t a) {
  if (f.packing == PixelPacking::rgba8) {
    const std::uint8_t p[4] = {static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g), static_cast<std::uint8_t>(b),
                               static_cast<std::uint8_t>(a)};
    std::memcpy(out.data() + i * 4, p, 4);
  } else {
    const std::uint16_t p[4] = {static_cast<std::uint16_t>(r), static_cast<std::uint16_t>(g),
                                static_cast<std::uint16_t>(b), static_cast<std::uint16_t>(a)};
    std::memcpy(out.data() + i * 8, p, 8);  // little-endian host, as the GPU reads it
  }
}

}  // namespace

std::string_view content_name(Content c) {
  switch (c) {
    case Content::natural: return "natural";
    case Content::random: return "random";
    case Content::solid: return "solid";
    case Content::checker: return "checker";
  }
  return "?";
}

bool parse_content(std::string_view name, Content& out) {
  for (Content c : kAllContents) {
    if (content_name(c) == name) {
      out = c;
      return true;
    }
  }
  return false;
}

std::vector<std::byte> make_frame(const FrameFormat& f, Content content, std::uint32_t seed) {
  std::vector<std::byte> out(f.byte_size());
  const std::uint32_t max_code = (1u << f.bits) - 1u;
  Rng rng{seed * 2654435761u + 12345u};
  const std::uint64_t n = f.pixel_count();
  switch (content) {
    case Content::random:
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint32_t a = rng.next(), b = rng.next();
        if (f.packing == PixelPacking::rgba8) {
          std::memcpy(out.data() + i * 4, &a, 4);
        } else {
          // Uniform codes of `bits` bits in each field (alpha too).
          store(out, f, i, a & max_code, (a >> 16) & max_code, b & max_code, (b >> 16) & max_code);
        }
      }
      break;
    case Content::solid:
      for (std::uint64_t i = 0; i < n; ++i) {
        store(out, f, i, max_code * 200 / 255, max_code * 120 / 255, max_code * 40 / 255, max_code);
      }
      break;
    case Content::checker:
      for (std::uint32_t y = 0; y < f.height; ++y) {
        for (std::uint32_t x = 0; x < f.width; ++x) {
          const bool odd = ((x + y) & 1u) != 0;
          const std::uint64_t i = std::uint64_t{y} * f.width + x;
          if (odd) {
            store(out, f, i, max_code * 230 / 255, max_code * 30 / 255, max_code * 90 / 255, max_code);
          } else {
            store(out, f, i, max_code * 20 / 255, max_code * 180 / 255, max_code * 250 / 255, max_code);
          }
        }
      }
      break;
    case Content::natural: {
      // Three soft gradients (horizontal, vertical, radial) plus +-3% noise: most neighbours
      // fall in the same or adjacent bins, as in real footage.
      const double w = std::max(1u, f.width - 1), h = std::max(1u, f.height - 1);
      const std::int32_t noise = static_cast<std::int32_t>(std::max(1u, max_code / 32));
      for (std::uint32_t y = 0; y < f.height; ++y) {
        for (std::uint32_t x = 0; x < f.width; ++x) {
          const double u = x / w, v = y / h;
          const double dx = u - 0.4, dy = v - 0.6;
          const double base[3] = {0.15 + 0.7 * u * (1.0 - 0.3 * v), 0.2 + 0.6 * v * v,
                                  0.5 + 0.4 * std::cos(6.0 * std::sqrt(dx * dx + dy * dy))};
          std::uint32_t c[3];
          for (int k = 0; k < 3; ++k) {
            const std::int32_t jitter = static_cast<std::int32_t>(rng.next() % (2u * noise + 1)) - noise;
            const std::int32_t value = static_cast<std::int32_t>(base[k] * max_code) + jitter;
            c[k] = static_cast<std::uint32_t>(std::clamp<std::int32_t>(value, 0, static_cast<std::int32_t>(max_code)));
          }
          store(out, f, std::uint64_t{y} * f.width + x, c[0], c[1], c[2], max_code);
        }
      }
      break;
    }
  }
  return out;
}

}  // namespace vhist
