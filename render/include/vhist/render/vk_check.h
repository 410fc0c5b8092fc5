// Checking VkResult values. Every Vulkan call that returns a VkResult goes through
// VHIST_VK_CHECK, which throws VulkanError naming the call, the result and the source location:
//   "vkCreateDevice failed: VK_ERROR_INITIALIZATION_FAILED (render/src/context.cpp:212)".
// Calls whose result the caller inspects itself (acquire, present) go through VHIST_VK_HOOK.
//
// Fault injection (test-only): VHIST_FAULT=KIND@POINT:N makes the Nth call (counted from 1 over
// the process) of POINT return KIND instead of being made. KIND: device_lost,
// out_of_device_memory, surface_lost. POINT: submit (vkQueueSubmit*), acquire
// (vkAcquireNextImageKHR), present (vkQueuePresentKHR), alloc (vkAllocateMemory), wait
// (vkWaitForFences); N+ fails the Nth call and every later one. A device lost stays lost: every
// later submit, acquire, present and wait returns VK_ERROR_DEVICE_LOST too. Unset (always, outside the tests) the hook is one test of a
// flag read once.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vhist::render {

// The enumerator name of a VkResult ("VK_ERROR_DEVICE_LOST"), or "VkResult(<n>)".
std::string_view result_name(VkResult result);

// Where a check() was called. By hand, not std::source_location: Debian 12's clang 14 (the
// sanitizer and fuzz builds) lacks the builtin that libstdc++'s source_location needs; both
// compilers have __builtin_FILE and __builtin_LINE.
struct CallSite {
  const char* file = "";
  unsigned line = 0;
  static constexpr CallSite here(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) noexcept {
    return CallSite{file, line};
  }
  constexpr const char* file_name() const noexcept { return file; }
  constexpr unsigned line_number() const noexcept { return line; }
};

// Thrown for a failed Vulkan call; result() keeps the VkResult for callers that recover.
class VulkanError : public std::runtime_error {
 public:
  VulkanError(std::string_view call, VkResult result, CallSite where);
  VulkanError(const std::string& message, VkResult result);
  VkResult result() const noexcept { return result_; }

 private:
  VkResult result_;
};

// One line for a failed run: what failed, why, and what to do ("the GPU device was lost ...").
// VulkanErrors with a device-lost, out-of-memory or surface-lost result are explained; anything
// else is its what().
// Out of memory is said as such: VK_ERROR_OUT_OF_HOST_MEMORY / OUT_OF_DEVICE_MEMORY, std::bad_alloc,
// a thread that could not start (EAGAIN, ENOMEM), and, under an address-space limit,
// VK_ERROR_INITIALIZATION_FAILED (lavapipe's start fails so), each with address_space_note().
std::string failure_message(const std::exception& error);

// Under an address-space limit (ulimit -v, RLIMIT_AS), a sentence naming it and what to do:
// "the address space of this process is limited to 512 MiB (ulimit -v 524288), too little for
// the Vulkan driver (lavapipe needs about 1 GiB): raise or remove the limit"; "" without one.
std::string address_space_note();

// Under an address-space limit, a crash (SIGSEGV, SIGBUS, SIGABRT: drivers do not all check
// their allocations) first prints "vhist: crashed (...) under an address-space limit: <note>",
// then dies of the signal as before. Nothing without a limit (sanitizers keep their reports).
void explain_crashes_under_memory_limit();

// True once a Vulkan call returned VK_ERROR_DEVICE_LOST (or one was injected): waits for the
// device are then skipped (a lost device may never signal a fence on some drivers).
bool device_lost() noexcept;

// The wait before objects are destroyed (destructors, resource swaps): vkDeviceWaitIdle, which
// unlike a fence wait cannot hang on a fence whose submission failed (the queue must not be
// used by another thread meanwhile; vhist submits from one thread). Never throws; skipped on a
// lost device. When the loss was injected (the device is really fine) the device is drained,
// so that what is destroyed next is idle, as it is after a real loss.
void wait_idle_for_teardown(VkDevice device) noexcept;

namespace fault {
bool armed_from_environment() noexcept;
inline bool armed() noexcept {
  static const bool armed = armed_from_environment();
  return armed;
}
// Counts `call` (its source text) against VHIST_FAULT; true when it is to fail with result().
bool hit_slow(std::string_view call) noexcept;
inline bool hit(std::string_view call) noexcept { return armed() && hit_slow(call); }
VkResult result() noexcept;
// The device an injected loss drains (Context sets it; VK_NULL_HANDLE before it is destroyed).
void watch_device(VkDevice device) noexcept;
}  // namespace fault

// Throws VulkanError unless `result` is VK_SUCCESS (or another non-error status: VK_INCOMPLETE,
// VK_SUBOPTIMAL_KHR ... are returned to the caller, which decides).
inline VkResult check(VkResult result, std::string_view call,
                      CallSite where = CallSite::here()) {
  if (result < 0) {
    throw VulkanError(call, result, where);
  }
  return result;
}

}  // namespace vhist::render

// VkResult r = VHIST_VK_HOOK(vkQueuePresentKHR(queue, &info));  (the injected fault, else the call)
#define VHIST_VK_HOOK(call) (::vhist::render::fault::hit(#call) ? ::vhist::render::fault::result() : (call))
// VHIST_VK_CHECK(vkCreateBuffer(device, &info, nullptr, &buffer));
#define VHIST_VK_CHECK(call) ::vhist::render::check(VHIST_VK_HOOK(call), #call)
