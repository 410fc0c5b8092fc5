#include "scope_render.h"

#include "vhist/picture/frame_renderer.h"
#include "vhist/picture/offscreen.h"

#include "vhist/compute/engine_choice.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"

#include <chrono>

namespace vhist::app {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

ScopeGpu::ScopeGpu(const std::string& device, EngineChoice engine, std::uint32_t width, std::uint32_t height) {
  auto t0 = std::chrono::steady_clock::now();
  render::ContextOptions options;
  options.device = device;
  try {
    context_ = std::make_unique<render::Context>(options);
  } catch (const std::exception& e) {
    throw ScopeDeviceError{"no usable Vulkan device: " + render::failure_message(e)};
  }
  engine_ = choose_engine(context_->description().kind, engine);
  device_ms = ms_since(t0);
  const std::uint32_t limit = context_->properties().max_image_dimension_2d;
  if (width > limit || height > limit) {
    throw ScopeInputError{"--size " + std::to_string(width) + "x" + std::to_string(height) + " is larger than the " +
                          std::to_string(limit) + " pixels per side this Vulkan device (" +
                          context_->description().name + ") draws: give a smaller --size"};
  }
  t0 = std::chrono::steady_clock::now();
  target_ = std::make_unique<viewer::OffscreenTarget>(*context_, VkExtent2D{width, height});
  // The composite's pipelines only when used: a scope draws no video or histogram.
  renderer_ = std::make_unique<viewer::FrameRenderer>(*context_, engine_,
                                                      viewer::FrameRenderer::Pipelines::on_first_use);
  renderer_ms = ms_since(t0);
}

ScopeGpu::~ScopeGpu() = default;

ScopeGpu::Drawn ScopeGpu::draw(const VideoFormat& format, const VideoPlanes& planes, const viewer::DrawStyle& style) {
  if (const std::string why = renderer_->check(format, planes, style.bins); !why.empty()) {
    throw ScopeInputError{"the frame cannot be drawn on this Vulkan device (" + context_->description().name +
                          "): " + why};
  }
  auto t0 = std::chrono::steady_clock::now();
  renderer_->begin();
  const VkCommandBuffer cmd = renderer_->record_composite(
      &format, &planes, false, style, target_->composite(),
      [this](VkCommandBuffer c) { target_->record_readback_composite(c); });
  record_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  render::submit(*context_, cmd, renderer_->fence());
  Drawn out;
  out.titles = renderer_->statistics().scope_titles;
  renderer_->end();
  renderer_->wait_idle();
  out.pixels = target_->pixels();
  run_ms = ms_since(t0);
  return out;
}

std::future<std::unique_ptr<ScopeGpu>> start_gpu(const std::string& device, EngineChoice engine, std::uint32_t width,
                                                 std::uint32_t height) {
  return std::async(std::launch::async,
                    [device, engine, width, height] { return std::make_unique<ScopeGpu>(device, engine, width, height); });
}

}  // namespace vhist::app
