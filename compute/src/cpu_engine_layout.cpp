#include "cpu_engine_layout.h"

#include "vhist/colour_shared.h"
#include "vhist/compute/hlg_light.h"
#include "vhist/hlg_light_shared.h"
#include "vhist/measures_shared.h"

#include <stdexcept>

namespace vhist::cpu_bands {

namespace {

// log2 of a power of two.
std::uint32_t log2_of(std::uint32_t power_of_two) { return static_cast<std::uint32_t>(__builtin_ctz(power_of_two)); }

// fold_pairs for one table: its entries to the bins of `single` (shift: a value's bin is
// value >> shift), the table set back to zero.
void fold_table(std::uint32_t* table, std::uint32_t shift, std::uint32_t* single) {
  std::uint32_t column[256] = {};
  for (std::uint32_t b = 0; b < 256; ++b) {  // b: the second pixel's value, a the first's
    std::uint32_t* row = table + b * 256;
    std::uint32_t sum = 0;
    for (std::uint32_t a = 0; a < 256; ++a) {
      sum += row[a];
      column[a] += row[a];
      row[a] = 0;
    }
    single[b >> shift] += sum;
  }
  for (std::uint32_t a = 0; a < 256; ++a) single[a >> shift] += column[a];
}

// Adds one thread's counts (`counts`, as `layout` says) to `out`.
void add_thread(const std::vector<std::uint32_t>& counts, const BandLayout& layout, const CpuEngine::Request& want,
                CpuEngine::Counts& out) {
  const std::uint32_t bins = layout.bins;
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
  for (std::uint32_t k = 0; want.checksum && k < shader::kCellCount; ++k) (*out.cells)[k] += counts[layout.cells + k];
}

}  // namespace

BandLayout::BandLayout(std::uint32_t bin_count, const CpuEngine::Request& want, std::uint32_t bits, bool pairs)
    : bins(bin_count), paired(pairs) {
  if (want.light && want.hlg) hlg = hlg_light_tables(bits).data();
  light_levels = want.light ? shader::vhist_light_levels(bits) : 0u;
  bin_shift = bits - log2_of(bins);
  light_shift = want.light ? bits - log2_of(light_levels) : 0u;
  planes = want.levels ? copies * 4 * bins : 0;
  light = planes + (want.planes ? copies * 3 * bins : 0);
  below = light + 2 * light_levels;
  above = below + 3;
  gamut = above + 3;  // low, high, out (GamutCounts)
  cells = gamut + 3;
  size = cells + (want.checksum ? shader::kCellCount : 0u);
  // At most 7 x 2 x 1024 + 2 x 4096 + 6: every index fits the row loops' 16 bits.
  if (below > 65536) throw std::logic_error("CPU engine band tables exceed 16-bit indices");
  if (paired && (bits != 8 || !want.levels || want.light)) {
    throw std::logic_error("the CPU engine counts pairs of 8-bit R'G'B'L bins only, without the light");
  }
}

bool counts_pairs(const VideoFormat& format, const CpuEngine::Request& want, unsigned threads) {
  return want.levels && !want.light && format.bits == 8 && std::uint64_t{format.width} * format.height >= kPairedPixels * threads;
}

void fold_pairs(std::uint32_t* pairs, const BandLayout& layout, std::uint32_t* counts) {
  for (std::uint32_t ch = 0; ch < 4; ++ch) fold_table(pairs + ch * kPairTable, layout.bin_shift, counts + ch * layout.bins);
  if (layout.light != layout.planes) fold_table(pairs + 4 * kPairTable, layout.bin_shift, counts + layout.planes);
}

CpuEngine::Counts merge(const std::vector<std::vector<std::uint32_t>>& partial, const BandLayout& layout,
                        const CpuEngine::Request& want) {
  CpuEngine::Counts out;
  if (want.levels) out.levels = Histogram(layout.bins);
  if (want.planes) out.planes = PlaneCounts{Histogram(layout.bins), {}, {}};
  out.light.assign(layout.light_levels, 0u);
  if (want.gamut) out.gamut = GamutCounts{};
  if (want.checksum) out.cells = CellSums{};
  for (const auto& counts : partial) add_thread(counts, layout, want, out);
  return out;
}

}  // namespace vhist::cpu_bands
