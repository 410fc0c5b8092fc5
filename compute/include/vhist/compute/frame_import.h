// The one seam between the video pipeline and a hardware decoder: a FrameImport puts a frame that
// a decoder left in GPU memory of its own API (DeviceFrame) into the Vulkan planes buffer the
// convert pass reads, in the PlaneOffsets layout, without the frame touching host memory.
//
// The pipeline owns the order of frames: submission n (1, 2, ...) of frames through slot
// n mod slots. It asks the importer for slot s's planes buffer (the importer makes and keeps it:
// memory the other API can write), then for the copy of frame n into it, which may not start
// before submission `reuse_after` (the slot's previous frame) is done reading it; the copy
// returns the point on a Vulkan timeline semaphore the submission must wait for. Every
// submission signals release() with its number n, so that the importer can wait for it. An
// importer serves one consumer (one pipeline or one viewer FrameRenderer) for its life: the
// timeline values are that consumer's numbers, which start at 1.
//
// Backends: app/hwdec's CUDA one (NVDEC through FFmpeg: Vulkan memory exported to CUDA, copied
// by cuMemcpy2DAsync, timeline semaphores shared both ways). A VAAPI one (DRM PRIME dma-bufs
// imported into Vulkan, copied by the GPU's own queue) fits the same calls: docs/architecture.md.
#pragma once

#include "vhist/compute/video_frame.h"
#include "vhist/render/buffer.h"
#include "vhist/render/command_slot.h"

#include <cstdint>
#include <string_view>

namespace vhist {

struct PlaneOffsets;

class FrameImport {
 public:
  virtual ~FrameImport() = default;
  // "nvdec": the hardware path's name in messages and records.
  virtual std::string_view name() const = 0;
  // Whether it imports frames of this memory.
  virtual bool accepts(FrameMemory memory) const = 0;
  // Slot `slot`'s planes buffer, at least `bytes` long (device-local, addressable, storage),
  // made or grown by the importer; the slot's previous frame is done with it when it grows.
  virtual const render::Buffer& planes(std::uint32_t slot, std::uint64_t bytes) = 0;
  // Starts the copy of `frame` (strides in `strides`) into planes(slot) at `layout` once
  // submission `reuse_after` has signalled release() (0: no wait); returns what submission
  // `sequence` waits for. Throws std::runtime_error when the other API fails.
  virtual render::TimelinePoint copy(std::uint32_t slot, const VideoFormat& format, const VideoPlanes& strides,
                                     const DeviceFrame& frame, const PlaneOffsets& layout, std::uint64_t sequence,
                                     std::uint64_t reuse_after) = 0;
  // The semaphore every submission signals with its number (VK_PIPELINE_STAGE_2_ALL_COMMANDS).
  virtual VkSemaphore release() const = 0;
  // GPU time of slot `slot`'s last copy, ms, once its submission is done (0 when unknown).
  virtual double copy_ms(std::uint32_t slot) = 0;
};

}  // namespace vhist
