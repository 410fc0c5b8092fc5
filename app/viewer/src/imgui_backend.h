// Dear ImGui on the window: its context, the GLFW backend (input) and the Vulkan backend
// (drawing into the swapchain's render pass), set up in the constructor and shut down in the
// destructor in the reverse order (after the device is idle). Main thread only.
#pragma once

#include "vhist/render/context.h"
#include "vhist/render/handles.h"
#include "vhist/render/swapchain.h"

#include <cstdint>

struct GLFWwindow;

namespace vhist::viewer {

class ImGuiBackend {
 public:
  // The window's own key and drop callbacks must be installed first: ImGui's GLFW backend
  // chains them. `image_count`: images the backend may draw into (swapchain images, frames in
  // flight). Uploads the font atlas before returning.
  ImGuiBackend(GLFWwindow* window, render::Context& context, render::Swapchain& swapchain, std::uint32_t image_count);
  ~ImGuiBackend();
  ImGuiBackend(const ImGuiBackend&) = delete;
  ImGuiBackend& operator=(const ImGuiBackend&) = delete;

  // Starts an ImGui frame (both backends and ImGui itself).
  void new_frame();
  // After a swapchain rebuild.
  void swapchain_recreated();

 private:
  // Parts that stop in the reverse order of starting, each undone by its own destructor.
  struct Context {
    Context();
    ~Context();
  };
  struct GlfwPart {
    explicit GlfwPart(GLFWwindow* window);
    ~GlfwPart();
  };
  Context context_;
  GlfwPart glfw_;
  render::Context& vulkan_;
  render::UniqueDescriptorPool pool_;
};

}  // namespace vhist::viewer
