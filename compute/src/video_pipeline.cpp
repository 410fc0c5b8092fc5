#include "vhist/compute/video_pipeline.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/frame_checksum.h"
#include "vhist/measures_shared.h"
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
  render::Buffer planes;    // device-local copy the convert pass reads (host frames staged in host memory)
  const render::Buffer* device_planes = nullptr;  // an imported frame's: the importer's buffer
  std::uint32_t index = 0;  // in slots_
  bool imported = false;    // this frame came through the FrameImport
  render::Buffer rgb;       // the converted frame
  render::Buffer region;    // the region's rows of it, packed, when one is asked for
  std::optional<PixelRect> rect;
  std::uint32_t rgb_width = 0;  // of the converted frame the region is cut from
  HistogramTarget target;   // histogram and scale
  CdfTarget cdf;            // the histogram's prefix sum (and an equalization table, unused)
  render::Buffer plane_counts, light_counts;  // the source measures (SourcePass)
  render::Buffer measures;  // the gamut counts and checksum sums (measures_shared.h)
  render::Buffer readback;  // host-visible: histogram records, the scale block, CDF records
  std::uint64_t tag = 0;
  std::uint32_t bins = 0;
  bool with_cdf = false;
  bool with_planes = false, with_light = false, with_gamut = false, with_checksum = false;
  LightSignal light_signal = LightSignal::pq;
  FrameFormat format;
};

namespace {

constexpr VkDeviceSize kRecordsBytes = VkDeviceSize{shader::kMaxBins} * shader::kChannelCount * 4;
constexpr VkDeviceSize kReadbackCdfOffset = kRecordsBytes + 32;
constexpr VkDeviceSize kReadbackPlanesOffset = kReadbackCdfOffset + kRecordsBytes;
constexpr VkDeviceSize kPlanesBytes = VkDeviceSize{shader::kPlaneCountsWords} * 4;
constexpr VkDeviceSize kReadbackLightOffset = kReadbackPlanesOffset + kPlanesBytes;
constexpr VkDeviceSize kReadbackMeasuresOffset = kReadbackLightOffset + VkDeviceSize{shader::kMaxLightLevels} * 4;
constexpr VkDeviceSize kMeasuresBytes = VkDeviceSize{shader::kMeasureWords} * 4;
constexpr VkDeviceSize kReadbackBytes = kReadbackMeasuresOffset + kMeasuresBytes;

void copy_region(VkCommandBuffer cmd, const render::Buffer& from, const render::Buffer& to, VkDeviceSize to_offset,
                 VkDeviceSize bytes) {
  const VkBufferCopy region{0, to_offset, bytes};
  vkCmdCopyBuffer(cmd, from.get(), to.get(), 1, &region);
}

}  // namespace

VideoPipeline::VideoPipeline(HistogramEngine& engine, std::uint32_t slots, Strategy strategy, unsigned copy_threads,
                             FrameImport* import, Staging staging)
    : engine_(engine),
      context_(engine.context()),
      strategy_(strategy),
      source_pass_(engine.context()),
      upload_(engine.context(), copy_threads, staging),
      import_(import) {
  if (slots == 0) throw std::invalid_argument("a video pipeline needs at least one slot");
  for (std::uint32_t i = 0; i < slots; ++i) {
    auto slot = std::make_unique<Slot>();
    slot->index = i;
    slot->commands = render::CommandSlot(context_, false);
    slot->timer = std::make_unique<render::GpuTimer>(context_, 5);
    const std::string name = "video slot " + std::to_string(i);
    slot->target = engine_.create_target(name);
    slot->cdf = engine_.create_cdf_target(name);
    slot->plane_counts = source_pass_.create_plane_counts(name);
    slot->light_counts = source_pass_.create_light_counts(name);
    slot->measures = source_pass_.create_measures(name);
    slot->readback = render::Buffer(context_, kReadbackBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    render::MemoryUse::readback, false, name + " readback");
    slots_.push_back(std::move(slot));
  }
}

VideoPipeline::~VideoPipeline() {
  // Let the GPU finish with the slots' buffers before they are destroyed (not on a lost device).
  if (in_flight_ > 0) context_.wait_idle();
}

std::string VideoPipeline::check(const VideoFormat& format, const VideoPlanes& planes, std::uint32_t bins) const {
  if (auto err = upload_.check(format, planes); !err.empty()) return err;
  return engine_.check(converted_format(format), bins);
}

