// GPU timestamps: a query pool of `capacity` timestamps written from a command buffer and
// read back after the work completed. Times are in nanoseconds of GPU clock.
#pragma once

#include "vhist/render/handles.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace vhist::render {

class Context;

class GpuTimer {
 public:
  GpuTimer(const Context& context, std::uint32_t capacity);

  // Resets all queries; record before the first write() of a command buffer.
  void reset(VkCommandBuffer cmd) const;
  // Writes timestamp `index` once all earlier commands have completed.
  void write(VkCommandBuffer cmd, std::uint32_t index) const;
  // Reads the first `count` timestamps (waiting for them) in nanoseconds.
  std::vector<double> read_ns(std::uint32_t count) const;

  std::uint32_t capacity() const noexcept { return capacity_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  UniqueQueryPool pool_;
  std::uint32_t capacity_ = 0;
  double period_ns_ = 1.0;
  std::uint64_t mask_ = ~0ull;
};

}  // namespace vhist::render
