#include "vhist/compute/cpu_engine.h"

#include "vhist/colour_shared.h"
#include "vhist/compute/colour.h"

#include <algorithm>
#include <stdexcept>

namespace vhist {

namespace {

// Reads `count` samples of one component along a row, `step` bytes apart, into `out`.
template <typename Sample>
void read_row(const std::byte* row, std::uint32_t offset, std::uint32_t step, std::uint32_t shift, std::uint32_t mask,
              std::uint32_t count, std::int32_t* out) {
  const std::byte* p = row + offset;
  if (step == sizeof(Sample) && shift == 0) {  // planar: a plain, vectorizable copy
    for (std::uint32_t i = 0; i < count; ++i) {
      Sample v;
      __builtin_memcpy(&v, p + i * sizeof(Sample), sizeof v);
      out[i] = static_cast<std::int32_t>(v & mask);
    }
    return;
  }
  for (std::uint32_t i = 0; i < count; ++i, p += step) {
    Sample v;
    __builtin_memcpy(&v, p, sizeof v);
    out[i] = static_cast<std::int32_t>((static_cast<std::uint32_t>(v) >> shift) & mask);
  }
}

struct RowScratch {
  std::vector<std::int32_t> y, cb8, cr8, near, far;
  std::vector<std::uint16_t> bin_r, bin_g, bin_b, bin_l;
};

// Chroma of one component for luma row y, upsampled and x8, into out[0..width). Equal to
// vhist_chroma8(vhist_chroma_h(near...), vhist_chroma_h(far...)): both steps are linear in the
// samples, so the vertical weights are applied first, once per chroma sample.
template <typename Sample>
void chroma_row(const VideoFormat& f, const VideoPlanes& planes, std::uint32_t c, std::uint32_t y, RowScratch& s,
                std::int32_t* out) {
  const ComponentLayout& comp = f.components[c];
  const std::uint32_t mask = (1u << f.bits) - 1u;
  const std::uint32_t cw = f.chroma_width(), ch = f.chroma_height();
  const std::uint32_t sx = f.chroma_shift_x, sy = f.chroma_shift_y;
  const auto row_ptr = [&](std::uint32_t row) { return planes.data[comp.plane] + std::size_t{row} * planes.stride[comp.plane]; };
  std::int32_t* v = s.near.data();
  read_row<Sample>(row_ptr(y >> sy), comp.offset, comp.step, comp.shift, mask, cw, v);
  if (sy != 0) {
    std::int32_t* fa = s.far.data();
    read_row<Sample>(row_ptr(shader::vhist_chroma_far_row(y, ch)), comp.offset, comp.step, comp.shift, mask, cw, fa);
    for (std::uint32_t i = 0; i < cw; ++i) v[i] = 3 * v[i] + fa[i];
  } else {
    for (std::uint32_t i = 0; i < cw; ++i) v[i] = 4 * v[i];
  }
  if (sx == 0) {
    for (std::uint32_t x = 0; x < f.width; ++x) out[x] = 2 * v[x];
    return;
  }
  const std::uint32_t pairs = f.width / 2;
  for (std::uint32_t i = 0; i < pairs; ++i) {
    const std::int32_t next = i + 1 < cw ? v[i + 1] : v[i];
    out[2 * i] = 2 * v[i];
    out[2 * i + 1] = v[i] + next;
  }
  if (f.width % 2 != 0) out[f.width - 1] = 2 * v[pairs];
}

// What a row pass also writes: nothing, or the converted pixels as rgba8 or rgba16 words (the
// GPU convert pass's output format).
enum class PixelOut { none, rgba8, rgba16 };

// Bins of a row of R'G'B' pixels: vhist_bin of R', G', B' and their luma. One branch-free loop
// per colour model, so that the compiler vectorizes each.
template <PixelOut Out>
void bins_row(const std::int32_t* __restrict yv, const std::int32_t* __restrict u, const std::int32_t* __restrict v,
              std::uint32_t w, const ConversionCoefficients& k, ColourModel model, bool full, std::uint32_t bins,
              std::uint32_t bits, RowScratch& s, std::uint32_t* __restrict out) {
  std::uint16_t* __restrict br = s.bin_r.data();
  std::uint16_t* __restrict bg = s.bin_g.data();
  std::uint16_t* __restrict bb = s.bin_b.data();
  std::uint16_t* __restrict bl = s.bin_l.data();
  const std::uint32_t alpha = (1u << bits) - 1u;
  const auto store = [&](std::uint32_t x, std::uint32_t r, std::uint32_t g, std::uint32_t b) {
    if constexpr (Out == PixelOut::rgba8) {
      out[x] = r | (g << 8) | (b << 16) | 0xff000000u;
    } else if constexpr (Out == PixelOut::rgba16) {
      out[2 * x] = r | (g << 16);
      out[2 * x + 1] = b | (alpha << 16);
    }
    br[x] = static_cast<std::uint16_t>(shader::vhist_bin(r, bins, bits));
    bg[x] = static_cast<std::uint16_t>(shader::vhist_bin(g, bins, bits));
    bb[x] = static_cast<std::uint16_t>(shader::vhist_bin(b, bins, bits));
    bl[x] = static_cast<std::uint16_t>(shader::vhist_bin(shader::vhist_luma(r, g, b), bins, bits));
  };
  const int cy = k.cy, crv = k.crv, cgu = k.cgu, cgv = k.cgv, cbu = k.cbu, yoff = k.yoff, coff8 = k.coff8;
  const int shift = k.shift, max_code = k.max_code;
  if (model == ColourModel::yuv) {
    for (std::uint32_t x = 0; x < w; ++x) {
      const int y = yv[x], cb = u[x], cr = v[x];
      store(x, shader::vhist_yuv_component(y, cb, cr, cy, 0, crv, yoff, coff8, shift, max_code),
            shader::vhist_yuv_component(y, cb, cr, cy, -cgu, -cgv, yoff, coff8, shift, max_code),
            shader::vhist_yuv_component(y, cb, cr, cy, cbu, 0, yoff, coff8, shift, max_code));
    }
  } else if (model == ColourModel::rgb) {
    for (std::uint32_t x = 0; x < w; ++x) {
      store(x, static_cast<std::uint32_t>(yv[x]), static_cast<std::uint32_t>(u[x]), static_cast<std::uint32_t>(v[x]));
    }
  } else if (full) {
    for (std::uint32_t x = 0; x < w; ++x) {
      const auto g = static_cast<std::uint32_t>(yv[x]);
      store(x, g, g, g);
    }
  } else {
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint32_t g = shader::vhist_yuv_component(yv[x], 0, 0, cy, 0, 0, yoff, 0, shift, max_code);
      store(x, g, g, g);
    }
  }
}

// Converts rows [y0, y1) and counts them into counts[(copy * 4 + channel) * bins + bin]: two
// copies of the four histograms, even pixels into one and odd into the other, so that runs of
// equal bins do not wait on their own previous increment.
template <typename Sample>
void histogram_rows(const VideoFormat& f, const VideoPlanes& planes, std::uint32_t bins, std::uint32_t y0,
                    std::uint32_t y1, std::uint32_t* counts, std::byte* rgb_out) {
  const std::uint32_t w = f.width;
  RowScratch s;
  for (auto* row : {&s.y, &s.cb8, &s.cr8}) row->resize(w);
  s.near.resize(f.chroma_width() + 1);
  s.far.resize(f.chroma_width() + 1);
  for (auto* row : {&s.bin_r, &s.bin_g, &s.bin_b, &s.bin_l}) row->resize(w + 1);
  const ConversionCoefficients k = conversion_coefficients(f.matrix, f.range, f.bits);
  const std::uint32_t mask = (1u << f.bits) - 1u;
  const bool full = f.range == ColourRange::full;
  // Named pointers, not arrays of them: the increment loop then keeps all eight in registers.
  std::uint32_t* __restrict r0 = counts;
  std::uint32_t* __restrict g0 = counts + bins;
  std::uint32_t* __restrict b0 = counts + 2 * std::size_t{bins};
  std::uint32_t* __restrict l0 = counts + 3 * std::size_t{bins};
  std::uint32_t* __restrict r1 = counts + 4 * std::size_t{bins};
  std::uint32_t* __restrict g1 = counts + 5 * std::size_t{bins};
  std::uint32_t* __restrict b1 = counts + 6 * std::size_t{bins};
  std::uint32_t* __restrict l1 = counts + 7 * std::size_t{bins};
  for (std::uint32_t y = y0; y < y1; ++y) {
    const auto component_row = [&](std::uint32_t c, std::int32_t* out) {
      const ComponentLayout& comp = f.components[c];
      read_row<Sample>(planes.data[comp.plane] + std::size_t{y} * planes.stride[comp.plane], comp.offset, comp.step,
                       comp.shift, mask, w, out);
    };
    component_row(0, s.y.data());
    if (f.model == ColourModel::rgb) {
      component_row(1, s.cb8.data());
      component_row(2, s.cr8.data());
    } else if (f.model == ColourModel::yuv) {
      chroma_row<Sample>(f, planes, 1, y, s, s.cb8.data());
      chroma_row<Sample>(f, planes, 2, y, s, s.cr8.data());
    }
    if (rgb_out == nullptr) {
      bins_row<PixelOut::none>(s.y.data(), s.cb8.data(), s.cr8.data(), w, k, f.model, full, bins, f.bits, s, nullptr);
    } else {
      // Tightly packed rows, as converted_format() says: 4 or 8 bytes per pixel.
      const std::size_t row_bytes = std::size_t{w} * (f.bits == 8 ? 4u : 8u);
      auto* row = reinterpret_cast<std::uint32_t*>(rgb_out + std::size_t{y} * row_bytes);
      if (f.bits == 8) {
        bins_row<PixelOut::rgba8>(s.y.data(), s.cb8.data(), s.cr8.data(), w, k, f.model, full, bins, f.bits, s, row);
      } else {
        bins_row<PixelOut::rgba16>(s.y.data(), s.cb8.data(), s.cr8.data(), w, k, f.model, full, bins, f.bits, s, row);
      }
    }
    const std::uint16_t* __restrict br = s.bin_r.data();
    const std::uint16_t* __restrict bg = s.bin_g.data();
    const std::uint16_t* __restrict bb = s.bin_b.data();
    const std::uint16_t* __restrict bl = s.bin_l.data();
    std::uint32_t x = 0;
    for (; x + 1 < w; x += 2) {
      ++r0[br[x]];
      ++g0[bg[x]];
      ++b0[bb[x]];
      ++l0[bl[x]];
      ++r1[br[x + 1]];
      ++g1[bg[x + 1]];
      ++b1[bb[x + 1]];
      ++l1[bl[x + 1]];
    }
    if (x < w) {
      ++r0[br[x]];
      ++g0[bg[x]];
      ++b0[bb[x]];
      ++l0[bl[x]];
    }
  }
}

// One band of rows. Compiled twice, for AVX2 and for baseline x86-64, and chosen at load time
// (GCC's target_clones): the row loops above vectorize 8 pixels wide with AVX2.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default"), flatten))
#endif
void histogram_band(const VideoFormat& f, const VideoPlanes& planes, std::uint32_t bins, std::uint32_t y0,
                    std::uint32_t y1, std::uint32_t* counts, std::byte* rgb_out) {
  if (f.sample_bytes == 1) {
    histogram_rows<std::uint8_t>(f, planes, bins, y0, y1, counts, rgb_out);
  } else {
    histogram_rows<std::uint16_t>(f, planes, bins, y0, y1, counts, rgb_out);
  }
}

}  // namespace

