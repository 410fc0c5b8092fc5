// The window's present pass (PresentPass, shaders/present_pass.comp) against the copy it replaces:
// a picture buffer of random bytes copied (vkCmdCopyBufferToImage) into one image and stored by
// the pass into another of the same swapchain format, both read back and compared byte for byte,
// for the two formats a swapchain has (B8G8R8A8 and R8G8B8A8 UNORM). The copy is checked against
// the buffer itself, so the reference is the bytes, not the code under test. Validation on.
#include "gpu_test_env.h"

#include "vhist/picture/present_pass.h"

#include "vhist/render/buffer.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/image.h"
#include "vhist/render/vk_check.h"

#include <cstring>
#include <random>
#include <vector>

namespace vhist {
namespace {

class PresentPassTest : public test::GpuTest, public ::testing::WithParamInterface<VkFormat> {};

// `image` (in `layout`, last written at `stage`) copied into `out` (host-readable).
void record_readback(VkCommandBuffer cmd, VkImage image, VkImageLayout layout, VkPipelineStageFlags2 stage,
                     VkAccessFlags2 access, VkExtent2D extent, const render::Buffer& out) {
  render::image_barrier(cmd, image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, stage, access,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.get(), 1, &region);
}

// The bytes of `out` (after the submission completed).
std::vector<std::uint8_t> bytes_of(const render::Buffer& out) {
  const auto* p = static_cast<const std::uint8_t*>(out.mapped());
  return std::vector<std::uint8_t>(p, p + out.size());
}

TEST_P(PresentPassTest, StoresWhatTheCopyWould) {
  const VkFormat format = GetParam();
  if (!render::storage_writable(context(), format)) {
    GTEST_SKIP() << "this device cannot write images of format " << format
                 << " from a shader without a declared format (no STORAGE_IMAGE or STORAGE_WRITE_WITHOUT_FORMAT "
                    "feature): the viewer copies there, so there is nothing to compare";
  }
  // Not a multiple of the pass's 32x8 workgroups: the edges are stored too, and nothing past them.
  const VkExtent2D extent{203, 77};
  const VkDeviceSize size = VkDeviceSize{extent.width} * extent.height * 4;
  const render::Buffer picture(context(), size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                               render::MemoryUse::upload, true, "test picture");
  std::vector<std::uint8_t> want(size);
  std::mt19937 rng(26);
  for (auto& b : want) b = static_cast<std::uint8_t>(rng());
  for (std::size_t i = 0; i < 256; ++i) want[i] = static_cast<std::uint8_t>(i);  // every code, in every byte
  for (std::size_t i = 0; i < 256; ++i) want[256 + 4 * i + (i % 4)] = static_cast<std::uint8_t>(i);
  std::memcpy(picture.mapped(), want.data(), want.size());

  // The swapchain's usage: colour attachment (the UI pass) and transfer source (screenshots).
  constexpr VkImageUsageFlags swapchain_usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  const render::Image2D copied(context(), extent, format, swapchain_usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                               "copied picture");
  const render::Image2D stored(context(), extent, format, swapchain_usage | VK_IMAGE_USAGE_STORAGE_BIT, "stored picture");
  const render::Buffer copied_out(context(), size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                                  "copied readback");
  const render::Buffer stored_out(context(), size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                                  "stored readback");
  viewer::PresentPass pass(context());
  render::CommandSlot slot(context(), false);
  const VkCommandBuffer cmd = slot.begin();
  render::image_barrier(cmd, copied.get(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyBufferToImage(cmd, picture.get(), copied.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  pass.record(cmd, 1, picture.address(), format == VK_FORMAT_B8G8R8A8_UNORM, stored.get(), stored.view(), extent);
  record_readback(cmd, copied.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT, extent, copied_out);
  record_readback(cmd, stored.get(), VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, extent, stored_out);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                         VK_ACCESS_2_HOST_READ_BIT);
  VHIST_VK_CHECK(vkEndCommandBuffer(cmd));
  render::submit(context(), cmd, slot.fence());
  const VkFence fence = slot.fence();
  VHIST_VK_CHECK(vkWaitForFences(context().device(), 1, &fence, VK_TRUE, UINT64_MAX));

  const std::vector<std::uint8_t> copy = bytes_of(copied_out), store = bytes_of(stored_out);
  ASSERT_EQ(copy, want) << "the copy itself (the reference) changed the bytes";
  std::size_t differ = 0, first = 0;
  for (std::size_t i = 0; i < store.size(); ++i) {
    if (store[i] != want[i] && differ++ == 0) first = i;
  }
  EXPECT_EQ(differ, 0u) << "the present pass stored " << differ << " bytes unlike the copy; the first at byte " << first
                        << " (pixel " << first / 4 << ", byte " << first % 4 << "): " << int(store[first])
                        << " instead of " << int(want[first]);
}

INSTANTIATE_TEST_SUITE_P(SwapchainFormats, PresentPassTest,
                         ::testing::Values(VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM),
                         [](const auto& p) { return p.param == VK_FORMAT_B8G8R8A8_UNORM ? "bgra8" : "rgba8"; });

}  // namespace
}  // namespace vhist
