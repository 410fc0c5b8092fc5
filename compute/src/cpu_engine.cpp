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
  std::vector<std::uint16_t> bin_r, bin_g, bin_b, bin_l, bin_y, bin_m, bin_c;
};

// Where a thread's counts of its band lie in its one buffer: two copies of every table (even
// samples into the first, odd into the second, so that runs of equal bins do not wait on their
// own previous increment): the four R'G'B'L histograms, the three planes' (Y', Cb, Cr), the
// max(R', G', B') levels, then per plane the samples below and above the limited range.
struct BandLayout {
  std::uint32_t bins = 0, light_levels = 0;
  std::size_t planes = 0, light = 0, below = 0, above = 0, size = 0;
  BandLayout(std::uint32_t bin_count, const CpuEngine::Request& want, std::uint32_t bits) : bins(bin_count) {
    light_levels = want.light ? shader::vhist_light_levels(bits) : 0u;
    planes = want.levels ? 8 * std::size_t{bins} : 0;
    light = planes + (want.planes ? 6 * std::size_t{bins} : 0);
    below = light + 2 * std::size_t{light_levels};
    above = below + 3;
    size = above + 3;
  }
};

// The bins of a row of plane samples (codes of `bits` bits) and their count below `low` and
// above `high`: one branch-free loop, vectorized.
void plane_bins(const std::int32_t* __restrict codes, std::uint32_t n, std::uint32_t bins, std::uint32_t bits,
                std::uint32_t low, std::uint32_t high, std::uint16_t* __restrict out, std::uint32_t& below,
                std::uint32_t& above) {
  std::uint32_t lo = 0, hi = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::uint32_t>(codes[i]);
    out[i] = static_cast<std::uint16_t>(shader::vhist_bin(c, bins, bits));
    lo += c < low ? 1u : 0u;
    hi += c > high ? 1u : 0u;
  }
  below += lo;
  above += hi;
}

// Adds n bins to two copies of a table: even samples to t0, odd ones to t1.
void add_bins(const std::uint16_t* __restrict b, std::uint32_t n, std::uint32_t* __restrict t0,
              std::uint32_t* __restrict t1) {
  std::uint32_t i = 0;
  for (; i + 1 < n; i += 2) {
    ++t0[b[i]];
    ++t1[b[i + 1]];
  }
  if (i < n) ++t0[b[i]];
}

// One band's job: rows [y0, y1) of the frame, counted into `counts` (BandLayout), and the
// converted pixels of those rows into rgb_out when it is not null.
struct BandJob {
  const VideoFormat& f;
  const VideoPlanes& planes;
  const CpuEngine::Request& want;
  const BandLayout& layout;
  std::uint32_t y0, y1;
  std::uint32_t* counts;
  std::byte* rgb_out;
};

// Counts a row of plane `c`'s codes (already read into `codes`) into the band's plane tables.
void count_plane_row(const BandJob& j, std::uint32_t c, const std::int32_t* codes, std::uint32_t n,
                     std::uint16_t* bins_out) {
  const std::uint32_t bins = j.layout.bins, bits = j.f.bits;
  std::uint32_t* tables = j.counts + j.layout.planes;
  plane_bins(codes, n, bins, bits, shader::vhist_limited_low(bits), shader::vhist_limited_high(bits, c != 0), bins_out,
             j.counts[j.layout.below + c], j.counts[j.layout.above + c]);
  add_bins(bins_out, n, tables + std::size_t{c} * bins, tables + std::size_t{3 + c} * bins);
}

// Whether luma row y is the first of those sharing its chroma row (which it then counts).
bool owns_chroma_row(const VideoFormat& f, std::uint32_t y) { return f.chroma_shift_y == 0 || (y & 1u) == 0; }

