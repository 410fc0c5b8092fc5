// The viewer's picture, drawn on the GPU, two frames in flight, independent of the window: it
// draws by compute passes into a buffer of 8-bit pixels (the window copies it into the
// swapchain image and draws its UI over it; the benchmark and the tests read it back). Each tick
// records one command buffer of small passes, chosen by the tick's plan (frame_plan.h, pure and
// unit-tested):
//   convert     new frame (GPU engine): staging -> device planes -> convert pass -> R'G'B' frame
//               (compute/frame_upload.h); with the CPU engine the frame is converted and
//               counted on the host into the slot's staging memory instead
//   upload      CPU engine: the converted frame, the display histogram and scale, and the
//               statistics histogram, from staging to the buffers the GPU passes read
//   count       GPU engine: the display histogram and, when it differs, the statistics
//               histogram at one level per code, copied to the slot's readback buffer; with a
//               region of interest, of its rows copied out of the frame first
//   scan        when a cumulative histogram is drawn or the picture equalized: the prefix sum
//               of the statistics histogram (hist_cdf.comp): the CDF and the equalization table
//   equalize    once per frame and mode: the frame through the table into its own buffer
//   draw        the compute composite (composite.comp): the video placed by the fit mode in the
//               picture's area, upright and at its display aspect (equalized right of the
//               split), with the exposure marks; the histogram panels (the articles' bit-mask
//               colours, with the CDF where asked, and the axis, guides, legend and scale label
//               of picture_overlay.h over them); black outside the area. One video pass over the
//               target, then each panel's passes over its own pixels; then what the caller adds
//               after (the window's copy and UI, a readback)
// Each pass places the barriers its own writes need. A pass added later (an overlay on the
// video, a scope) is a plan entry and a record_* function, nothing more.
//
// The slot's fence is waited for only when the slot comes round again, one frame later: the
// statistics and GPU time shown in the UI are a frame old, and nothing stalls the GPU.
// One thread (the viewer's main loop) uses a FrameRenderer.
#pragma once

#include "vhist/picture/draw_style.h"
#include "vhist/picture/frame_plan.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/overlay_grid.h"
#include "vhist/picture/picture_overlay.h"

#include "vhist/compute/cdf.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/engine_choice.h"
#include "vhist/compute/frame_import.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/frame_upload.h"
#include "vhist/compute/source_pass.h"
#include "vhist/compute/histogram_engine.h"
#include "vhist/compute/match_pass.h"
#include "vhist/render/buffer.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"
#include "vhist/render/gpu_timer.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vhist::viewer {

class FrameScopes;

// The statistics of the frame drawn one tick ago (the same tick with the CPU engine).
struct FrameStatistics {
  bool valid = false;
  std::uint32_t width = 0, height = 0, bits = 8;
  std::array<ChannelStats, 4> stats{};
  double gpu_ms = 0;  // GPU time of that tick's command buffer (timestamp queries)
  // Its parts: upload and convert; histograms, CDF and equalization; the picture drawn.
  double gpu_upload_ms = 0, gpu_histogram_ms = 0, gpu_draw_ms = 0;
  // That frame's histogram at one level per code (bins = 2^bits, at most kMaxBins), for readouts
  // such as the hover on a bin; bins == 0 when not available.
  Histogram levels;
  // The range check of a frame with Y'CbCr or gray planes, and a PQ frame's light
  // (source_measures.h), when measured.
  std::optional<RangeCheck> range;
  std::optional<LightLevel> light;
  bool ycbcr = false;  // stats and levels are of the Y'CbCr planes (slots as source_measures.h)
  // The scopes' label lines as the last tick drew them (mode, column binning), for the panel.
  std::vector<std::string> scope_titles;
};

// Where the picture goes: the device address of a tightly packed buffer of extent.width x
// extent.height 8-bit RGBA (or BGRA) pixels, top row first: the window's copies it into the
// swapchain image, the benchmark's and the tests' are read back.
struct CompositeTarget {
  VkExtent2D extent{};
  VkDeviceAddress output = 0;
  bool bgra = false;  // bytes in B, G, R, A order (for a B8G8R8A8 image), else R, G, B, A
  // The output's buffer (transfer destination), where known: with DrawStyle::scopes_only the
  // composite's passes, which would write opaque black everywhere, are a fill of it instead.
  VkBuffer buffer = VK_NULL_HANDLE;
};

