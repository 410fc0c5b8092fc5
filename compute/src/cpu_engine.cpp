#include "vhist/compute/cpu_engine.h"

#include "vhist/colour_shared.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/hlg_light.h"
#include "vhist/hlg_light_shared.h"

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t, for a state on the stack
#include <xxhash.h>

#include <algorithm>
#include <atomic>
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

// Copies of each histogram and plane table (a power of two): sample x counts into copy x % kCopies.
// Measured on a 1080p frame: 4 copies were no faster at 8 bits and 18% slower at 10 (the tables
// outgrow the L1 cache).
constexpr std::uint32_t kCopies = 2;

// Rows in a band of work (CpuEngine::count): 34 bands of a 1080p frame, 68 of a 4K one.
constexpr std::uint32_t kBandRows = 32;

// log2 of a power of two.
std::uint32_t log2_of(std::uint32_t power_of_two) { return static_cast<std::uint32_t>(__builtin_ctz(power_of_two)); }

// Where a thread's counts of its band lie in its one buffer: `copies` of the histogram and plane
// tables, two of the light's (even samples into the first, odd into the second, so that runs of
// equal bins do not wait on their own previous increment): the four R'G'B'L histograms
// ((copy * 4 + channel) * bins), the three
// planes' (planes + (copy * 3 + plane) * bins: Y', Cb, Cr), the max(R', G', B') levels (light +
// copy * light_levels), then per plane the samples below and above the limited range. The row
// loops store each sample's index into this buffer (its table's offset plus its bin), 16 bits
// wide, so that the increments need one base pointer.
struct BandLayout {
  std::uint32_t bins = 0, light_levels = 0, copies = kCopies;
  // vhist_bin(v, bins, bits) is v >> bin_shift (bins is a power of two, at most 2^bits); the
  // light level v >> light_shift.
  std::uint32_t bin_shift = 0, light_shift = 0;
  std::uint32_t planes = 0, light = 0, below = 0, above = 0, gamut = 0, size = 0;
  const std::uint32_t* hlg = nullptr;  // with Request::hlg: hlg_light_tables(bits)
  BandLayout(std::uint32_t bin_count, const CpuEngine::Request& want, std::uint32_t bits) : bins(bin_count) {
    if (want.light && want.hlg) hlg = hlg_light_tables(bits).data();
    light_levels = want.light ? shader::vhist_light_levels(bits) : 0u;
    bin_shift = bits - log2_of(bins);
    light_shift = want.light ? bits - log2_of(light_levels) : 0u;
    planes = want.levels ? copies * 4 * bins : 0;
    light = planes + (want.planes ? copies * 3 * bins : 0);
    below = light + 2 * light_levels;
    above = below + 3;
    gamut = above + 3;  // low, high, out (GamutCounts)
    size = gamut + 3;
    // At most 7 x 2 x 1024 + 2 x 4096 + 6: every index fits the row loops' 16 bits.
    if (below > 65536) throw std::logic_error("CPU engine band tables exceed 16-bit indices");
  }
};

// 0 for even x, `odd` for odd x: the offset of a sample's second copy, branch-free.
inline std::uint32_t odd_offset(std::uint32_t x, std::uint32_t odd) { return (0u - (x & 1u)) & odd; }
// The offset of sample x's copy of a table when there are `copies` (a power of two), `step` apart.
inline std::uint32_t copy_offset(std::uint32_t x, std::uint32_t copies, std::uint32_t step) {
  return (x & (copies - 1u)) * step;
}

// The table indices (BandLayout) of a row of plane samples (codes of `bits` bits): `table` plus
// the bin, the odd samples' `copy` further on; and the samples' count below `low` and above
// `high`. One branch-free loop, vectorized.
void plane_bins(const std::int32_t* __restrict codes, std::uint32_t n, std::uint32_t shift, std::uint32_t table,
                std::uint32_t copies, std::uint32_t copy, std::uint32_t low, std::uint32_t high, std::uint16_t* __restrict out,
                std::uint32_t& below, std::uint32_t& above) {
  std::uint32_t lo = 0, hi = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::uint32_t>(codes[i]);
    out[i] = static_cast<std::uint16_t>((c >> shift) + table + copy_offset(i, copies, copy));
    lo += c < low ? 1u : 0u;
    hi += c > high ? 1u : 0u;
  }
  below += lo;
  above += hi;
}

