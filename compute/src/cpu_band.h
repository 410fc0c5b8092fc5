// One band of a frame's rows through the CPU engine (CpuEngine::count): reading, converting and
// counting as the request asks. The templates are here so that the band's entry points, each
// compiled for three instruction sets (target_clones), can sit in files of their own
// (cpu_band_*.cpp), which the build compiles side by side: in one file they took over four
// minutes of one core. Included by those files and cpu_engine.cpp alone.
#pragma once

#include "cpu_engine_layout.h"
#include "cpu_engine_rows.h"
#include "vhist/colour_shared.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/hlg_light.h"
#include "vhist/hlg_light_shared.h"
#include "vhist/measures_shared.h"

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t, for a state on the stack
#include <xxhash.h>

#include <algorithm>

namespace vhist::cpu_bands {

// Rows in a band of work (CpuEngine::count): 34 bands of a 1080p frame, 68 of a 4K one.
constexpr std::uint32_t kBandRows = 32;

// One band's job: rows [y0, y1) of the frame, counted into `counts` (BandLayout), and the
// converted pixels of those rows into rgb_out when it is not null, their checksum into *hash
// when it is not null.
struct BandJob {
  const VideoFormat& f;
  const VideoPlanes& planes;
  const CpuEngine::Request& want;
  const BandLayout& layout;
  std::uint32_t y0, y1;
  std::uint32_t* counts;
  std::uint32_t* pairs;  // with layout.paired: the thread's pair tables
  std::byte* rgb_out;
  std::uint64_t* hash;
};

// Adds the bytes of luma row y's rows of each plane to `state`: the bytes that hold samples
// (plane_row_bytes), not the padding; a vertically subsampled plane's row with the first luma
// row that takes it.
inline void hash_row(const BandJob& j, std::uint32_t y, XXH3_state_t& state) {
  const VideoFormat& f = j.f;
  for (std::uint32_t p = 0; p < f.plane_count; ++p) {
    const std::uint32_t sy = f.plane_rows(p) < f.height ? f.chroma_shift_y : 0u;
    if ((y & ((1u << sy) - 1u)) != 0) continue;
    const std::byte* row = j.planes.data[p] + std::size_t{y >> sy} * j.planes.stride[p];
    XXH3_64bits_update(&state, row, f.plane_row_bytes(p));
  }
}

// Counts a row of plane `c`'s codes (already read into `codes`) into the band's plane tables.
inline void count_plane_row(const BandJob& j, std::uint32_t c, const std::int32_t* codes, std::uint32_t n,
                     std::uint16_t* bins_out) {
  const BandLayout& l = j.layout;
  const std::uint32_t bits = j.f.bits;
  plane_bins(codes, n, l.bin_shift, l.planes + c * l.bins, l.copies, 3 * l.bins, shader::vhist_limited_low(bits),
             shader::vhist_limited_high(bits, c != 0), bins_out, j.counts[l.below + c], j.counts[l.above + c]);
  add_bins(bins_out, n, j.counts);
}

// Counts a row of chroma plane c's codes (c 1 or 2): into the plane tables, or with
// Request::chroma off only the samples outside the limited range (plane_bins without the bins).
inline void count_chroma_row(const BandJob& j, std::uint32_t c, const std::int32_t* __restrict codes, std::uint32_t n,
                      std::uint16_t* bins_out) {
  if (j.want.chroma) return count_plane_row(j, c, codes, n, bins_out);
  count_outside(codes, n, shader::vhist_limited_low(j.f.bits), shader::vhist_limited_high(j.f.bits, true),
                j.counts[j.layout.below + c], j.counts[j.layout.above + c]);
}

// Whether luma row y is the first of those sharing its chroma row (which it then counts).
inline bool owns_chroma_row(const VideoFormat& f, std::uint32_t y) { return f.chroma_shift_y == 0 || (y & 1u) == 0; }

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
  if (j.want.planes && owns_chroma_row(f, y)) count_chroma_row(j, c, v, cw, s.bin_c.data());
  if (sy != 0 && sx != 0) {  // 4:2:0: both weightings in one loop
    std::int32_t* fa = s.far.data();
    read_row<Sample>(row_ptr(shader::vhist_chroma_far_row(y, ch)), comp.offset, comp.step, comp.shift, mask, cw, fa);
    upsample_420(v, fa, cw, f.width, out);
    return;
  }
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
  // The last column's neighbour is itself: set once, so that the loop has no condition (with
  // `i + 1 < cw ? v[i + 1] : v[i]` in it, a 1080p frame's counts took 7 % more CPU time).
  v[cw] = v[cw - 1];
  const std::uint32_t pairs = f.width / 2;
  for (std::uint32_t i = 0; i < pairs; ++i) {
    out[2 * i] = 2 * v[i];
    out[2 * i + 1] = v[i] + v[i + 1];
  }
  if (f.width % 2 != 0) out[f.width - 1] = 2 * v[pairs];
}