// Records extra commands into a tick's command buffer.
using RecordHook = std::function<void(VkCommandBuffer)>;

class FrameRenderer {
 public:
  // Which of the composite's pipelines are made in the constructor: the SDR picture's (the video
  // pass and the panels', so that none is first compiled mid-interaction: the window, the
  // benchmark), or none, each when first used (`vhist scope`: DrawStyle::scopes_only uses
  // none, and on lavapipe each costs tens of milliseconds of the one frame's time).
  enum class Pipelines { ahead, on_first_use };
  // `engine`: who converts and counts (choose_engine()).
  FrameRenderer(render::Context& context, Engine engine, Pipelines pipelines = Pipelines::ahead);
  ~FrameRenderer();
  FrameRenderer(const FrameRenderer&) = delete;
  FrameRenderer& operator=(const FrameRenderer&) = delete;

  // A tick: begin() waits until the next slot's previous use has finished (and reads its
  // statistics); record_composite() fills the slot (the new frame's planes, or its conversion on
  // the CPU) and records its command buffer, ready to submit with fence(); end() moves to the
  // next slot once that command buffer has been submitted. `format` and `planes`: a newly due
  // frame (both null: keep the current one); `rehistogram` recounts the current frame.
  // `after_pass` records after the picture is drawn (the window's copy to the swapchain and UI, a
  // readback); it may be empty. `device`: where the new frame is when a decoder left it in GPU
  // memory of its own API (DeviceFrame::memory not host): imported through set_import()'s
  // importer, never through host memory. Throws std::invalid_argument without an output buffer,
  // or for such a frame without an importer that accepts it (or with the CPU engine).
  void begin();
  VkCommandBuffer record_composite(const VideoFormat* format, const VideoPlanes* planes, bool rehistogram,
                                   const DrawStyle& style, const CompositeTarget& target, const RecordHook& after_pass,
                                   const DeviceFrame* device = nullptr);
  VkFence fence() const;
  // Hardware-decoded frames (frame_import.h): the importer that puts them into the planes the
  // convert pass reads, set before the first tick (nullptr: none). With one, every tick's
  // submission must wait for import_wait() and signal import_release() (render::submit_timeline;
  // a point whose semaphore is null is left out), so that the importer overwrites a planes
  // buffer only after the ticks that read it. The importer serves this renderer alone: its
  // timeline values are this renderer's copy and tick numbers, from 1.
  void set_import(FrameImport* import) noexcept { import_ = import; }
  // This tick's wait for the importer's copy of its new frame (null semaphore: none).
  render::TimelinePoint import_wait() const noexcept { return import_wait_; }
  // What this tick's submission signals for the importer (null semaphore without an importer).
  render::TimelinePoint import_release() const;
  // Whether the current frame came through the importer (its tick's upload time in the
  // statistics is then the importer's copy, timed by the importer and added to gpu_ms).
  bool frame_imported() const noexcept { return imported_; }
  std::uint32_t slot_index() const noexcept { return next_slot_; }
  void end();

  // Empty when such a frame can be shown; else why (e.g. larger than the device allows).
  std::string check(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) const;

  const FrameStatistics& statistics() const noexcept { return statistics_; }
  bool has_frame() const noexcept { return state_.has_frame; }
  Engine engine() const noexcept { return engine_kind_; }
  // Whether the current (paused) frame must be given again as new for `style`: the CPU engine
  // makes the scopes' counts from the frame on the host, so a change of what they count
  // (frame_renderer_scopes.h) asks for it again. (Its R'G'B' is on the GPU for every other pass.)
  bool wants_frame_again(const DrawStyle& style) const noexcept {
    return engine_kind_ == Engine::cpu && state_.has_frame && scopes_want_frame(style);
  }
  void wait_idle();

  static constexpr std::uint32_t kFramesInFlight = 2;

 private:
  struct Slot;

