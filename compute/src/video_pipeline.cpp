#include "vhist/compute/video_pipeline.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <stdexcept>

namespace vhist {

struct VideoPipeline::Slot {
  render::CommandSlot commands;
  std::unique_ptr<render::GpuTimer> timer;
  render::Buffer staging;   // host-visible, persistently mapped: the decoded planes
  render::Buffer planes;    // device-local copy the convert pass reads
  render::Buffer rgb;       // the converted frame
  HistogramTarget target;   // histogram and scale
  CdfTarget cdf;            // the histogram's prefix sum (and an equalization table, unused)
  render::Buffer readback;  // host-visible: histogram records, the scale block, CDF records
  std::uint64_t tag = 0;
  std::uint32_t bins = 0;
  bool with_cdf = false;
  FrameFormat format;
};

namespace {

constexpr VkDeviceSize kRecordsBytes = VkDeviceSize{shader::kMaxBins} * shader::kChannelCount * 4;
constexpr VkDeviceSize kReadbackCdfOffset = kRecordsBytes + 32;
constexpr VkDeviceSize kReadbackBytes = kReadbackCdfOffset + kRecordsBytes;

}  // namespace

VideoPipeline::VideoPipeline(HistogramEngine& engine, std::uint32_t slots, Strategy strategy, unsigned copy_threads)
    : engine_(engine),
      context_(engine.context()),
      strategy_(strategy),
      converter_(engine.context()),
      // A copy of a 4K frame (12 MB) takes about a millisecond on one core: use up to four
      // threads, leaving the other cores to the decoder.
      copiers_(copy_threads != 0 ? copy_threads : std::clamp(std::thread::hardware_concurrency() / 4, 1u, 4u)) {
  if (slots == 0) throw std::invalid_argument("a video pipeline needs at least one slot");
  for (std::uint32_t i = 0; i < slots; ++i) {
    auto slot = std::make_unique<Slot>();
    slot->commands = render::CommandSlot(context_, false);
    slot->timer = std::make_unique<render::GpuTimer>(context_, 4);
    const std::string name = "video slot " + std::to_string(i);
    slot->target = engine_.create_target(name);
    slot->cdf = engine_.create_cdf_target(name);
    slot->readback = render::Buffer(context_, kReadbackBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    render::MemoryUse::readback, false, name + " readback");
    slots_.push_back(std::move(slot));
  }
}

VideoPipeline::~VideoPipeline() {
  // Let the GPU finish with the slots' buffers before they are destroyed (not on a lost device).
  if (in_flight_ > 0) render::wait_idle_for_teardown(context_.device());
}

std::string VideoPipeline::check(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) const {
  if (auto err = converter_.check(format, planes.stride); !err.empty()) return err;
  return engine_.check(converted_format(format), bins);
}

VideoPipeline::Slot& VideoPipeline::prepare_slot(Slot& slot, std::uint64_t staging_bytes, const FrameFormat& rgb) {
  if (!slot.staging || slot.staging.size() < staging_bytes) {
    // Grow with headroom so that small size changes do not reallocate again.
    const std::uint64_t size = staging_bytes + staging_bytes / 8;
    slot.staging = render::Buffer(context_, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, render::MemoryUse::upload, false,
                                  "video staging");
    slot.planes = render::Buffer(context_, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                 render::MemoryUse::device, true, "video planes");
  }
  const std::uint64_t rgb_bytes = (rgb.byte_size() + 15) & ~std::uint64_t{15};
  if (!slot.rgb || slot.rgb.size() < rgb_bytes) slot.rgb = engine_.create_frame_buffer(rgb, "video rgb");
  return slot;
}

std::optional<FrameResult> VideoPipeline::submit(const VideoFormat& format, const VideoPlanes& planes,
                                                 std::uint32_t bins, std::uint64_t tag, bool cdf) {
  if (auto err = check(format, planes, bins); !err.empty()) throw std::invalid_argument(err);
  std::optional<FrameResult> done;
  if (in_flight_ == slots_.size()) done = finish_one();

  const FrameFormat rgb = converted_format(format);
  const PlaneOffsets layout = plane_offsets(format, planes.stride);
  Slot& slot = prepare_slot(*slots_[next_], layout.total, rgb);
  auto* staging = static_cast<std::byte*>(slot.staging.mapped());
  if (layout.total < (4u << 20) || copiers_.size() == 1) {
    copy_planes(format, planes, layout, staging);
  } else {
    const unsigned parts = copiers_.size();
    copiers_.run([&](unsigned part) {
      for (std::uint32_t p = 0; p < format.plane_count; ++p) {
        const std::uint64_t begin = layout.bytes[p] * part / parts, end = layout.bytes[p] * (part + 1) / parts;
        std::memcpy(staging + layout.offset[p] + begin, planes.data[p] + begin, end - begin);
      }
    });
  }
  slot.tag = tag;
  slot.bins = bins;
  slot.format = rgb;
  slot.with_cdf = cdf;

  const VkCommandBuffer cmd = slot.commands.begin();
  slot.timer->reset(cmd);
  slot.timer->write(cmd, 0);
  const VkBufferCopy region{0, 0, layout.total};
  vkCmdCopyBuffer(cmd, slot.staging.get(), slot.planes.get(), 1, &region);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  GpuPlanes gpu_planes;
  for (std::uint32_t p = 0; p < format.plane_count; ++p) {
    gpu_planes.address[p] = slot.planes.address() + layout.offset[p];
    gpu_planes.stride[p] = planes.stride[p];
  }
  slot.timer->write(cmd, 1);
  converter_.record(cmd, format, gpu_planes, slot.rgb.address());
  slot.timer->write(cmd, 2);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  engine_.record(cmd, slot.rgb.address(), rgb, bins, strategy_, slot.target);
  if (cdf) {
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    engine_.record_cdf(cmd, slot.target.histogram, bins, rgb.bits, slot.cdf);
  }
  results_to_transfer(cmd);
  const VkDeviceSize histogram_bytes = VkDeviceSize{bins} * shader::kChannelCount * 4;
  const VkBufferCopy histogram_region{0, 0, histogram_bytes};
  vkCmdCopyBuffer(cmd, slot.target.histogram.get(), slot.readback.get(), 1, &histogram_region);
  const VkBufferCopy scale_region{0, histogram_bytes, 32};
  vkCmdCopyBuffer(cmd, slot.target.scale.get(), slot.readback.get(), 1, &scale_region);
  if (cdf) {
    const VkBufferCopy cdf_region{0, kReadbackCdfOffset, histogram_bytes};
    vkCmdCopyBuffer(cmd, slot.cdf.cdf.get(), slot.readback.get(), 1, &cdf_region);
  }
  slot.timer->write(cmd, 3);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                         VK_ACCESS_2_HOST_READ_BIT);
  VHIST_VK_CHECK(vkEndCommandBuffer(cmd));

