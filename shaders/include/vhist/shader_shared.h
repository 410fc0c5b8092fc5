// Definitions shared verbatim by GLSL shaders and C++ code, so the two can never disagree:
// histogram geometry, the luma and bin formulas, push-constant layouts and specialization ids.
// This file is valid GLSL 4.60 and valid C++20. Keep it that way: plain uint arithmetic only.
#ifndef VHIST_SHADER_SHARED_H
#define VHIST_SHADER_SHARED_H

#ifdef __cplusplus
#include <cstdint>
namespace vhist::shader {
using uint = std::uint32_t;
#define VHIST_CONST inline constexpr uint
#define VHIST_FN inline constexpr
#else
#define VHIST_CONST const uint
#define VHIST_FN
#endif

// Channels, in storage order: R, G, B and luma L. A histogram buffer holds `bins` records of
// four uint32 counts, interleaved as [bin][channel] (one uvec4 per bin), as in the articles.
VHIST_CONST kChannelCount = 4u;
VHIST_CONST kChannelR = 0u;
VHIST_CONST kChannelG = 1u;
VHIST_CONST kChannelB = 2u;
VHIST_CONST kChannelL = 3u;

// Bin counts are powers of two. Up to 256 bins for 8-bit components, up to 1024 for deeper ones.
VHIST_CONST kMinBins = 16u;
VHIST_CONST kMaxBins8Bit = 256u;
VHIST_CONST kMaxBins = 1024u;

// How pixels are packed in a frame buffer. Frames are tightly packed rows (stride = width).
//   kPackingRgba8:  one uint32 per pixel, R in bits 0-7, G 8-15, B 16-23, A ignored.
//   kPackingRgba16: two uint32 per pixel, R in bits 0-15 and G 16-31 of the first,
//                   B in bits 0-15 of the second, A ignored. Components hold `bits`-bit
//                   code values (8 < bits <= 16) in the low bits of each 16-bit field.
VHIST_CONST kPackingRgba8 = 0u;
VHIST_CONST kPackingRgba16 = 1u;

// Rec.709 luma of R'G'B' code values, in integers: the weights 0.2126, 0.7152 and 0.0722
// scaled by 2^16 and rounded so that they sum to exactly 65536; rounding to nearest.
// For 16-bit components the sum is at most 65535 * 65536 + 32768 < 2^32, so uint32 suffices.
VHIST_CONST kLumaWeightR = 13933u;
VHIST_CONST kLumaWeightG = 46871u;
VHIST_CONST kLumaWeightB = 4732u;

VHIST_FN uint vhist_luma(uint r, uint g, uint b) {
  return (kLumaWeightR * r + kLumaWeightG * g + kLumaWeightB * b + 32768u) >> 16u;
}

// A component value v of `bits` bits lands in bin (v * bins) >> bits.
VHIST_FN uint vhist_bin(uint v, uint bins, uint bits) {
  return (v * bins) >> bits;
}

// Specialization constant ids (layout(constant_id = N) in GLSL).
VHIST_CONST kSpecWorkgroupSize = 0u;
VHIST_CONST kSpecBins = 1u;
VHIST_CONST kSpecPacking = 2u;
VHIST_CONST kSpecBits = 3u;
VHIST_CONST kSpecCopies = 4u;
VHIST_CONST kSpecUnroll = 5u;
VHIST_CONST kSpecMerge = 6u;
VHIST_CONST kSpecLayout = 7u;
VHIST_CONST kSpecFused = 8u;
VHIST_CONST kSpecGlobalCopies = 9u;
VHIST_CONST kSpecGamut = 10u;  // the convert pass also counts the gamut (measures_shared.h)

// Layouts of the fast strategy's shared copies (kSpecLayout).
//   kLayoutBlocked:     copy after copy, each padded by one word: [copy][channel * bins + bin].
//   kLayoutInterleaved: the copies of one bin side by side: [channel * bins + bin][copy], so
//                       invocations counting into different copies never share a bank.
//   kLayoutPacked16:    16-bit counters, two entries per word: entries 2k and 2k + 1 of copy c
//                       share word k * copies + c (low and high half). Half the memory of the
//                       interleaved layout, so twice the copies fit (16 copies of 4 x 256 bins in
//                       32 KB); the shader flushes them before any can overflow (hist_fast.comp).
VHIST_CONST kLayoutBlocked = 0u;
VHIST_CONST kLayoutInterleaved = 1u;
VHIST_CONST kLayoutPacked16 = 2u;
// The fused fast pass's running sums: up to kMaxGlobalCopies copies (workgroup w adds into copy
// w % copies, spreading the adds over more cache lines), each kChannelCount * kMaxBins words,
// then the workgroup counter.
VHIST_CONST kMaxGlobalCopies = 16u;
VHIST_CONST kAccumCopyStride = kChannelCount * kMaxBins;
VHIST_CONST kAccumCounterIndex = kMaxGlobalCopies * kAccumCopyStride;

// Workgroup size of the baseline's chunk pass: one 256-pixel chunk per workgroup.
VHIST_CONST kChunkWidth = 256u;
// Workgroup size of the reduce, scale and floor passes.
VHIST_CONST kReduceWorkgroupSize = 256u;
VHIST_CONST kScaleWorkgroupSize = 256u;
// Workgroup size of the prefix sum (hist_cdf.comp): one workgroup scans up to 2 * 256 entries
// in shared memory, each entry the sum of kMaxBins / 512 = 2 levels at most.
VHIST_CONST kScanWorkgroupSize = 256u;

#ifdef __cplusplus
}  // namespace vhist::shader
#endif
#endif  // VHIST_SHADER_SHARED_H
