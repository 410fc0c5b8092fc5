// What vhist measures of a frame beyond its R'G'B' histograms, defined here in plain C++ (the
// CPU reference the GPU passes planes.comp and max_rgb.comp must equal exactly):
//  - the Y'CbCr code values as decoded: each plane's histogram on its own grid and depth, and
//    the range check's counts of samples outside the limited range;
//  - the histogram of max(R', G', B'), from which a PQ frame's MaxCLL and FALL follow.
#pragma once

#include "vhist/compute/histogram_types.h"
#include "vhist/compute/range_verdict.h"
#include "vhist/compute/region.h"
#include "vhist/compute/source_colour.h"
#include "vhist/compute/video_frame.h"
#include "vhist/source_shared.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace vhist {

// Where each plane's counts are in a PlaneCounts histogram (source_shared.h): Y' in the luma
// slot, Cb in blue's, Cr in red's; green's stays zero.
inline constexpr Channel kPlaneY = static_cast<Channel>(shader::kPlaneSlotY);
inline constexpr Channel kPlaneCb = static_cast<Channel>(shader::kPlaneSlotCb);
inline constexpr Channel kPlaneCr = static_cast<Channel>(shader::kPlaneSlotCr);

struct PlaneCounts {
  Histogram histogram;  // `bins` bins of each plane's codes (vhist_bin of the source depth)
  // Per slot (as the histogram's channels): samples below vhist_limited_low and above
  // vhist_limited_high, whatever range the stream is tagged with.
  std::array<std::uint32_t, 4> below{}, above{};
  // Counted without the Cb and Cr histograms (CpuEngine::Request::chroma off, where nothing
  // reads their bins): the samples of each chroma plane, whose bins then stay 0 while `below`
  // and `above` are counted; else 0.
  std::uint64_t chroma_unbinned = 0;
  // The Cb and Cr samples together: their histograms' totals, or 2 x chroma_unbinned.
  std::uint64_t chroma_total() const;
  bool operator==(const PlaneCounts&) const = default;
};

// Whether a frame of this format has Y'CbCr planes to count (yuv and gray; not R'G'B').
bool has_planes(const VideoFormat& format);

// The plane counts of a yuv or gray frame, counted directly from its planes. Throws
// std::invalid_argument for an R'G'B' frame or a bad bin count.
PlaneCounts reference_planes(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins);
// The planes a frame has: 3 for yuv, 1 for gray.
std::uint32_t plane_components(const VideoFormat& format);
// Adds rows [y0, y1) of plane `component` (on its own grid) to `out` (whose histogram has the
// bin count to count at): the reference's loop, for engines that split a frame into bands.
void count_plane_rows(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t component, std::uint32_t y0,
                      std::uint32_t y1, PlaneCounts& out);

// The share of one plane's samples outside the nominal range of the frame's (tagged or assumed)
// range: the limited range's counts for limited frames, none for full-range ones; and the
// frame's verdict on that range (range_verdict.h; none when the counts have fewer than 256 bins).
struct RangeShare {
  double below = 0, above = 0;
};
struct RangeCheck {
  RangeShare luma;
  RangeShare chroma;  // Cb and Cr together
  bool has_chroma = false;
  RangeVerdict verdict;
};
RangeCheck range_check(const PlaneCounts& counts, ColourRange nominal);

// EBU R 103's gamut counts of a Y'CbCr or gray frame (R 103 v3.0, section 2): pixels whose R',
// G' or B', as the matrix gives them before they are clamped to the code range (colour_shared.h,
// vhist_yuv_component's v before the clamp), lie below -5 % or above 105 % of the nominal
// range; `out` counts those with either (a pixel low in one component and high in another
// counts once). With the full-range output scale of the matrix (0..M, M = 2^bits - 1) a value v
// is low when 20 v < -M and high when 20 v > 21 M.
struct GamutCounts {
  std::uint32_t low = 0, high = 0, out = 0;
  bool operator==(const GamutCounts&) const = default;
};
// The frame's gamut counts, from its planes by the reference's arithmetic (reference_convert's,
// without the clamp). Throws std::invalid_argument for an R'G'B' frame.
GamutCounts reference_gamut(const VideoFormat& format, const VideoPlanes& planes);

// Levels of the max(R', G', B') histogram of a `bits`-bit frame: one per code up to 12 bits.
std::uint32_t light_levels(std::uint32_t bits);
// What the light levels count of each pixel: PQ's max(R', G', B') (whose PQ code is the light),
// or HLG's displayed light on BT.2100's reference display as the PQ code that carries it
// (hlg_light.h), so that pq_light_level() reads either.
enum class LightSignal { pq, hlg };
// The light signal of a transfer: pq for smpte2084, hlg for arib_std_b67, none for the rest.
std::optional<LightSignal> light_signal_of(ColourTransfer transfer);
// The light of each pixel of a converted frame (`pixels`: format.byte_size() bytes), counted at
// light_levels(format.bits) levels: max(R', G', B') for pq, the HLG level for hlg.
std::vector<std::uint32_t> reference_max_rgb(std::span<const std::byte> pixels, const FrameFormat& format,
                                             LightSignal signal = LightSignal::pq);

// A PQ frame's light (CTA-861.3's definitions, on the decoded R'G'B'): MaxCLL, the brightest
// pixel's max(R, G, B) in cd/m2, and FALL, the frame's average of max(R, G, B). From the
// max(R', G', B') histogram of a `bits`-bit frame (or an HLG frame's levels, LightSignal::hlg:
// then of the displayed light); where a level spans several codes (deeper
// than 12 bits) MaxCLL takes its highest code and FALL its middle.
struct LightLevel {
  double max_cll = 0;
  double fall = 0;
};
LightLevel pq_light_level(std::span<const std::uint32_t> max_rgb, std::uint32_t bits);

// The fully transparent pixels of a frame (alpha sample 0), for leaving them out: their R', G',
// B' and luma counted at `levels` levels (as the engines count the frame), their light levels
// (reference_max_rgb's, of `signal`) at light_levels(bits), and how many there are; within
// `region` only when one is given.
// Converts the frame with the CPU reference.
struct TransparentCounts {
  Histogram levels;
  std::vector<std::uint32_t> light;
  std::uint64_t pixels = 0;
};
TransparentCounts transparent_counts(const VideoFormat& format, const VideoPlanes& planes, const AlphaPlane& alpha,
                                     std::uint32_t levels, const std::optional<PixelRect>& region = std::nullopt,
                                     LightSignal signal = LightSignal::pq);

}  // namespace vhist
