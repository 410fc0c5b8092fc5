#include "vhist/render/context.h"

#include "vhist/render/vk_check.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>

#if defined(__SANITIZE_ADDRESS__)
#define VHIST_PIN_LIBRARIES 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VHIST_PIN_LIBRARIES 1
#endif
#endif
#ifdef VHIST_PIN_LIBRARIES
#include <dlfcn.h>
#include <link.h>
#endif

namespace vhist::render {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, "0") != 0 && *v != '\0';
}

bool instance_layer_available(const char* name) {
  std::uint32_t count = 0;
  VHIST_VK_CHECK(vkEnumerateInstanceLayerProperties(&count, nullptr));
  std::vector<VkLayerProperties> layers(count);
  VHIST_VK_CHECK(vkEnumerateInstanceLayerProperties(&count, layers.data()));
  return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

bool instance_extension_available(const char* name) {
  std::uint32_t count = 0;
  VHIST_VK_CHECK(vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> exts(count);
  VHIST_VK_CHECK(vkEnumerateInstanceExtensionProperties(nullptr, &count, exts.data()));
  return std::any_of(exts.begin(), exts.end(), [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

std::vector<VkExtensionProperties> device_extensions(VkPhysicalDevice physical) {
  std::uint32_t count = 0;
  VHIST_VK_CHECK(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> exts(count);
  VHIST_VK_CHECK(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, exts.data()));
  return exts;
}

bool has_extension(const std::vector<VkExtensionProperties>& exts, const char* name) {
  return std::any_of(exts.begin(), exts.end(), [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

DeviceKind to_kind(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DeviceKind::discrete;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DeviceKind::integrated;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return DeviceKind::virtual_gpu;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return DeviceKind::cpu;
    default: return DeviceKind::other;
  }
}

struct QueueChoice {
  std::uint32_t family = UINT32_MAX;
  std::uint32_t timestamp_valid_bits = 0;
};

// The queue family vhist uses: graphics + compute when there is one (the viewer draws and
// computes on one queue), else compute only. family is UINT32_MAX when there is no compute
// queue with valid timestamps.
QueueChoice pick_queue_family(VkPhysicalDevice physical) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  QueueChoice compute_only;
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto flags = families[i].queueFlags;
    if ((flags & VK_QUEUE_COMPUTE_BIT) == 0 || families[i].timestampValidBits == 0) continue;
    if (flags & VK_QUEUE_GRAPHICS_BIT) return {i, families[i].timestampValidBits};
    if (compute_only.family == UINT32_MAX) compute_only = {i, families[i].timestampValidBits};
  }
  return compute_only;
}

struct Probe {
  DeviceDescription description;
  GpuProperties properties;
  std::uint32_t queue_family = UINT32_MAX;
};

Probe probe(VkPhysicalDevice physical) {
  Probe p;
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  VkPhysicalDeviceShaderCorePropertiesAMD amd{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &driver;
  driver.pNext = &subgroup;
  subgroup.pNext = &maintenance3;
  const auto exts = device_extensions(physical);
  void** tail = &maintenance3.pNext;
  const bool has_sm = has_extension(exts, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  const bool has_amd = has_extension(exts, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
  if (has_sm) { *tail = &sm; tail = &sm.pNext; }
  if (has_amd) { *tail = &amd; tail = &amd.pNext; }

  VkPhysicalDeviceProperties base{};
  vkGetPhysicalDeviceProperties(physical, &base);
  if (base.apiVersion >= VK_API_VERSION_1_1) {
    vkGetPhysicalDeviceProperties2(physical, &props);
  } else {
    props.properties = base;
  }
  const auto& limits = props.properties.limits;

  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f12.pNext = &f13;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &f12;
  if (base.apiVersion >= VK_API_VERSION_1_3) vkGetPhysicalDeviceFeatures2(physical, &features);

  const QueueChoice queue = pick_queue_family(physical);
  p.queue_family = queue.family;
  auto& d = p.description;
  d.name = props.properties.deviceName;
  d.kind = to_kind(props.properties.deviceType);
  d.api_version = props.properties.apiVersion;
  if (base.apiVersion >= VK_API_VERSION_1_2 && driver.driverName[0] != '\0') {
    d.driver = std::string(driver.driverName) + " " + driver.driverInfo;
  } else {
    d.driver = "driver " + std::to_string(props.properties.driverVersion);
  }
  d.has_compute_queue = p.queue_family != UINT32_MAX;
  d.has_required_features = f12.bufferDeviceAddress == VK_TRUE && f13.synchronization2 == VK_TRUE && f13.maintenance4 == VK_TRUE &&
                            limits.timestampComputeAndGraphics == VK_TRUE;

  auto& g = p.properties;
  g.kind = d.kind;
  g.vendor_id = props.properties.vendorID;
  g.subgroup_size = subgroup.subgroupSize;
  g.max_shared_memory = limits.maxComputeSharedMemorySize;
  g.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  g.max_workgroup_count_x = limits.maxComputeWorkGroupCount[0];
  g.max_image_dimension_2d = limits.maxImageDimension2D;
  g.max_allocation_size = maintenance3.maxMemoryAllocationSize;
  if (has_sm) g.multiprocessor_count = sm.shaderSMCount;
  if (has_amd) g.multiprocessor_count = amd.shaderEngineCount * amd.shaderArraysPerEngineCount * amd.computeUnitsPerShaderArray;
  g.timestamp_period_ns = static_cast<double>(limits.timestampPeriod);
  g.timestamp_valid_bits = queue.timestamp_valid_bits;
  return p;
}

// AddressSanitizer builds (LeakSanitizer): before an instance is destroyed, every shared library
// loaded so far (the Vulkan driver, LLVM, the layers, Xlib's) is made RTLD_NODELETE, so that the
// loader's dlclose does not unmap it. An unmapped library's globals are no longer scanned, so
// the blocks they still point to (driver state kept for the process's life) would be reported
// as leaks from "<unknown module>", a stack no suppression can name. Kept mapped, they are
// reachable, as they are in a normal process until it exits. See tests/lsan.supp.
void pin_loaded_libraries() noexcept {
#ifdef VHIST_PIN_LIBRARIES
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) -> int {
        if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
          dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);  // never closed: pinned
        }
        return 0;
      },
      nullptr);
#endif
}

struct InstanceDeleter {
  void operator()(VkInstance instance) const {
    pin_loaded_libraries();
    vkDestroyInstance(instance, nullptr);
  }
};

VkInstance create_instance(const std::vector<const char*>& layers, const std::vector<const char*>& extensions,
                           const void* next) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vhist";
  app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.pEngineName = "vhist";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pNext = next;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult r = vkCreateInstance(&info, nullptr, &instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
    throw VulkanError("No Vulkan driver found: vkCreateInstance returned VK_ERROR_INCOMPATIBLE_DRIVER. Install a "
                      "Vulkan driver (for a CPU device: apt-get install mesa-vulkan-drivers).", r);
  }
  VHIST_VK_CHECK(r);
  return instance;
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  std::uint32_t count = 0;
  VHIST_VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  VHIST_VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
  devices.resize(count);
  return devices;
}

}  // namespace

std::vector<DeviceDescription> Context::list_devices() {
  std::unique_ptr<VkInstance_T, InstanceDeleter> instance(create_instance({}, {}, nullptr));
  std::vector<DeviceDescription> out;
  for (VkPhysicalDevice physical : physical_devices(instance.get())) out.push_back(probe(physical).description);
  return out;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Context::on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                         void* user) {
  auto* self = static_cast<Context*>(user);
  const bool counted = (types & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)) != 0;
  if (counted) self->validation_messages_.fetch_add(1);
  const char* level = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
  std::fprintf(stderr, "vhist: Vulkan %s%s: %s\n", counted ? "validation " : "", level,
               data && data->pMessage ? data->pMessage : "(no message)");
  return VK_FALSE;
}

Context::Context(const ContextOptions& options) {
  validation_ = options.validation || options.require_validation || env_flag("VHIST_VALIDATION");
  try {
    open_instance(options);
    if (options.create_surface) {
      create_surface_ = options.create_surface;
      surface_ = options.create_surface(instance_);
      if (surface_ == VK_NULL_HANDLE) throw std::runtime_error("Could not create a Vulkan surface for the window.");
    }
    choose_physical_device(options);
    open_device(options);
  } catch (...) {
    destroy();
    throw;
  }
}

// The instance, with the validation layer when asked (and installed) and the debug messenger
// counting its messages.
void Context::open_instance(const ContextOptions& options) {
  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  for (const auto& e : options.instance_extensions) extensions.push_back(e.c_str());
  if (validation_) {
    if (instance_layer_available(kValidationLayer)) {
      layers.push_back(kValidationLayer);
    } else if (options.require_validation) {
      throw std::runtime_error(std::string("Vulkan validation was required but the layer ") + kValidationLayer +
                               " is not installed (apt-get install vulkan-validationlayers).");
    } else {
      std::fprintf(stderr, "vhist: validation requested but %s is not installed (apt-get install "
                           "vulkan-validationlayers); continuing without it\n", kValidationLayer);
      validation_ = false;
    }
  }
  const bool debug_utils = instance_extension_available(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (debug_utils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (validation_ && !debug_utils) {
    throw std::runtime_error("Vulkan validation needs VK_EXT_debug_utils, which the loader does not offer.");
  }

  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &Context::on_debug_message;
  messenger_info.pUserData = this;

  // The messenger is chained into instance creation too, so messages from vkCreateInstance and
  // vkDestroyInstance are counted.
  instance_ = create_instance(layers, extensions, validation_ ? &messenger_info : nullptr);
  if (validation_) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (create == nullptr) throw std::runtime_error("vkCreateDebugUtilsMessengerEXT is missing");
    VHIST_VK_CHECK(create(instance_, &messenger_info, nullptr, &messenger_));
  }
  if (debug_utils) {
    set_object_name_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance_, "vkSetDebugUtilsObjectNameEXT"));
  }
}

