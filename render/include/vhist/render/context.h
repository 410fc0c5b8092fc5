// The Vulkan instance, the chosen physical device, the logical device and its queue.
//
// Headless by default (the engine, analyzer, benchmark and tests need no window); a windowed
// caller passes its surface extensions. Validation: on when options.validation is set or the
// environment has VHIST_VALIDATION=1. A debug messenger logs every validation warning and
// error to stderr and counts them; tests fail when the count is not zero.
//
// Thread safety: the accessors are safe from any thread. Work goes to the queue through submit(),
// submit_and_wait() and wait_idle(), which hold the queue's lock, so several threads may share
// one context (`vhist batch --workers threads`). The viewer presents on its one thread.
#pragma once

#include "vhist/render/device_select.h"
#include "vhist/render/handles.h"

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace vhist::render {

struct ContextOptions {
  bool validation = false;          // VHIST_VALIDATION=1 turns it on too
  bool require_validation = false;  // throw when the validation layer is missing (tests)
  std::string device;               // selector (index or name substring); VHIST_DEVICE if empty
  std::vector<std::string> instance_extensions;  // e.g. what GLFW needs for a surface
  std::vector<std::string> device_extensions;    // e.g. VK_KHR_swapchain
  // Enabled when the device has them, else left out (enabled_extension() tells): e.g. the
  // external memory and semaphore extensions a hardware decoder's interop needs (app/hwdec).
  std::vector<std::string> optional_device_extensions;
  // For a window: called once the instance exists, returns the surface to present to (the
  // context owns it from then on). The chosen device's queue must be able to present to it.
  // Called again by recreate_surface() after the surface was lost.
  std::function<VkSurfaceKHR(VkInstance)> create_surface;
};

// What the engine needs to know of the device to choose its parameters.
struct GpuProperties {
  DeviceKind kind = DeviceKind::other;
  std::uint32_t vendor_id = 0;
  std::uint32_t subgroup_size = 0;
  std::uint32_t max_shared_memory = 0;            // bytes per workgroup
  std::uint32_t max_workgroup_invocations = 0;
  std::uint32_t max_workgroup_count_x = 0;
  std::uint32_t max_image_dimension_2d = 0;
  std::uint64_t max_allocation_size = 0;          // VkPhysicalDeviceMaintenance3Properties
  std::uint32_t multiprocessor_count = 0;         // SMs / CUs when the driver says; 0: unknown
  std::uint32_t timestamp_valid_bits = 0;
  double timestamp_period_ns = 1.0;
};

class Context {
 public:
  explicit Context(const ContextOptions& options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // Every physical device the loader reports, usable or not (for --list-devices).
  // Creates and destroys a temporary instance.
  static std::vector<DeviceDescription> list_devices();

  VkInstance instance() const noexcept { return instance_; }
  VkPhysicalDevice physical_device() const noexcept { return physical_; }
  VkDevice device() const noexcept { return device_; }
  VkQueue queue() const noexcept { return queue_; }
  VkSurfaceKHR surface() const noexcept { return surface_; }  // VK_NULL_HANDLE when headless
  std::uint32_t queue_family() const noexcept { return queue_family_; }
  const DeviceDescription& description() const noexcept { return description_; }
  const GpuProperties& properties() const noexcept { return properties_; }
  bool validation_enabled() const noexcept { return validation_; }
  // Whether the logical device was created with extension `name` (required or optional).
  bool enabled_extension(const std::string& name) const;

  // Validation warnings and errors reported since the context was created.
  std::uint32_t validation_message_count() const noexcept { return validation_messages_.load(); }

  // After VK_ERROR_SURFACE_LOST_KHR: destroys the surface and makes a new one with
  // options.create_surface, checking that the queue can present to it. The caller has destroyed
  // every swapchain of the old surface first. Throws when there is no surface to remake or the
  // new one cannot be presented to. Main thread only.
  void recreate_surface();

  // Gives an object a name that validation messages and debuggers show. No-op without
  // VK_EXT_debug_utils.
  void set_name(VkObjectType type, std::uint64_t handle, const char* name) const;

  // Index of a memory type allowed by `type_bits` with all `required` flags, preferring one
  // that also has the `preferred` flags. Throws when none exists.
  std::uint32_t find_memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                                 VkMemoryPropertyFlags preferred = 0) const;

  // The largest memory heap with a memory type that is device-local, host-visible and coherent
  // (MemoryUse::upload_device): the whole memory of a CPU device or an integrated GPU, a
  // discrete GPU's with a resizable BAR, else a 256 MiB window or nothing (0).
  VkDeviceSize host_visible_device_heap() const;

  // Records commands with `record`, submits them and waits for completion. For setup,
  // uploads in tools and tests; never on a per-frame path.
  void submit_and_wait(const std::function<void(VkCommandBuffer)>& record);

  // vkQueueSubmit2 of one batch on the queue, under the queue's lock. Throws as VHIST_VK_CHECK.
  void submit(const VkSubmitInfo2& info, VkFence fence) const;
  // Waits until the device is idle (render::wait_idle_for_teardown: not on a lost device),
  // under the queue's lock: before objects that work in flight may use are destroyed.
  void wait_idle() const;

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                         void* user);
  void destroy() noexcept;
  // The constructor's steps, in order (each throws on failure; the constructor cleans up).
  void open_instance(const ContextOptions& options);
  void choose_physical_device(const ContextOptions& options);
  void open_device(const ContextOptions& options);
  // Throws unless the chosen queue family can present to surface_.
  void check_can_present() const;

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  std::function<VkSurfaceKHR(VkInstance)> create_surface_;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  DeviceDescription description_;
  GpuProperties properties_;
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  bool validation_ = false;
  std::vector<std::string> enabled_extensions_;
  PFN_vkSetDebugUtilsObjectNameEXT set_object_name_ = nullptr;
  std::atomic<std::uint32_t> validation_messages_{0};
  UniqueCommandPool setup_pool_;
  mutable std::mutex queue_mutex_;  // the queue and setup_pool_ are externally synchronized
};

}  // namespace vhist::render