// What a row pass also writes: nothing, or the converted pixels as rgba8 or rgba16 words (the
// GPU convert pass's output format).
enum class PixelOut { none, rgba8, rgba16 };

// What a row pass counts as each pixel's light: nothing, max(R', G', B'), or HLG's level
// (hlg_light_shared.h's integer steps).
enum class LightOf { none, max_rgb, hlg };

// The light level (LightOf) of a pixel: max(R', G', B') at the layout's levels, or HLG's level.
template <LightOf Light>
inline std::uint32_t light_level(const BandLayout& l, std::uint32_t r, std::uint32_t g, std::uint32_t b, std::uint32_t bits) {
  if constexpr (Light == LightOf::hlg) return shader::vhist_hlg_level({l.hlg}, r, g, b, bits);
  return std::max(r, std::max(g, b)) >> l.light_shift;
}

// vhist_clamp_code as a max and a min, the same values: in bins_row its nested conditions became
// compares and blends of masks (five instructions a component with AVX-512) instead of vpmaxsd
// and vpminsd; a 1080p frame's counts took 10 % less CPU time with these.
inline std::uint32_t clamp_code(int c, int max_code) { return static_cast<std::uint32_t>(std::min(std::max(c, 0), max_code)); }

// Where bins_row puts a pixel: its converted value into `out` (PixelOut), the table indices
// (BandLayout) of its R', G', B' and luma bins, or with Paired the values themselves as bytes (the
// pair tables'), and with Light its light level's index (LightOf).
template <PixelOut Out, LightOf Light, bool Paired>
struct PixelBins {
  std::uint16_t *__restrict br, *__restrict bg, *__restrict bb, *__restrict bl, *__restrict bm;
  std::uint8_t *__restrict pr, *__restrict pg, *__restrict pb, *__restrict pl;
  std::uint32_t* __restrict out;
  const BandLayout& l;
  std::uint32_t bits, alpha, bin_shift, copy_step;
  PixelBins(RowScratch& s, std::uint32_t* rgb, const BandLayout& layout, std::uint32_t depth)
      : br(s.bin_r.data()), bg(s.bin_g.data()), bb(s.bin_b.data()), bl(s.bin_l.data()), bm(s.bin_m.data()),
        pr(s.pair_r.data()), pg(s.pair_g.data()), pb(s.pair_b.data()), pl(s.pair_l.data()), out(rgb), l(layout),
        bits(depth), alpha((1u << depth) - 1u), bin_shift(layout.bin_shift), copy_step(4 * layout.bins) {}
  void operator()(std::uint32_t x, std::uint32_t r, std::uint32_t g, std::uint32_t b) const {
    if constexpr (Out == PixelOut::rgba8) {
      out[x] = r | (g << 8) | (b << 16) | 0xff000000u;
    } else if constexpr (Out == PixelOut::rgba16) {
      out[2 * x] = r | (g << 16);
      out[2 * x + 1] = b | (alpha << 16);
    }
    const std::uint32_t luma = shader::vhist_luma(r, g, b);
    if constexpr (Paired) {
      pr[x] = static_cast<std::uint8_t>(r);  // values: fold_pairs bins them
      pg[x] = static_cast<std::uint8_t>(g);
      pb[x] = static_cast<std::uint8_t>(b);
      pl[x] = static_cast<std::uint8_t>(luma);
    } else {
      const std::uint32_t copy = copy_offset(x, l.copies, copy_step), bins = l.bins;
      br[x] = static_cast<std::uint16_t>((r >> bin_shift) + copy);
      bg[x] = static_cast<std::uint16_t>((g >> bin_shift) + bins + copy);
      bb[x] = static_cast<std::uint16_t>((b >> bin_shift) + 2 * bins + copy);
      bl[x] = static_cast<std::uint16_t>((luma >> bin_shift) + 3 * bins + copy);
    }
    if constexpr (Light != LightOf::none) {
      bm[x] = static_cast<std::uint16_t>(light_level<Light>(l, r, g, b, bits) + l.light + odd_offset(x, l.light_levels));
    }
  }
};