CpuEngine::CpuEngine(unsigned threads) : pool_(threads), partial_(pool_.size()) {}

Histogram CpuEngine::histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) {
  return convert_and_histogram(format, planes, bins, nullptr);
}

Histogram CpuEngine::convert_and_histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins,
                                           std::byte* rgb_out) {
  if (auto err = check_video_format(format); !err.empty()) throw std::invalid_argument(err);
  if (auto err = check_bins(bins, format.bits); !err.empty()) throw std::invalid_argument(err);
  const unsigned n = threads();
  const std::uint32_t rows_per_band = (format.height + n - 1) / n;
  const std::function<void(unsigned)> job = [&](unsigned i) {
    auto& counts = partial_[i];
    counts.assign(std::size_t{bins} * 8, 0u);
    const std::uint32_t y0 = std::min(format.height, i * rows_per_band);
    const std::uint32_t y1 = std::min(format.height, y0 + rows_per_band);
    histogram_band(format, planes, bins, y0, y1, counts.data(), rgb_out);
  };
  pool_.run(job);
  Histogram out(bins);
  for (const auto& counts : partial_) {
    for (std::uint32_t ch = 0; ch < 4; ++ch) {
      for (std::uint32_t b = 0; b < bins; ++b) {
        out.counts[std::size_t{b} * 4 + ch] += counts[std::size_t{ch} * bins + b] + counts[std::size_t{4 + ch} * bins + b];
      }
    }
  }
  return out;
}

