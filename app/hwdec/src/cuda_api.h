// The CUDA driver API, opened at run time (dlopen of libcuda.so.1) through the NVDEC headers'
// loader (ffnvcodec/dynlink_loader.h, libffmpeg-nvenc-dev 11.1.5.2). That version has every
// external memory and semaphore call vhist uses; cuEventElapsedTime it lacks, so it is looked up
// here by hand (the prototype is CUDA's).
#pragma once

#include <ffnvcodec/dynlink_cuda.h>

#include <string>

struct CudaFunctions;

namespace vhist::hwdec {

// Not in ffnvcodec 11.1.5.2's declarations: CUDA's values and prototype.
inline constexpr unsigned kCudaExternalMemoryDedicated = 0x1;  // CUDA_EXTERNAL_MEMORY_DEDICATED
using EventElapsedTime = CUresult (*)(float* ms, CUevent start, CUevent end);

struct CudaApi {
  const CudaFunctions* f = nullptr;
  EventElapsedTime event_elapsed_time = nullptr;  // may be null
};

// The loaded API (once per process), or nullptr with `why` set: no NVIDIA driver, or cuInit failed.
const CudaApi* cuda_api(std::string& why);

// Throws std::runtime_error "CUDA: `what` failed: <CUDA's name for the error>" unless CUDA_SUCCESS.
void cu_check(CUresult result, const char* what);
// "CUDA_ERROR_...: text" for a result.
std::string cu_error(CUresult result);

}  // namespace vhist::hwdec