// The physical device: options.device, else $VHIST_DEVICE, else the best (choose_device).
void Context::choose_physical_device(const ContextOptions& options) {
  const auto physicals = physical_devices(instance_);
  std::vector<Probe> probes;
  std::vector<DeviceDescription> descriptions;
  for (VkPhysicalDevice physical : physicals) {
    probes.push_back(probe(physical));
    descriptions.push_back(probes.back().description);
  }
  std::string selector = options.device;
  if (selector.empty()) {
    if (const char* env = std::getenv("VHIST_DEVICE")) selector = env;
  }
  const DeviceChoice choice = choose_device(descriptions, selector);
  if (choice.index < 0) throw std::runtime_error(choice.error);
  const auto chosen = static_cast<std::size_t>(choice.index);
  physical_ = physicals[chosen];
  description_ = probes[chosen].description;
  properties_ = probes[chosen].properties;
  queue_family_ = probes[chosen].queue_family;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_properties_);
  if (surface_ != VK_NULL_HANDLE) check_can_present();
}

// The logical device with the features vhist needs, its queue and the setup command pool.
void Context::open_device(const ContextOptions& options) {
  const auto available = device_extensions(physical_);
  std::vector<const char*> device_exts;
  for (const auto& e : options.device_extensions) {
    if (!has_extension(available, e.c_str())) {
      throw std::runtime_error("The Vulkan device '" + description_.name + "' lacks the extension " + e + ".");
    }
    device_exts.push_back(e.c_str());
  }
  for (const auto& e : options.optional_device_extensions) {
    if (has_extension(available, e.c_str())) device_exts.push_back(e.c_str());
  }
  enabled_extensions_.assign(device_exts.begin(), device_exts.end());

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.bufferDeviceAddress = VK_TRUE;
  f12.timelineSemaphore = VK_TRUE;  // required of Vulkan 1.2 devices: the hardware decoder's sync (app/hwdec)
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.synchronization2 = VK_TRUE;
  f13.maintenance4 = VK_TRUE;  // LocalSizeId: workgroup sizes from specialization constants
  f12.pNext = &f13;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &f12;

  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pNext = &features;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = static_cast<std::uint32_t>(device_exts.size());
  device_info.ppEnabledExtensionNames = device_exts.data();
  VHIST_VK_CHECK(vkCreateDevice(physical_, &device_info, nullptr, &device_));
  if (fault::armed()) fault::watch_device(device_);
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  VkCommandPool pool = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateCommandPool(device_, &pool_info, nullptr, &pool));
  setup_pool_ = UniqueCommandPool(device_, pool);
  set_name(VK_OBJECT_TYPE_COMMAND_POOL, reinterpret_cast<std::uint64_t>(pool), "setup command pool");
}

