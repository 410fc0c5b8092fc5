// Hwdec::put_frame: a host frame copied once into CUDA device memory, as NVDEC leaves a decoded
// frame there (each plane its own allocation, at the host frame's strides), for the benchmark's
// hardware path: it times the import and the passes after it without a decoder.
#include "cuda_import.h"

#include "vhist/compute/frame_converter.h"

#include <ffnvcodec/dynlink_loader.h>

namespace vhist::hwdec {

namespace {

// Frees the planes on `context` (current for the calls), then the frame.
struct FreePlanes {
  const CudaApi* api;
  CUcontext context;
  void operator()(DeviceFrame* frame) const {
    if (api->f->cuCtxPushCurrent(context) == CUDA_SUCCESS) {
      for (const std::uint64_t address : frame->address) {
        if (address) api->f->cuMemFree(static_cast<CUdeviceptr>(address));
      }
      CUcontext popped = nullptr;
      api->f->cuCtxPopCurrent(&popped);
    }
    delete frame;
  }
};

}  // namespace

std::shared_ptr<const DeviceFrame> CudaImport::put_frame(const VideoFormat& format, const VideoPlanes& planes) const {
  const CudaFunctions& f = *api_.f;
  std::shared_ptr<DeviceFrame> frame(new DeviceFrame{FrameMemory::cuda, {}}, FreePlanes{&api_, context_cu_});
  cu_check(f.cuCtxPushCurrent(context_cu_), "cuCtxPushCurrent");
  try {
    for (std::uint32_t p = 0; p < format.plane_count; ++p) {
      const std::size_t bytes = std::size_t{planes.stride[p]} * format.plane_rows(p);
      CUdeviceptr address = 0;
      cu_check(f.cuMemAlloc(&address, bytes), "cuMemAlloc");
      frame->address[p] = address;
      cu_check(f.cuMemcpyHtoD(address, planes.data[p], bytes), "cuMemcpyHtoD");
    }
  } catch (...) {
    CUcontext popped = nullptr;
    f.cuCtxPopCurrent(&popped);
    throw;
  }
  CUcontext popped = nullptr;
  f.cuCtxPopCurrent(&popped);
  return frame;
}

}  // namespace vhist::hwdec
