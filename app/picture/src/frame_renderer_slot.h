// FrameRenderer's private parts shared by its source files: a frame in flight's slot and the
// layout of its staging and readback memory. Not for other code.
#pragma once

#include "vhist/picture/frame_renderer.h"

#include "vhist/draw_shared.h"
#include "vhist/render/command_slot.h"

namespace vhist::viewer {

struct FrameRenderer::Slot {
  render::CommandSlot commands;
  render::Buffer staging;           // host-visible: the new frame's planes, or the CPU engine's results
  render::Buffer readback;          // host-visible: the statistics histogram (GPU engine)
  render::Buffer composite_params;  // host-visible storage buffer: this tick's shader::CompositeParams
  VkDescriptorSet composite_set = VK_NULL_HANDLE;  // composite.comp's set 0: composite_params
  render::Buffer overlay;           // host-visible: this tick's shader::OverlayItem list (kMaxOverlayItems)
  render::Buffer reference;         // host-visible: the reference at the display bins, then its prefix sum
  std::unique_ptr<render::GpuTimer> timer;
  bool submitted = false;
  bool imported = false;  // this tick's new frame came through the importer (its copy is timed there)
  bool readback_pending = false;
  std::uint32_t levels = 0, bits = 8, width = 0, height = 0;  // of the histogram being read back
  // The source measures being read back (GPU engine): plane counts at `levels`, light levels.
  bool planes_pending = false, light_pending = false;
  bool ycbcr = false;  // the statistics histogram is of the planes
  ColourRange range = ColourRange::limited;  // the range the frame was read with
};

// The overlay grid's slots (overlay_grid.h): about 1,100 for two panels at 1920x1080, 4,000 at 3840x2160.
inline constexpr std::uint32_t kMaxOverlayItems = 16384;
// The readback buffer: the statistics histogram, the plane counts, the light levels.
inline constexpr VkDeviceSize kReadbackPlanesOffset = VkDeviceSize{shader::kMaxBins} * 16;
inline constexpr VkDeviceSize kReadbackLightOffset = kReadbackPlanesOffset + VkDeviceSize{shader::kPlaneCountsWords} * 4;
inline constexpr VkDeviceSize kReadbackBytes = kReadbackLightOffset + VkDeviceSize{shader::kMaxLightLevels} * 4;
// The reference buffer: kMaxBins records of 4 floats (the outline), then kMaxBins of 4 cumulative
// counts (the match pass's reference).
inline constexpr std::size_t kReferenceCdfOffset = std::size_t{shader::kMaxBins} * 16;
inline constexpr std::size_t kReferenceBytes = kReferenceCdfOffset + std::size_t{shader::kMaxBins} * 16;
// CPU engine's staging layout: the display histogram, its scale block, the statistics
// histogram, then the R'G'B' frame.
inline constexpr std::size_t kStagingScaleOffset = std::size_t{shader::kMaxBins} * 16;
inline constexpr std::size_t kStagingLevelsOffset = kStagingScaleOffset + 256;
inline constexpr std::size_t kStagingRgbOffset = kStagingLevelsOffset + std::size_t{shader::kMaxBins} * 16;

}  // namespace vhist::viewer
