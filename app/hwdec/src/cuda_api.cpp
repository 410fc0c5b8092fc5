#include "cuda_api.h"

// The loader prints what it cannot load; vhist says it once, in its own words (cuda_api's why).
#define FFNV_LOG_FUNC(logctx, msg, ...) ((void)(logctx))
#define FFNV_DEBUG_LOG_FUNC(logctx, msg, ...) ((void)(logctx))
#include <ffnvcodec/dynlink_loader.h>

#include <mutex>
#include <stdexcept>

namespace vhist::hwdec {
namespace {

struct Loaded {
  CudaApi api;
  CudaFunctions* functions = nullptr;
  std::string why;
};

Loaded load() {
  Loaded l;
  if (cuda_load_functions(&l.functions, nullptr) != 0 || !l.functions) {
    l.why = "no NVIDIA CUDA driver (libcuda.so.1 could not be loaded)";
    return l;
  }
  if (const CUresult r = l.functions->cuInit(0); r != CUDA_SUCCESS) {
    l.why = "the CUDA driver did not start (cuInit: " + std::to_string(static_cast<int>(r)) + ")";
    return l;
  }
  if (!l.functions->cuDeviceGetUuid || !l.functions->cuImportExternalMemory ||
      !l.functions->cuImportExternalSemaphore) {
    l.why = "the CUDA driver is too old (no cuDeviceGetUuid or external memory)";
    return l;
  }
  l.api.f = l.functions;
  // Not in the loader's table (ffnvcodec 11.1.5.2): the library is already open, so dlopen with
  // RTLD_NOLOAD only finds it.
  if (void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
    l.api.event_elapsed_time = reinterpret_cast<EventElapsedTime>(dlsym(lib, "cuEventElapsedTime"));
    dlclose(lib);
  }
  return l;
}

}  // namespace

const CudaApi* cuda_api(std::string& why) {
  static const Loaded loaded = load();  // kept for the process's life (the library stays open)
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
