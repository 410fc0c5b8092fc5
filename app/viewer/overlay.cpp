#include "viewer/overlay.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/equalize_shared.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"
#include "vhist/shaders/composite.spv.h"
#include "vhist/shaders/histogram_frag.spv.h"
#include "vhist/shaders/quad_vert.spv.h"
#include "vhist/shaders/video_frag.spv.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <stdexcept>

namespace vhist::viewer {

namespace {

// Push constants, laid out as the shaders' Push blocks (quad.vert's rect and uv first).
struct VideoPush {
  float rect[4];
  float uv[4];
  float code_scale;  // 65535 / (2^bits - 1) for 16-bit images, 1 for 8-bit
  float split_x;     // framebuffer pixels: the divider of the split view
  std::uint32_t divider, pad;
};
static_assert(sizeof(VideoPush) == 48);

struct HistogramPush {
  float rect[4];
  float uv[4];
  VkDeviceAddress histogram, scale, palette, cdf;
  std::uint32_t channel_mult[4];
  std::uint32_t bins, mode;
  float pixels, opacity;
  std::uint32_t levels, cdf_fill, cdf_line, pad;
};
static_assert(sizeof(HistogramPush) == 112);

// Laid out as the Params block of composite.comp (std430).
struct CompositeParams {
  VkDeviceAddress frame, output, histogram, scale, palette;
  std::uint32_t width, height, bits, has_video;
  std::uint32_t target_w, target_h, quad_count, mode;
  float cover[2];
  std::uint32_t bins;
  float opacity;
  float pixels;
  float pad;
  float quad_rect[4][4];
  std::uint32_t quad_mult[4][4];
  VkDeviceAddress cdf, equalized;
  std::uint32_t levels, pad0, cdf_fill, cdf_line;
  float split_x;
  std::uint32_t divider, pad1[2];
};
static_assert(offsetof(CompositeParams, quad_rect) == 96 && offsetof(CompositeParams, cdf) == 224 &&
              sizeof(CompositeParams) == 272);

constexpr VkDeviceSize kReadbackBytes = VkDeviceSize{shader::kMaxBins} * 16;
// CPU path staging layout: the display histogram, its scale block, the statistics histogram,
// then the R'G'B' frame.
constexpr std::size_t kStagingScaleOffset = std::size_t{shader::kMaxBins} * 16;
constexpr std::size_t kStagingLevelsOffset = kStagingScaleOffset + 256;
constexpr std::size_t kStagingRgbOffset = kStagingLevelsOffset + std::size_t{shader::kMaxBins} * 16;

std::uint32_t scale_mode_id(ScaleMode m) {
  switch (m) {
    case ScaleMode::automatic: return 0;
    case ScaleMode::logarithmic: return 1;
    case ScaleMode::fixed: return 2;
  }
  return 0;
}

// Channel bits (1 << c) of the channels whose CDF is drawn in `mode`.
std::uint32_t cdf_mask(const OverlayStyle& style, CdfMode mode) {
  std::uint32_t mask = 0;
  for (std::uint32_t c = 0; c < 4; ++c) {
    if (style.channels[c] && style.cdf[c] == mode) mask |= 1u << c;
  }
  return mask;
}

}  // namespace

std::vector<HistogramQuad> layout_quads(const OverlayStyle& style, float w, float h) {
  const auto bit = [&](int c) { return style.channels[static_cast<std::size_t>(c)] ? (1u << c) : 0u; };
  const float margin_x = 0.025f * w, bottom = h - 0.025f * h;
  std::vector<HistogramQuad> quads;
  switch (style.layout) {
    case Layout::split: {
      // As in the articles: R, G and B together bottom left, luma bottom right, each 45% of the
      // width and 25% of the height.
      const float top = bottom - 0.25f * h;
      if (bit(0) | bit(1) | bit(2)) quads.push_back({{margin_x, top, margin_x + 0.45f * w, bottom}, {bit(0), bit(1), bit(2), 0}});
      if (bit(3)) quads.push_back({{w - margin_x - 0.45f * w, top, w - margin_x, bottom}, {0, 0, 0, bit(3)}});
      break;
    }
    case Layout::overlay: {
      const float top = bottom - 0.25f * h;
      if (bit(0) | bit(1) | bit(2) | bit(3)) {
        quads.push_back({{margin_x, top, w - margin_x, bottom}, {bit(0), bit(1), bit(2), bit(3)}});
      }
      break;
    }
    case Layout::stacked: {
      // One quad per channel, one above the other, bottom left.
      const float band = 0.12f * h, gap = 0.01f * h;
      float y1 = bottom;
      for (int c = 3; c >= 0; --c) {
        if (!bit(c)) continue;
        std::array<std::uint32_t, 4> mult{};
        mult[static_cast<std::size_t>(c)] = bit(c);
        quads.push_back({{margin_x, y1 - band, margin_x + 0.45f * w, y1}, mult});
        y1 -= band + gap;
      }
      break;
    }
  }
  return quads;
}

std::array<float, 2> cover_scale(float window_w, float window_h, float video_w, float video_h) {
  const float canvas_aspect = window_w / window_h, video_aspect = video_w / video_h;
  if (canvas_aspect > video_aspect) return {1.0f, canvas_aspect / video_aspect};
  return {video_aspect / canvas_aspect, 1.0f};
}

std::array<std::array<float, 4>, 16> palette_colours(Palette palette) {
  std::array<std::array<float, 4>, 16> c{};
  c[0] = {0, 0, 0, 1};  // background; its alpha is scaled by the overlay opacity
  switch (palette) {
    case Palette::classic:
      // The articles' colours: the three primaries, their mixtures, grey where all three
      // overlap, white wherever luma is.
      c[1] = {1, 0, 0, 1};
      c[2] = {0, 1, 0, 1};
      c[3] = {1, 1, 0, 1};
      c[4] = {0, 0, 1, 1};
      c[5] = {1, 0, 1, 1};
      c[6] = {0, 1, 1, 1};
      c[7] = {0.5f, 0.5f, 0.5f, 1};
      for (int i = 8; i < 16; ++i) c[static_cast<std::size_t>(i)] = {1, 1, 1, 1};
      break;
    case Palette::colorblind: {
      // Okabe and Ito's colours, distinguishable with the common colour-vision deficiencies:
      // vermillion for R, bluish green for G, blue for B; overlaps averaged, luma white.
      const std::array<std::array<float, 3>, 3> base = {{{0.84f, 0.37f, 0.0f}, {0.0f, 0.62f, 0.45f}, {0.0f, 0.45f, 0.70f}}};
      for (int i = 1; i < 8; ++i) {
        std::array<float, 3> sum{};
        int n = 0;
        for (int ch = 0; ch < 3; ++ch) {
          if (i & (1 << ch)) {
            for (int k = 0; k < 3; ++k) sum[static_cast<std::size_t>(k)] += base[static_cast<std::size_t>(ch)][static_cast<std::size_t>(k)];
            ++n;
          }
        }
        c[static_cast<std::size_t>(i)] = {sum[0] / static_cast<float>(n), sum[1] / static_cast<float>(n),
                                          sum[2] / static_cast<float>(n), 1};
      }
      c[7] = {0.6f, 0.6f, 0.6f, 1};
      for (int i = 8; i < 16; ++i) c[static_cast<std::size_t>(i)] = {0.95f, 0.9f, 0.25f, 1};  // luma: yellow
      break;
    }
    case Palette::mono:
      // Brightness by how many channels reach this height.
      for (int i = 1; i < 16; ++i) {
        const float v = 0.35f + 0.65f * static_cast<float>(__builtin_popcount(static_cast<unsigned>(i))) / 4.0f;
        c[static_cast<std::size_t>(i)] = {v, v, v, 1};
      }
      break;
  }
  return c;
}

struct Overlay::Slot {
  render::CommandSlot commands;
  render::Buffer staging;
  render::Buffer readback;
  render::Buffer composite_params;  // host-visible: this tick's CompositeParams
  std::unique_ptr<render::GpuTimer> timer;
  bool submitted = false;
  bool readback_pending = false;
  std::uint32_t levels = 0, bits = 8, width = 0, height = 0;
};

Overlay::Overlay(render::Context& context, VkRenderPass render_pass, bool cpu_engine)
    : context_(context),
      engine_(context),
      converter_(context),
      histogram_pipeline_(context, render_pass, quad_vert_spv, histogram_frag_spv, sizeof(HistogramPush),
                          true, "histogram") {
  const VkDevice device = context.device();
  for (std::uint32_t i = 0; i < kFramesInFlight; ++i) {
    auto slot = std::make_unique<Slot>();
    slot->commands = render::CommandSlot(context, true);
    slot->readback = render::Buffer(context, kReadbackBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    render::MemoryUse::readback, false, "viewer readback");
    slot->timer = std::make_unique<render::GpuTimer>(context, 2);
    slot->composite_params = render::Buffer(context, sizeof(CompositeParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                            render::MemoryUse::upload, true, "composite params");
    slots_.push_back(std::move(slot));
  }
  if (cpu_engine) cpu_ = std::make_unique<CpuEngine>();

  // The video's sampled image: one combined image sampler, bilinear, clamped at the edges.
  VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_LINEAR;
  sampler_info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateSampler(device, &sampler_info, nullptr, &sampler));
  sampler_ = render::UniqueSampler(device, sampler);
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 1;
  set_info.pBindings = &binding;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout));
  set_layout_ = render::UniqueDescriptorSetLayout(device, set_layout);
  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 2;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateDescriptorPool(device, &pool_info, nullptr, &descriptor_pool));
  descriptor_pool_ = render::UniqueDescriptorPool(device, descriptor_pool);
  VkDescriptorSetAllocateInfo set_alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set_alloc.descriptorPool = descriptor_pool;
  set_alloc.descriptorSetCount = 1;
  set_alloc.pSetLayouts = &set_layout;
  VHIST_VK_CHECK(vkAllocateDescriptorSets(device, &set_alloc, &video_.set));
  VHIST_VK_CHECK(vkAllocateDescriptorSets(device, &set_alloc, &equalized_video_.set));
  composite_pipeline_ = render::ComputePipeline(context, composite_spv, {}, sizeof(VkDeviceAddress), "composite");
  video_pipeline_ = render::GraphicsPipeline(context, render_pass, quad_vert_spv, video_frag_spv,
                                             sizeof(VideoPush), false, "video", set_layout);

  display_ = engine_.create_target("viewer display");
  levels_ = engine_.create_target("viewer levels");
  cdf_ = engine_.create_cdf_target("viewer");
  for (Palette p : {Palette::classic, Palette::colorblind, Palette::mono}) {
    const auto colours = palette_colours(p);
    auto& buffer = palettes_[static_cast<std::size_t>(p)];
    buffer = render::Buffer(context, sizeof colours, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, render::MemoryUse::upload, true,
                            "palette");
    std::memcpy(buffer.mapped(), colours.data(), sizeof colours);
  }
}

