// The CPU engine: converts and histograms decoded frames on the CPU's cores, for machines whose
// Vulkan device is itself a CPU (lavapipe), where a plain multi-threaded loop is several times
// faster than emulated compute shaders. It uses the same arithmetic as the GPU passes
// (colour_shared.h and shader_shared.h), so its histograms equal the reference's exactly.
#pragma once

#include "vhist/compute/frame_checksum.h"
#include "vhist/compute/histogram_types.h"
#include "vhist/compute/scope_counts.h"
#include "vhist/compute/source_measures.h"
#include "vhist/compute/video_frame.h"

#include "vhist/compute/thread_pool.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace vhist {

class CpuEngine {
 public:
  // `threads` workers in all (the calling thread is one of them); 0: one per hardware thread.
  explicit CpuEngine(unsigned threads = 0);

  unsigned threads() const noexcept { return pool_.size(); }

  // Equals reference_histogram(reference_convert(format, planes), converted_format(format), bins).
  // Throws std::invalid_argument when the format or bin count is not supported.
  Histogram histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins);

  // The same, also writing the converted frame to `rgb_out` (converted_format(format).byte_size()
  // bytes, 4-byte aligned), equal to reference_convert()'s: what the GPU convert pass writes.
  Histogram convert_and_histogram(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins,
                                  std::byte* rgb_out);

  // Equals reference_planes(format, planes, bins), counted in bands of rows on every thread.
  PlaneCounts planes(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins);

  // What count() counts in its one pass over the frame's rows.
  struct Request {
    bool levels = true;  // the R'G'B'L histograms (histogram()'s)
    bool planes = false;  // the Y'CbCr plane counts (planes()'s; yuv and gray frames)
    bool light = false;   // the light levels (with levels): max(R', G', B'), or HLG's with hlg
    bool gamut = false;   // the gamut counts (with levels; yuv and gray frames)
    bool checksum = false;  // the frame's checksum and cell sums (any frame, with or without the rest)
    bool hlg = false;     // with light: HLG's displayed light (reference_max_rgb's LightSignal::hlg)
    // With planes: the Cb and Cr histograms. Without, their planes' samples below and above the
    // limited range are still counted, but not their bins (PlaneCounts::chroma_unbinned): half
    // a counter increment per pixel of 4:2:0 less, for callers that read no chroma bins.
    bool chroma = true;
  };
  struct Counts {
    Histogram levels;                  // with Request::levels
    std::optional<PlaneCounts> planes;  // with Request::planes
    std::vector<std::uint32_t> light;  // with Request::light: reference_max_rgb() of the converted frame
                                       // (of LightSignal::hlg with Request::hlg)
    std::optional<GamutCounts> gamut;  // with Request::gamut: reference_gamut()'s
    // With Request::checksum: XXH3 (64 bits) of the bytes of each plane's rows that hold samples
    // (plane_row_bytes(), not the padding up to the stride), hashed in bands of rows and the
    // bands' hashes hashed in order; so equal planes give equal values whatever the strides,
    // padding or thread count. Not the GPU pipeline's checksum (FrameResult::checksum): compare
    // checksums of one engine only.
    std::optional<std::uint64_t> checksum;
    std::optional<CellSums> cells;  // with Request::checksum: reference_cell_sums()'s
  };
  // Everything asked for from one pass over the frame: each row is read once, the plane counts
  // taken from the samples as they are read for the conversion, the light level beside each
  // converted pixel's bins, the gamut check on each pixel's R'G'B' before its clamp, the
  // checksum over each row's bytes as they are read. `rgb_out` as convert_and_histogram()'s
  // (may be null). Throws std::invalid_argument as the others, and for planes or gamut of an
  // R'G'B' frame.
  Counts count(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins, const Request& want,
               std::byte* rgb_out = nullptr);

  // The scopes' counts (cpu_scopes.cpp), equal to reference_waveform() and
  // reference_vectorscope(). `rgb`: the converted frame as convert_and_histogram() writes it,
  // read by the luma and rgb waveforms and by the vectorscope of R'G'B' and gray frames (may be
  // empty otherwise). Throw std::invalid_argument when the request's check fails.
  WaveformCounts waveform(const VideoFormat& format, const VideoPlanes& planes, std::span<const std::byte> rgb,
                          const WaveformRequest& request);
  VectorscopeCounts vectorscope(const VideoFormat& format, const VideoPlanes& planes, std::span<const std::byte> rgb,
                                const VectorscopeRequest& request);

 private:
  ThreadPool pool_;
  std::vector<std::vector<std::uint32_t>> partial_;  // per thread: its band's counts (cpu_engine.cpp's BandLayout)
  std::vector<std::vector<std::uint32_t>> pair_tables_;  // per thread: its pair tables (BandLayout::paired), zero between frames
  std::vector<std::uint64_t> band_hashes_;  // per band of rows: its checksum (Request::checksum)
};

}  // namespace vhist
