// Where the CPU engine's threads keep their counts of a frame's bands of rows, and how the
// threads' counts are added up into CpuEngine::Counts (cpu_band.h's row loops fill them).
#pragma once

#include "vhist/compute/cpu_engine.h"

#include <cstdint>
#include <vector>

namespace vhist::cpu_bands {

// Copies of each histogram and plane table (a power of two): sample x counts into copy x % kCopies.
// Measured on a 1080p frame: 4 copies were no faster at 8 bits and 18% slower at 10 (the tables
// outgrow the L1 cache).
constexpr std::uint32_t kCopies = 2;

// Entries of one pair table (BandLayout::paired): one per pair of 8-bit values; and the pair
// tables of a thread: R', G', B', luma and Y'.
constexpr std::uint32_t kPairTable = 256 * 256;
constexpr std::uint32_t kPairTables = 5;

// Pixels a thread counts, at the least, for a frame to be counted in pairs: each thread reads and
// clears its pair tables (1.25 MiB) after each frame, which costs more than the pairs save on
// smaller frames (measured on one core, R'G'B'L in pairs: 12 % saved on 0.9 million pixels, none on 0.23).
constexpr std::uint64_t kPairedPixels = 1u << 19;

// Where a thread's counts of its bands lie in its one buffer: `copies` of the histogram and plane
// tables, two of the light's (even samples into the first, odd into the second, so that runs of
// equal bins do not wait on their own previous increment): the four R'G'B'L histograms
// ((copy * 4 + channel) * bins), the three planes' (planes + (copy * 3 + plane) * bins: Y', Cb,
// Cr), the max(R', G', B') levels (light + copy * light_levels), then per plane the samples
// below and above the limited range, then the gamut counts, then with Request::checksum the
// picture's cell sums (CellSums, kCellCount words). The row loops store each sample's
// index into this buffer (its table's offset plus its bin), 16 bits wide, so that the increments
// need one base pointer.
//
// Paired, the R'G'B'L histograms and the Y' plane's are counted a pair of pixels at a time
// instead: pixels 2k and 2k + 1 of a row, with values a and b, add one to entry a + 256 b of the
// channel's pair table (kPairTable entries; each thread has kPairTables, kept zero between
// frames), which fold_pairs() adds to the bins of both values. Half the increments of those
// histograms; neighbouring pixels are alike, so the entries counted lie near the diagonal, in
// few cache lines. R'G'B'L in pairs took a 4K frame's counts from 21.8 to 18.2 ms of CPU time
// (one core; two threads: 10.9 to 9.2 ms), a 1080p one's from 2.76 to 2.36 ms (two threads);
// pseudo-random pixels took as long as before. Y' in pairs too (read from the plane itself when
// it is planar) took them to 17.3 ms (8.1 ms on two threads) and 2.16 ms: 21 % in all, 4K, 22 %
// at 1080p. Only an odd width's last pixel goes to the single tables. Frames are paired when
// they are 8-bit, without Request::light (the light is of 10-bit and deeper frames, nearly
// always; pairs for it too would double the row loops' code again) and of at least
// kPairedPixels a thread.
struct BandLayout {
  std::uint32_t bins = 0, light_levels = 0, copies = kCopies;
  // vhist_bin(v, bins, bits) is v >> bin_shift (bins is a power of two, at most 2^bits); the
  // light level v >> light_shift.
  std::uint32_t bin_shift = 0, light_shift = 0;
  std::uint32_t planes = 0, light = 0, below = 0, above = 0, gamut = 0, cells = 0, size = 0;
  bool paired = false;  // the R'G'B'L histograms counted in pairs (the thread's pair tables)
  const std::uint32_t* hlg = nullptr;  // with Request::hlg: hlg_light_tables(bits)
  BandLayout(std::uint32_t bin_count, const CpuEngine::Request& want, std::uint32_t bits, bool pairs);
};

// Whether a frame of `format` is counted paired by `threads` threads.
bool counts_pairs(const VideoFormat& format, const CpuEngine::Request& want, unsigned threads);

// Adds a thread's pair tables to its single R'G'B'L tables and Y' plane table (copy 0 of
// `counts`), entry a + 256 b to the bins of values a and b, and sets them back to zero.
void fold_pairs(std::uint32_t* pairs, const BandLayout& layout, std::uint32_t* counts);

// The threads' counts (`partial`, one buffer per thread as `layout` says) added up.
CpuEngine::Counts merge(const std::vector<std::vector<std::uint32_t>>& partial, const BandLayout& layout,
                        const CpuEngine::Request& want);

}  // namespace vhist::cpu_bands