  render::submit(context_, cmd, slot.commands.fence());
  next_ = (next_ + 1) % static_cast<std::uint32_t>(slots_.size());
  ++in_flight_;
  return done;
}

std::optional<FrameResult> VideoPipeline::finish_one() {
  if (in_flight_ == 0) return std::nullopt;
  const auto count = static_cast<std::uint32_t>(slots_.size());
  Slot& slot = *slots_[(next_ + count - in_flight_) % count];
  --in_flight_;
  return collect(slot);
}

FrameResult VideoPipeline::collect(Slot& slot) {
  const VkFence fence = slot.commands.fence();
  VHIST_VK_CHECK(vkWaitForFences(context_.device(), 1, &fence, VK_TRUE, UINT64_MAX));
  VHIST_VK_CHECK(vkResetFences(context_.device(), 1, &fence));
  FrameResult out;
  out.tag = slot.tag;
  out.format = slot.format;
  out.histogram = Histogram(slot.bins);
  const auto* bytes = static_cast<const std::byte*>(slot.readback.mapped());
  const std::size_t histogram_bytes = std::size_t{slot.bins} * shader::kChannelCount * 4;
  std::memcpy(out.histogram.counts.data(), bytes, histogram_bytes);
  std::memcpy(out.scale.scale.data(), bytes + histogram_bytes, 16);
  std::memcpy(out.scale.max_count.data(), bytes + histogram_bytes + 16, 16);
  if (slot.with_cdf) {
    out.cdf = Cdf(slot.bins);
    std::memcpy(out.cdf.counts.data(), bytes + kReadbackCdfOffset, histogram_bytes);
  }
  const std::vector<double> ns = slot.timer->read_ns(4);
  out.upload_ms = (ns[1] - ns[0]) * 1e-6;
  out.convert_ms = (ns[2] - ns[1]) * 1e-6;
  out.histogram_ms = (ns[3] - ns[2]) * 1e-6;
  out.gpu_ms = (ns[3] - ns[0]) * 1e-6;
  return out;
}

}  // namespace vhist
