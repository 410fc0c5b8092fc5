// The NVIDIA driver's CUDA and NVDEC libraries, loaded once per process (app/nvidia/CMakeLists.txt).
// The tables are ffnvcodec's (dynlink_cuda.h, dynlink_nvcuvid.h): include
// <ffnvcodec/dynlink_loader.h> where their members are called. Thread-safe.
#pragma once

#include <ffnvcodec/dynlink_cuda.h>

#include <string>

struct CudaFunctions;
struct CuvidFunctions;

namespace vhist::nvidia {

// Not in ffnvcodec 11.1.5.2's table: CUDA's prototype, looked up by hand.
using EventElapsedTime = CUresult (*)(float* ms, CUevent start, CUevent end);

struct Driver {
  // libcuda.so.1, cuInit(0) done; null when either failed, `cuda_why` saying which.
  const CudaFunctions* cuda = nullptr;
  std::string cuda_why;
  EventElapsedTime event_elapsed_time = nullptr;  // may be null
  // libnvcuvid.so.1 with cuvidGetDecoderCaps; null when it could not be loaded (`cuvid_why`).
  const CuvidFunctions* cuvid = nullptr;
  std::string cuvid_why;
};

// The first call loads; later calls return the same (the libraries stay open for the process).
const Driver& driver();

}  // namespace vhist::nvidia