Overlay::~Overlay() { wait_idle(); }

void Overlay::wait_idle() { render::wait_idle_for_teardown(context_.device()); }

std::string Overlay::check(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) const {
  if (auto err = converter_.check(format, planes.stride); !err.empty()) return err;
  const FrameFormat rgb = converted_format(format);
  return engine_.check(rgb, std::min(bins, max_bins_for_bits(rgb.bits)));
}

void Overlay::ensure_frame_buffers(std::uint64_t plane_bytes, std::uint64_t rgb_bytes) {
  if ((plane_bytes == 0 || (planes_ && planes_.size() >= plane_bytes)) && rgb_ && rgb_.size() >= rgb_bytes) return;
  // Larger frames than any before: the buffers in use by the frames in flight are replaced,
  // so wait for those (once per growth, not per frame).
  wait_idle();
  if (plane_bytes != 0 && (!planes_ || planes_.size() < plane_bytes)) {
    planes_ = render::Buffer(context_, plane_bytes + plane_bytes / 8,
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                             render::MemoryUse::device, true, "viewer planes");
  }
  if (!rgb_ || rgb_.size() < rgb_bytes) {
    rgb_ = render::Buffer(context_, (rgb_bytes + rgb_bytes / 8 + 15) & ~std::uint64_t{15},
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                              VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          render::MemoryUse::device,
                          true, "viewer rgb");
  }
}