// Chroma of one component for luma row y, upsampled and x8, into out[0..width). Equal to
// vhist_chroma8(vhist_chroma_h(near...), vhist_chroma_h(far...)): both steps are linear in the
// samples, so the vertical weights are applied first, once per chroma sample. Counts the nearer
// row's samples into the plane tables when asked and row y owns it.
template <typename Sample>
void chroma_row(const BandJob& j, std::uint32_t c, std::uint32_t y, RowScratch& s, std::int32_t* out) {
  const VideoFormat& f = j.f;
  const ComponentLayout& comp = f.components[c];
  const std::uint32_t mask = (1u << f.bits) - 1u;
  const std::uint32_t cw = f.chroma_width(), ch = f.chroma_height();
  const std::uint32_t sx = f.chroma_shift_x, sy = f.chroma_shift_y;
  const auto row_ptr = [&](std::uint32_t row) {
    return j.planes.data[comp.plane] + std::size_t{row} * j.planes.stride[comp.plane];
  };
  std::int32_t* v = s.near.data();
  read_row<Sample>(row_ptr(y >> sy), comp.offset, comp.step, comp.shift, mask, cw, v);
  if (j.want.planes && owns_chroma_row(f, y)) count_plane_row(j, c, v, cw, s.bin_c.data());
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

// Bins of a row of R'G'B' pixels: vhist_bin of R', G', B' and their luma, and with Light the
// level of max(R', G', B'). One branch-free loop per colour model, so that the compiler
// vectorizes each.
template <PixelOut Out, bool Light>
void bins_row(const std::int32_t* __restrict yv, const std::int32_t* __restrict u, const std::int32_t* __restrict v,
              std::uint32_t w, const ConversionCoefficients& k, ColourModel model, bool full, std::uint32_t bins,
              std::uint32_t bits, std::uint32_t light_levels, RowScratch& s, std::uint32_t* __restrict out) {
  std::uint16_t* __restrict br = s.bin_r.data();
  std::uint16_t* __restrict bg = s.bin_g.data();
  std::uint16_t* __restrict bb = s.bin_b.data();
  std::uint16_t* __restrict bl = s.bin_l.data();
  std::uint16_t* __restrict bm = s.bin_m.data();
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
    if constexpr (Light) {
      const std::uint32_t m = std::max(r, std::max(g, b));
      bm[x] = static_cast<std::uint16_t>(shader::vhist_bin(m, light_levels, bits));
    }
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

// Bins and converted pixels of row y, as the request asks.
template <bool Light>
void bins_of_row(const BandJob& j, std::uint32_t y, const ConversionCoefficients& k, RowScratch& s) {
  const VideoFormat& f = j.f;
  const std::uint32_t w = f.width, bins = j.layout.bins, levels = j.layout.light_levels;
  const bool full = f.range == ColourRange::full;
  const std::int32_t *yv = s.y.data(), *u = s.cb8.data(), *v = s.cr8.data();
  if (j.rgb_out == nullptr) {
    bins_row<PixelOut::none, Light>(yv, u, v, w, k, f.model, full, bins, f.bits, levels, s, nullptr);
    return;
  }
  // Tightly packed rows, as converted_format() says: 4 or 8 bytes per pixel.
  const std::size_t row_bytes = std::size_t{w} * (f.bits == 8 ? 4u : 8u);
  auto* row = reinterpret_cast<std::uint32_t*>(j.rgb_out + std::size_t{y} * row_bytes);
  if (f.bits == 8) {
    bins_row<PixelOut::rgba8, Light>(yv, u, v, w, k, f.model, full, bins, f.bits, levels, s, row);
  } else {
    bins_row<PixelOut::rgba16, Light>(yv, u, v, w, k, f.model, full, bins, f.bits, levels, s, row);
  }
}

// The band's tables as named pointers, not arrays of them: the increment loop then keeps them
// all in registers.
struct Tables {
  std::uint32_t *r0, *g0, *b0, *l0, *r1, *g1, *b1, *l1;  // R'G'B'L, two copies
  std::uint32_t *y0, *y1, *m0, *m1;                      // Y' plane and max(R', G', B') levels
  Tables(const BandJob& j) {
    const std::size_t bins = j.layout.bins;
    std::uint32_t* c = j.counts;
    r0 = c, g0 = c + bins, b0 = c + 2 * bins, l0 = c + 3 * bins;
    r1 = c + 4 * bins, g1 = c + 5 * bins, b1 = c + 6 * bins, l1 = c + 7 * bins;
    y0 = c + j.layout.planes, y1 = y0 + 3 * bins;
    m0 = c + j.layout.light, m1 = m0 + j.layout.light_levels;
  }
};

// Adds a row's bins: R', G', B', luma, and with Y the Y' plane's, with M the light levels.
template <bool Y, bool M>
void count_row(const Tables& t, const RowScratch& s, std::uint32_t w) {
  std::uint32_t *__restrict r0 = t.r0, *__restrict g0 = t.g0, *__restrict b0 = t.b0, *__restrict l0 = t.l0;
  std::uint32_t *__restrict r1 = t.r1, *__restrict g1 = t.g1, *__restrict b1 = t.b1, *__restrict l1 = t.l1;
  std::uint32_t *__restrict y0 = t.y0, *__restrict y1 = t.y1, *__restrict m0 = t.m0, *__restrict m1 = t.m1;
  const std::uint16_t *__restrict br = s.bin_r.data(), *__restrict bg = s.bin_g.data();
  const std::uint16_t *__restrict bb = s.bin_b.data(), *__restrict bl = s.bin_l.data();
  const std::uint16_t *__restrict by = s.bin_y.data(), *__restrict bm = s.bin_m.data();
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
    if constexpr (Y) {
      ++y0[by[x]];
      ++y1[by[x + 1]];
    }
    if constexpr (M) {
      ++m0[bm[x]];
      ++m1[bm[x + 1]];
    }
  }
  if (x < w) {
    ++r0[br[x]];
    ++g0[bg[x]];
    ++b0[bb[x]];
    ++l0[bl[x]];
    if constexpr (Y) ++y0[by[x]];
    if constexpr (M) ++m0[bm[x]];
  }
}

// Reads row y's components into s.y, s.cb8 and s.cr8 (chroma upsampled, x8), counting the
// Y'CbCr planes' samples as it reads when asked; with Y the Y' plane's bins are left in s.bin_y
// for count_row.
template <typename Sample>
void read_components(const BandJob& j, std::uint32_t y, RowScratch& s) {
  const VideoFormat& f = j.f;
  const std::uint32_t w = f.width, mask = (1u << f.bits) - 1u;
  const auto component_row = [&](std::uint32_t c, std::int32_t* out) {
    const ComponentLayout& comp = f.components[c];
    read_row<Sample>(j.planes.data[comp.plane] + std::size_t{y} * j.planes.stride[comp.plane], comp.offset, comp.step,
                     comp.shift, mask, w, out);
  };
  component_row(0, s.y.data());
  if (f.model == ColourModel::rgb) {
    component_row(1, s.cb8.data());
    component_row(2, s.cr8.data());
    return;
  }
  if (j.want.planes) {
    const std::uint32_t bits = f.bits;
    plane_bins(s.y.data(), w, j.layout.bins, bits, shader::vhist_limited_low(bits), shader::vhist_limited_high(bits, false),
               s.bin_y.data(), j.counts[j.layout.below], j.counts[j.layout.above]);
  }
  if (f.model == ColourModel::yuv) {
    chroma_row<Sample>(j, 1, y, s, s.cb8.data());
    chroma_row<Sample>(j, 2, y, s, s.cr8.data());
  }
}

// The planes alone (CpuEngine::planes): each row's samples read and counted, no conversion.
template <typename Sample>
void plane_rows(const BandJob& j, RowScratch& s) {
  const VideoFormat& f = j.f;
  const std::uint32_t mask = (1u << f.bits) - 1u;
  for (std::uint32_t y = j.y0; y < j.y1; ++y) {
    for (std::uint32_t c = 0; c < plane_components(f); ++c) {
      if (c != 0 && !owns_chroma_row(f, y)) break;
      const ComponentLayout& comp = f.components[c];
      const std::uint32_t row = c == 0 ? y : y >> f.chroma_shift_y;
      const std::uint32_t n = c == 0 ? f.width : f.chroma_width();
      read_row<Sample>(j.planes.data[comp.plane] + std::size_t{row} * j.planes.stride[comp.plane], comp.offset,
                       comp.step, comp.shift, mask, n, s.y.data());
      count_plane_row(j, c, s.y.data(), n, s.bin_c.data());
    }
  }
}

// Converts and counts rows [y0, y1) as the request asks (BandLayout says where).
template <typename Sample>
void band_rows(const BandJob& j) {
  const VideoFormat& f = j.f;
  const std::uint32_t w = f.width;
  RowScratch s;
  for (auto* row : {&s.y, &s.cb8, &s.cr8}) row->resize(w);
  s.near.resize(f.chroma_width() + 1);
  s.far.resize(f.chroma_width() + 1);
  for (auto* row : {&s.bin_r, &s.bin_g, &s.bin_b, &s.bin_l, &s.bin_y, &s.bin_m, &s.bin_c}) row->resize(w + 1);
  if (!j.want.levels) {
    plane_rows<Sample>(j, s);
    return;
  }
  const ConversionCoefficients k = conversion_coefficients(f.matrix, f.range, f.bits);
  const Tables t(j);
  const bool count_y = j.want.planes && f.model != ColourModel::rgb;
  for (std::uint32_t y = j.y0; y < j.y1; ++y) {
    read_components<Sample>(j, y, s);
    if (j.want.light) {
      bins_of_row<true>(j, y, k, s);
      count_y ? count_row<true, true>(t, s, w) : count_row<false, true>(t, s, w);
    } else {
      bins_of_row<false>(j, y, k, s);
      count_y ? count_row<true, false>(t, s, w) : count_row<false, false>(t, s, w);
    }
  }
}

// One band of rows. Compiled twice, for AVX2 and for baseline x86-64, and chosen at load time
// (GCC's target_clones): the row loops above vectorize 8 pixels wide with AVX2.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default"), flatten))
#endif
void count_band(const BandJob& j) {
  if (j.f.sample_bytes == 1) {
    band_rows<std::uint8_t>(j);
  } else {
    band_rows<std::uint16_t>(j);
  }
}

// The threads' bands added up.
CpuEngine::Counts merge_bands(const std::vector<std::vector<std::uint32_t>>& partial, const BandLayout& layout,
                              const CpuEngine::Request& want) {
  const std::uint32_t bins = layout.bins;
  CpuEngine::Counts out;
  if (want.levels) out.levels = Histogram(bins);
  if (want.planes) out.planes = PlaneCounts{Histogram(bins), {}, {}};
  out.light.assign(layout.light_levels, 0u);
  for (const auto& counts : partial) {
    for (std::uint32_t b = 0; want.levels && b < bins; ++b) {
      for (std::uint32_t ch = 0; ch < 4; ++ch) {
        out.levels.counts[std::size_t{b} * 4 + ch] += counts[ch * bins + b] + counts[(4 + ch) * bins + b];
      }
    }
    for (std::uint32_t c = 0; want.planes && c < 3; ++c) {
      const auto slot = static_cast<Channel>(shader::vhist_plane_slot(c));
      const std::uint32_t* p = counts.data() + layout.planes;
      for (std::uint32_t b = 0; b < bins; ++b) out.planes->histogram.at(slot, b) += p[c * bins + b] + p[(3 + c) * bins + b];
      out.planes->below[static_cast<std::uint32_t>(slot)] += counts[layout.below + c];
      out.planes->above[static_cast<std::uint32_t>(slot)] += counts[layout.above + c];
    }
    for (std::uint32_t k = 0; k < layout.light_levels; ++k) {
      out.light[k] += counts[layout.light + k] + counts[layout.light + layout.light_levels + k];
    }
  }
  return out;
}

}  // namespace

