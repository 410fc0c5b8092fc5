#include "vhist/render/vk_check.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <system_error>

namespace vhist::render {

std::string_view result_name(VkResult result) {
  switch (result) {
#define VHIST_RESULT_CASE(name) \
  case name:                    \
    return #name;
    VHIST_RESULT_CASE(VK_SUCCESS)
    VHIST_RESULT_CASE(VK_NOT_READY)
    VHIST_RESULT_CASE(VK_TIMEOUT)
    VHIST_RESULT_CASE(VK_EVENT_SET)
    VHIST_RESULT_CASE(VK_EVENT_RESET)
    VHIST_RESULT_CASE(VK_INCOMPLETE)
    VHIST_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    VHIST_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VHIST_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    VHIST_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    VHIST_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    VHIST_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    VHIST_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    VHIST_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    VHIST_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    VHIST_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    VHIST_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VHIST_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    VHIST_RESULT_CASE(VK_ERROR_UNKNOWN)
    VHIST_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    VHIST_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VHIST_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    VHIST_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    VHIST_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    VHIST_RESULT_CASE(VK_ERROR_SURFACE_LOST_KHR)
    VHIST_RESULT_CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    VHIST_RESULT_CASE(VK_SUBOPTIMAL_KHR)
    VHIST_RESULT_CASE(VK_ERROR_OUT_OF_DATE_KHR)
    VHIST_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
    VHIST_RESULT_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
    VHIST_RESULT_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef VHIST_RESULT_CASE
    default:
      break;
  }
  thread_local std::string fallback;
  fallback = "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
  return fallback;
}

namespace {

std::string describe(std::string_view call, VkResult result, CallSite where) {
  // Keep only the call's name: "vkCreateDevice(physical, &info, ...)" -> "vkCreateDevice".
  const std::string_view name = call.substr(0, call.find('('));
  // Paths relative to the repository read better than absolute build paths.
  std::string_view file = where.file_name();
  for (const char* top : {"/render/", "/compute/", "/app/", "/tests/"}) {
    if (const auto pos = file.rfind(top); pos != std::string_view::npos) {
      file = file.substr(pos + 1);
      break;
    }
  }
  std::string message;
  message += name;
  message += " failed: ";
  message += result_name(result);
  message += " (";
  message += file;
  message += ':';
  message += std::to_string(where.line_number());
  message += ')';
  return message;
}

}  // namespace

namespace {

std::atomic<bool> g_device_lost{false};
std::atomic<bool> g_injected_loss{false};

// VHIST_FAULT, parsed once.
struct FaultSpec {
  VkResult result = VK_SUCCESS;
  std::string_view call_prefix;  // "vkQueueSubmit" also matches vkQueueSubmit2
  long nth = 0;
  bool and_later = false;  // "N+": the Nth call and every later one
};

FaultSpec parse_fault(const char* text) {
  const std::string_view spec = text;
  const auto at = spec.find('@'), colon = spec.rfind(':');
  FaultSpec f;
  if (at == std::string_view::npos || colon == std::string_view::npos || colon < at) return {};
  const std::string_view kind = spec.substr(0, at), point = spec.substr(at + 1, colon - at - 1);
  if (kind == "device_lost") f.result = VK_ERROR_DEVICE_LOST;
  if (kind == "out_of_device_memory") f.result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  if (kind == "surface_lost") f.result = VK_ERROR_SURFACE_LOST_KHR;
  if (point == "submit") f.call_prefix = "vkQueueSubmit";
  if (point == "acquire") f.call_prefix = "vkAcquireNextImageKHR";
  if (point == "present") f.call_prefix = "vkQueuePresentKHR";
  if (point == "alloc") f.call_prefix = "vkAllocateMemory";
  if (point == "wait") f.call_prefix = "vkWaitForFences";
  std::string number(spec.substr(colon + 1));
  if (!number.empty() && number.back() == '+') {
    f.and_later = true;
    number.pop_back();
  }
  char* end = nullptr;
  f.nth = std::strtol(number.c_str(), &end, 10);
  if (f.result == VK_SUCCESS || f.call_prefix.empty() || number.empty() || *end != '\0' || f.nth < 1) return {};
  return f;
}

const FaultSpec& fault_spec() {
  static const FaultSpec spec = [] {
    const char* text = std::getenv("VHIST_FAULT");
    FaultSpec f = text && *text ? parse_fault(text) : FaultSpec{};
    if (text && *text && f.nth == 0) {
      std::fprintf(stderr,
                   "vhist: VHIST_FAULT='%s' ignored: expected KIND@POINT:N, KIND device_lost, out_of_device_memory or "
                   "surface_lost, POINT submit, acquire, present, alloc or wait, N >= 1, N+ for that call and every later one "
                   "(a test-only hook)\n",
                   text);
    }
    return f;
  }();
  return spec;
}

std::atomic<long> g_fault_calls{0};
std::atomic<VkDevice> g_watched_device{VK_NULL_HANDLE};

// A real loss ends the device's pending work: what was submitted counts as complete. The
// injected loss makes that true of the real device, so that objects freed after the failed call
// (command buffers, fences, buffers of the frames in flight) are idle, for the driver and for
// the validation layer.
void drain_watched_device() noexcept {
  if (const VkDevice device = g_watched_device.load(); device != VK_NULL_HANDLE) vkDeviceWaitIdle(device);
}
thread_local VkResult t_fault_result = VK_SUCCESS;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

namespace fault {

bool armed_from_environment() noexcept { return fault_spec().nth > 0; }

bool hit_slow(std::string_view call) noexcept {
  const FaultSpec& spec = fault_spec();
  // After an injected loss the device stays lost for everything that would notice.
  if (g_injected_loss.load()) {
    for (std::string_view lost : {"vkQueueSubmit", "vkAcquireNextImageKHR", "vkQueuePresentKHR", "vkWaitForFences"}) {
      if (starts_with(call, lost)) {
        t_fault_result = VK_ERROR_DEVICE_LOST;
        drain_watched_device();
        return true;
      }
    }
  }
  if (!starts_with(call, spec.call_prefix)) return false;
  const long count = g_fault_calls.fetch_add(1) + 1;
  if (count != spec.nth && !(spec.and_later && count > spec.nth)) return false;
  t_fault_result = spec.result;
  if (spec.result == VK_ERROR_DEVICE_LOST) {
    g_injected_loss = true;
    g_device_lost = true;
    drain_watched_device();
  }
  std::fprintf(stderr, "vhist: VHIST_FAULT: %s injected into call %ld of %.*s\n", result_name(spec.result).data(),
               count, static_cast<int>(spec.call_prefix.size()), spec.call_prefix.data());
  return true;
}

VkResult result() noexcept { return t_fault_result; }

void watch_device(VkDevice device) noexcept { g_watched_device = device; }

}  // namespace fault

bool device_lost() noexcept { return g_device_lost.load(); }

void wait_idle_for_teardown(VkDevice device) noexcept {
  if (device == VK_NULL_HANDLE) return;
  // Really lost: nothing will complete, and some drivers never return from a wait. Injected:
  // the device is fine; draining it leaves the objects idle, as a real loss does.
  if (g_device_lost.load() && !g_injected_loss.load()) return;
  if (vkDeviceWaitIdle(device) == VK_ERROR_DEVICE_LOST) g_device_lost = true;
}

std::string address_space_note() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return {};
  const unsigned long long kib = static_cast<unsigned long long>(limit.rlim_cur) / 1024;
  return "the address space of this process is limited to " + std::to_string(kib / 1024) + " MiB (ulimit -v " +
         std::to_string(kib) + "), too little for the Vulkan driver (lavapipe needs about 1 GiB): raise or remove "
         "the limit";
}

namespace {

// The crash note, made before any crash (the handler may only write it).
char g_crash_note[512];
std::size_t g_crash_note_size = 0;

extern "C" void on_crash(int sig) {
  if (g_crash_note_size > 0) {
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, g_crash_note, g_crash_note_size);
  }
  ::raise(sig);  // SA_RESETHAND: the default action now
}

// What ran out, for errors that are not VulkanErrors; empty when the error is something else.
std::string out_of_memory(const std::exception& error) {
  const std::string note = address_space_note();
  if (dynamic_cast<const std::bad_alloc*>(&error)) {
    return std::string("out of memory (") + error.what() + ")" + (note.empty() ? "" : ": " + note);
  }
  if (const auto* sys = dynamic_cast<const std::system_error*>(&error);
      sys && (sys->code() == std::errc::resource_unavailable_try_again || sys->code() == std::errc::not_enough_memory)) {
    return std::string("out of memory or threads (") + error.what() + ")" + (note.empty() ? "" : ": " + note);
  }
  return {};
}

}  // namespace