PlaneCounts CpuEngine::planes(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) {
  if (!has_planes(format)) throw std::invalid_argument("an R'G'B' frame has no Y'CbCr planes");
  if (auto err = check_bins(bins, format.bits); !err.empty()) throw std::invalid_argument(err);
  const unsigned n = threads();
  std::vector<PlaneCounts> parts(n, PlaneCounts{Histogram(bins), {}, {}});
  pool_.run([&](unsigned i) {
    for (std::uint32_t c = 0; c < plane_components(format); ++c) {
      const std::uint32_t rows = c == 0 ? format.height : format.chroma_height();
      const std::uint32_t per_band = (rows + n - 1) / n;
      const std::uint32_t y0 = std::min(rows, i * per_band);
      count_plane_rows(format, planes, c, y0, std::min(rows, y0 + per_band), parts[i]);
    }
  });
  PlaneCounts out{Histogram(bins), {}, {}};
  for (const PlaneCounts& part : parts) {
    for (std::size_t k = 0; k < out.histogram.counts.size(); ++k) out.histogram.counts[k] += part.histogram.counts[k];
    for (std::size_t k = 0; k < 4; ++k) {
      out.below[k] += part.below[k];
      out.above[k] += part.above[k];
    }
  }
  return out;
}

}  // namespace vhist
