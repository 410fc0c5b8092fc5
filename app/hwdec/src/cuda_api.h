// The CUDA driver API as the import needs it, from the process's one loader (vhist/nvidia/driver.h:
// ffnvcodec 11.1.5.2's table, which has every external memory and semaphore call vhist uses, and
// cuEventElapsedTime looked up by hand).
#pragma once

#include "vhist/nvidia/driver.h"

#include <string>

struct CudaFunctions;

namespace vhist::hwdec {

// Not in ffnvcodec 11.1.5.2's declarations: CUDA's values and prototype.
inline constexpr unsigned kCudaExternalMemoryDedicated = 0x1;  // CUDA_EXTERNAL_MEMORY_DEDICATED
using nvidia::EventElapsedTime;

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