void explain_crashes_under_memory_limit() {
  const std::string note = address_space_note();
  if (note.empty()) return;
  const std::string text = "vhist: crashed under an address-space limit, most likely out of memory in the Vulkan "
                           "driver: " + note + "\n";
  g_crash_note_size = std::min(text.size(), sizeof g_crash_note);
  std::memcpy(g_crash_note, text.data(), g_crash_note_size);
  struct sigaction action {};
  action.sa_handler = on_crash;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT}) sigaction(sig, &action, nullptr);
}

std::string failure_message(const std::exception& error) {
  const auto* vk = dynamic_cast<const VulkanError*>(&error);
  if (vk == nullptr) {
    const std::string oom = out_of_memory(error);
    return oom.empty() ? error.what() : oom;
  }
  const std::string note = address_space_note();
  const std::string limited = note.empty() ? "" : "; " + note;
  switch (vk->result()) {
    case VK_ERROR_DEVICE_LOST:
      return std::string("the GPU device was lost (") + error.what() +
             "): the driver reset it after a hang or fault, or it was removed; no results after this point are "
             "valid. Check the kernel log (dmesg) for GPU errors, then run again, or choose another device with "
             "--device";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return std::string("out of GPU memory (") + error.what() +
             "): the device could not allocate what this run needs. Close other programs using the GPU, use a "
             "smaller video, or choose a device with more memory with --device" + limited;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return std::string("out of memory (") + error.what() + "): the Vulkan driver could not allocate host memory" +
             limited;
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      if (note.empty()) return error.what();
      return std::string("out of memory, most likely (") + error.what() + "): " + note;
    case VK_ERROR_SURFACE_LOST_KHR:
      return std::string("the window's drawing surface was lost (") + error.what() +
             "), and making a new one for the window failed three times: the display server or window went away. "
             "Run vhist again";
    default:
      return error.what();
  }
}

VulkanError::VulkanError(std::string_view call, VkResult result, CallSite where)
    : std::runtime_error(describe(call, result, where)), result_(result) {
  if (result == VK_ERROR_DEVICE_LOST) g_device_lost = true;
}

VulkanError::VulkanError(const std::string& message, VkResult result)
    : std::runtime_error(message), result_(result) {}

}  // namespace vhist::render
