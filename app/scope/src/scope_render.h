// The GPU part of `vhist scope`: one frame through the viewer's FrameRenderer into an offscreen
// RGBA8 buffer by the compute composite (record_composite: the window's own passes), read back.
// The device and the renderer are made on a thread of their own while the frame is decoded
// (start_gpu), since on a CPU Vulkan device (lavapipe) making them takes as long as decoding.
#pragma once

#include "vhist/picture/draw_style.h"

#include "vhist/compute/engine.h"
#include "vhist/compute/video_frame.h"
#include "vhist/render/context.h"

#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace vhist::viewer {
class FrameRenderer;
class OffscreenTarget;
}  // namespace vhist::viewer

namespace vhist::app {

// Bad input found on the device's side (a frame or size larger than it takes): exit status 2.
struct ScopeInputError {
  std::string message;
};
// No usable device: exit status 1.
struct ScopeDeviceError {
  std::string message;
};

// The device, the engine and a renderer drawing into a width x height offscreen target.
class ScopeGpu {
 public:
  // Throws ScopeDeviceError when no device can be made, ScopeInputError when the size is more
  // than it draws, std::exception for other Vulkan failures.
  ScopeGpu(const std::string& device, EngineChoice engine, std::uint32_t width, std::uint32_t height);
  ~ScopeGpu();
  ScopeGpu(const ScopeGpu&) = delete;
  ScopeGpu& operator=(const ScopeGpu&) = delete;

  // Draws `style` of the frame: width x height RGBA8, top row first, and the scopes' label
  // lines as drawn (mode, column binning). Throws ScopeInputError when the device cannot take the
  // frame.
  struct Drawn {
    std::vector<std::uint8_t> pixels;
    std::vector<std::string> titles;
  };
  Drawn draw(const VideoFormat& format, const VideoPlanes& planes, const viewer::DrawStyle& style);

  render::Context& context() { return *context_; }
  Engine engine() const { return engine_; }
  double device_ms = 0;    // the instance and device made
  double renderer_ms = 0;  // the renderer's pipelines and buffers, the target
  double record_ms = 0;    // the tick recorded: the host's part (the CPU engine converts and counts here)
  double run_ms = 0;       // the tick run on the device and read back

 private:
  std::unique_ptr<render::Context> context_;
  Engine engine_ = Engine::gpu;
  std::unique_ptr<viewer::OffscreenTarget> target_;
  std::unique_ptr<viewer::FrameRenderer> renderer_;
};

// Makes a ScopeGpu on a thread of its own; get() gives it or rethrows what its making threw.
std::future<std::unique_ptr<ScopeGpu>> start_gpu(const std::string& device, EngineChoice engine, std::uint32_t width,
                                                 std::uint32_t height);

}  // namespace vhist::app
