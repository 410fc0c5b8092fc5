// The window's swapchain: images, views, and the render pass and framebuffers that draw into
// them. Rebuilt (recreate()) when the window's size changes or presentation reports
// VK_ERROR_OUT_OF_DATE_KHR / VK_SUBOPTIMAL_KHR.
//
// Images are B8G8R8A8 (or R8G8B8A8) UNORM, not sRGB: video code values are already
// gamma-encoded and go to the display unchanged, as does ImGui's colour. They allow transfer
// writes (the picture is copied in from the compute composite's buffer) and reads (a screenshot
// is a copy of exactly what was presented). The picture gets in one of two ways (stores_picture()):
// copied (vkCmdCopyBufferToImage, the image in TRANSFER_DST_OPTIMAL), or stored by the present
// pass's compute shader (the images then also have STORAGE usage and are left in GENERAL), for
// GPUs where the copy is slow (0.355 ms at 3840x2160 on an H100, about 190 GB/s). The render pass draws over the picture (loaded
// from the layout it was left in) and leaves the image ready to present.
#pragma once

#include "vhist/render/context.h"
#include "vhist/render/handles.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace vhist::render {

// Who chooses how the picture gets into the images. automatic: stored on GPUs (not CPU devices,
// where the copy is a memcpy) when the surface allows STORAGE usage and the format can be written
// by a shader (storage_writable()), else copied. store_where_supported: stored wherever allowed,
// CPU devices included (tests compare both ways on lavapipe). copy: always copied.
enum class PictureWriteChoice { automatic, store_where_supported, copy };

class Swapchain {
 public:
  // vsync: FIFO; otherwise MAILBOX, else IMMEDIATE, when offered (FIFO is always offered).
  Swapchain(Context& context, VkExtent2D framebuffer_size, bool vsync,
            PictureWriteChoice picture_write = PictureWriteChoice::automatic);
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
  VkImageView view(std::uint32_t i) const { return views_.at(i).get(); }
  VkFramebuffer framebuffer(std::uint32_t i) const { return framebuffers_.at(i); }
  // Whether the picture is stored into the images by a compute shader (they have STORAGE usage
  // and the render pass loads them from GENERAL), else copied in (TRANSFER_DST_OPTIMAL).
  bool stores_picture() const noexcept { return stores_picture_; }
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
  bool stores_picture_ = false;
  UniqueRenderPass render_pass_;
  std::vector<VkImage> images_;
  std::vector<UniqueImageView> views_;  // destroyed after the framebuffers that use them
  std::vector<VkFramebuffer> framebuffers_;
};

}  // namespace vhist::render
