// The viewer's per-frame GPU work, two frames in flight, independent of the window: it records
// into any render pass (the swapchain's, or an offscreen image in the benchmark). Each tick
// records one command buffer:
//   new decoded frame: staging slot -> device planes -> convert pass -> the R'G'B' frame
//   new frame or new bins: histogram (display bins) and, when they differ, the statistics
//     histogram at one level per code; the latter copied to the slot's readback buffer
//   when the cumulative histogram is drawn or the picture equalized: the prefix sum of the
//     statistics histogram (hist_cdf.comp), giving the CDF and the equalization table
//   render pass: the video cover-fitted to the window (equalized right of the split, through
//     the table, in the same shader), the histogram quads (the articles' bit-mask shader, with
//     the CDF where asked), then ImGui
//   then whatever the caller adds inside the pass (ImGui) and after it (a screenshot copy)
// The slot's fence is waited for only when the slot comes round again, one frame later: the
// statistics and GPU time shown in the UI are a frame old, and nothing stalls the GPU.
#pragma once

#include "viewer/settings.h"

#include "vhist/compute/cdf.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/frame_converter.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/histogram_engine.h"
#include "vhist/render/buffer.h"
#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"
#include "vhist/render/gpu_timer.h"
#include "vhist/render/graphics_pipeline.h"
#include "vhist/render/image.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace vhist::viewer {

// What the histogram overlay draws (from Settings).
struct OverlayStyle {
  std::array<bool, 4> channels{true, true, true, true};  // R, G, B, L
  ScaleMode scale = ScaleMode::automatic;
  std::uint32_t bins = 256;
  Layout layout = Layout::split;
  Palette palette = Palette::classic;
  float opacity = 0.75f;
  bool video = true;  // draw the video (false: the histograms over black)
  std::array<CdfMode, 4> cdf{};  // per channel: the cumulative histogram off, over or instead
  EqualizeMode equalize = EqualizeMode::off;
  // Equalize only right of a divider at this fraction of the width (0..1); otherwise all of it.
  bool split_view = false;
  float split_position = 0.5f;
};

// The statistics of the frame drawn one tick ago (the same tick with the CPU engine).
struct FrameNumbers {
  bool valid = false;
  std::uint32_t width = 0, height = 0, bits = 8;
  std::array<ChannelStats, 4> stats{};
  double gpu_ms = 0;  // GPU time of that tick's command buffer (timestamp queries)
};

// Rectangles in window pixels (x0, y0, x1, y1) and the channels each histogram quad draws.
struct HistogramQuad {
  std::array<float, 4> rect{};
  std::array<std::uint32_t, 4> channel_mult{};
};
std::vector<HistogramQuad> layout_quads(const OverlayStyle& style, float width, float height);
// The articles' cover scale: the video quad spans [-sx, sx] x [-sy, sy] in clip space, so the
// video fills the window and keeps its aspect ratio (the overflow is cropped).
std::array<float, 2> cover_scale(float window_w, float window_h, float video_w, float video_h);
// The palette's 16 colours (RGBA) by channel mask (R 1, G 2, B 4, L 8).
std::array<std::array<float, 4>, 16> palette_colours(Palette palette);

// Where a tick draws: a render pass with one colour attachment, cleared, and its framebuffer;
// or, with no render pass, `composite`: the device address of a tightly packed RGBA8 buffer of
// extent.width x extent.height pixels that a compute pass draws the same picture into (for GPUs
// with little or no graphics hardware, and headless use).
struct RenderTarget {
  VkRenderPass render_pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkExtent2D extent{};
  VkDeviceAddress composite = 0;
};

class Overlay {
 public:
  // `cpu_engine`: convert and count on the CPU (CpuEngine) and upload the R'G'B' frame and the
  // histogram for drawing; the right choice when the Vulkan device is itself a CPU (lavapipe),
  // where emulated compute passes cost far more than the same work in vectorized C++.
  // `render_pass` is the pass the quads are drawn in (compatible passes work too).
  Overlay(render::Context& context, VkRenderPass render_pass, bool cpu_engine);
  ~Overlay();
  Overlay(const Overlay&) = delete;
  Overlay& operator=(const Overlay&) = delete;

