#include "vhist/viewer/presenter.h"

#include "underlay_image.h"

#include "vhist/render/command_slot.h"
#include "vhist/render/image.h"
#include "vhist/render/vk_check.h"

#include <imgui.h>
#include <backends/imgui_impl_vulkan.h>

namespace vhist::viewer {

namespace {

render::UniqueSemaphore make_semaphore(VkDevice device) {
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore sem = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateSemaphore(device, &info, nullptr, &sem));
  return render::UniqueSemaphore(device, sem);
}

// The composite's picture (`picture`, tightly packed, in the image's byte order) into the
// acquired `image` (its old contents discarded), left in TRANSFER_DST_OPTIMAL for the render pass
// that draws the UI over it. The acquire semaphore is waited for at the copy stage.
void record_picture_copy(VkCommandBuffer cmd, const render::Buffer& picture, VkImage image, VkExtent2D extent) {
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  render::image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyBufferToImage(cmd, picture.get(), image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
}

// The UI over the copied or stored picture, in the swapchain's render pass (it loads the image).
void record_ui_pass(VkCommandBuffer cmd, const render::Swapchain& swapchain, std::uint32_t image_index,
                    ImDrawData* ui) {
  VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  pass.renderPass = swapchain.render_pass();
  pass.framebuffer = swapchain.framebuffer(image_index);
  pass.renderArea = {{0, 0}, swapchain.extent()};
  vkCmdBeginRenderPass(cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
  if (ui) ImGui_ImplVulkan_RenderDrawData(ui, cmd);
  vkCmdEndRenderPass(cmd);
}

// Copies the presented `image` into `shot` (host-readable) and returns it to the present layout.
void record_screenshot_copy(VkCommandBuffer cmd, VkImage image, VkExtent2D extent, const render::Buffer& shot) {
  render::image_barrier(cmd, image, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, shot.get(), 1, &region);
  render::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                        VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0);
  render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

}  // namespace

Presenter::Presenter(render::Context& context, render::Swapchain& swapchain, Engine engine)
    : context_(context), swapchain_(swapchain), renderer_(context, engine), present_pass_(context) {
  for (std::uint32_t i = 0; i < kFramesInFlight; ++i) image_available_.push_back(make_semaphore(context.device()));
  if (UnderlayImage::supported(context, swapchain.format())) underlay_ = std::make_unique<UnderlayImage>(context);
}

Presenter::~Presenter() { renderer_.wait_idle(); }

void Presenter::reset_semaphores() {
  render_done_.clear();  // made again for the new swapchain's image count by draw()
  image_available_.clear();
  for (std::uint32_t i = 0; i < kFramesInFlight; ++i) image_available_.push_back(make_semaphore(context_.device()));
}

const Underlay* Presenter::stage_underlay(const Underlay* underlay) {
  if (!underlay_ || !underlay) return nullptr;
  if (underlay_->stale(*underlay)) {
    renderer_.wait_idle();  // the frames in flight may still read the old image or staging buffer
    underlay_->stage(*underlay);
  }
  return underlay;
}

// The acquired image (waited for at the copy into it) and an imported frame's copy; the image
// for the present, and the importer told that this tick is done (render::submit_timeline leaves
// out the points without a semaphore; the binary semaphores' values are ignored).
void Presenter::submit_tick(VkCommandBuffer cmd, VkSemaphore image_available, VkSemaphore render_done) {
  const render::TimelinePoint waits[] = {{image_available, 0, VK_PIPELINE_STAGE_2_COPY_BIT}, renderer_.import_wait()};
  const render::TimelinePoint signals[] = {{render_done, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT},
                                           renderer_.import_release()};
  render::submit_timeline(context_, cmd, renderer_.fence(), waits, signals);
  renderer_.end();
}

bool Presenter::draw(const media::DecodedFrame* frame, bool rehistogram, const DrawStyle& style, ImDrawData* ui,
                     const Underlay* underlay, std::vector<std::uint8_t>* screenshot) {
  const VkDevice device = context_.device();
  underlay = stage_underlay(underlay);
  renderer_.begin();
  if (render_done_.size() != swapchain_.image_count()) {
    render_done_.clear();
    for (std::uint32_t i = 0; i < swapchain_.image_count(); ++i) render_done_.push_back(make_semaphore(device));
  }
  const VkSemaphore image_available = image_available_[renderer_.slot_index()].get();
  std::uint32_t image_index = 0;
  const VkResult acquired = VHIST_VK_HOOK(
      vkAcquireNextImageKHR(device, swapchain_.get(), UINT64_MAX, image_available, VK_NULL_HANDLE, &image_index));
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) return false;
  if (acquired != VK_SUBOPTIMAL_KHR) render::check(acquired, "vkAcquireNextImageKHR");

  const VkExtent2D extent = swapchain_.extent();
  const VkDeviceSize picture_bytes = VkDeviceSize{extent.width} * extent.height * 4;
  if (!picture_ || picture_.size() != picture_bytes) {
    renderer_.wait_idle();  // the frames in flight may still copy from the old buffer
    picture_ = render::Buffer(context_, picture_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                              render::MemoryUse::device, true, "window picture");
  }
  render::Buffer shot;
  const VkImage image = swapchain_.image(image_index);
  const std::uint32_t slot = renderer_.slot_index();  // its previous command buffer has completed
  const auto after_picture = [&](VkCommandBuffer cmd) {
    const bool stores = swapchain_.stores_picture();
    if (stores) {
      present_pass_.record(cmd, slot, picture_.address(), swapchain_.bgr(), image, swapchain_.view(image_index), extent);
    } else {
      record_picture_copy(cmd, picture_, image, extent);
    }
    if (underlay) {
      underlay_->record(cmd, image, stores ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, extent,
                        stores ? VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT : VK_PIPELINE_STAGE_2_COPY_BIT,
                        stores ? VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT : VK_ACCESS_2_TRANSFER_WRITE_BIT, underlay->rect);
    }
    record_ui_pass(cmd, swapchain_, image_index, ui);
    if (!screenshot) return;
    shot = render::Buffer(context_, picture_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                          "screenshot");
    record_screenshot_copy(cmd, image, extent, shot);
  };
  const CompositeTarget target{extent, picture_.address(), swapchain_.bgr()};
  const VkCommandBuffer cmd = renderer_.record_composite(frame ? &frame->format : nullptr,
                                                         frame ? &frame->planes : nullptr, rehistogram, style, target,
                                                         after_picture, frame ? &frame->device : nullptr);

  const VkFence fence = renderer_.fence();
  submit_tick(cmd, image_available, render_done_[image_index].get());

  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  const VkSemaphore done = render_done_[image_index].get();
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &done;
  const VkSwapchainKHR sc = swapchain_.get();
  present.swapchainCount = 1;
  present.pSwapchains = &sc;
  present.pImageIndices = &image_index;
  const VkResult presented = VHIST_VK_HOOK(vkQueuePresentKHR(context_.queue(), &present));

  if (screenshot) {
    VHIST_VK_CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
    const auto* bytes = static_cast<const std::uint8_t*>(shot.mapped());
    screenshot->assign(bytes, bytes + shot.size());
    if (swapchain_.bgr()) {
      for (std::size_t i = 0; i + 3 < screenshot->size(); i += 4) std::swap((*screenshot)[i], (*screenshot)[i + 2]);
    }
  }
  if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR || acquired == VK_SUBOPTIMAL_KHR) {
    return false;
  }
  render::check(presented, "vkQueuePresentKHR");
  return true;
}

}  // namespace vhist::viewer
