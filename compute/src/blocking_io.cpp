#include "vhist/compute/blocking_io.h"

#include <cstring>
#include <stdexcept>

namespace vhist {

void results_to_transfer(VkCommandBuffer cmd) {
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
}

void upload_blocking(render::Context& context, const render::Buffer& dst, std::span<const std::byte> pixels) {
  if (pixels.size() > dst.size()) throw std::invalid_argument("upload larger than the destination buffer");
  if (pixels.empty()) return;
  render::Buffer staging(context, pixels.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, render::MemoryUse::upload, false,
                         "upload staging");
  std::memcpy(staging.mapped(), pixels.data(), pixels.size());
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, pixels.size()};
    vkCmdCopyBuffer(cmd, staging.get(), dst.get(), 1, &region);
  });
}

HistogramReadback read_back_blocking(render::Context& context, const HistogramTarget& target, std::uint32_t bins) {
  const VkDeviceSize histogram_bytes = VkDeviceSize{bins} * shader::kChannelCount * 4;
  render::Buffer host(context, histogram_bytes + 32, VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback,
                      false, "readback");
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    const VkBufferCopy histogram_region{0, 0, histogram_bytes};
    vkCmdCopyBuffer(cmd, target.histogram.get(), host.get(), 1, &histogram_region);
    const VkBufferCopy scale_region{0, histogram_bytes, 32};
    vkCmdCopyBuffer(cmd, target.scale.get(), host.get(), 1, &scale_region);
  });
  HistogramReadback out;
  out.histogram = Histogram(bins);
  const auto* bytes = static_cast<const std::byte*>(host.mapped());
  std::memcpy(out.histogram.counts.data(), bytes, histogram_bytes);
  std::memcpy(out.scale.scale.data(), bytes + histogram_bytes, 16);
  std::memcpy(out.scale.max_count.data(), bytes + histogram_bytes + 16, 16);
  return out;
}

HistogramReadback histogram_on_gpu(HistogramEngine& engine, std::span<const std::byte> pixels,
                                   const FrameFormat& format, std::uint32_t bins, Strategy strategy) {
  if (auto err = engine.check(format, bins); !err.empty()) throw std::invalid_argument(err);
  render::Context& context = engine.context();
  render::Buffer frame = engine.create_frame_buffer(format, "frame");
  upload_blocking(context, frame, pixels);
  HistogramTarget target = engine.create_target("one-shot");
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    engine.record(cmd, frame.address(), format, bins, strategy, target);
    results_to_transfer(cmd);
  });
  return read_back_blocking(context, target, bins);
}

CdfReadback read_back_blocking(render::Context& context, const CdfTarget& target, std::uint32_t levels,
                               std::uint32_t bits) {
  const VkDeviceSize bytes = VkDeviceSize{levels} * shader::kChannelCount * 4;
  render::Buffer host(context, 2 * bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                      "cdf readback");
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    const VkBufferCopy cdf_region{0, 0, bytes};
    vkCmdCopyBuffer(cmd, target.cdf.get(), host.get(), 1, &cdf_region);
    const VkBufferCopy table_region{0, bytes, bytes};
    vkCmdCopyBuffer(cmd, target.table.get(), host.get(), 1, &table_region);
  });
  CdfReadback out;
  out.cdf = Cdf(levels);
  out.table = EqualizeTable{levels, bits, std::vector<std::uint32_t>(std::size_t{levels} * 4)};
  const auto* mapped = static_cast<const std::byte*>(host.mapped());
  std::memcpy(out.cdf.counts.data(), mapped, bytes);
  std::memcpy(out.table.codes.data(), mapped + bytes, bytes);
  return out;
}

CdfReadback cdf_on_gpu(HistogramEngine& engine, const Histogram& histogram, std::uint32_t bits) {
  render::Context& context = engine.context();
  const HistogramTarget source = engine.create_target("cdf source");
  upload_blocking(context, source.histogram, std::as_bytes(std::span(histogram.counts)));
  const CdfTarget target = engine.create_cdf_target("one-shot");
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    engine.record_cdf(cmd, source.histogram, histogram.bins, bits, target);
    results_to_transfer(cmd);
  });
  return read_back_blocking(context, target, histogram.bins, bits);
}

EqualizeTable match_on_gpu(HistogramEngine& engine, MatchPass& pass, const Histogram& live, const Histogram& reference,
                           std::uint32_t bits) {
  render::Context& context = engine.context();
  const HistogramTarget source = engine.create_target("match live");
  const HistogramTarget reference_levels = engine.create_target("match reference");
  upload_blocking(context, source.histogram, std::as_bytes(std::span(live.counts)));
  const Cdf cumulative = vhist::reference_cdf(reference);
  upload_blocking(context, reference_levels.histogram, std::as_bytes(std::span(cumulative.counts)));
  const CdfTarget live_cdf = engine.create_cdf_target("match live");
  const CdfTarget out = engine.create_cdf_target("match out");
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    engine.record_cdf(cmd, source.histogram, live.bins, bits, live_cdf);
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    pass.record(cmd, live_cdf.cdf.address(), bits, reference_levels.histogram.address(), reference.bins,
                out.table.address());
    results_to_transfer(cmd);
  });
  return read_back_blocking(context, out, live.bins, bits).table;
}

}  // namespace vhist