// Adds one to the counts at n indices. Not inlined, as count_row: see there.
__attribute__((noinline)) void add_bins(const std::uint16_t* __restrict index, std::uint32_t n,
                                        std::uint32_t* __restrict counts) {
  for (std::uint32_t i = 0; i < n; ++i) ++counts[index[i]];
}

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
  std::byte* rgb_out;
  std::uint64_t* hash;
};

// Adds the bytes of luma row y's rows of each plane to `state`: the bytes that hold samples
// (plane_row_bytes), not the padding; a vertically subsampled plane's row with the first luma
// row that takes it.
void hash_row(const BandJob& j, std::uint32_t y, XXH3_state_t& state) {
  const VideoFormat& f = j.f;
  for (std::uint32_t p = 0; p < f.plane_count; ++p) {
    const std::uint32_t sy = f.plane_rows(p) < f.height ? f.chroma_shift_y : 0u;
    if ((y & ((1u << sy) - 1u)) != 0) continue;
    const std::byte* row = j.planes.data[p] + std::size_t{y >> sy} * j.planes.stride[p];
    XXH3_64bits_update(&state, row, f.plane_row_bytes(p));
  }
}

// Counts a row of plane `c`'s codes (already read into `codes`) into the band's plane tables.
void count_plane_row(const BandJob& j, std::uint32_t c, const std::int32_t* codes, std::uint32_t n,
                     std::uint16_t* bins_out) {
  const BandLayout& l = j.layout;
  const std::uint32_t bits = j.f.bits;
  plane_bins(codes, n, l.bin_shift, l.planes + c * l.bins, l.copies, 3 * l.bins, shader::vhist_limited_low(bits),
             shader::vhist_limited_high(bits, c != 0), bins_out, j.counts[l.below + c], j.counts[l.above + c]);
  add_bins(bins_out, n, j.counts);
}

// Counts a row of chroma plane c's codes (c 1 or 2): into the plane tables, or with
// Request::chroma off only the samples outside the limited range (plane_bins without the bins).
void count_chroma_row(const BandJob& j, std::uint32_t c, const std::int32_t* __restrict codes, std::uint32_t n,
                      std::uint16_t* bins_out) {
  if (j.want.chroma) return count_plane_row(j, c, codes, n, bins_out);
  const std::uint32_t low = shader::vhist_limited_low(j.f.bits), high = shader::vhist_limited_high(j.f.bits, true);
  std::uint32_t lo = 0, hi = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    lo += static_cast<std::uint32_t>(codes[i]) < low ? 1u : 0u;
    hi += static_cast<std::uint32_t>(codes[i]) > high ? 1u : 0u;
  }
  j.counts[j.layout.below + c] += lo;
  j.counts[j.layout.above + c] += hi;
}

// Whether luma row y is the first of those sharing its chroma row (which it then counts).
bool owns_chroma_row(const VideoFormat& f, std::uint32_t y) { return f.chroma_shift_y == 0 || (y & 1u) == 0; }

// chroma_row's 4:2:0 step: out[0..width) from the nearer and farther chroma rows (cw samples
// each, room for one more), vertically 3:1, then horizontally as chroma_row does, in one loop
// (the vertical sums are not written out and read again).
void upsample_420(std::int32_t* __restrict near, std::int32_t* __restrict far, std::uint32_t cw, std::uint32_t width,
                  std::int32_t* __restrict out) {
  near[cw] = near[cw - 1];  // the last column's neighbour is itself
  far[cw] = far[cw - 1];
  const std::uint32_t pairs = width / 2;
  for (std::uint32_t i = 0; i < pairs; ++i) {
    const std::int32_t a = 3 * near[i] + far[i], b = 3 * near[i + 1] + far[i + 1];
    out[2 * i] = 2 * a;
    out[2 * i + 1] = a + b;
  }
  if (width % 2 != 0) out[width - 1] = 2 * (3 * near[pairs] + far[pairs]);
}

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

