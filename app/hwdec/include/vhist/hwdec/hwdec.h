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

// One source as --hwdec's rule sees it. Every command that decodes (analyze, qc, batch, the
// viewer) asks choose_decoding(), so they decide alike and say the same reasons.
struct DecodeFacts {
  HwdecMode mode = HwdecMode::no;
  bool camera = false;         // a camera's frames are not NVDEC's to decode
  bool device_usable = false;  // open_hwdec() made NVDEC usable for the Vulkan device
  std::string device_reason;   // when not, why (Hwdec::reason)
  bool host_engine = false;    // the CPU engine converts and counts: it reads frames in host memory
  std::string codec;           // the stream's codec, FFmpeg's name ("": not known yet)
  unsigned threads = 0;        // the decoder's threads (--threads; 0: one per hardware thread)
};
// The facts `hw` holds (its mode, and whether NVDEC is usable or why not); the caller adds the
// source's and the engine's.
DecodeFacts device_facts(const Hwdec& hw);

// Where the rule puts a source: on NVDEC, or on the CPU for `reason` (empty for --hwdec no, which
// says nothing; else what fallback_line says).
struct DecodeChoice {
  bool nvdec = false;
  std::string reason;
};

// The rule, its reasons in this order: --hwdec no decodes on the CPU; a camera is never decoded
// by NVDEC; the device's reason (it holds for every engine); the CPU engine; `auto` leaves a codec
// to the CPU where it decodes faster there (cpu_decodes_faster on cpu_decoder_threads(threads)).
// Else NVDEC. A codec not known yet passes the last rule: a caller that learns the codec only
// from the stream opened on NVDEC (the viewer) asks again with it.
DecodeChoice choose_decoding(const DecodeFacts& facts);
// Why the CPU decodes a stream that was to be opened on NVDEC: opening it there failed (`what`:
// the error's words).
std::string open_failed_reason(std::string_view what);
// Why the CPU decodes a stream opened on NVDEC: the FFmpeg build has no NVDEC hwaccel for its
// decoder, or NVDEC's own check at the first frame refused it. `hw_fallback` is
// DecodeReport::hw_fallback, FFmpeg's words ("" when it gave none).
std::string not_taken_reason(const std::string& hw_fallback);
// What to say when NVDEC is not used, `reason` being why: a warning for `nvdec` ("warning:
// --hwdec nvdec: NVDEC cannot be used (REASON); decoding on the CPU"), a note for `auto`.
std::string fallback_line(HwdecMode mode, const std::string& reason);

// Decides for `context` (created with device_extensions() as optional extensions). Never throws
// for a missing driver, a mismatch or CUDA failing while it sets up: that is `reason`.
Hwdec open_hwdec(HwdecMode mode, const render::Context& context);

}  // namespace vhist::hwdec