CpuEngine::CpuEngine(unsigned threads) : pool_(threads), partial_(pool_.size()) {}

Histogram CpuEngine::histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) {
  return std::move(count(format, planes, bins, Request{}).levels);
}

Histogram CpuEngine::convert_and_histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins,
                                           std::byte* rgb_out) {
  return std::move(count(format, planes, bins, Request{}, rgb_out).levels);
}

PlaneCounts CpuEngine::planes(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) {
  return std::move(*count(format, planes, bins, Request{false, true, false}).planes);
}

CpuEngine::Counts CpuEngine::count(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins,
                                   const Request& want, std::byte* rgb_out) {
  if (auto err = check_video_format(format); !err.empty()) throw std::invalid_argument(err);
  if (auto err = check_bins(bins, format.bits); !err.empty()) throw std::invalid_argument(err);
  if (want.planes && !has_planes(format)) throw std::invalid_argument("an R'G'B' frame has no Y'CbCr planes");
  if (!want.levels && (want.light || rgb_out != nullptr)) {
    throw std::invalid_argument("the light levels and converted pixels come with the R'G'B' histograms");
  }
  const BandLayout layout(bins, want, format.bits);
  const unsigned n = threads();
  const std::uint32_t rows_per_band = (format.height + n - 1) / n;
  const std::function<void(unsigned)> job = [&](unsigned i) {
    auto& counts = partial_[i];
    counts.assign(layout.size, 0u);
    const std::uint32_t y0 = std::min(format.height, i * rows_per_band);
    const std::uint32_t y1 = std::min(format.height, y0 + rows_per_band);
    count_band(BandJob{format, planes, want, layout, y0, y1, counts.data(), rgb_out});
  };
  pool_.run(job);
  return merge_bands(partial_, layout, want);
}

}  // namespace vhist
