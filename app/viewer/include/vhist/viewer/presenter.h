// The viewer's frames on the window: acquires a swapchain image, has the FrameRenderer draw the
// picture by its compute composite into a buffer the size of the swapchain (in the swapchain's
// byte order), copies it into the image (or, where the swapchain stores, the PresentPass stores
// it: render::Swapchain::stores_picture()), draws ImGui over it in the swapchain's render pass,
// submits between the acquire and present semaphores and presents; on request, a copy of the
// presented image for a screenshot. It draws nothing itself. One picture buffer serves both
// frames in flight: each tick's passes start after everything the previous tick recorded (the
// FrameRenderer's opening barrier), its copy included. Pixels may be copied under the UI (an
// Underlay: the timeline's heatmap) between the picture and the UI.
#pragma once

#include "vhist/picture/frame_renderer.h"
#include "vhist/picture/present_pass.h"

#include "vhist/media/media_source.h"
#include "vhist/render/swapchain.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

struct ImDrawData;

namespace vhist::viewer {

class UnderlayImage;

// Pixels drawn over the picture and under the UI (the timeline's heatmap): `width` x `height`
// colours 0xAABBGGRR (alpha ignored), the top row first, scaled with nearest filtering into
// `rect` (framebuffer pixels: x0, y0, x1, y1). `stamp` names the pixels: they are uploaded again
// only when it changes (0: none yet).
struct Underlay {
  std::uint64_t stamp = 0;
  std::uint32_t width = 0, height = 0;
  const std::uint32_t* pixels = nullptr;
  std::array<std::int32_t, 4> rect{};
};

class Presenter {
 public:
  // `engine`: who converts and counts (choose_engine()).
  Presenter(render::Context& context, render::Swapchain& swapchain, Engine engine);
  ~Presenter();
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  // Everything for one tick. `frame` is a newly due decoded frame (nullptr: keep the last one);
  // `rehistogram` recounts the current frame (bins changed). `screenshot` receives the presented
  // image (RGBA, top row first) after waiting for it. `underlay` (may be null; only where
  // draws_underlays()) is copied over the picture before the UI. Returns false when the swapchain is out of
  // date (the caller recreates it and calls again next tick). A lost surface is thrown as a
  // render::VulkanError with VK_ERROR_SURFACE_LOST_KHR (the caller may recreate the surface).
  bool draw(const media::DecodedFrame* frame, bool rehistogram, const DrawStyle& style, ImDrawData* ui,
            const Underlay* underlay, std::vector<std::uint8_t>* screenshot);
  // Whether the device can copy an Underlay into the swapchain's images (a blit).
  bool draws_underlays() const noexcept { return static_cast<bool>(underlay_); }

  std::string check(const media::DecodedFrame& frame, std::uint32_t bins) const {
    return renderer_.check(frame.format, frame.planes, bins);
  }
  const FrameStatistics& statistics() const noexcept { return renderer_.statistics(); }
  Engine engine() const noexcept { return renderer_.engine(); }
  bool wants_frame_again(const DrawStyle& style) const noexcept { return renderer_.wants_frame_again(style); }
  void wait_idle() { renderer_.wait_idle(); }
  // Hardware-decoded frames' importer (FrameRenderer::set_import), before the first draw.
  void set_import(FrameImport* import) noexcept { renderer_.set_import(import); }
  // After a lost surface (wait_idle() first): new acquire and present semaphores, since a
  // failed present may leave one signalled with nothing to wait for it.
  void reset_semaphores();

  static constexpr std::uint32_t kFramesInFlight = FrameRenderer::kFramesInFlight;
  static_assert(PresentPass::kSlots == kFramesInFlight);

 private:
  // `underlay` where the presenter draws underlays (else null), its new pixels staged.
  const Underlay* stage_underlay(const Underlay* underlay);
  // Submits the tick's command buffer (FrameRenderer::fence) and ends the renderer's tick.
  void submit_tick(VkCommandBuffer cmd, VkSemaphore image_available, VkSemaphore render_done);

  render::Context& context_;
  render::Swapchain& swapchain_;
  FrameRenderer renderer_;
  PresentPass present_pass_;  // used where swapchain_.stores_picture()
  render::Buffer picture_;  // the composite's picture, swapchain-sized (made again on a resize)
  std::vector<render::UniqueSemaphore> image_available_;  // one per frame in flight
  std::vector<render::UniqueSemaphore> render_done_;      // one per swapchain image
  std::unique_ptr<UnderlayImage> underlay_;               // null where the device cannot blit
};

}  // namespace vhist::viewer
