// --hwdec auto|no|nvdec (mpv's spelling and meaning): whether frames are decoded on the GPU's
// video decoder, and the GPU side of it. `auto` and `nvdec` use NVDEC when the Vulkan device is
// an NVIDIA GPU whose CUDA device has the same UUID and its driver can share memory and
// semaphores with CUDA; else the frames are decoded on the CPU and `reason` says why. Like mpv,
// `nvdec` falls back too (with a warning instead of a note): the numbers are the same either way
// (the decoders are bit-exact), only the speed differs.
#pragma once

#include "vhist/compute/frame_import.h"
#include "vhist/hwdec/hwdec_mode.h"
#include "vhist/render/context.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace vhist::hwdec {

// The Vulkan device extensions the CUDA import needs: put them in
// ContextOptions::optional_device_extensions when the mode is not `no`.
std::vector<std::string> device_extensions();

class CudaImport;

// What --hwdec came to for one Vulkan device.
struct Hwdec {
  Hwdec();
  ~Hwdec();
  Hwdec(Hwdec&&) noexcept;
  Hwdec& operator=(Hwdec&&) noexcept;

  HwdecMode mode = HwdecMode::no;
  std::unique_ptr<CudaImport> cuda;  // set when NVDEC is usable
  std::string reason;                // when not: why (empty for `no`)

  bool usable() const noexcept { return cuda != nullptr; }
  // Gives NVDEC up for a reason of the caller's (the CPU engine, which reads host memory).
  void refuse(std::string why);
  // For the decoder (media::SourceOptions): CUcontext and CUstream; nullptr when not usable.
  void* cuda_context() const;
  void* cuda_stream() const;
  // The pipeline's importer; nullptr when not usable.
  FrameImport* import() const;
};

// Starts the CUDA driver (cuInit) and each CUDA device's primary context on a thread of its own,
// so that they start while the Vulkan device does (measured on an H200: 0.6 s for CUDA, 0.2 s
// for Vulkan, one after the other before); open_hwdec() then finds them ready. The destructor
// waits for the thread and releases what it retained, so declare it before the Hwdec that
// retains the context for good. Nothing happens where there is no CUDA driver (open_hwdec says
// why).
class CudaWarmUp {
 public:
  CudaWarmUp() = default;
  ~CudaWarmUp();
  CudaWarmUp(const CudaWarmUp&) = delete;
  CudaWarmUp& operator=(const CudaWarmUp&) = delete;
  void start();

 private:
  std::thread thread_;
  std::vector<int> retained_;  // CUDA device ordinals whose primary context the thread retained
};

// Decides for `context` (created with device_extensions() as optional extensions). Never throws
// for a missing driver or a mismatch: that is `reason`.
Hwdec open_hwdec(HwdecMode mode, const render::Context& context);

}  // namespace vhist::hwdec