std::optional<FrameResult> VideoPipeline::submit(const VideoFormat& format, const VideoPlanes& planes,
                                                 std::uint32_t bins, std::uint64_t tag, bool cdf,
                                                 SourceRequest source, const DeviceFrame& device) {
  if (auto err = check(format, planes, bins); !err.empty()) throw std::invalid_argument(err);
  if (device.memory != FrameMemory::host && (!import_ || !import_->accepts(device.memory))) {
    throw std::invalid_argument("the frame is in another API's GPU memory and the video pipeline has no importer for it");
  }
  if (source.region) {
    if (auto err = check_rect(*source.region, format.width, format.height); !err.empty()) {
      throw std::invalid_argument(err);
    }
  }
  std::optional<FrameResult> done;
  if (in_flight_ == slots_.size()) done = finish_one();

  // The slot's buffers are its own and its previous frame is done: they grow without waiting.
  Slot& slot = *slots_[next_];
  const FrameFormat rgb = converted_format(format);
  PlaneOffsets layout;
  const render::TimelinePoint wait = bring_planes(slot, format, planes, device, layout);
  grow_frame_buffer(context_, slot.rgb, rgb, "video rgb");
  slot.tag = tag;
  slot.bins = bins;
  slot.format = rgb;
  slot.with_cdf = cdf;
  slot.with_planes = source.planes && has_planes(format);
  slot.with_light = source.light;
  slot.light_signal = source.hlg ? LightSignal::hlg : LightSignal::pq;
  slot.with_gamut = source.gamut && has_planes(format);
  slot.with_checksum = source.checksum;
  slot.rect = source.region;
  slot.rgb_width = rgb.width;
  if (slot.rect) {
    slot.format = region_format(rgb, *slot.rect);
    grow_frame_buffer(context_, slot.region, slot.format, "video region");
  }
  const VkCommandBuffer cmd = record(slot, format, planes, layout);
  if (import_) {
    // Every submission tells the importer when it is done with its slot's planes.
    const render::TimelinePoint release{import_->release(), sequence_, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
    render::submit_timeline(context_, cmd, slot.commands.fence(), {&wait, 1}, {&release, 1});
  } else {
    render::submit(context_, cmd, slot.commands.fence());
  }
  next_ = (next_ + 1) % static_cast<std::uint32_t>(slots_.size());
  ++in_flight_;
  return done;
}

render::TimelinePoint VideoPipeline::bring_planes(Slot& slot, const VideoFormat& format, const VideoPlanes& planes,
                                                  const DeviceFrame& device, PlaneOffsets& layout) {
  ++sequence_;
  slot.imported = device.memory != FrameMemory::host;
  if (!slot.imported) {
    layout = upload_.stage(format, planes, slot.staging);
    upload_.grow_device_planes(slot.planes, layout);
    slot.device_planes = nullptr;  // record() takes FrameUpload::record_copy's buffer
    return {};
  }
  layout = plane_offsets(format, planes.stride);
  slot.device_planes = &import_->planes(slot.index, layout.total);
  const auto count = static_cast<std::uint64_t>(slots_.size());
  // The slot's previous frame was submission sequence_ - count.
  return import_->copy(slot.index, format, planes, device, layout, sequence_,
                       sequence_ > count ? sequence_ - count : 0);
}

// One frame's command buffer: upload, source measures, convert, histogram (and prefix sum),
// readback; timestamps between the stages.
VkCommandBuffer VideoPipeline::record(Slot& slot, const VideoFormat& format, const VideoPlanes& planes,
                           const PlaneOffsets& layout) {
  const VkCommandBuffer cmd = slot.commands.begin();
  slot.timer->reset(cmd);
  slot.timer->write(cmd, 0);
  // An imported frame is in place when the submission's wait on the importer's copy is over; a
  // host frame is copied to the device, or read where it was staged (FrameUpload::record_copy).
  const render::Buffer& device_planes =
      slot.imported ? *slot.device_planes : upload_.record_copy(cmd, slot.staging, slot.planes, layout);
  const GpuPlanes gpu = gpu_planes(format, planes, device_planes, layout);
  slot.timer->write(cmd, 1);
  if (slot.with_planes) source_pass_.record_planes(cmd, format, gpu, slot.bins, slot.plane_counts);
  if (slot.with_gamut || slot.with_checksum) SourcePass::record_clear_measures(cmd, slot.measures);
  if (slot.with_checksum) source_pass_.record_checksum(cmd, format, gpu, slot.measures);
  slot.timer->write(cmd, 2);
  upload_.record_convert(cmd, format, planes, device_planes, layout, slot.rgb.address(),
                         slot.with_gamut ? slot.measures.address() : 0);
  slot.timer->write(cmd, 3);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
  const render::Buffer& counted = slot.rect ? slot.region : slot.rgb;
  if (slot.rect) record_region_copy(cmd, slot);
  engine_.record(cmd, counted.address(), slot.format, slot.bins, strategy_, slot.target);
  if (slot.with_cdf) {
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    engine_.record_cdf(cmd, slot.target.histogram, slot.bins, slot.format.bits, slot.cdf);
  }
  if (slot.with_light) source_pass_.record_max_rgb(cmd, counted.address(), slot.format, slot.light_counts, slot.light_signal);
  results_to_transfer(cmd);
  const VkDeviceSize histogram_bytes = VkDeviceSize{slot.bins} * shader::kChannelCount * 4;
  const VkBufferCopy histogram_region{0, 0, histogram_bytes};
  vkCmdCopyBuffer(cmd, slot.target.histogram.get(), slot.readback.get(), 1, &histogram_region);
  const VkBufferCopy scale_region{0, histogram_bytes, 32};
  vkCmdCopyBuffer(cmd, slot.target.scale.get(), slot.readback.get(), 1, &scale_region);
  if (slot.with_cdf) {
    const VkBufferCopy cdf_region{0, kReadbackCdfOffset, histogram_bytes};
    vkCmdCopyBuffer(cmd, slot.cdf.cdf.get(), slot.readback.get(), 1, &cdf_region);
  }
  if (slot.with_planes) copy_region(cmd, slot.plane_counts, slot.readback, kReadbackPlanesOffset, kPlanesBytes);
  if (slot.with_light) {
    copy_region(cmd, slot.light_counts, slot.readback, kReadbackLightOffset,
                VkDeviceSize{light_levels(slot.format.bits)} * 4);
  }
  if (slot.with_gamut || slot.with_checksum) {
    copy_region(cmd, slot.measures, slot.readback, kReadbackMeasuresOffset, kMeasuresBytes);
  }
  slot.timer->write(cmd, 4);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                         VK_ACCESS_2_HOST_READ_BIT);
  VHIST_VK_CHECK(vkEndCommandBuffer(cmd));
  return cmd;
}