  // Host side of a tick: the plan, the buffers it needs (growing them waits for the frames in
  // flight), the new frame staged (or converted and counted on the CPU).
  FramePlan prepare(const VideoFormat* format, const VideoPlanes* planes, bool rehistogram, const DrawStyle& style,
                    const DeviceFrame* device);
  void prepare_buffers(const FramePlan& plan, const FrameFormat& rgb);
  void prepare_gpu_frame(const VideoFormat& format, const VideoPlanes& planes, const DeviceFrame* device);
  // GPU engine, a frame in another API's memory: its planes copied by the importer into its
  // buffer for this slot (frame_renderer_import.cpp).
  void prepare_imported_frame(const VideoFormat& format, const VideoPlanes& planes, const DeviceFrame& device);
  void prepare_cpu_frame(const VideoFormat& format, const VideoPlanes& planes, const FrameFormat& rgb,
                         const DrawStyle& style);
  void prepare_cpu_uploads(const FramePlan& plan, std::uint32_t bins);
  void prepare_reference(const FramePlan& plan, const DrawStyle& style, const FrameFormat& rgb);
  void grow_staging(Slot& slot, std::uint64_t bytes);
  VkCommandBuffer begin_commands();
  VkCommandBuffer end_commands(VkCommandBuffer cmd, const FramePlan& plan);

  // The passes, in recording order (frame_renderer_passes.cpp).
  void record_compute_passes(VkCommandBuffer cmd, const FramePlan& plan, const VideoFormat* format,
                             const VideoPlanes* planes, const DrawStyle& style);
  void record_convert(VkCommandBuffer cmd, const VideoFormat& format, const VideoPlanes& planes);
  // source measures (GPU engine): the plane pass and, for PQ and HLG (`light`), the light pass on
  // the new frame, their counts copied to the slot's readback buffer.
  void record_source_measures(VkCommandBuffer cmd, const VideoFormat& format, LightScale light);
  void record_host_uploads(VkCommandBuffer cmd, const FramePlan& plan);
  void record_count(VkCommandBuffer cmd, std::uint32_t bins, bool ycbcr);
  // The region this tick counts for `style` in frames of `rgb` (none: the whole frame).
  static std::optional<PixelRect> counted_region(const DrawStyle& style, const FrameFormat& rgb);
  // count, ycbcr: the plane counts (the levels', and the display bins') into the display and
  // statistics histograms, and the scale pass.
  void record_plane_count(VkCommandBuffer cmd, std::uint32_t bins, std::uint32_t levels);
  void record_scan(VkCommandBuffer cmd);
  // equalize: through the equalization table, or (DrawStyle::match) the match pass's table.
  void record_equalize(VkCommandBuffer cmd, const DrawStyle& style);
  void record_draw_composite(VkCommandBuffer cmd, const FramePlan& plan, const DrawStyle& style,
                             const CompositeTarget& target);
  void fill_composite_geometry(shader::CompositeParams& params, const FramePlan& plan, const DrawStyle& style,
                               VkExtent2D extent);
  // The panels' overlay items (picture_overlay.h) for this tick.
  OverlayItems panel_overlay(const FramePlan& plan, const DrawStyle& style, const std::vector<HistogramQuad>& quads) const;
  // `slots` written to this slot's overlay buffer (at most kMaxOverlayItems); how many were.
  std::size_t write_overlay(const std::vector<shader::OverlayItem>& slots);
  // The scale block the bars are drawn with: the display histogram's, or with
  // DrawStyle::end_scale that of the bins between the end bins.
  VkDeviceAddress shown_scale(const DrawStyle& style) const;

  // The scopes (frame_renderer_scopes.cpp): their requests and, CPU engine, counts on the host;
  // their counts after the equalize pass; whether the CPU engine needs the frame again.
  void prepare_scopes(const FramePlan& plan, const VideoFormat* format, const VideoPlanes* planes, bool rehistogram,
                      const DrawStyle& style);
  void record_scope_counts(VkCommandBuffer cmd, const FramePlan& plan, const DrawStyle& style);
  bool scopes_want_frame(const DrawStyle& style) const noexcept;
  // Whether `vhist scope`'s picture (DrawStyle::scopes_only: no video, no histogram, no
  // statistics) reads the CPU engine's converted frame: a waveform or an R'G'B' parade does, a
  // vectorscope or a Y'CbCr parade of a frame with Y'CbCr planes does not (nor then the equalize pass).
  bool scopes_only_read_rgb(const DrawStyle& style, const VideoFormat& format) const;

