// The CPU engine's row loops that know nothing of the frame (cpu_band.h): reading a row's
// samples, the 4:2:0 chroma step, the table indices of plane samples, and adding a row's
// indices to a thread's tables (BandLayout). Included by cpu_band.h alone, whose
// entry points' target_clones compile them for each instruction set.
#pragma once

#include "cpu_engine_layout.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vhist::cpu_bands {

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
  // Paired (BandLayout): the R'G'B'L values themselves, and the row's Y' values: in the frame's
  // plane when it is planar, else in pair_y.
  std::vector<std::uint8_t> pair_r, pair_g, pair_b, pair_l, pair_y;
  const std::uint8_t* luma = nullptr;
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
inline void plane_bins(const std::int32_t* __restrict codes, std::uint32_t n, std::uint32_t shift, std::uint32_t table,
                       std::uint32_t copies, std::uint32_t copy, std::uint32_t low, std::uint32_t high,
                       std::uint16_t* __restrict out, std::uint32_t& below, std::uint32_t& above) {
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

// The count of n codes below `low` and above `high`, added to `below` and `above`.
inline void count_outside(const std::int32_t* __restrict codes, std::uint32_t n, std::uint32_t low, std::uint32_t high,
                          std::uint32_t& below, std::uint32_t& above) {
  std::uint32_t lo = 0, hi = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    lo += static_cast<std::uint32_t>(codes[i]) < low ? 1u : 0u;
    hi += static_cast<std::uint32_t>(codes[i]) > high ? 1u : 0u;
  }
  below += lo;
  above += hi;
}

// The n 8-bit values of a component as consecutive bytes: the plane's row itself (`row`, as
// `comp` lays it out) when they lie so, else `codes` narrowed into `scratch`.
inline const std::uint8_t* luma_bytes(const std::byte* row, const ComponentLayout& comp, const std::int32_t* __restrict codes,
                                      std::uint32_t n, std::uint8_t* __restrict scratch) {
  if (comp.step == 1 && comp.shift == 0) return reinterpret_cast<const std::uint8_t*>(row + comp.offset);
  for (std::uint32_t i = 0; i < n; ++i) scratch[i] = static_cast<std::uint8_t>(codes[i]);
  return scratch;
}

// Adds one to the counts at n indices. Not inlined, as count_row: see there.
inline __attribute__((noinline)) void add_bins(const std::uint16_t* __restrict index, std::uint32_t n,
                                               std::uint32_t* __restrict counts) {
  for (std::uint32_t i = 0; i < n; ++i) ++counts[index[i]];
}

// chroma_row's 4:2:0 step: out[0..width) from the nearer and farther chroma rows (cw samples
// each, room for one more), vertically 3:1, then horizontally as chroma_row does, in one loop
// (the vertical sums are not written out and read again).
inline void upsample_420(std::int32_t* __restrict near, std::int32_t* __restrict far, std::uint32_t cw,
                         std::uint32_t width, std::int32_t* __restrict out) {
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

// The pair of a row's bins (bytes) at pixels 2k and 2k + 1 as one pair table index: a + 256 b.
// On a little-endian machine one 16-bit load (GCC does not merge the two byte loads).
inline std::uint32_t pair_at(const std::uint8_t* __restrict bins, std::uint32_t k) {
  if constexpr (std::endian::native == std::endian::little) {
    std::uint16_t pair;
    __builtin_memcpy(&pair, bins + 2 * k, sizeof pair);
    return pair;
  }
  return std::uint32_t{bins[2 * k]} | (std::uint32_t{bins[2 * k + 1]} << 8);
}

// count_row for a paired layout (BandLayout::paired): the R'G'B'L values, and with Y the Y'
// values, a pair of pixels at a time into the pair tables at `pairs` (kPairTables), the rest as
// count_row; an odd width's last pixel into copy 0 of the single tables.
template <bool Y, bool M>
__attribute__((noinline)) void count_row_pairs(std::uint32_t* __restrict counts, std::uint32_t* __restrict pairs,
                                               const RowScratch& s, std::uint32_t w, const BandLayout& l) {
  const std::uint8_t *__restrict pr = s.pair_r.data(), *__restrict pg = s.pair_g.data();
  const std::uint8_t *__restrict pb = s.pair_b.data(), *__restrict pl = s.pair_l.data();
  const std::uint8_t* __restrict py = s.luma;
  const std::uint16_t* __restrict bm = s.bin_m.data();
  for (std::uint32_t k = 0; k < w / 2; ++k) {
    ++pairs[pair_at(pr, k)];
    ++pairs[kPairTable + pair_at(pg, k)];
    ++pairs[2 * kPairTable + pair_at(pb, k)];
    ++pairs[3 * kPairTable + pair_at(pl, k)];
    if constexpr (Y) ++pairs[4 * kPairTable + pair_at(py, k)];
    if constexpr (M) ++counts[bm[2 * k]], ++counts[bm[2 * k + 1]];
  }
  if (w % 2 == 0) return;
  const std::uint32_t x = w - 1, shift = l.bin_shift, bins = l.bins;  // x even: copy 0
  ++counts[pr[x] >> shift];
  ++counts[bins + (pg[x] >> shift)];
  ++counts[2 * bins + (pb[x] >> shift)];
  ++counts[3 * bins + (pl[x] >> shift)];
  if constexpr (Y) ++counts[l.planes + (py[x] >> shift)];
  if constexpr (M) ++counts[bm[x]];
}

}  // namespace vhist::cpu_bands
