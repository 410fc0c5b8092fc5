#include "imgui_backend.h"

#include "vhist/render/descriptor_pool.h"
#include "vhist/render/vk_check.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace vhist::viewer {

namespace {

void check_vk(VkResult r) {
  if (r != VK_SUCCESS) {
    std::fprintf(stderr, "vhist: ImGui Vulkan backend: %s\n", std::string(render::result_name(r)).c_str());
  }
}

}  // namespace

ImGuiBackend::Context::Context() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the panel's place is not worth a file of its own
  ImGui::StyleColorsDark();
}

ImGuiBackend::Context::~Context() { ImGui::DestroyContext(); }

ImGuiBackend::GlfwPart::GlfwPart(GLFWwindow* window) {
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window, &xscale, &yscale);
  ImGui::GetIO().FontGlobalScale = std::max(1.0f, std::max(xscale, yscale));
  ImGui_ImplGlfw_InitForVulkan(window, true);
}

ImGuiBackend::GlfwPart::~GlfwPart() { ImGui_ImplGlfw_Shutdown(); }

ImGuiBackend::ImGuiBackend(GLFWwindow* window, render::Context& context, render::Swapchain& swapchain,
                           std::uint32_t image_count)
    : glfw_(window), vulkan_(context), pool_(render::make_descriptor_pool(context.device(), 8, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8}},
                                         VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT)) {
  ImGui_ImplVulkan_InitInfo init{};
  init.Instance = context.instance();
  init.PhysicalDevice = context.physical_device();
  init.Device = context.device();
  init.QueueFamily = context.queue_family();
  init.Queue = context.queue();
  init.DescriptorPool = pool_.get();
  init.MinImageCount = 2;
  init.ImageCount = image_count;
  init.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  init.CheckVkResultFn = check_vk;
  ImGui_ImplVulkan_Init(&init, swapchain.render_pass());
  try {
    context.submit_and_wait([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  } catch (...) {
    render::wait_idle_for_teardown(context.device());
    ImGui_ImplVulkan_Shutdown();
    throw;
  }
  ImGui_ImplVulkan_DestroyFontUploadObjects();
}

ImGuiBackend::~ImGuiBackend() {
  render::wait_idle_for_teardown(vulkan_.device());
  ImGui_ImplVulkan_Shutdown();
}

void ImGuiBackend::new_frame() {
  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void ImGuiBackend::swapchain_recreated() { ImGui_ImplVulkan_SetMinImageCount(2); }

}  // namespace vhist::viewer