  // A tick: begin() waits until the next slot's previous use has finished (and reads its
  // numbers); record() fills the slot (the new frame's planes, or its conversion on the CPU)
  // and records its command buffer, ready to submit with fence(); end() moves to the next slot
  // once that command buffer has been submitted.
  void begin();
  VkCommandBuffer record(const VideoFormat* format, const VideoPlanes* planes, bool rehistogram, const OverlayStyle& style,
                         const RenderTarget& target, const std::function<void(VkCommandBuffer)>& in_pass,
                         const std::function<void(VkCommandBuffer)>& after_pass);
  VkFence fence() const;
  std::uint32_t slot_index() const noexcept { return next_slot_; }
  void end();

  // Empty when such a frame can be shown; else why (e.g. larger than the device allows).
  std::string check(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) const;

  const FrameNumbers& numbers() const noexcept { return numbers_; }
  bool has_frame() const noexcept { return has_frame_; }
  bool cpu_engine() const noexcept { return cpu_ != nullptr; }
  void wait_idle();

  static constexpr std::uint32_t kFramesInFlight = 2;

 private:
  struct Slot;
  void ensure_frame_buffers(std::uint64_t plane_bytes, std::uint64_t rgb_bytes);
  // A sampled image the video is drawn from, with its descriptor set.
  struct VideoImage {
    render::Image2D image;
    VkDescriptorSet set = VK_NULL_HANDLE;
    bool written = false;  // its layout is SHADER_READ_ONLY (else UNDEFINED)
  };
  // `image` sized and formatted for frames of `format` (recreated on change).
  void ensure_video_image(VideoImage& image, const FrameFormat& format);
  // Records the copy of a frame of rgb_format_ from `buffer` at `offset` into `image`.
  void record_image_upload(VkCommandBuffer cmd, VideoImage& image, VkBuffer buffer, VkDeviceSize offset);
  void collect(Slot& slot);
  bool needs_cdf(const OverlayStyle& style) const;

  render::Context& context_;
  HistogramEngine engine_;
  FrameConverter converter_;
  render::GraphicsPipeline video_pipeline_, histogram_pipeline_;
  render::ComputePipeline composite_pipeline_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::uint32_t next_slot_ = 0;

  // The current frame on the GPU, shared by the slots (barriers order their reuse).
  render::Buffer planes_, rgb_;
  HistogramTarget display_, levels_;
  // The statistics histogram of the current frame: levels_, or display_ when the display bins
  // are one per code; set at each recount.
  const HistogramTarget* levels_source_ = &display_;
  CdfTarget cdf_;            // its prefix sum and equalization table
  bool cdf_fresh_ = false;   // cdf_ is that of the current frame
  std::array<render::Buffer, 3> palettes_;  // one constant buffer per Palette
  render::UniqueSampler sampler_;
  render::UniqueDescriptorSetLayout set_layout_;
  render::UniqueDescriptorPool descriptor_pool_;
  VideoImage video_;            // the frame
  VideoImage equalized_video_;  // the equalized frame (rasterized split view)
  render::Buffer equalized_;    // the equalized frame, written by equalize.comp
  bool rgb_current_ = false;    // rgb_ holds the current frame (always on the GPU path)
  bool equalized_fresh_ = false;  // equalized_ is the current frame's, by equalized_mode_
  EqualizeMode equalized_mode_ = EqualizeMode::off;
  FrameFormat rgb_format_;
  std::unique_ptr<CpuEngine> cpu_;
  Histogram cpu_levels_;  // CPU path: the current frame's histogram at one level per code
  bool has_frame_ = false;
  std::uint32_t histogram_bins_ = 0;  // bins of display_ as last counted
  FrameNumbers numbers_;
};

}  // namespace vhist::viewer
