#include "cuda_import.h"

#include "vhist/compute/frame_converter.h"
#include "vhist/compute/frame_upload.h"
#include "vhist/render/vk_check.h"

#include <ffnvcodec/dynlink_loader.h>

#include <unistd.h>

#include <array>
#include <cstring>
#include <stdexcept>

namespace vhist::hwdec {

struct CudaImport::Slot {
  render::Buffer buffer;
  CUexternalMemory memory = nullptr;
  CUdeviceptr address = 0;
  CUevent start = nullptr, end = nullptr;
  bool timed = false;
};

namespace {

// The CUDA context current on this thread for the object's lifetime.
class ContextScope {
 public:
  ContextScope(const CudaFunctions& f, CUcontext context) : f_(f) { cu_check(f_.cuCtxPushCurrent(context), "cuCtxPushCurrent"); }
  ~ContextScope() {
    CUcontext popped = nullptr;
    f_.cuCtxPopCurrent(&popped);
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  const CudaFunctions& f_;
};

std::array<std::uint8_t, VK_UUID_SIZE> vulkan_uuid(VkPhysicalDevice physical) {
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &id;
  vkGetPhysicalDeviceProperties2(physical, &props);
  std::array<std::uint8_t, VK_UUID_SIZE> out{};
  std::memcpy(out.data(), id.deviceUUID, VK_UUID_SIZE);
  return out;
}

// The CUDA device whose UUID is the Vulkan device's; -1 when none.
int matching_device(const CudaFunctions& f, const std::array<std::uint8_t, VK_UUID_SIZE>& uuid) {
  int count = 0;
  if (f.cuDeviceGetCount(&count) != CUDA_SUCCESS) return -1;
  for (int i = 0; i < count; ++i) {
    CUdevice device = 0;
    CUuuid cu{};
    if (f.cuDeviceGet(&device, i) != CUDA_SUCCESS || f.cuDeviceGetUuid(&cu, device) != CUDA_SUCCESS) continue;
    if (std::memcmp(cu.bytes, uuid.data(), VK_UUID_SIZE) == 0) return device;
  }
  return -1;
}

std::string why_not(const render::Context& context) {
  constexpr std::uint32_t kNvidia = 0x10DE;
  const std::string& name = context.description().name;
  if (context.properties().vendor_id != kNvidia) return "the Vulkan device " + name + " is not an NVIDIA GPU";
  for (const char* e : {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME}) {
    if (!context.enabled_extension(e)) return "the Vulkan device " + name + " lacks " + e;
  }
  return {};
}

}  // namespace

std::unique_ptr<CudaImport> CudaImport::open(const render::Context& context, std::string& why) {
  why = why_not(context);
  if (!why.empty()) return nullptr;
  const CudaApi* api = cuda_api(why);
  if (!api) return nullptr;
  const int device = matching_device(*api->f, vulkan_uuid(context.physical_device()));
  if (device < 0) {
    why = "no CUDA device has the UUID of the Vulkan device " + context.description().name;
    return nullptr;
  }
  std::unique_ptr<CudaImport> import(new CudaImport(context, *api, device));
  import->init();  // on failure the destructor undoes what was made
  return import;
}

CudaImport::CudaImport(const render::Context& context, const CudaApi& api, CUdevice device)
    : context_(context), api_(api), device_(device) {
  cu_check(api_.f->cuDevicePrimaryCtxRetain(&context_cu_, device_), "cuDevicePrimaryCtxRetain");
}

void CudaImport::init() {
  const ContextScope scope(*api_.f, context_cu_);
  cu_check(api_.f->cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  copied_ = make_semaphore("nvdec copied", copied_cu_);
  released_ = make_semaphore("nvdec released", released_cu_);
}

CudaImport::~CudaImport() {
  if (api_.f->cuCtxPushCurrent(context_cu_) == CUDA_SUCCESS) {
    if (stream_) api_.f->cuStreamSynchronize(stream_);
    for (auto& slot : slots_) {
      forget_memory(*slot);
      if (slot->start) api_.f->cuEventDestroy(slot->start);
      if (slot->end) api_.f->cuEventDestroy(slot->end);
    }
    slots_.clear();
    if (copied_cu_) api_.f->cuDestroyExternalSemaphore(copied_cu_);
    if (released_cu_) api_.f->cuDestroyExternalSemaphore(released_cu_);
    copied_cu_ = released_cu_ = nullptr;
    if (stream_) api_.f->cuStreamDestroy(stream_);
    stream_ = nullptr;
    CUcontext popped = nullptr;
    api_.f->cuCtxPopCurrent(&popped);
  }
  api_.f->cuDevicePrimaryCtxRelease(device_);
}

// A timeline semaphore (value 0) exported as an opaque fd, imported into CUDA (which then owns
// the fd).
render::UniqueSemaphore CudaImport::make_semaphore(const char* name, CUexternalSemaphore& imported) {
  const VkDevice device = context_.device();
  VkExportSemaphoreCreateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.pNext = &export_info;
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateSemaphore(device, &info, nullptr, &semaphore));
  render::UniqueSemaphore owned(device, semaphore);
  context_.set_name(VK_OBJECT_TYPE_SEMAPHORE, reinterpret_cast<std::uint64_t>(semaphore), name);
  auto get_fd = reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(device, "vkGetSemaphoreFdKHR"));
  if (!get_fd) throw std::runtime_error("vkGetSemaphoreFdKHR is missing");
  VkSemaphoreGetFdInfoKHR fd_info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
  fd_info.semaphore = semaphore;
  fd_info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  VHIST_VK_CHECK(get_fd(device, &fd_info, &fd));
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
  desc.handle.fd = fd;
  if (const CUresult r = api_.f->cuImportExternalSemaphore(&imported, &desc); r != CUDA_SUCCESS) {
    close(fd);
    cu_check(r, "cuImportExternalSemaphore");
  }
  return owned;
}

const render::Buffer& CudaImport::planes(std::uint32_t slot, std::uint64_t bytes) {
  while (slots_.size() <= slot) slots_.push_back(std::make_unique<Slot>());
  Slot& s = *slots_[slot];
  if (!needs_growth(s.buffer, bytes)) return s.buffer;
  const ContextScope scope(*api_.f, context_cu_);
  // The slot's previous copy may still be queued (its submission is done, CUDA's events not
  // necessarily read): let the stream drain before its memory goes.
  cu_check(api_.f->cuStreamSynchronize(stream_), "cuStreamSynchronize");
  forget_memory(s);
  grow_buffer(context_, s.buffer, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
              render::MemoryUse::device, true, "nvdec frame planes", true);
  import_memory(s);
  return s.buffer;
}

// The slot's buffer memory into CUDA (CUDA owns the fd once imported).
void CudaImport::import_memory(Slot& slot) {
  const VkDevice device = context_.device();
  auto get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device, "vkGetMemoryFdKHR"));
  if (!get_fd) throw std::runtime_error("vkGetMemoryFdKHR is missing");
  VkMemoryGetFdInfoKHR fd_info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  fd_info.memory = slot.buffer.memory();
  fd_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  VHIST_VK_CHECK(get_fd(device, &fd_info, &fd));
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = fd;
  desc.size = slot.buffer.allocation_size();
  desc.flags = kCudaExternalMemoryDedicated;
  if (const CUresult r = api_.f->cuImportExternalMemory(&slot.memory, &desc); r != CUDA_SUCCESS) {
    close(fd);
    cu_check(r, "cuImportExternalMemory");
  }
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC buffer{};
  buffer.offset = 0;
  buffer.size = slot.buffer.size();
  cu_check(api_.f->cuExternalMemoryGetMappedBuffer(&slot.address, slot.memory, &buffer),
           "cuExternalMemoryGetMappedBuffer");
  if (!slot.start) {
    cu_check(api_.f->cuEventCreate(&slot.start, 0), "cuEventCreate");
    cu_check(api_.f->cuEventCreate(&slot.end, 0), "cuEventCreate");
  }
}