// The region's rows of the converted frame, packed into slot.region (rect_copy.comp), made
// visible to the passes that count it.
void VideoPipeline::record_region_copy(VkCommandBuffer cmd, const Slot& slot) const {
  FrameFormat whole = slot.format;
  whole.width = slot.rgb_width;
  upload_.record_rect_copy(cmd, slot.rgb.address(), slot.region.address(), whole, *slot.rect);
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
  if (slot.with_planes) {
    out.planes = plane_counts_from_words(reinterpret_cast<const std::uint32_t*>(bytes + kReadbackPlanesOffset), slot.bins);
  }
  if (slot.with_light) {
    const auto* light = reinterpret_cast<const std::uint32_t*>(bytes + kReadbackLightOffset);
    out.light.assign(light, light + light_levels(slot.format.bits));
  }
  const auto* measures = reinterpret_cast<const std::uint32_t*>(bytes + kReadbackMeasuresOffset);
  if (slot.with_gamut) {
    out.gamut = GamutCounts{measures[shader::kMeasureGamutLow], measures[shader::kMeasureGamutHigh],
                            measures[shader::kMeasureGamutOut]};
  }
  if (slot.with_checksum) {
    out.checksum = checksum_from_sums(measures[shader::kMeasureChecksum], measures[shader::kMeasureChecksum + 1]);
    out.cells.emplace();
    std::copy_n(measures + shader::kMeasureCells, shader::kCellCount, out.cells->begin());
  }
  const std::vector<double> ns = slot.timer->read_ns(5);
  out.upload_ms = (ns[1] - ns[0]) * 1e-6;
  out.source_ms = (ns[2] - ns[1]) * 1e-6;
  out.convert_ms = (ns[3] - ns[2]) * 1e-6;
  out.histogram_ms = (ns[4] - ns[3]) * 1e-6;
  out.gpu_ms = (ns[4] - ns[0]) * 1e-6;
  out.imported = slot.imported;
  if (slot.imported) {
    out.upload_ms = import_->copy_ms(slot.index);
    out.gpu_ms += out.upload_ms;
  }
  return out;
}

}  // namespace vhist