// Table indices (BandLayout) of a row of R'G'B' pixels, as PixelBins puts them. With Gamut, the
// pixels whose R'G'B' before the clamp lie outside R 103's limits are added to gamut[0..2]
// (low, high, out; yuv and gray only). One branch-free loop per colour model, so that the
// compiler vectorizes each.
template <PixelOut Out, LightOf Light, bool Gamut, bool Paired>
void bins_row(const std::int32_t* __restrict yv, const std::int32_t* __restrict u, const std::int32_t* __restrict v,
              std::uint32_t w, const ConversionCoefficients& k, ColourModel model, bool full, const BandLayout& l,
              std::uint32_t bits, RowScratch& s, std::uint32_t* __restrict out, std::uint32_t* __restrict gamut) {
  const PixelBins<Out, Light, Paired> store(s, out, l, bits);
  const int cy = k.cy, crv = k.crv, cgu = k.cgu, cgv = k.cgv, cbu = k.cbu, yoff = k.yoff, coff8 = k.coff8;
  const int shift = k.shift, max_code = k.max_code;
  std::uint32_t n_low = 0, n_high = 0, n_out = 0;  // with Gamut
  const int lowest = shader::vhist_gamut_lowest(max_code), highest = shader::vhist_gamut_highest(max_code);
  const auto check = [&n_low, &n_high, &n_out, lowest, highest](int r, int g, int b) {
    if constexpr (Gamut) {
      // vhist_gamut_low and _high as comparisons with the last values inside, or-ed bitwise:
      // min(r, g, b) < lowest is folded by GCC into short-circuit ors that do not vectorize
      // (2.7x slower in all), and 20 v < -M costs a multiply per component.
      const std::uint32_t lo = static_cast<std::uint32_t>(r < lowest) | static_cast<std::uint32_t>(g < lowest) |
                               static_cast<std::uint32_t>(b < lowest);
      const std::uint32_t hi = static_cast<std::uint32_t>(r > highest) | static_cast<std::uint32_t>(g > highest) |
                               static_cast<std::uint32_t>(b > highest);
      n_low += lo;
      n_high += hi;
      n_out += lo | hi;
    } else {
      static_cast<void>(n_low), static_cast<void>(n_high), static_cast<void>(n_out);
      static_cast<void>(lowest), static_cast<void>(highest), static_cast<void>(r), static_cast<void>(g), static_cast<void>(b);
    }
  };
  const auto clamp = [max_code](int c) { return clamp_code(c, max_code); };
  if (model == ColourModel::yuv) {
    for (std::uint32_t x = 0; x < w; ++x) {
      const int y = yv[x], cb = u[x], cr = v[x];
      const int r = shader::vhist_yuv_component_unclamped(y, cb, cr, cy, 0, crv, yoff, coff8, shift);
      const int g = shader::vhist_yuv_component_unclamped(y, cb, cr, cy, -cgu, -cgv, yoff, coff8, shift);
      const int b = shader::vhist_yuv_component_unclamped(y, cb, cr, cy, cbu, 0, yoff, coff8, shift);
      check(r, g, b);
      store(x, clamp(r), clamp(g), clamp(b));
    }
  } else if (model == ColourModel::rgb) {
    for (std::uint32_t x = 0; x < w; ++x) {
      store(x, static_cast<std::uint32_t>(yv[x]), static_cast<std::uint32_t>(u[x]), static_cast<std::uint32_t>(v[x]));
    }
  } else if (full) {  // R' = G' = B' = Y': inside the code range, never out of gamut
    for (std::uint32_t x = 0; x < w; ++x) {
      const auto g = static_cast<std::uint32_t>(yv[x]);
      store(x, g, g, g);
    }
  } else {
    for (std::uint32_t x = 0; x < w; ++x) {
      const int g = shader::vhist_yuv_component_unclamped(yv[x], 0, 0, cy, 0, 0, yoff, 0, shift);
      check(g, g, g);
      const std::uint32_t c = clamp(g);
      store(x, c, c, c);
    }
  }
  if constexpr (Gamut) {
    gamut[0] += n_low;
    gamut[1] += n_high;
    gamut[2] += n_out;
  }
}

