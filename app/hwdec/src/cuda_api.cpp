#include "cuda_api.h"

#include "vhist/nvidia/driver.h"

#include <ffnvcodec/dynlink_loader.h>

#include <stdexcept>

namespace vhist::hwdec {
namespace {

struct Loaded {
  CudaApi api;
  std::string why;
};

Loaded check(const nvidia::Driver& d) {
  Loaded l;
  if (!d.cuda) {
    l.why = d.cuda_why;
    return l;
  }
  if (!d.cuda->cuDeviceGetUuid || !d.cuda->cuImportExternalMemory || !d.cuda->cuImportExternalSemaphore) {
    l.why = "the CUDA driver is too old (no cuDeviceGetUuid or external memory)";
    return l;
  }
  l.api.f = d.cuda;
  l.api.event_elapsed_time = d.event_elapsed_time;
  return l;
}

}  // namespace

const CudaApi* cuda_api(std::string& why) {
  static const Loaded loaded = check(nvidia::driver());
  if (!loaded.api.f) {
    why = loaded.why;
    return nullptr;
  }
  return &loaded.api;
}

std::string cu_error(CUresult result) {
  std::string why;
  const CudaApi* api = cuda_api(why);
  const char* text = nullptr;
  if (api && api->f->cuGetErrorString) api->f->cuGetErrorString(result, &text);
  return "CUDA error " + std::to_string(static_cast<int>(result)) + (text ? std::string(": ") + text : "");
}

void cu_check(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) throw std::runtime_error(std::string("CUDA: ") + what + " failed (" + cu_error(result) + ")");
}

}  // namespace vhist::hwdec
