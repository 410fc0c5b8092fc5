// The window's swapchain: images, views, and the render pass and framebuffers that draw into
// them. Rebuilt (recreate()) when the window's size changes or presentation reports
// VK_ERROR_OUT_OF_DATE_KHR / VK_SUBOPTIMAL_KHR.
//
// Images are B8G8R8A8 (or R8G8B8A8) UNORM, not sRGB: video code values are already
// gamma-encoded and go to the display unchanged, as does ImGui's colour. They allow transfer
// writes (the picture is copied in from the compute composite's buffer) and reads (a screenshot
// is a copy of exactly what was presented). The render pass draws over the copied picture
// (loaded from TRANSFER_DST_OPTIMAL) and leaves the image ready to present.
#pragma once

#include "vhist/render/context.h"
#include "vhist/render/handles.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace vhist::render {

class Swapchain {
 public:
  // vsync: FIFO; otherwise MAILBOX, else IMMEDIATE, when offered (FIFO is always offered).
  Swapchain(Context& context, VkExtent2D framebuffer_size, bool vsync);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  // Rebuilds for a new framebuffer size (the caller has waited for the GPU to finish with the
  // old images). A zero size (minimized window) is not valid: the caller waits instead.
  void recreate(VkExtent2D framebuffer_size);

  // Destroys the swapchain and its images' views (the caller has waited for the GPU), leaving
  // the render pass: for a lost surface, before Context::recreate_surface(). recreate() then
  // builds a new swapchain on the new surface, in the same format (it throws if the new surface
  // no longer offers it).
  void release() noexcept;

  VkSwapchainKHR get() const noexcept { return swapchain_; }
  VkFormat format() const noexcept { return format_; }
  VkExtent2D extent() const noexcept { return extent_; }
  VkPresentModeKHR present_mode() const noexcept { return present_mode_; }
  VkRenderPass render_pass() const noexcept { return render_pass_.get(); }
  std::uint32_t image_count() const noexcept { return static_cast<std::uint32_t>(images_.size()); }
  VkImage image(std::uint32_t i) const { return images_.at(i); }
  VkFramebuffer framebuffer(std::uint32_t i) const { return framebuffers_.at(i); }
  // Whether the format stores blue first (B8G8R8A8): screenshots swap it back.
  bool bgr() const noexcept { return format_ == VK_FORMAT_B8G8R8A8_UNORM; }

 private:
  void create(VkExtent2D framebuffer_size, VkSwapchainKHR old);
  void destroy_views() noexcept;

  Context& context_;
  bool vsync_;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkColorSpaceKHR colour_space_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  VkExtent2D extent_{};
  VkPresentModeKHR present_mode_ = VK_PRESENT_MODE_FIFO_KHR;
  UniqueRenderPass render_pass_;
  std::vector<VkImage> images_;
  std::vector<UniqueImageView> views_;  // destroyed after the framebuffers that use them
  std::vector<VkFramebuffer> framebuffers_;
};

}  // namespace vhist::render