// Bins and converted pixels of row y, as the request asks.
template <LightOf Light, bool Gamut, bool Paired>
void bins_of_row(const BandJob& j, std::uint32_t y, const ConversionCoefficients& k, RowScratch& s) {
  const VideoFormat& f = j.f;
  const std::uint32_t w = f.width;
  const bool full = f.range == ColourRange::full;
  const std::int32_t *yv = s.y.data(), *u = s.cb8.data(), *v = s.cr8.data();
  std::uint32_t* gamut = j.counts + j.layout.gamut;
  if (j.rgb_out == nullptr) {
    bins_row<PixelOut::none, Light, Gamut, Paired>(yv, u, v, w, k, f.model, full, j.layout, f.bits, s, nullptr, gamut);
    return;
  }
  // Tightly packed rows, as converted_format() says: 4 or 8 bytes per pixel (8-bit frames, the
  // paired ones, 4).
  const std::size_t row_bytes = std::size_t{w} * (f.bits == 8 ? 4u : 8u);
  auto* row = reinterpret_cast<std::uint32_t*>(j.rgb_out + std::size_t{y} * row_bytes);
  if constexpr (Paired) {
    bins_row<PixelOut::rgba8, Light, Gamut, true>(yv, u, v, w, k, f.model, full, j.layout, f.bits, s, row, gamut);
  } else if (f.bits == 8) {
    bins_row<PixelOut::rgba8, Light, Gamut, false>(yv, u, v, w, k, f.model, full, j.layout, f.bits, s, row, gamut);
  } else {
    bins_row<PixelOut::rgba16, Light, Gamut, false>(yv, u, v, w, k, f.model, full, j.layout, f.bits, s, row, gamut);
  }
}