void Overlay::ensure_video_image(VideoImage& v, const FrameFormat& format) {
  const VkFormat vk_format =
      format.packing == PixelPacking::rgba8 ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_R16G16B16A16_UNORM;
  if (v.image && v.image.extent().width == format.width && v.image.extent().height == format.height &&
      v.image.format() == vk_format) {
    return;
  }
  wait_idle();  // the frames in flight may still sample the old image
  v.image = render::Image2D(context_, {format.width, format.height}, vk_format,
                            VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, "video");
  v.written = false;
  VkDescriptorImageInfo image_info{sampler_.get(), v.image.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = v.set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = &image_info;
  vkUpdateDescriptorSets(context_.device(), 1, &write, 0, nullptr);
}

void Overlay::record_image_upload(VkCommandBuffer cmd, VideoImage& v, VkBuffer buffer, VkDeviceSize offset) {
  const VkImage image = v.image.get();
  render::image_barrier(cmd, image, v.written ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkBufferImageCopy region{};
  region.bufferOffset = offset;
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {rgb_format_.width, rgb_format_.height, 1};
  vkCmdCopyBufferToImage(cmd, buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  render::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  v.written = true;
}

void Overlay::collect(Slot& slot) {
  if (!slot.submitted) return;
  if (slot.readback_pending) {
    Histogram levels(slot.levels);
    std::memcpy(levels.counts.data(), slot.readback.mapped(), std::size_t{slot.levels} * 16);
    numbers_.valid = true;
    numbers_.bits = slot.bits;
    numbers_.width = slot.width;
    numbers_.height = slot.height;
    numbers_.stats = channel_stats(levels, slot.bits);
    slot.readback_pending = false;
  }
  const auto ns = slot.timer->read_ns(2);
  numbers_.gpu_ms = (ns[1] - ns[0]) * 1e-6;
}

void Overlay::begin() {
  Slot& slot = *slots_[next_slot_];
  const VkFence fence = slot.commands.fence();
  VHIST_VK_CHECK(vkWaitForFences(context_.device(), 1, &fence, VK_TRUE, UINT64_MAX));
  collect(slot);
}

bool Overlay::needs_cdf(const OverlayStyle& style) const {
  return style.equalize != EqualizeMode::off || cdf_mask(style, CdfMode::over) != 0 ||
         cdf_mask(style, CdfMode::instead) != 0;
}

VkFence Overlay::fence() const { return slots_[next_slot_]->commands.fence(); }

void Overlay::end() {
  slots_[next_slot_]->submitted = true;
  next_slot_ = (next_slot_ + 1) % kFramesInFlight;
}

VkCommandBuffer Overlay::record(const VideoFormat* format, const VideoPlanes* planes, bool rehistogram,
                                const OverlayStyle& style, const RenderTarget& target,
                                const std::function<void(VkCommandBuffer)>& in_pass,
                                const std::function<void(VkCommandBuffer)>& after_pass) {
  const VkDevice device = context_.device();
  Slot& slot = *slots_[next_slot_];
  const VkFence fence = slot.commands.fence();
  // The new frame goes to this slot's staging memory (the slot's previous use is done): its
  // planes for the GPU path; with the CPU engine, the converted frame and its histogram.
  const auto ensure_staging = [&](std::uint64_t bytes) {
    if (!slot.staging || slot.staging.size() < bytes) {
      slot.staging = render::Buffer(context_, bytes + bytes / 8, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                    render::MemoryUse::upload, false, "viewer staging");
    }
  };
  PlaneOffsets layout;
  FrameFormat rgb_format = rgb_format_;
  bool upload_rgb = false;
  // Drawn by the compute composite (reads the R'G'B' buffer) or by the rasterizer (samples the
  // video image).
  const bool composite = target.render_pass == VK_NULL_HANDLE;
  if (composite && (target.composite == 0 || in_pass)) {
    throw std::invalid_argument("a compute-composited target needs an output buffer and takes no render-pass content");
  }
  // The CPU engine's frame goes to the R'G'B' buffer too when a pass reads it there.
  const bool cpu_frame_to_buffer = composite || style.equalize != EqualizeMode::off;
  if (format) {
    rgb_format = converted_format((*format));
    if (!composite) ensure_video_image(video_, rgb_format);
    if (cpu_) {
      if (cpu_frame_to_buffer) ensure_frame_buffers(0, rgb_format.byte_size());
      ensure_staging(kStagingRgbOffset + rgb_format.byte_size());
      const std::uint32_t levels = stats_levels(rgb_format.bits);
      cpu_levels_ = cpu_->convert_and_histogram((*format), (*planes), levels,
                                                static_cast<std::byte*>(slot.staging.mapped()) + kStagingRgbOffset);
      numbers_.valid = true;
      numbers_.bits = rgb_format.bits;
      numbers_.width = rgb_format.width;
      numbers_.height = rgb_format.height;
      numbers_.stats = channel_stats(cpu_levels_, rgb_format.bits);
      upload_rgb = true;
    } else {
      layout = plane_offsets((*format), (*planes).stride);
      ensure_frame_buffers(layout.total, rgb_format.byte_size());
      ensure_staging(layout.total);
      copy_planes((*format), (*planes), layout, static_cast<std::byte*>(slot.staging.mapped()));
    }
  }
  // CPU path: the display histogram and its scale, from the levels, into the staging memory.
  const std::uint32_t bins = std::min(style.bins, max_bins_for_bits(rgb_format.bits));
  const bool recount = (has_frame_ || format) && (format || rehistogram || bins != histogram_bins_);
  if (cpu_ && recount) {
    ensure_staging(kStagingRgbOffset);
    const Histogram display = coarsen(cpu_levels_, bins);
    const Scale scale = reference_scale(display, rgb_format.pixel_count());
    auto* staging = static_cast<std::byte*>(slot.staging.mapped());
    std::memcpy(staging, display.counts.data(), display.counts.size() * sizeof(std::uint32_t));
    std::memcpy(staging + kStagingScaleOffset, scale.scale.data(), 16);
    std::memcpy(staging + kStagingScaleOffset + 16, scale.max_count.data(), 16);
  }
  if (recount) cdf_fresh_ = false;
  const bool scan = has_frame_ || format ? needs_cdf(style) && !cdf_fresh_ : false;
  if (cpu_ && scan) {
    // The prefix sum runs on the GPU: the statistics histogram goes up with the frame.
    ensure_staging(kStagingRgbOffset);
    std::memcpy(static_cast<std::byte*>(slot.staging.mapped()) + kStagingLevelsOffset, cpu_levels_.counts.data(),
                cpu_levels_.counts.size() * sizeof(std::uint32_t));
  }

  // The equalized frame is computed this tick when asked for and not done for this frame and
  // mode (its buffers are made here: growing them waits for the frames in flight).
  if (format || scan) equalized_fresh_ = false;
  const bool equalize = (has_frame_ || format) && style.equalize != EqualizeMode::off &&
                        (format ? (!cpu_ || cpu_frame_to_buffer) : rgb_current_) &&
                        (!equalized_fresh_ || equalized_mode_ != style.equalize);
  if (equalize) {
    const FrameFormat f = format ? rgb_format : rgb_format_;
    const VkDeviceSize bytes = (f.byte_size() + 15) & ~VkDeviceSize{15};
    if (!equalized_ || equalized_.size() < bytes) {
      wait_idle();  // the frames in flight may read the old buffer
      equalized_ = render::Buffer(context_, bytes + bytes / 8,
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  render::MemoryUse::device, true, "viewer equalized");
    }
    if (!composite) ensure_video_image(equalized_video_, f);
  }

  VHIST_VK_CHECK(vkResetFences(device, 1, &fence));
  const VkCommandBuffer cmd = slot.commands.begin();
  slot.timer->reset(cmd);
  slot.timer->write(cmd, 0);
  // The shared frame and histogram buffers are rewritten below while the previous tick's
  // commands may still read them: order everything after everything before.
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);

  if (format && !cpu_) {
    const VkBufferCopy region{0, 0, layout.total};
    vkCmdCopyBuffer(cmd, slot.staging.get(), planes_.get(), 1, &region);
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    GpuPlanes gpu;
    for (std::uint32_t p = 0; p < (*format).plane_count; ++p) {
      gpu.address[p] = planes_.address() + layout.offset[p];
      gpu.stride[p] = (*planes).stride[p];
    }
    converter_.record(cmd, (*format), gpu, rgb_.address());
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  }
  if (format && cpu_frame_to_buffer && upload_rgb) {
    // The compute composite and the equalize pass read the frame from the R'G'B' buffer.
    const VkBufferCopy region{kStagingRgbOffset, 0, rgb_format.byte_size()};
    vkCmdCopyBuffer(cmd, slot.staging.get(), rgb_.get(), 1, &region);
  }
  if (format) {
    rgb_format_ = rgb_format;
    has_frame_ = true;
    rgb_current_ = !cpu_ || cpu_frame_to_buffer;
  }
  if (format && !composite) {
    // The converted frame into the video image: from the staging memory (CPU engine) or from
    // the convert pass's buffer.
    record_image_upload(cmd, video_, upload_rgb ? slot.staging.get() : rgb_.get(), upload_rgb ? kStagingRgbOffset : 0);
  }

  if (recount && cpu_) {
    const VkBufferCopy counts{0, 0, VkDeviceSize{bins} * 16};
    vkCmdCopyBuffer(cmd, slot.staging.get(), display_.histogram.get(), 1, &counts);
    const VkBufferCopy scale{kStagingScaleOffset, 0, 32};
    vkCmdCopyBuffer(cmd, slot.staging.get(), display_.scale.get(), 1, &scale);
    histogram_bins_ = bins;
  }
  if (cpu_ && scan) {
    const VkBufferCopy counts{kStagingLevelsOffset, 0, VkDeviceSize{cpu_levels_.bins} * 16};
    vkCmdCopyBuffer(cmd, slot.staging.get(), levels_.histogram.get(), 1, &counts);
    levels_source_ = &levels_;
  }
  if (recount && !cpu_) {
    engine_.record(cmd, rgb_.address(), rgb_format_, bins, Strategy::fast, display_);
    const std::uint32_t levels = stats_levels(rgb_format_.bits);
    levels_source_ = &display_;
    if (levels != bins) {
      engine_.record(cmd, rgb_.address(), rgb_format_, levels, Strategy::fast, levels_);
      levels_source_ = &levels_;
    }
    // To the quads and the composite (fragment or compute reads), the prefix sum (compute) and
    // the statistics readback (copy).
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                               VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
    const VkBufferCopy region{0, 0, VkDeviceSize{levels} * 16};
    vkCmdCopyBuffer(cmd, levels_source_->histogram.get(), slot.readback.get(), 1, &region);
    slot.readback_pending = true;
    slot.levels = levels;
    slot.bits = rgb_format_.bits;
    slot.width = rgb_format_.width;
    slot.height = rgb_format_.height;
    histogram_bins_ = bins;
  }
  if ((recount && cpu_) || (format && cpu_frame_to_buffer && upload_rgb) || (cpu_ && scan)) {
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  }
  const std::uint32_t levels = stats_levels(rgb_format_.bits);
  if (scan) {
    // The histogram's writes are visible: the barriers above (this tick's count or upload) or
    // the one that opens the command buffer (a count from an earlier tick).
    engine_.record_cdf(cmd, levels_source_->histogram, levels, rgb_format_.bits, cdf_);
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    cdf_fresh_ = true;
  }
  // Draw with the CDF only when it is that of the frame shown.
  const bool cdf_ready = cdf_fresh_ && needs_cdf(style);
  const std::uint32_t cdf_fill = cdf_ready ? cdf_mask(style, CdfMode::instead) : 0;
  const std::uint32_t cdf_line = cdf_ready ? cdf_mask(style, CdfMode::over) : 0;

  // The equalized frame, once per frame and mode: through the table into equalized_, then (to
  // be rasterized) into its own image. Without the current frame in rgb_ (the CPU engine's
  // frame before equalization was asked for) the original is shown until the next frame.
  if (equalize) {
    engine_.record_equalize(cmd, rgb_.address(), rgb_format_, levels, cdf_.table, style.equalize, equalized_.address());
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
    if (!composite) record_image_upload(cmd, equalized_video_, equalized_.get(), 0);
    equalized_fresh_ = true;
    equalized_mode_ = style.equalize;
  }
  const bool show_equalized = style.equalize != EqualizeMode::off && equalized_fresh_ &&
                              equalized_mode_ == style.equalize && (composite || equalized_video_.written);
  const VkExtent2D extent = target.extent;
  const auto w = static_cast<float>(extent.width), h = static_cast<float>(extent.height);
  if (composite) {
    CompositeParams params{};
    params.frame = rgb_.address();
    params.output = target.composite;
    params.histogram = display_.histogram.address();
    params.scale = display_.scale.address();
    params.palette = palettes_[static_cast<std::size_t>(style.palette)].address();
    params.width = rgb_format_.width;
    params.height = rgb_format_.height;
    params.bits = rgb_format_.bits;
    params.has_video = has_frame_ && style.video ? 1u : 0u;
    params.target_w = extent.width;
    params.target_h = extent.height;
    params.mode = scale_mode_id(style.scale);
    if (has_frame_) {
      const auto [sx, sy] = cover_scale(w, h, static_cast<float>(rgb_format_.width), static_cast<float>(rgb_format_.height));
      params.cover[0] = sx;
      params.cover[1] = sy;
      const auto quads = layout_quads(style, w, h);
      params.quad_count = static_cast<std::uint32_t>(std::min<std::size_t>(quads.size(), 4));
      for (std::uint32_t i = 0; i < params.quad_count; ++i) {
        for (int k = 0; k < 4; ++k) {
          params.quad_rect[i][k] = quads[i].rect[static_cast<std::size_t>(k)];
          params.quad_mult[i][k] = quads[i].channel_mult[static_cast<std::size_t>(k)];
        }
      }
    }
    params.bins = histogram_bins_ ? histogram_bins_ : 1;
    params.opacity = style.opacity;
    params.pixels = static_cast<float>(rgb_format_.pixel_count());
    params.cdf = cdf_.cdf.address();
    params.equalized = show_equalized ? equalized_.address() : 0;
    params.levels = levels;
    params.cdf_fill = cdf_fill;
    params.cdf_line = cdf_line;
    params.split_x = style.split_view ? std::round(std::clamp(style.split_position, 0.0f, 1.0f) * w) : 0.0f;
    params.divider = style.split_view && show_equalized ? 1u : 0u;
    std::memcpy(slot.composite_params.mapped(), &params, sizeof params);
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    const VkDeviceAddress params_address = slot.composite_params.address();
    composite_pipeline_.dispatch(cmd, params_address, (extent.width + 15) / 16, (extent.height + 15) / 16);
    if (after_pass) after_pass(cmd);
    slot.timer->write(cmd, 1);
    VHIST_VK_CHECK(vkEndCommandBuffer(cmd));
    return cmd;
  }
  VkClearValue clear{};
  clear.color = {{0.0f, 0.0f, 0.0f, 1.0f}};
  VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  pass.renderPass = target.render_pass;
  pass.framebuffer = target.framebuffer;
  pass.renderArea = {{0, 0}, extent};
  pass.clearValueCount = 1;
  pass.pClearValues = &clear;
  vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
  const VkViewport viewport{0, 0, static_cast<float>(extent.width), static_cast<float>(extent.height), 0, 1};
  const VkRect2D scissor{{0, 0}, extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  if (has_frame_) {
    const auto [sx, sy] = cover_scale(w, h, static_cast<float>(rgb_format_.width), static_cast<float>(rgb_format_.height));
    const float code_scale =
        rgb_format_.packing == PixelPacking::rgba8 ? 1.0f : 65535.0f / static_cast<float>((1u << rgb_format_.bits) - 1u);
    VideoPush push{};
    std::memcpy(push.rect, std::array<float, 4>{-sx, -sy, sx, sy}.data(), sizeof push.rect);
    std::memcpy(push.uv, std::array<float, 4>{0, 0, 1, 1}.data(), sizeof push.uv);
    push.code_scale = code_scale;
    if (style.video && show_equalized) {
      // The original left of the divider, the equalized frame right of it (all of it without
      // the split view), each scissored to its side.
      const auto split = static_cast<std::uint32_t>(
          std::lround(style.split_view ? std::clamp(style.split_position, 0.0f, 1.0f) * w : 0.0f));
      push.split_x = static_cast<float>(split);
      push.divider = style.split_view ? 1u : 0u;
      if (split > 0) {
        const VkRect2D left{{0, 0}, {split, extent.height}};
        vkCmdSetScissor(cmd, 0, 1, &left);
        video_pipeline_.draw_quad(cmd, push, video_.set);
      }
      if (split < extent.width) {
        const VkRect2D right{{static_cast<std::int32_t>(split), 0}, {extent.width - split, extent.height}};
        vkCmdSetScissor(cmd, 0, 1, &right);
        video_pipeline_.draw_quad(cmd, push, equalized_video_.set);
      }
      vkCmdSetScissor(cmd, 0, 1, &scissor);
    } else if (style.video) {
      video_pipeline_.draw_quad(cmd, push, video_.set);
    }
    for (const HistogramQuad& q : layout_quads(style, w, h)) {
      HistogramPush hp{};
      hp.rect[0] = q.rect[0] / w * 2 - 1;
      hp.rect[1] = q.rect[1] / h * 2 - 1;
      hp.rect[2] = q.rect[2] / w * 2 - 1;
      hp.rect[3] = q.rect[3] / h * 2 - 1;
      hp.uv[2] = hp.uv[3] = 1;
      hp.histogram = display_.histogram.address();
      hp.scale = display_.scale.address();
      hp.palette = palettes_[static_cast<std::size_t>(style.palette)].address();
      for (int c = 0; c < 4; ++c) hp.channel_mult[c] = q.channel_mult[static_cast<std::size_t>(c)];
      hp.bins = histogram_bins_;
      hp.mode = scale_mode_id(style.scale);
      hp.pixels = static_cast<float>(rgb_format_.pixel_count());
      hp.opacity = style.opacity;
      hp.cdf = cdf_.cdf.address();
      hp.levels = levels;
      hp.cdf_fill = cdf_fill;
      hp.cdf_line = cdf_line;
      histogram_pipeline_.draw_quad(cmd, hp);
    }
  }
  if (in_pass) in_pass(cmd);
  vkCmdEndRenderPass(cmd);
  if (after_pass) after_pass(cmd);

  slot.timer->write(cmd, 1);
  VHIST_VK_CHECK(vkEndCommandBuffer(cmd));

  return cmd;
}

}  // namespace vhist::viewer
