#include "vhist/render/gpu_timer.h"

#include "vhist/render/context.h"
#include "vhist/render/vk_check.h"

namespace vhist::render {

GpuTimer::GpuTimer(const Context& context, std::uint32_t capacity)
    : device_(context.device()), capacity_(capacity), period_ns_(context.properties().timestamp_period_ns) {
  const std::uint32_t bits = context.properties().timestamp_valid_bits;
  mask_ = bits >= 64 ? ~0ull : ((1ull << bits) - 1ull);
  const VkQueryPoolCreateInfo info{
      .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = capacity};
  VkQueryPool pool = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateQueryPool(device_, &info, nullptr, &pool));
  pool_ = UniqueQueryPool(device_, pool);
  context.set_name(VK_OBJECT_TYPE_QUERY_POOL, reinterpret_cast<std::uint64_t>(pool), "timestamps");
}

void GpuTimer::reset(VkCommandBuffer cmd) const { vkCmdResetQueryPool(cmd, pool_.get(), 0, capacity_); }

void GpuTimer::write(VkCommandBuffer cmd, std::uint32_t index) const {
  vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool_.get(), index);
}

std::vector<double> GpuTimer::read_ns(std::uint32_t count) const {
  std::vector<std::uint64_t> raw(count);
  VHIST_VK_CHECK(vkGetQueryPoolResults(device_, pool_.get(), 0, count, raw.size() * sizeof(std::uint64_t), raw.data(),
                                       sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  std::vector<double> ns(count);
  for (std::uint32_t i = 0; i < count; ++i) ns[i] = static_cast<double>(raw[i] & mask_) * period_ns_;
  return ns;
}

}  // namespace vhist::render