// Reads row y's components into s.y, s.cb8 and s.cr8 (chroma upsampled, x8), counting the
// Y'CbCr planes' samples as it reads when asked; the Y' plane's table indices are left in s.bin_y
// for count_row, or with Paired its values in s.luma for count_row_pairs.
template <typename Sample, bool Paired>
void read_components(const BandJob& j, std::uint32_t y, RowScratch& s) {
  const VideoFormat& f = j.f;
  const std::uint32_t w = f.width, mask = (1u << f.bits) - 1u;
  const auto row_of = [&](std::uint32_t c) {
    return j.planes.data[f.components[c].plane] + std::size_t{y} * j.planes.stride[f.components[c].plane];
  };
  const auto component_row = [&](std::uint32_t c, std::int32_t* out) {
    const ComponentLayout& comp = f.components[c];
    read_row<Sample>(row_of(c), comp.offset, comp.step, comp.shift, mask, w, out);
  };
  component_row(0, s.y.data());
  if (f.model == ColourModel::rgb) {
    component_row(1, s.cb8.data());
    component_row(2, s.cr8.data());
    return;
  }
  if (j.want.planes) {
    const BandLayout& l = j.layout;
    const std::uint32_t low = shader::vhist_limited_low(f.bits), high = shader::vhist_limited_high(f.bits, false);
    if constexpr (Paired) {
      count_outside(s.y.data(), w, low, high, j.counts[l.below], j.counts[l.above]);
      s.luma = luma_bytes(row_of(0), f.components[0], s.y.data(), w, s.pair_y.data());
    } else {
      plane_bins(s.y.data(), w, l.bin_shift, l.planes, l.copies, 3 * l.bins, low, high, s.bin_y.data(),
                 j.counts[l.below], j.counts[l.above]);
    }
  }
  if (f.model == ColourModel::yuv) {
    chroma_row<Sample>(j, 1, y, s, s.cb8.data());
    chroma_row<Sample>(j, 2, y, s, s.cr8.data());
  }
}

// Adds row y's samples of the cells' component (Y', or G' of R'G'B' frames, as read into
// `values`) to the picture's cell sums: each cell's span of columns in turn.
inline void add_cells_row(const BandJob& j, std::uint32_t y, const std::int32_t* __restrict values) {
  const std::uint32_t w = j.f.width;
  std::uint32_t* cells = j.counts + j.layout.cells + y * shader::kCellRows / j.f.height * shader::kCellColumns;
  for (std::uint32_t cx = 0; cx < shader::kCellColumns; ++cx) {
    const std::uint32_t x1 = shader::vhist_cell_first(cx + 1, w, shader::kCellColumns);
    std::uint32_t sum = 0;
    for (std::uint32_t x = shader::vhist_cell_first(cx, w, shader::kCellColumns); x < x1; ++x) {
      sum += static_cast<std::uint32_t>(values[x]);
    }
    cells[cx] += sum;
  }
}

// Without the conversion (CpuEngine::planes): each row's samples read and counted into the
// plane tables when asked, its bytes hashed when asked.
template <typename Sample>
void plane_rows(const BandJob& j, RowScratch& s, XXH3_state_t* hash) {
  const VideoFormat& f = j.f;
  const std::uint32_t mask = (1u << f.bits) - 1u;
  const std::uint32_t cell_c = shader::vhist_cell_component(static_cast<std::uint32_t>(f.model));
  const ComponentLayout& cell = f.components[cell_c];
  for (std::uint32_t y = j.y0; y < j.y1; ++y) {
    if (hash != nullptr) {
      hash_row(j, y, *hash);
      read_row<Sample>(j.planes.data[cell.plane] + std::size_t{y} * j.planes.stride[cell.plane], cell.offset, cell.step,
                       cell.shift, mask, f.width, s.cb8.data());
      add_cells_row(j, y, s.cb8.data());
    }
    for (std::uint32_t c = 0; j.want.planes && c < plane_components(f); ++c) {
      if (c != 0 && !owns_chroma_row(f, y)) break;
      const ComponentLayout& comp = f.components[c];
      const std::uint32_t row = c == 0 ? y : y >> f.chroma_shift_y;
      const std::uint32_t n = c == 0 ? f.width : f.chroma_width();
      read_row<Sample>(j.planes.data[comp.plane] + std::size_t{row} * j.planes.stride[comp.plane], comp.offset,
                       comp.step, comp.shift, mask, n, s.y.data());
      c == 0 ? count_plane_row(j, c, s.y.data(), n, s.bin_c.data()) : count_chroma_row(j, c, s.y.data(), n, s.bin_c.data());
    }
  }
}