void CudaImport::forget_memory(Slot& slot) {
  if (slot.address) api_.f->cuMemFree(slot.address);
  if (slot.memory) api_.f->cuDestroyExternalMemory(slot.memory);
  slot.address = 0;
  slot.memory = nullptr;
  slot.timed = false;
}

render::TimelinePoint CudaImport::copy(std::uint32_t slot, const VideoFormat& format, const VideoPlanes& strides,
                                       const DeviceFrame& frame, const PlaneOffsets& layout, std::uint64_t sequence,
                                       std::uint64_t reuse_after) {
  Slot& s = *slots_.at(slot);
  const CudaFunctions& f = *api_.f;
  const ContextScope scope(f, context_cu_);
  if (reuse_after > 0) {
    CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait{};
    wait.params.fence.value = reuse_after;
    cu_check(f.cuWaitExternalSemaphoresAsync(&released_cu_, &wait, 1, stream_), "cuWaitExternalSemaphoresAsync");
  }
  cu_check(f.cuEventRecord(s.start, stream_), "cuEventRecord");
  for (std::uint32_t p = 0; p < format.plane_count; ++p) {
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = frame.address[p];
    c.srcPitch = strides.stride[p];
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = s.address + layout.offset[p];
    c.dstPitch = strides.stride[p];  // the layout keeps the source's strides (plane_offsets)
    c.WidthInBytes = format.plane_row_bytes(p);
    c.Height = format.plane_rows(p);
    cu_check(f.cuMemcpy2DAsync(&c, stream_), "cuMemcpy2DAsync");
  }
  cu_check(f.cuEventRecord(s.end, stream_), "cuEventRecord");
  s.timed = true;
  CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal{};
  signal.params.fence.value = sequence;
  cu_check(f.cuSignalExternalSemaphoresAsync(&copied_cu_, &signal, 1, stream_), "cuSignalExternalSemaphoresAsync");
  return {copied_.get(), sequence, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT};
}

double CudaImport::copy_ms(std::uint32_t slot) {
  if (slot >= slots_.size() || !slots_[slot]->timed || !api_.event_elapsed_time) return 0;
  const ContextScope scope(*api_.f, context_cu_);
  float ms = 0;
  if (api_.event_elapsed_time(&ms, slots_[slot]->start, slots_[slot]->end) != CUDA_SUCCESS) return 0;
  return ms;
}

}  // namespace vhist::hwdec