// Table indices (BandLayout) of a row of R'G'B' pixels: the bins of R', G', B' and their luma,
// and with Light its light level (LightOf). With Gamut, the pixels whose R'G'B' before the
// clamp lie outside R 103's limits are added to gamut[0..2] (low, high, out; yuv and gray only).
// One branch-free loop per colour model, so that the compiler vectorizes each.
template <PixelOut Out, LightOf Light, bool Gamut>
void bins_row(const std::int32_t* __restrict yv, const std::int32_t* __restrict u, const std::int32_t* __restrict v,
              std::uint32_t w, const ConversionCoefficients& k, ColourModel model, bool full, const BandLayout& l,
              std::uint32_t bits, RowScratch& s, std::uint32_t* __restrict out, std::uint32_t* __restrict gamut) {
  std::uint16_t* __restrict br = s.bin_r.data();
  std::uint16_t* __restrict bg = s.bin_g.data();
  std::uint16_t* __restrict bb = s.bin_b.data();
  std::uint16_t* __restrict bl = s.bin_l.data();
  std::uint16_t* __restrict bm = s.bin_m.data();
  const std::uint32_t alpha = (1u << bits) - 1u;
  const std::uint32_t bins = l.bins, bin_shift = l.bin_shift, copies = l.copies, copy_step = 4 * l.bins;
  const std::uint32_t light = l.light, light_levels = l.light_levels;
  const auto store = [&](std::uint32_t x, std::uint32_t r, std::uint32_t g, std::uint32_t b) {
    if constexpr (Out == PixelOut::rgba8) {
      out[x] = r | (g << 8) | (b << 16) | 0xff000000u;
    } else if constexpr (Out == PixelOut::rgba16) {
      out[2 * x] = r | (g << 16);
      out[2 * x + 1] = b | (alpha << 16);
    }
    const std::uint32_t copy = copy_offset(x, copies, copy_step);
    br[x] = static_cast<std::uint16_t>((r >> bin_shift) + copy);
    bg[x] = static_cast<std::uint16_t>((g >> bin_shift) + bins + copy);
    bb[x] = static_cast<std::uint16_t>((b >> bin_shift) + 2 * bins + copy);
    bl[x] = static_cast<std::uint16_t>((shader::vhist_luma(r, g, b) >> bin_shift) + 3 * bins + copy);
    if constexpr (Light != LightOf::none) {
      bm[x] = static_cast<std::uint16_t>(light_level<Light>(l, r, g, b, bits) + light + odd_offset(x, light_levels));
    }
  };
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
template <LightOf Light, bool Gamut>
void bins_of_row(const BandJob& j, std::uint32_t y, const ConversionCoefficients& k, RowScratch& s) {
  const VideoFormat& f = j.f;
  const std::uint32_t w = f.width;
  const bool full = f.range == ColourRange::full;
  const std::int32_t *yv = s.y.data(), *u = s.cb8.data(), *v = s.cr8.data();
  std::uint32_t* gamut = j.counts + j.layout.gamut;
  if (j.rgb_out == nullptr) {
    bins_row<PixelOut::none, Light, Gamut>(yv, u, v, w, k, f.model, full, j.layout, f.bits, s, nullptr, gamut);
    return;
  }
  // Tightly packed rows, as converted_format() says: 4 or 8 bytes per pixel.
  const std::size_t row_bytes = std::size_t{w} * (f.bits == 8 ? 4u : 8u);
  auto* row = reinterpret_cast<std::uint32_t*>(j.rgb_out + std::size_t{y} * row_bytes);
  if (f.bits == 8) {
    bins_row<PixelOut::rgba8, Light, Gamut>(yv, u, v, w, k, f.model, full, j.layout, f.bits, s, row, gamut);
  } else {
    bins_row<PixelOut::rgba16, Light, Gamut>(yv, u, v, w, k, f.model, full, j.layout, f.bits, s, row, gamut);
  }
}

// Adds a row's table indices (bins_row's): R', G', B', luma, and with Y the Y' plane's, with M
// the light levels'. Not inlined: flattened into count_band, whose conversion loops need every
// register, the six index pointers were reloaded from the stack at every pixel (one load per
// increment); on its own the loop keeps them in registers. A 1080p frame's counts took 22 % less
// CPU time (8.9 to 6.9 ms at 8 bits, 9.5 to 7.4 ms at 10; one core, harness over CpuEngine).
template <bool Y, bool M>
__attribute__((noinline)) void count_row(std::uint32_t* __restrict counts, const RowScratch& s, std::uint32_t w) {
  const std::uint16_t *__restrict br = s.bin_r.data(), *__restrict bg = s.bin_g.data();
  const std::uint16_t *__restrict bb = s.bin_b.data(), *__restrict bl = s.bin_l.data();
  const std::uint16_t *__restrict by = s.bin_y.data(), *__restrict bm = s.bin_m.data();
  for (std::uint32_t x = 0; x < w; ++x) {
    ++counts[br[x]];
    ++counts[bg[x]];
    ++counts[bb[x]];
    ++counts[bl[x]];
    if constexpr (Y) ++counts[by[x]];
    if constexpr (M) ++counts[bm[x]];
  }
}

// Reads row y's components into s.y, s.cb8 and s.cr8 (chroma upsampled, x8), counting the
// Y'CbCr planes' samples as it reads when asked; the Y' plane's table indices are left in s.bin_y
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
    const BandLayout& l = j.layout;
    plane_bins(s.y.data(), w, l.bin_shift, l.planes, l.copies, 3 * l.bins, shader::vhist_limited_low(f.bits),
               shader::vhist_limited_high(f.bits, false), s.bin_y.data(), j.counts[l.below], j.counts[l.above]);
  }
  if (f.model == ColourModel::yuv) {
    chroma_row<Sample>(j, 1, y, s, s.cb8.data());
    chroma_row<Sample>(j, 2, y, s, s.cr8.data());
  }
}

