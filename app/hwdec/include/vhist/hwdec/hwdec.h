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
  // For the benchmark, which times the import without a decoder: `planes` (host memory, laid
  // out as NVDEC leaves frames: NV12, P010, ...) copied once into CUDA device memory on the
  // importer's context, as a DeviceFrame of FrameMemory::cuda with the same strides. The memory
  // is freed with the last reference, which must go before this Hwdec. Requires usable();
  // throws std::runtime_error when CUDA fails.
  std::shared_ptr<const DeviceFrame> put_frame(const VideoFormat& format, const VideoPlanes& planes) const;
};

// The rules every command applies after open_hwdec(), in one wording: the CPU engine reads
// frames in host memory, so it refuses NVDEC (nothing happens when NVDEC is not usable); `auto`
// leaves `codec` to the CPU where it decodes faster there (cpu_decodes_faster on the run's
// decoder threads, cpu_decoder_threads(threads): --threads, 0 for one per hardware thread):
// cpu_faster_reason says why, or "" when NVDEC keeps it.
void refuse_for_host_engine(Hwdec& hw);
std::string cpu_faster_reason(HwdecMode mode, std::string_view codec, unsigned threads = 0);
// What to say when NVDEC is not used, `reason` being why: a warning for `nvdec` ("warning:
// --hwdec nvdec: NVDEC cannot be used (REASON); decoding on the CPU"), a note for `auto`.
std::string fallback_line(HwdecMode mode, const std::string& reason);

// Decides for `context` (created with device_extensions() as optional extensions). Never throws
// for a missing driver, a mismatch or CUDA failing while it sets up: that is `reason`.
Hwdec open_hwdec(HwdecMode mode, const render::Context& context);

}  // namespace vhist::hwdec
