// The CUDA FrameImport (frame_import.h): NVDEC's frames, decoded by FFmpeg on this object's CUDA
// context and stream, copied device to device into the video pipeline's Vulkan planes buffers.
//
// Each slot's planes buffer is Vulkan memory allocated exportable (a dedicated allocation,
// VK_KHR_external_memory_fd, opaque fd) and imported into CUDA (cuImportExternalMemory, mapped
// with cuExternalMemoryGetMappedBuffer). Two Vulkan timeline semaphores are exported the same
// way: `copied` (CUDA signals frame n's number after its copy; the pipeline's submission n waits
// for it before the convert pass) and `released` (every submission signals its number when done;
// CUDA waits for the slot's previous frame there before overwriting the slot). All of it is
// queued on the decoder's CUDA stream, after the decoder's own copy into the frame, so the
// decoder reuses the frame's surface only after vhist's copy: no CPU wait per frame.
#pragma once

#include "cuda_api.h"
#include "vhist/compute/frame_import.h"
#include "vhist/render/context.h"
#include "vhist/render/handles.h"

#include <memory>
#include <string>
#include <vector>

namespace vhist::hwdec {

class CudaImport final : public FrameImport {
 public:
  // For `context`'s device, or nullptr with `why` set (not NVIDIA, no CUDA driver, no CUDA
  // device of the same UUID, extensions missing). Throws std::runtime_error when CUDA fails
  // while setting up.
  static std::unique_ptr<CudaImport> open(const render::Context& context, std::string& why);
  ~CudaImport() override;
  CudaImport(const CudaImport&) = delete;
  CudaImport& operator=(const CudaImport&) = delete;

  void* cuda_context() const noexcept { return context_cu_; }
  void* cuda_stream() const noexcept { return stream_; }

  std::string_view name() const override { return "nvdec"; }
  bool accepts(FrameMemory memory) const override { return memory == FrameMemory::cuda; }
  const render::Buffer& planes(std::uint32_t slot, std::uint64_t bytes) override;
  render::TimelinePoint copy(std::uint32_t slot, const VideoFormat& format, const VideoPlanes& strides,
                             const DeviceFrame& frame, const PlaneOffsets& layout, std::uint64_t sequence,
                             std::uint64_t reuse_after) override;
  VkSemaphore release() const override { return released_.get(); }
  double copy_ms(std::uint32_t slot) override;
  // Hwdec::put_frame (cuda_frame.cpp).
  std::shared_ptr<const DeviceFrame> put_frame(const VideoFormat& format, const VideoPlanes& planes) const;

 private:
  struct Slot;
  CudaImport(const render::Context& context, const CudaApi& api, CUdevice device);
  void init();  // the stream and the semaphores
  render::UniqueSemaphore make_semaphore(const char* name, CUexternalSemaphore& imported);
  void import_memory(Slot& slot);
  void forget_memory(Slot& slot);

  const render::Context& context_;
  const CudaApi& api_;
  CUdevice device_ = 0;
  CUcontext context_cu_ = nullptr;
  CUstream stream_ = nullptr;
  render::UniqueSemaphore copied_, released_;
  CUexternalSemaphore copied_cu_ = nullptr, released_cu_ = nullptr;
  std::vector<std::unique_ptr<Slot>> slots_;
};

}  // namespace vhist::hwdec
