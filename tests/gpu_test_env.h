// Shared setup of the GPU tests: one Vulkan context per process with validation required, and a
// fixture that fails any test during which the validation layer reported something.
#pragma once

#include "vhist/render/context.h"

#include <gtest/gtest.h>

#include <string>

namespace vhist::test {

// The process's context, created on first use; nullptr when no usable Vulkan device exists
// (gpu_unavailable_reason() says why).
render::Context* gpu_context();
const std::string& gpu_unavailable_reason();

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  render::Context& context() { return *gpu_context(); }

 private:
  std::uint32_t messages_before_ = 0;
};

}  // namespace vhist::test
