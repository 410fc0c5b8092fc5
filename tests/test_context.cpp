#include "gpu_test_env.h"

#include "vhist/render/buffer.h"
#include "vhist/render/vk_check.h"

#include <gtest/gtest.h>

namespace {

using vhist::test::GpuTest;

TEST_F(GpuTest, ContextHasValidationAndVulkan13) {
  EXPECT_TRUE(context().validation_enabled());
  EXPECT_GE(context().description().api_version, VK_API_VERSION_1_3);
  EXPECT_GT(context().properties().subgroup_size, 0u);
  EXPECT_GE(context().properties().max_shared_memory, 16384u);
  EXPECT_GT(context().properties().timestamp_valid_bits, 0u);
}

TEST_F(GpuTest, ListDevicesIncludesTheChosenOne) {
  const auto devices = vhist::render::Context::list_devices();
  bool found = false;
  for (const auto& d : devices) found |= d.name == context().description().name;
  EXPECT_TRUE(found);
}

TEST_F(GpuTest, AddressableBufferHasAnAddress) {
  vhist::render::Buffer b(context(), 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vhist::render::MemoryUse::device, true,
                          "address test");
  EXPECT_NE(b.address(), 0u);
  EXPECT_EQ(b.address() % 16, 0u);
  vhist::render::Buffer host(context(), 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vhist::render::MemoryUse::readback, false,
                             "host test");
  EXPECT_NE(host.mapped(), nullptr);
}

TEST(VkCheck, ErrorNamesCallResultAndPlace) {
  try {
    VHIST_VK_CHECK(VK_ERROR_DEVICE_LOST);
    FAIL() << "no exception";
  } catch (const vhist::render::VulkanError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("VK_ERROR_DEVICE_LOST"), std::string::npos) << what;
    EXPECT_NE(what.find("test_context.cpp:"), std::string::npos) << what;
    EXPECT_EQ(e.result(), VK_ERROR_DEVICE_LOST);
  }
  EXPECT_EQ(vhist::render::result_name(VK_SUBOPTIMAL_KHR), "VK_SUBOPTIMAL_KHR");
  EXPECT_EQ(vhist::render::check(VK_SUBOPTIMAL_KHR, "x"), VK_SUBOPTIMAL_KHR);  // not an error
}

TEST(Context, BadDeviceSelectorIsAClearError) {
  vhist::render::ContextOptions options;
  options.device = "no-such-gpu-xyz";
  try {
    vhist::render::Context c(options);
    FAIL() << "created a context for a device that does not exist";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.find("No Vulkan driver") != std::string::npos) GTEST_SKIP() << what;
    EXPECT_NE(what.find("'no-such-gpu-xyz'"), std::string::npos) << what;
  }
}

}  // namespace