// Without the conversion (CpuEngine::planes): each row's samples read and counted into the
// plane tables when asked, its bytes hashed when asked.
template <typename Sample>
void plane_rows(const BandJob& j, RowScratch& s, XXH3_state_t* hash) {
  const VideoFormat& f = j.f;
  const std::uint32_t mask = (1u << f.bits) - 1u;
  for (std::uint32_t y = j.y0; y < j.y1; ++y) {
    if (hash != nullptr) hash_row(j, y, *hash);
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

// Converts and counts rows [y0, y1), hashing each row's bytes before it is read when asked.
template <typename Sample, LightOf Light, bool Gamut>
void convert_rows(const BandJob& j, RowScratch& s, XXH3_state_t* hash) {
  const ConversionCoefficients k = conversion_coefficients(j.f.matrix, j.f.range, j.f.bits);
  const bool count_y = j.want.planes && j.f.model != ColourModel::rgb;
  const std::uint32_t w = j.f.width;
  for (std::uint32_t y = j.y0; y < j.y1; ++y) {
    if (hash != nullptr) hash_row(j, y, *hash);
    read_components<Sample>(j, y, s);
    bins_of_row<Light, Gamut>(j, y, k, s);
    constexpr bool kLight = Light != LightOf::none;
    count_y ? count_row<true, kLight>(j.counts, s, w) : count_row<false, kLight>(j.counts, s, w);
  }
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

// One band of rows. Compiled three times, for AVX-512 (x86-64-v4), AVX2 and baseline x86-64, and
// chosen at load time (GCC's target_clones): the row loops above vectorize 8 pixels wide with
// AVX2, 16 with AVX-512, whose 32 vector registers also keep the conversion's constants and
// partial sums out of memory (with AVX2's 16 they spill to the stack). AVX-512 took a 1080p
// frame's histograms from 6.4 to 5.1 ms on one core of an AMD EPYC (Zen 4). The gamut counts'
// loops are a function of their own: flattened into this one they made it large enough that
// its loops without them ran 25 % slower (1080p, one core).
// (Not under ThreadSanitizer, which instruments the clones' resolvers: they run while the
// program is being loaded, before it is set up, and crash there.)
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define VHIST_BAND_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default"), flatten))
#else
#define VHIST_BAND_CLONES
#endif
VHIST_BAND_CLONES void count_band(const BandJob& j) {
  if (j.f.sample_bytes == 1) {
    band_rows<std::uint8_t, false>(j);
  } else {
    band_rows<std::uint16_t, false>(j);
  }
}

// The same with the gamut counts (Request::gamut).
VHIST_BAND_CLONES void count_band_gamut(const BandJob& j) {
  if (j.f.sample_bytes == 1) {
    band_rows<std::uint8_t, true>(j);
  } else {
    band_rows<std::uint16_t, true>(j);
  }
}
#undef VHIST_BAND_CLONES

// The threads' bands added up.
CpuEngine::Counts merge_bands(const std::vector<std::vector<std::uint32_t>>& partial, const BandLayout& layout,
                              const CpuEngine::Request& want) {
  const std::uint32_t bins = layout.bins;
  CpuEngine::Counts out;
  if (want.levels) out.levels = Histogram(bins);
  if (want.planes) out.planes = PlaneCounts{Histogram(bins), {}, {}};
  out.light.assign(layout.light_levels, 0u);
  if (want.gamut) out.gamut = GamutCounts{};
  for (const auto& counts : partial) {
    for (std::uint32_t b = 0; want.levels && b < bins; ++b) {
      for (std::uint32_t ch = 0; ch < 4; ++ch) {
        for (std::uint32_t k = 0; k < layout.copies; ++k) out.levels.counts[std::size_t{b} * 4 + ch] += counts[(k * 4 + ch) * bins + b];
      }
    }
    for (std::uint32_t c = 0; want.planes && c < 3; ++c) {
      const auto slot = static_cast<Channel>(shader::vhist_plane_slot(c));
      const std::uint32_t* p = counts.data() + layout.planes;
      for (std::uint32_t b = 0; b < bins; ++b) {
        for (std::uint32_t k = 0; k < layout.copies; ++k) out.planes->histogram.at(slot, b) += p[(k * 3 + c) * bins + b];
      }
      out.planes->below[static_cast<std::uint32_t>(slot)] += counts[layout.below + c];
      out.planes->above[static_cast<std::uint32_t>(slot)] += counts[layout.above + c];
    }
    for (std::uint32_t k = 0; k < layout.light_levels; ++k) {
      out.light[k] += counts[layout.light + k] + counts[layout.light + layout.light_levels + k];
    }
    if (want.gamut) {
      out.gamut->low += counts[layout.gamut];
      out.gamut->high += counts[layout.gamut + 1];
      out.gamut->out += counts[layout.gamut + 2];
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
  Request want;
  want.levels = false;
  want.planes = true;
  return std::move(*count(format, planes, bins, want).planes);
}

CpuEngine::Counts CpuEngine::count(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins,
                                   const Request& want, std::byte* rgb_out) {
  if (auto err = check_video_format(format); !err.empty()) throw std::invalid_argument(err);
  if (auto err = check_bins(bins, format.bits); !err.empty()) throw std::invalid_argument(err);
  if ((want.planes || want.gamut) && !has_planes(format)) {
    throw std::invalid_argument("an R'G'B' frame has no Y'CbCr planes (nor a gamut check of them)");
  }
  if (!want.levels && (want.light || want.gamut || rgb_out != nullptr)) {
    throw std::invalid_argument("the light levels, gamut counts and converted pixels come with the R'G'B' histograms");
  }
  const BandLayout layout(bins, want, format.bits);
  // Bands of kBandRows rows, taken in turn by whichever thread is free: a thread that the
  // decoder's threads (or anything else) hold up does not hold the frame up by a whole half.
  const std::uint32_t bands = (format.height + kBandRows - 1) / kBandRows;
  std::atomic<std::uint32_t> next{0};
  band_hashes_.assign(want.checksum ? bands : 0u, 0u);
  const std::function<void(unsigned)> job = [&](unsigned i) {
    auto& counts = partial_[i];
    counts.assign(layout.size, 0u);
    for (std::uint32_t band = next.fetch_add(1); band < bands; band = next.fetch_add(1)) {
      const std::uint32_t y0 = band * kBandRows;
      const std::uint32_t y1 = std::min(format.height, y0 + kBandRows);
      std::uint64_t* hash = want.checksum ? &band_hashes_[band] : nullptr;
      const BandJob band_job{format, planes, want, layout, y0, y1, counts.data(), rgb_out, hash};
      want.gamut ? count_band_gamut(band_job) : count_band(band_job);
    }
  };
  pool_.run(job);
  Counts out = merge_bands(partial_, layout, want);
  if (want.planes && !want.chroma && format.model == ColourModel::yuv) {
    out.planes->chroma_unbinned = std::uint64_t{format.chroma_width()} * format.chroma_height();
  }
  if (want.checksum) out.checksum = XXH3_64bits(band_hashes_.data(), band_hashes_.size() * sizeof(std::uint64_t));
  return out;
}

}  // namespace vhist