// Converts and counts rows [y0, y1), hashing each row's bytes before it is read when asked;
// Paired: with the R'G'B'L histograms counted in pairs (BandLayout::paired).
template <typename Sample, LightOf Light, bool Gamut, bool Paired>
void convert_row_loop(const BandJob& j, RowScratch& s, XXH3_state_t* hash) {
  const ConversionCoefficients k = conversion_coefficients(j.f.matrix, j.f.range, j.f.bits);
  const bool count_y = j.want.planes && j.f.model != ColourModel::rgb;
  const std::uint32_t w = j.f.width;
  constexpr bool kLight = Light != LightOf::none;
  for (std::uint32_t y = j.y0; y < j.y1; ++y) {
    if (hash != nullptr) hash_row(j, y, *hash);
    read_components<Sample, Paired>(j, y, s);
    if (hash != nullptr) add_cells_row(j, y, j.f.model == ColourModel::rgb ? s.cb8.data() : s.y.data());
    bins_of_row<Light, Gamut, Paired>(j, y, k, s);
    if constexpr (Paired) {
      count_y ? count_row_pairs<true, kLight>(j.counts, j.pairs, s, w, j.layout)
              : count_row_pairs<false, kLight>(j.counts, j.pairs, s, w, j.layout);
    } else {
      count_y ? count_row<true, kLight>(j.counts, s, w) : count_row<false, kLight>(j.counts, s, w);
    }
  }
}

// convert_row_loop, paired or not as the layout says (8-bit frames without the light only).
template <typename Sample, LightOf Light, bool Gamut>
void convert_rows(const BandJob& j, RowScratch& s, XXH3_state_t* hash) {
  if constexpr (sizeof(Sample) == 1 && Light == LightOf::none) {
    if (j.layout.paired) return convert_row_loop<Sample, Light, Gamut, true>(j, s, hash);
  }
  convert_row_loop<Sample, Light, Gamut, false>(j, s, hash);
}

// Converts and counts rows [y0, y1) as the request asks (BandLayout says where); Gamut: with
// the gamut counts.
template <typename Sample, bool Gamut>
void band_rows(const BandJob& j) {
  const VideoFormat& f = j.f;
  const std::uint32_t w = f.width;
  RowScratch s;
  for (auto* row : {&s.y, &s.cb8, &s.cr8}) row->resize(w);
  s.near.resize(f.chroma_width() + 1);
  s.far.resize(f.chroma_width() + 1);
  for (auto* row : {&s.bin_r, &s.bin_g, &s.bin_b, &s.bin_l, &s.bin_y, &s.bin_m, &s.bin_c}) row->resize(w + 1);
  if (j.layout.paired) {
    for (auto* row : {&s.pair_r, &s.pair_g, &s.pair_b, &s.pair_l, &s.pair_y}) row->assign(w + 1, std::uint8_t{0});
  }
  XXH3_state_t state;
  XXH3_state_t* hash = j.hash != nullptr ? &state : nullptr;
  if (hash != nullptr) XXH3_64bits_reset(hash);
  if (!j.want.levels) {
    plane_rows<Sample>(j, s, hash);
  } else if (j.want.light && j.want.hlg) {
    convert_rows<Sample, LightOf::hlg, Gamut>(j, s, hash);
  } else if (j.want.light) {
    convert_rows<Sample, LightOf::max_rgb, Gamut>(j, s, hash);
  } else {
    convert_rows<Sample, LightOf::none, Gamut>(j, s, hash);
  }
  if (hash != nullptr) *j.hash = XXH3_64bits_digest(hash);
}

// The band's entry points, one per sample size and with or without the gamut counts
// (Request::gamut); each in its own file (cpu_band_*.cpp).
void count_band_8(const BandJob& j);
void count_band_16(const BandJob& j);
void count_band_8_gamut(const BandJob& j);
void count_band_16_gamut(const BandJob& j);

}  // namespace vhist::cpu_bands
