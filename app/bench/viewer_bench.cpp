#include "viewer_bench.h"

#include "bench_util.h"
#include "video_bench.h"

#include "vhist/picture/offscreen.h"
#include "vhist/picture/frame_renderer.h"
#include "vhist/picture/present_pass.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/engine_choice.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/synthetic_frames.h"

#include "vhist/render/command_slot.h"
#include "vhist/render/image.h"
#include "vhist/render/vk_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace vhist::bench {

namespace {

struct Variant {
  const char* name;
  bool video, histograms;
  bool cdf;       // the prefix sum, and the CDF curves drawn over all four histograms
  EqualizeMode equalize;
  bool split;     // equalized right of a centred divider only (else the whole picture)
  int base;       // the variant this one is compared with (-1: none)
  unsigned tools = 0;  // the exposure tools (kTool*)
};
// Issue 17's tools: zebras (both ends, stripes), false colour, a highlighted histogram range and a
// pixel's markers; a region of interest (the centre quarter); a reference histogram outlined over
// the bars; the picture matched to it, in the split view.
constexpr unsigned kToolMarks = 1, kToolRegion = 2, kToolReference = 4, kToolMatch = 8;
constexpr unsigned kToolZebra = 16, kToolFalseColour = 32, kToolRange = 64;  // one mark alone
constexpr unsigned kAllTools = kToolMarks | kToolRegion | kToolReference | kToolMatch;
// Issue 26's scopes, beside the video (luma waveform, R'G'B' parade, vectorscope x1): each
// counted every tick (a new frame each tick) and drawn over the composite.
constexpr unsigned kToolWaveform = 128, kToolParade = 256, kToolVectorscope = 512;
constexpr unsigned kAllScopes = kToolWaveform | kToolParade | kToolVectorscope;
// The whole frame, then without each of the two draws, to see what each costs; then with the
// cumulative histograms drawn over the bars and the picture equalized (split view), and with the
// exposure tools, against the plain one.
constexpr auto off = EqualizeMode::off, luma = EqualizeMode::luma, channels = EqualizeMode::channels;
constexpr Variant kVariants[] = {{"compute: video + hist", true, true, false, off, false, -1},
                                 {"compute: hist only", false, true, false, off, false, -1},
                                 {"compute: video only", true, false, false, off, false, -1},
                                 {"compute: nothing drawn", false, false, false, off, false, -1},
                                 {"compute: + equalize luma", true, true, false, luma, false, 0},
                                 {"compute: + eq. channels", true, true, false, channels, false, 0},
                                 {"compute: + eq. luma, split", true, true, false, luma, true, 0},
                                 {"compute: + cdf curves", true, true, true, off, false, 0},
                                 {"compute: + cdf + eq. split", true, true, true, luma, true, 0},
                                 {"compute: + zebra, fc, marks", true, true, false, off, false, 0, kToolMarks},
                                 {"compute: + zebra only", true, true, false, off, false, 0, kToolZebra},
                                 {"compute: + false colour only", true, true, false, off, false, 0, kToolFalseColour},
                                 {"compute: + range only", true, true, false, off, false, 0, kToolRange},
                                 {"compute: + region", true, true, false, off, false, 0, kToolRegion},
                                 {"compute: + reference", true, true, false, off, false, 0, kToolReference},
                                 {"compute: + ref. match split", true, true, false, off, true, 0,
                                  kToolReference | kToolMatch},
                                 {"compute: + all exposure tools", true, true, false, off, true, 0, kAllTools},
                                 {"compute: + waveform", true, true, false, off, false, 0, kToolWaveform},
                                 {"compute: + parade", true, true, false, off, false, 0, kToolParade},
                                 {"compute: + vectorscope", true, true, false, off, false, 0, kToolVectorscope},
                                 {"compute: + all three scopes", true, true, false, off, false, 0, kAllScopes}};

// A reference histogram for the tools' variants: flat over the 256 codes.
std::shared_ptr<const Histogram> flat_reference() {
  Histogram h(256);
  for (auto& v : h.counts) v = 1000;
  return std::make_shared<const Histogram>(std::move(h));
}

void add_tools(viewer::DrawStyle& style, unsigned tools, VkExtent2D frame) {
  if (tools & kToolMarks) {
    style.zebra = viewer::ZebraMode::both;
    style.false_colour = true;
    style.range_mask = 15;
    style.range_low = 100;
    style.range_high = 140;
    style.markers = {40, 80, 120, 160};
  }
  if (tools & kToolZebra) style.zebra = viewer::ZebraMode::both;
  if (tools & kToolFalseColour) style.false_colour = true;
  if (tools & kToolRange) {
    style.range_mask = 15;
    style.range_low = 100;
    style.range_high = 140;
  }
  style.waveform = (tools & kToolWaveform) != 0;
  style.parade = (tools & kToolParade) != 0;
  style.vectorscope = (tools & kToolVectorscope) != 0;
  if (tools & kToolRegion) style.region = PixelRect{frame.width / 4, frame.height / 4, frame.width / 2, frame.height / 2};
  if (tools & (kToolReference | kToolMatch)) style.reference = flat_reference();
  if (tools & kToolMatch) {
    style.match = true;
    style.equalize = EqualizeMode::channels;
  }
}

viewer::DrawStyle style_of(const Variant& variant, VkExtent2D frame) {
  viewer::DrawStyle style;  // the defaults: split layout, all channels, 256 bins, auto scale
  style.video = variant.video;
  if (!variant.histograms) style.channels = {false, false, false, false};
  if (variant.cdf) style.cdf = {viewer::CdfMode::over, viewer::CdfMode::over, viewer::CdfMode::over, viewer::CdfMode::over};
  style.equalize = variant.equalize;
  style.split_view = variant.split;
  style.split_position = 0.5f;
  add_tools(style, variant.tools, frame);
  return style;
}

struct Timing {
  std::string skipped;         // why the frames cannot be drawn (then nothing was measured)
  std::vector<double> gpu_ms;  // per tick
  double seconds = 0;          // wall clock of the measured ticks
};

// `warmup` then `frames` ticks of `variant`, a new frame each tick, as the viewer's playback.
Timing time_variant(render::Context& context, Engine engine, VkExtent2D extent, const Variant& variant,
                    const std::vector<SyntheticVideoFrame>& ring, std::uint32_t warmup, std::uint32_t frames) {
  viewer::OffscreenTarget target(context, extent);
  viewer::FrameRenderer renderer(context, engine);
  const viewer::DrawStyle style = style_of(variant, extent);
  Timing timing;
  timing.skipped = renderer.check(ring[0].format, ring[0].view(), style.bins);
  if (!timing.skipped.empty()) return timing;
  std::chrono::steady_clock::time_point t0;
  for (std::uint32_t i = 0; i < warmup + frames; ++i) {
    if (i == warmup) t0 = std::chrono::steady_clock::now();
    renderer.begin();
    if (i > warmup + 1) timing.gpu_ms.push_back(renderer.statistics().gpu_ms);  // that slot's previous tick, timed
    const SyntheticVideoFrame& f = ring[i % ring.size()];
    const VideoPlanes planes = f.view();
    const VkCommandBuffer cmd = renderer.record_composite(&f.format, &planes, false, style, target.composite(), nullptr);
    render::submit(context, cmd, renderer.fence());
    renderer.end();
  }
  renderer.wait_idle();
  timing.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return timing;
}

// The plain variant with NVDEC's frames (--hwdec): the same frames as NV12 in CUDA memory (put
// there once), imported each tick through the CUDA importer into the renderer's convert pass; the
// tick waits for the copy and signals the importer's release, as Presenter does. gpu_ms includes
// the copy (the importer's CUDA events). Verified: each tick's statistics histogram (one level
// per code, read back two ticks later) equals the CPU reference of its frame. The renderer gets an
// importer of its own: an importer's timeline values are its one consumer's numbers, and each
// renderer numbers its ticks from 1.
struct NvdecTiming : Timing {
  bool ok = true;
};
NvdecTiming time_nvdec(render::Context& context, VkExtent2D extent, const std::vector<SyntheticVideoFrame>& ring,
                       std::uint32_t warmup, std::uint32_t frames) {
  NvdecTiming timing;
  const hwdec::Hwdec hw = hwdec::open_hwdec(hwdec::HwdecMode::nvdec, context);
  if (!hw.usable()) {
    timing.skipped = hw.reason;
    return timing;
  }
  std::vector<SyntheticVideoFrame> nv12;
  std::vector<std::shared_ptr<const DeviceFrame>> device;
  std::vector<Histogram> want;
  for (const auto& f : ring) {
    nv12.push_back(nvdec_frame(f));
    device.push_back(hw.put_frame(nv12.back().format, nv12.back().view()));
    want.push_back(reference_histogram(reference_convert(f.format, f.view()), converted_format(f.format),
                                       stats_levels(f.format.bits)));
  }
  viewer::OffscreenTarget target(context, extent);
  viewer::FrameRenderer renderer(context, Engine::gpu);  // goes before the frames in CUDA memory
  renderer.set_import(hw.import());
  const viewer::DrawStyle style = style_of(kVariants[0], extent);
  timing.skipped = renderer.check(nv12[0].format, nv12[0].view(), style.bins);
  if (!timing.skipped.empty()) return timing;
  std::chrono::steady_clock::time_point t0;
  for (std::uint32_t i = 0; i < warmup + frames; ++i) {
    if (i == warmup) t0 = std::chrono::steady_clock::now();
    renderer.begin();  // reads tick i - 2's statistics
    if (i >= 2) timing.ok = timing.ok && renderer.statistics().levels == want[(i - 2) % ring.size()];
    if (i > warmup + 1) timing.gpu_ms.push_back(renderer.statistics().gpu_ms);
    const std::size_t k = i % ring.size();
    const VideoPlanes planes = nv12[k].view();
    const VkCommandBuffer cmd = renderer.record_composite(&nv12[k].format, &planes, false, style, target.composite(),
                                                          nullptr, device[k].get());
    const render::TimelinePoint wait = renderer.import_wait(), release = renderer.import_release();
    render::submit_timeline(context, cmd, renderer.fence(), {&wait, 1}, {&release, 1});
    renderer.end();
  }
  renderer.wait_idle();
  timing.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return timing;
}

// Median GPU time, ms, of `frames` submissions of what `record` records (timed alone, each waited for).
template <typename Record>
double time_alone(render::Context& context, std::uint32_t frames, const Record& record) {
  render::CommandSlot slot(context, false);
  const render::GpuTimer timer(context, 2);
  std::vector<double> ms;
  for (std::uint32_t i = 0; i < frames; ++i) {
    const VkCommandBuffer cmd = slot.begin();
    timer.reset(cmd);
    timer.write(cmd, 0);
    record(cmd, i);
    timer.write(cmd, 1);
    VHIST_VK_CHECK(vkEndCommandBuffer(cmd));
    render::submit(context, cmd, slot.fence());
    const VkFence fence = slot.fence();
    VHIST_VK_CHECK(vkWaitForFences(context.device(), 1, &fence, VK_TRUE, UINT64_MAX));
    VHIST_VK_CHECK(vkResetFences(context.device(), 1, &fence));
    const std::vector<double> ns = timer.read_ns(2);
    ms.push_back((ns[1] - ns[0]) * 1e-6);
  }
  return median(ms);
}

// The window's step after the composite, timed alone: the picture (a device buffer, 4 bytes a
// pixel) copied into a BGRA8 image of the same size and the swapchain image's usage, as Presenter
// copies it into the swapchain image before the UI pass. Median GPU time of `frames` copies, ms.
double time_present_copy(render::Context& context, VkExtent2D extent, std::uint32_t frames) {
  const render::Buffer picture(context, VkDeviceSize{extent.width} * extent.height * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                               render::MemoryUse::device, false, "bench picture");
  const render::Image2D image(context, extent, VK_FORMAT_B8G8R8A8_UNORM,
                              VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, "bench swapchain");
  return time_alone(context, frames, [&](VkCommandBuffer cmd, std::uint32_t) {
    render::image_barrier(cmd, image.get(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {extent.width, extent.height, 1};
    vkCmdCopyBufferToImage(cmd, picture.get(), image.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  });
}

// The same step by the present pass (PresentPass: a compute shader storing the picture into the
// image bound as a storage image), as Presenter does where the swapchain stores: a BGRA8 image
// with the swapchain's usage plus STORAGE. Median GPU time, ms; negative when this device cannot
// write BGRA8 images from a shader (the window copies there).
double time_present_pass(render::Context& context, VkExtent2D extent, std::uint32_t frames) {
  if (!render::storage_writable(context, VK_FORMAT_B8G8R8A8_UNORM)) return -1;
  const render::Buffer picture(context, VkDeviceSize{extent.width} * extent.height * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               render::MemoryUse::device, true, "bench picture");
  const render::Image2D image(context, extent, VK_FORMAT_B8G8R8A8_UNORM,
                              VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                  VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                              "bench swapchain");
  viewer::PresentPass pass(context);
  return time_alone(context, frames, [&](VkCommandBuffer cmd, std::uint32_t i) {
    pass.record(cmd, i % viewer::PresentPass::kSlots, picture.address(), true, image.get(), image.view(), extent);
  });
}

// The nvdec row of one size (time_nvdec), beside the plain variant's median `base`; whether its
// histograms were right.
bool print_nvdec_row(render::Context& context, const std::string& size, VkExtent2D extent,
                     const std::vector<SyntheticVideoFrame>& ring, std::uint32_t warmup, std::uint32_t frames,
                     double base) {
  const NvdecTiming timing = time_nvdec(context, extent, ring, warmup, frames);
  if (!timing.skipped.empty()) {
    std::printf("%-10s nvdec: skipped (%s)\n", size.c_str(), timing.skipped.c_str());
    return true;
  }
  const double m = median(timing.gpu_ms);
  char ratio[16] = "";
  if (base > 0) std::snprintf(ratio, sizeof ratio, "%.3fx", m / base);
  std::printf("%-10s %-8s %-30s %10.3fms %10.3fms %10.1f %9s  ok %s\n", size.c_str(), "gpu", "nvdec: video + hist", m,
              *std::min_element(timing.gpu_ms.begin(), timing.gpu_ms.end()), frames / timing.seconds, ratio,
              timing.ok ? "yes" : "NO");
  return timing.ok;
}

}  // namespace

bool run_viewer_bench(render::Context& context, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& sizes,
                      std::uint32_t iterations, const hwdec::Hwdec& hw) {
  const bool cpu_device = context.properties().kind == render::DeviceKind::cpu;
  // As the viewer chooses by default: the CPU engine on a CPU Vulkan device.
  const Engine engine = choose_engine(context.properties().kind, EngineChoice::automatic);
  // At least 3 ticks: a tick's GPU time is read two ticks later (two frames in flight), so fewer
  // would time none.
  const std::uint32_t frames = std::max(3u, iterations ? iterations : (cpu_device ? 20u : 300u));
  const std::uint32_t warmup = cpu_device ? 2 : 50;
  const bool nvdec = hw.usable() && engine == Engine::gpu;
  bool all_ok = true;
  std::printf("\nviewer frame, offscreen: new 8-bit 4:2:0 frame each tick -> staging -> upload -> convert -> "
              "histograms -> compute composite (video pass, panels' passes), 2 in flight\n");
  print_staging(context);
  std::printf("%-10s %-8s %-30s %12s %12s %10s %9s\n", "size", "engine", "drawn", "gpu median", "gpu min", "wall fps",
              "vs base");
  for (const auto& [w, h] : sizes) {
    std::vector<SyntheticVideoFrame> ring;
    for (std::uint32_t i = 0; i < 3; ++i) ring.push_back(make_natural_yuv420(w, h, 8, i));
    std::vector<double> medians(std::size(kVariants), 0.0);
    for (std::size_t v = 0; v < std::size(kVariants); ++v) {
      const Variant& variant = kVariants[v];
      const Timing timing = time_variant(context, engine, {w, h}, variant, ring, warmup, frames);
      if (!timing.skipped.empty()) {
        std::printf("%ux%u: skipped (%s)\n", w, h, timing.skipped.c_str());
        continue;
      }
      medians[v] = median(timing.gpu_ms);
      char ratio[16] = "";
      if (variant.base >= 0 && medians[static_cast<std::size_t>(variant.base)] > 0) {
        std::snprintf(ratio, sizeof ratio, "%.3fx", medians[v] / medians[static_cast<std::size_t>(variant.base)]);
      }
      std::printf("%-10s %-8s %-30s %10.3fms %10.3fms %10.1f %9s\n", (std::to_string(w) + "x" + std::to_string(h)).c_str(),
                  std::string(engine_name(engine)).c_str(), variant.name, medians[v],
                  *std::min_element(timing.gpu_ms.begin(), timing.gpu_ms.end()), frames / timing.seconds, ratio);
    }
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    if (nvdec) all_ok = print_nvdec_row(context, size, {w, h}, ring, warmup, frames, medians[0]) && all_ok;
    std::printf("%-10s %-8s %-30s %10.3fms   (the window's copy of the picture into the swapchain image, timed alone)\n",
                size.c_str(), "", "present copy", time_present_copy(context, {w, h}, frames));
    const double pass_ms = time_present_pass(context, {w, h}, frames);
    if (pass_ms < 0) {
      std::printf("%-10s %-8s %-30s   skipped (this device cannot write BGRA8 storage images; the window copies)\n",
                  size.c_str(), "", "present pass");
    } else {
      std::printf("%-10s %-8s %-30s %10.3fms   (the same by the present pass's compute shader, timed alone; the "
                  "window uses it on GPUs)\n", size.c_str(), "", "present pass", pass_ms);
    }
  }
  std::printf("gpu = timestamp queries around each tick's whole command buffer (median of %u ticks); vs base = that\n"
              "median over the plain variant's median in this run%s\n", frames,
              nvdec ? "; nvdec: NV12 frames in CUDA memory imported each tick (the CUDA\ncopy included), every tick's "
                      "statistics histogram checked against the CPU reference (ok)" : "");
  return all_ok;
}

}  // namespace vhist::bench