  // composite.comp's set layout (its parameters' storage buffer) and each slot's set.
  void make_composite_descriptors();
  void collect(Slot& slot);
  void collect_source_measures(Slot& slot);

  render::Context& context_;
  Engine engine_kind_;
  HistogramEngine engine_;
  FrameUpload upload_;
  SourcePass source_pass_;
  render::Buffer plane_counts_, light_counts_;  // the source passes' results, read back per slot
  render::Buffer plane_display_counts_;          // ycbcr: the planes at the display bins
  VideoFormat planes_format_;                    // the frame whose planes planes_gpu_ points at (GPU engine)
  // Where the current frame's planes are: in planes_, or in its slot's staging when FrameUpload
  // stages frames in device memory (that slot's staging is not rewritten before the next frame).
  GpuPlanes planes_gpu_;
  // composite.comp specialized for a pass (the video's or a panel's) and the HDR display mapping
  // or none; made when first used. `part`: composite.comp's kPart (0 in the video pass).
  const render::ComputePipeline& composite_pipeline(std::uint32_t part, bool hdr);
  // The panels' passes of the composite (after its video pass).
  void record_composite_panels(VkCommandBuffer cmd, const shader::CompositeParams& params, VkExtent2D extent);
  std::map<std::uint32_t, render::ComputePipeline> composite_pipelines_;
  render::UniqueDescriptorSetLayout composite_set_layout_;
  render::UniqueDescriptorPool composite_pool_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::uint32_t next_slot_ = 0;

  // The current frame on the GPU, shared by the slots (barriers order their reuse); planes_
  // stays empty while frames are staged in device memory.
  render::Buffer planes_, rgb_;
  PlaneOffsets plane_layout_;  // of the frame staged this tick (GPU engine)
  // Hardware-decoded frames: the importer, this tick's wait for its copy, whether the current
  // frame came through it and then its planes buffer (the importer's for the tick's slot); the
  // copies made and the ticks submitted (the importer's timeline values).
  FrameImport* import_ = nullptr;
  render::TimelinePoint import_wait_{};
  bool imported_ = false;
  const render::Buffer* imported_planes_ = nullptr;
  std::uint64_t import_copies_ = 0, ticks_submitted_ = 0;
  std::array<std::uint64_t, kFramesInFlight> import_capacity_{};  // of the importer's buffer per slot
  HistogramTarget display_, levels_;
  render::Buffer inner_scale_;  // DrawStyle::end_scale: the scale of the display bins between the end bins
  // The statistics histogram of the current frame: levels_, or display_ when the display bins
  // are one per code; set at each recount.
  const HistogramTarget* levels_source_ = &display_;
  CdfTarget cdf_;  // its prefix sum and equalization table
  MatchPass match_pass_;
  CdfTarget match_;  // the match pass's table (its `table`; `cdf` unused)
  std::uint32_t reference_levels_ = 0;  // of the reference's prefix sum in the slot's reference buffer
  std::array<render::Buffer, 3> palettes_;  // one constant buffer per Palette
  render::Buffer equalized_;    // the equalized frame, written by equalize.comp
  FrameFormat rgb_format_;      // of the current frame
  // The pixels the histograms count: the whole frame, or the region of interest's rows copied
  // out of it (GPU engine: into region_; CPU engine: cropped on the host).
  std::optional<PixelRect> counted_rect_;
  FrameFormat counted_format_;
  render::Buffer region_;
  // How the current frame is shown: turned upright, at its display size (the sample aspect ratio
  // applied); the histograms count its stored pixels.
  struct Shape {
    std::uint32_t rotation = 0;
    float width = 1, height = 1;
  } shape_;
  std::unique_ptr<CpuEngine> cpu_;
  Histogram cpu_levels_;  // CPU engine: the current frame's histogram at one level per code
  PictureState state_;    // what the plan reads, as the last tick left it
  std::unique_ptr<FrameScopes> scopes_;
  FrameStatistics statistics_;
};

}  // namespace vhist::viewer