Context::~Context() { destroy(); }

bool Context::enabled_extension(const std::string& name) const {
  for (const auto& e : enabled_extensions_) {
    if (e == name) return true;
  }
  return false;
}

void Context::recreate_surface() {
  if (!create_surface_) throw std::logic_error("recreate_surface: this context has no window surface");
  if (surface_ != VK_NULL_HANDLE) {
    vkDestroySurfaceKHR(instance_, surface_, nullptr);
    surface_ = VK_NULL_HANDLE;
  }
  surface_ = create_surface_(instance_);
  if (surface_ == VK_NULL_HANDLE) throw std::runtime_error("Could not create a Vulkan surface for the window.");
  check_can_present();
}

void Context::check_can_present() const {
  VkBool32 can_present = VK_FALSE;
  VHIST_VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(physical_, queue_family_, surface_, &can_present));
  if (!can_present) {
    throw std::runtime_error("The Vulkan device '" + description_.name +
                             "' cannot present to this window from its compute and graphics queue.");
  }
}

void Context::destroy() noexcept {
  setup_pool_.reset();
  if (device_ != VK_NULL_HANDLE) {
    wait_idle_for_teardown(device_);
    if (fault::armed()) fault::watch_device(VK_NULL_HANDLE);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (surface_ != VK_NULL_HANDLE) {
    vkDestroySurfaceKHR(instance_, surface_, nullptr);
    surface_ = VK_NULL_HANDLE;
  }
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_ != VK_NULL_HANDLE) {
    pin_loaded_libraries();
    vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

void Context::set_name(VkObjectType type, std::uint64_t handle, const char* name) const {
  if (set_object_name_ == nullptr || handle == 0) return;
  VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = name;
  VHIST_VK_CHECK(set_object_name_(device_, &info));
}

std::uint32_t Context::find_memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                                        VkMemoryPropertyFlags preferred) const {
  std::uint32_t fallback = UINT32_MAX;
  for (std::uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) == 0) continue;
    const auto flags = memory_properties_.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (fallback == UINT32_MAX) fallback = i;
  }
  if (fallback == UINT32_MAX) {
    throw std::runtime_error("No Vulkan memory type with the required properties (flags 0x" +
                             std::to_string(required) + ") on '" + description_.name + "'.");
  }
  return fallback;
}

