#include "gpu_test_env.h"

#include "vhist/render/buffer.h"
#include "vhist/render/descriptor_pool.h"
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

// make_descriptor_pool, which the ImGui backend, the present pass and the frame renderer share:
// the pool holds `max_sets` sets of the types asked for (two here, as a caller may ask), and with
// the free flag a set goes back on its own (ImGui's use). Validation checks every call.
TEST_F(GpuTest, DescriptorPoolHoldsTheSetsAskedFor) {
  const VkDevice device = context().device();
  const VkDescriptorSetLayoutBinding bindings[] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  layout_info.bindingCount = 2;
  layout_info.pBindings = bindings;
  VkDescriptorSetLayout raw_layout = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateDescriptorSetLayout(device, &layout_info, nullptr, &raw_layout));
  const vhist::render::UniqueDescriptorSetLayout layout(device, raw_layout);
  for (const VkDescriptorPoolCreateFlags flags : {VkDescriptorPoolCreateFlags{0},
                                                  VkDescriptorPoolCreateFlags{VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT}}) {
    const vhist::render::UniqueDescriptorPool pool = vhist::render::make_descriptor_pool(
        device, 3, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3}, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 3}}, flags);
    ASSERT_TRUE(pool);
    const VkDescriptorSetLayout layouts[] = {layout.get(), layout.get(), layout.get()};
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool.get();
    alloc.descriptorSetCount = 3;
    alloc.pSetLayouts = layouts;
    VkDescriptorSet sets[3] = {};
    VHIST_VK_CHECK(vkAllocateDescriptorSets(device, &alloc, sets));
    for (const VkDescriptorSet set : sets) EXPECT_NE(set, VK_NULL_HANDLE);
    if (flags != 0) VHIST_VK_CHECK(vkFreeDescriptorSets(device, pool.get(), 1, &sets[0]));
  }
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
