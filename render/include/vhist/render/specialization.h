// Specialization constants for a shader stage: (constant_id, 32-bit value) pairs kept with the
// VkSpecializationInfo that points at them, for a pipeline's create call.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

namespace vhist::render {

struct SpecConstant {
  std::uint32_t id;
  std::uint32_t value;
};

class Specialization {
 public:
  explicit Specialization(std::span<const SpecConstant> constants) {
    for (const auto& c : constants) {
      entries_.push_back({c.id, static_cast<std::uint32_t>(values_.size() * sizeof(std::uint32_t)), sizeof(std::uint32_t)});
      values_.push_back(c.value);
    }
    info_.mapEntryCount = static_cast<std::uint32_t>(entries_.size());
    info_.pMapEntries = entries_.data();
    info_.dataSize = values_.size() * sizeof(std::uint32_t);
    info_.pData = values_.data();
  }
  Specialization(const Specialization&) = delete;
  Specialization& operator=(const Specialization&) = delete;

  // For VkPipelineShaderStageCreateInfo::pSpecializationInfo: null when there are no constants.
  const VkSpecializationInfo* info() const noexcept { return entries_.empty() ? nullptr : &info_; }

 private:
  std::vector<VkSpecializationMapEntry> entries_;
  std::vector<std::uint32_t> values_;
  VkSpecializationInfo info_{};
};

}  // namespace vhist::render
