#include "vhist/hwdec/hwdec.h"

#include "cuda_import.h"

#include <stdexcept>
#include <thread>
#include <utility>

namespace vhist::hwdec {

std::vector<std::string> device_extensions() {
  return {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
}

Hwdec::Hwdec() = default;
Hwdec::~Hwdec() = default;
Hwdec::Hwdec(Hwdec&&) noexcept = default;
Hwdec& Hwdec::operator=(Hwdec&&) noexcept = default;

void Hwdec::refuse(std::string why) {
  cuda.reset();
  reason = std::move(why);
}

void* Hwdec::cuda_context() const { return cuda ? cuda->cuda_context() : nullptr; }
void* Hwdec::cuda_stream() const { return cuda ? cuda->cuda_stream() : nullptr; }
FrameImport* Hwdec::import() const { return cuda.get(); }

std::shared_ptr<const DeviceFrame> Hwdec::put_frame(const VideoFormat& format, const VideoPlanes& planes) const {
  if (!cuda) throw std::logic_error("put_frame without NVDEC");
  return cuda->put_frame(format, planes);
}

DecodeFacts device_facts(const Hwdec& hw) {
  DecodeFacts facts;
  facts.mode = hw.mode;
  facts.device_usable = hw.usable();
  facts.device_reason = hw.reason;
  return facts;
}

DecodeChoice choose_decoding(const DecodeFacts& f) {
  if (f.mode == HwdecMode::no) return {};
  if (f.camera) return {false, "a camera's frames are not decoded by NVDEC"};
  if (!f.device_usable) return {false, f.device_reason};
  if (f.host_engine) return {false, "the CPU engine reads frames in host memory (NVDEC's stay on the GPU)"};
  const unsigned cpu = cpu_decoder_threads(f.threads);
  if (f.mode == HwdecMode::automatic && cpu_decodes_faster(f.codec, cpu)) {
    return {false, f.codec + " decodes faster on " + std::to_string(cpu) +
                       " CPU threads than on one NVDEC engine (--hwdec nvdec uses NVDEC all the same)"};
  }
  return {true, {}};
}

std::string open_failed_reason(std::string_view what) {
  return "the decoder did not open on NVDEC: " + std::string(what);
}

std::string not_taken_reason(const std::string& hw_fallback) {
  return hw_fallback.empty() ? "NVDEC did not take the stream" : hw_fallback;
}

std::string fallback_line(HwdecMode mode, const std::string& reason) {
  if (mode == HwdecMode::nvdec) return "warning: --hwdec nvdec: NVDEC cannot be used (" + reason + "); decoding on the CPU";
  return "--hwdec auto: decoding on the CPU: " + reason;
}

Hwdec open_hwdec(HwdecMode mode, const render::Context& context) {
  Hwdec h;
  h.mode = mode;
  if (mode == HwdecMode::no) return h;
  // CUDA failing while it sets up (a GPU in exclusive-process mode that another process holds,
  // out of memory) is one more reason to decode on the CPU, as mpv falls back.
  try {
    h.cuda = CudaImport::open(context, h.reason);
  } catch (const std::runtime_error& e) {
    h.cuda.reset();
    h.reason = std::string("CUDA could not be set up: ") + e.what();
  }
  return h;
}

}  // namespace vhist::hwdec
