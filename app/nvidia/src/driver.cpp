#include "vhist/nvidia/driver.h"

// The loader prints what it cannot load; vhist says it once, in its own words (the why fields).
#define FFNV_LOG_FUNC(logctx, msg, ...) ((void)(logctx))
#define FFNV_DEBUG_LOG_FUNC(logctx, msg, ...) ((void)(logctx))
#include <ffnvcodec/dynlink_loader.h>

namespace vhist::nvidia {
namespace {

Driver load() {
  Driver d;
  CudaFunctions* cuda = nullptr;
  if (cuda_load_functions(&cuda, nullptr) != 0 || !cuda) {
    d.cuda_why = "no NVIDIA CUDA driver (libcuda.so.1 could not be loaded)";
  } else if (const CUresult r = cuda->cuInit(0); r != CUDA_SUCCESS) {
    d.cuda_why = "the CUDA driver did not start (cuInit: " + std::to_string(static_cast<int>(r)) + ")";
  } else {
    d.cuda = cuda;
    // Not in the loader's table (ffnvcodec 11.1.5.2): the library is already open, so dlopen
    // with RTLD_NOLOAD only finds it.
    if (void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
      d.event_elapsed_time = reinterpret_cast<EventElapsedTime>(dlsym(lib, "cuEventElapsedTime"));
      dlclose(lib);
    }
  }
  CuvidFunctions* cuvid = nullptr;
  if (cuvid_load_functions(&cuvid, nullptr) != 0 || !cuvid || !cuvid->cuvidGetDecoderCaps) {
    d.cuvid_why = "the NVIDIA driver has no video decoder library (libnvcuvid.so.1 could not be loaded)";
  } else {
    d.cuvid = cuvid;
  }
  return d;
}

}  // namespace

const Driver& driver() {
  static const Driver loaded = load();
  return loaded;
}

}  // namespace vhist::nvidia
