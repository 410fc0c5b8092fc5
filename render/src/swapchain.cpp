#include "vhist/render/swapchain.h"

#include "vhist/render/image.h"
#include "vhist/render/render_pass.h"
#include "vhist/render/vk_check.h"

#include <algorithm>
#include <stdexcept>

namespace vhist::render {

namespace {

VkSurfaceFormatKHR choose_format(VkPhysicalDevice physical, VkSurfaceKHR surface) {
  std::uint32_t count = 0;
  VHIST_VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, nullptr));
  std::vector<VkSurfaceFormatKHR> formats(count);
  VHIST_VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, formats.data()));
  for (VkFormat want : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
    for (const auto& f : formats) {
      if (f.format == want && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
    }
  }
  throw std::runtime_error("The window offers no 8-bit UNORM BGRA or RGBA swapchain format.");
}

VkPresentModeKHR choose_present_mode(VkPhysicalDevice physical, VkSurfaceKHR surface, bool vsync) {
  if (vsync) return VK_PRESENT_MODE_FIFO_KHR;
  std::uint32_t count = 0;
  VHIST_VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, nullptr));
  std::vector<VkPresentModeKHR> modes(count);
  VHIST_VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, modes.data()));
  for (VkPresentModeKHR want : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR}) {
    if (std::find(modes.begin(), modes.end(), want) != modes.end()) return want;
  }
  return VK_PRESENT_MODE_FIFO_KHR;
}

// Whether the picture is stored by the present pass rather than copied (PictureWriteChoice).
bool chooses_store(const Context& context, VkFormat format, PictureWriteChoice choice) {
  if (choice == PictureWriteChoice::copy) return false;
  if (choice == PictureWriteChoice::automatic && context.properties().kind == DeviceKind::cpu) return false;
  VkSurfaceCapabilitiesKHR caps{};
  VHIST_VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context.physical_device(), context.surface(), &caps));
  return (caps.supportedUsageFlags & VK_IMAGE_USAGE_STORAGE_BIT) != 0 && storage_writable(context, format);
}

}  // namespace

Swapchain::Swapchain(Context& context, VkExtent2D framebuffer_size, bool vsync, PictureWriteChoice picture_write)
    : context_(context), vsync_(vsync) {
  if (context.surface() == VK_NULL_HANDLE) throw std::invalid_argument("a swapchain needs a context with a surface");
  const VkSurfaceFormatKHR surface_format = choose_format(context.physical_device(), context.surface());
  format_ = surface_format.format;
  colour_space_ = surface_format.colorSpace;
  present_mode_ = choose_present_mode(context.physical_device(), context.surface(), vsync_);
  stores_picture_ = chooses_store(context, format_, picture_write);

  // One colour attachment, loaded from the picture copied (TRANSFER_DST) or stored (GENERAL) into
  // the image, ending ready to present. The dependency orders the pass's reads and writes after
  // that copy or store.
  VkSubpassDependency after_picture{};
  after_picture.srcStageMask = stores_picture_ ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT : VK_PIPELINE_STAGE_TRANSFER_BIT;
  after_picture.srcAccessMask = stores_picture_ ? VK_ACCESS_SHADER_WRITE_BIT : VK_ACCESS_TRANSFER_WRITE_BIT;
  after_picture.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  after_picture.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  render_pass_ = make_colour_pass(context.device(), format_,
                                  stores_picture_ ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                  VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, after_picture);

  create(framebuffer_size, VK_NULL_HANDLE);
}

Swapchain::~Swapchain() { release(); }

void Swapchain::destroy_views() noexcept {
  for (VkFramebuffer fb : framebuffers_) vkDestroyFramebuffer(context_.device(), fb, nullptr);
  framebuffers_.clear();
  views_.clear();
  images_.clear();
}

void Swapchain::release() noexcept {
  destroy_views();
  if (swapchain_ != VK_NULL_HANDLE) vkDestroySwapchainKHR(context_.device(), swapchain_, nullptr);
  swapchain_ = VK_NULL_HANDLE;
}

void Swapchain::recreate(VkExtent2D framebuffer_size) {
  if (swapchain_ == VK_NULL_HANDLE) {
    // A new surface (after release()): the render pass and the pipelines built on it assume
    // this format.
    const VkSurfaceFormatKHR offered = choose_format(context_.physical_device(), context_.surface());
    if (offered.format != format_) {
      throw std::runtime_error("The window's new surface no longer offers the swapchain format it had.");
    }
  }
  destroy_views();
  const VkSwapchainKHR old = swapchain_;
  swapchain_ = VK_NULL_HANDLE;
  create(framebuffer_size, old);
  if (old != VK_NULL_HANDLE) vkDestroySwapchainKHR(context_.device(), old, nullptr);
}

void Swapchain::create(VkExtent2D framebuffer_size, VkSwapchainKHR old) {
  const VkDevice device = context_.device();
  VkSurfaceCapabilitiesKHR caps{};
  VHIST_VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context_.physical_device(), context_.surface(), &caps));
  if (caps.currentExtent.width != UINT32_MAX) {
    extent_ = caps.currentExtent;
  } else {
    extent_.width = std::clamp(framebuffer_size.width, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent_.height = std::clamp(framebuffer_size.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  if (extent_.width == 0 || extent_.height == 0) throw std::logic_error("swapchain of zero size (window minimized)");
  std::uint32_t image_count = std::max(caps.minImageCount + 1, 3u);
  if (caps.maxImageCount != 0) image_count = std::min(image_count, caps.maxImageCount);
  if ((caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) == 0) {
    throw std::runtime_error("The window's swapchain images cannot be read back (no TRANSFER_SRC usage).");
  }
  if ((caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT) == 0) {
    throw std::runtime_error("The window's swapchain images cannot be copied into (no TRANSFER_DST usage), "
                             "which the picture needs.");
  }
  if (stores_picture_ && (caps.supportedUsageFlags & VK_IMAGE_USAGE_STORAGE_BIT) == 0) {
    throw std::runtime_error("The window's new surface no longer allows storage writes to its images, which the "
                             "present pass chosen for the first one needs.");
  }

  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = context_.surface();
  info.minImageCount = image_count;
  info.imageFormat = format_;
  info.imageColorSpace = colour_space_;
  info.imageExtent = extent_;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (stores_picture_) info.imageUsage |= VK_IMAGE_USAGE_STORAGE_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                            : static_cast<VkCompositeAlphaFlagBitsKHR>(caps.supportedCompositeAlpha &
                                                                       -caps.supportedCompositeAlpha);
  info.presentMode = present_mode_;
  info.clipped = VK_TRUE;
  info.oldSwapchain = old;
  VHIST_VK_CHECK(vkCreateSwapchainKHR(device, &info, nullptr, &swapchain_));

  std::uint32_t count = 0;
  VHIST_VK_CHECK(vkGetSwapchainImagesKHR(device, swapchain_, &count, nullptr));
  images_.resize(count);
  VHIST_VK_CHECK(vkGetSwapchainImagesKHR(device, swapchain_, &count, images_.data()));
  for (VkImage image : images_) {
    views_.push_back(make_image_view(device, image, format_));
    const VkImageView view = views_.back().get();
    const VkFramebuffer fb = make_framebuffer(device, render_pass_.get(), view, extent_);
    framebuffers_.push_back(fb);
  }
}

}  // namespace vhist::render
