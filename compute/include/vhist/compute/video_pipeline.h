// Frames of a video through the GPU, several in flight: each submit() copies the decoded planes
// into a persistently mapped staging slot, then one command buffer uploads them and converts
// them to R'G'B' (FrameUpload, the viewer's path too), histograms them (HistogramEngine), optionally takes the prefix
// sum of the histogram (the CDF, HistogramEngine::record_cdf), and copies the counts back to
// host memory. Results come out in submission order, a few frames later, without stalling the
// GPU between frames. Buffers are per slot and reused; they grow only when a frame is larger than
// any before.
//
// One thread uses a VideoPipeline (it submits to the context's queue).
#pragma once

#include "vhist/compute/cdf.h"
#include "vhist/compute/frame_checksum.h"
#include "vhist/compute/frame_import.h"
#include "vhist/compute/frame_upload.h"
#include "vhist/compute/histogram_engine.h"
#include "vhist/compute/region.h"
#include "vhist/compute/source_pass.h"
#include "vhist/render/buffer.h"
#include "vhist/render/gpu_timer.h"
#include "vhist/render/handles.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vhist {

// What else a frame's command buffer measures (source_measures.h): the Y'CbCr planes, at the
// histogram's bins (only for frames that have planes), and the max(R', G', B') light levels.
// `region`: the histogram, its prefix sum and the light describe that rectangle of the
// converted frame only (the planes, gamut counts and checksum stay whole); it must lie inside
// the frame. `gamut`: R 103's gamut counts, counted in the convert pass (only for frames that
// have planes). `checksum`: the frame's checksum and cell sums (frame_checksum.h), from the
// planes in device memory (a hardware decoder's frames too).
struct SourceRequest {
  bool planes = false;
  bool light = false;
  std::optional<PixelRect> region;
  bool gamut = false;
  bool checksum = false;
  bool hlg = false;  // with light: HLG's light levels (LightSignal::hlg), else max(R', G', B')
};

struct FrameResult {
  std::uint64_t tag = 0;  // the caller's, from submit()
  FrameFormat format;     // the format counted: the converted frame's, or its region's
  Histogram histogram;    // at the bins requested
  Scale scale;
  Cdf cdf;                // the histogram's prefix sum when asked for (else cdf.bins == 0)
  std::optional<PlaneCounts> planes;  // when asked for and the frame has planes
  std::vector<std::uint32_t> light;   // light_levels(bits) counts when asked for (of HLG's light
                                      // with SourceRequest::hlg), else empty
  std::optional<GamutCounts> gamut;   // when asked for and the frame has planes: reference_gamut()'s
  // When asked for: reference_sample_checksum()'s (not the CPU engine's checksum; compare
  // checksums of one engine only).
  std::optional<std::uint64_t> checksum;
  std::optional<CellSums> cells;  // with the checksum: reference_cell_sums()'s
  // GPU time (timestamp queries) of the frame's command buffer, and of its four stages: the
  // copy of the planes into device memory, the source measures read from the planes (the plane
  // pass, the checksum), the convert pass, the histogram and readback copy.
  // A frame brought in by a FrameImport: upload_ms is the importer's copy (its own API's
  // timing), and gpu_ms includes it.
  double gpu_ms = 0;
  double upload_ms = 0, source_ms = 0, convert_ms = 0, histogram_ms = 0;
  bool imported = false;  // the planes came through the FrameImport (a hardware decoder's frame)
};

class VideoPipeline {
 public:
  // `copy_threads` split the staging copy of large frames (FrameUpload); 0 picks a quarter of
  // the hardware threads, from 1 to 4. `staging` as FrameUpload's.
  // `import`: brings in frames a hardware decoder left in GPU memory (frame_import.h); it must
  // outlive the pipeline. Without it, only host frames are taken.
  VideoPipeline(HistogramEngine& engine, std::uint32_t slots = 3, Strategy strategy = Strategy::fast,
                unsigned copy_threads = 0, FrameImport* import = nullptr, Staging staging = Staging::automatic);
  ~VideoPipeline();
  VideoPipeline(const VideoPipeline&) = delete;
  VideoPipeline& operator=(const VideoPipeline&) = delete;

  // Empty when a frame of this format and strides can go through with `bins` bins; else why.
  std::string check(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) const;

  // Starts one frame. The planes are copied before the call returns. When every slot is busy
  // the oldest frame is waited for first and its result returned. With `cdf` the GPU also
  // computes the histogram's prefix sum (bins must then be at most 2^bits of the converted
  // frame). `source` asks for the source measures too. A `device` frame other than host memory
  // goes through the FrameImport (its planes' strides in `planes`, data unused): nothing is
  // copied through host memory. Throws std::invalid_argument when check() fails or no importer
  // takes the device frame.
  std::optional<FrameResult> submit(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins,
                                    std::uint64_t tag, bool cdf = false, SourceRequest source = {},
                                    const DeviceFrame& device = {});
  // Waits for the oldest frame in flight and returns its result; nullopt when none is.
  std::optional<FrameResult> finish_one();
  std::uint32_t in_flight() const noexcept { return in_flight_; }

 private:
  struct Slot;
  VkCommandBuffer record(Slot& slot, const VideoFormat& format, const VideoPlanes& planes, const PlaneOffsets& layout);
  // The planes into the slot's device buffer: staged from host memory, or by the importer;
  // returns what the submission waits for (nothing for a host frame).
  render::TimelinePoint bring_planes(Slot& slot, const VideoFormat& format, const VideoPlanes& planes,
                                     const DeviceFrame& device, PlaneOffsets& layout);
  FrameResult collect(Slot& slot);
  void record_region_copy(VkCommandBuffer cmd, const Slot& slot) const;

  HistogramEngine& engine_;
  render::Context& context_;
  Strategy strategy_;
  SourcePass source_pass_;
  FrameUpload upload_;  // staging copy (split across threads for large frames), upload, convert
  FrameImport* import_ = nullptr;
  std::uint64_t sequence_ = 0;   // submissions so far (the importer's timeline, frame_import.h)
  std::vector<std::unique_ptr<Slot>> slots_;
  std::uint32_t next_ = 0;       // slot the next submit uses
  std::uint32_t in_flight_ = 0;  // slots submitted and not collected, the oldest at next_ - in_flight_
};

}  // namespace vhist