VkDeviceSize Context::host_visible_device_heap() const {
  constexpr VkMemoryPropertyFlags wanted =
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  VkDeviceSize largest = 0;
  for (std::uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    const VkMemoryType& type = memory_properties_.memoryTypes[i];
    if ((type.propertyFlags & wanted) != wanted) continue;
    largest = std::max(largest, memory_properties_.memoryHeaps[type.heapIndex].size);
  }
  return largest;
}

void Context::submit_and_wait(const std::function<void(VkCommandBuffer)>& record) {
  const std::lock_guard lock(queue_mutex_);  // the setup pool's and the queue's
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = setup_pool_.get();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkAllocateCommandBuffers(device_, &alloc, &cmd));
  struct Free {
    VkDevice device;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    ~Free() { vkFreeCommandBuffers(device, pool, 1, &cmd); }
  } free_cmd{device_, setup_pool_.get(), cmd};

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VHIST_VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
  record(cmd);
  VHIST_VK_CHECK(vkEndCommandBuffer(cmd));

  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence_handle = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateFence(device_, &fence_info, nullptr, &fence_handle));
  UniqueFence fence(device_, fence_handle);
  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmd_info;
  VHIST_VK_CHECK(vkQueueSubmit2(queue_, 1, &submit, fence.get()));
  VHIST_VK_CHECK(vkWaitForFences(device_, 1, &fence_handle, VK_TRUE, UINT64_MAX));
}

void Context::submit(const VkSubmitInfo2& info, VkFence fence) const {
  const std::lock_guard lock(queue_mutex_);
  VHIST_VK_CHECK(vkQueueSubmit2(queue_, 1, &info, fence));
}

void Context::wait_idle() const {
  const std::lock_guard lock(queue_mutex_);
  wait_idle_for_teardown(device_);
}

}  // namespace vhist::render
