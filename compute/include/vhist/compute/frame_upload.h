// The one path of a decoded frame to the GPU, used by `vhist analyze` (VideoPipeline) and the
// viewer (FrameRenderer): the planes copied into persistently mapped staging memory (split
// across threads for large frames), copied into device-local memory, and converted to the
// R'G'B' frame the histogram engine counts (FrameConverter). Also the one growth rule of the
// frame-sized buffers on the way.
//
// Where the device has a large memory heap that is both device-local and host-visible (a
// discrete GPU with a resizable BAR, or a CPU device such as lavapipe), the staging memory is
// allocated there and the passes read the planes where the CPU wrote them: no copy is recorded
// and the GPU spends no time on the frame's transfer (the CPU's staging copy crosses the bus
// instead). Otherwise, or once such an allocation fails, staging is host memory and copied.
//
// One thread uses a FrameUpload (the staging copy runs on its ThreadPool).
#pragma once

#include "vhist/compute/frame_converter.h"
#include "vhist/compute/histogram_types.h"
#include "vhist/compute/region.h"
#include "vhist/compute/thread_pool.h"
#include "vhist/compute/video_frame.h"
#include "vhist/render/buffer.h"
#include "vhist/render/compute_pipeline.h"
#include "vhist/render/context.h"

#include <cstdint>
#include <string>

namespace vhist {

// Frames of at least this many bytes are copied into staging memory by several threads.
inline constexpr std::uint64_t kParallelCopyBytes = 4u << 20;
// The smallest device-local, host-visible heap that frames are staged in directly: larger than
// the 256 MiB BAR window that discrete GPUs without a resizable BAR expose, which other
// programs (and the driver) also draw on.
inline constexpr std::uint64_t kDirectStagingHeap = std::uint64_t{1} << 30;

// The growth rule for frame-sized buffers: when `buffer` is smaller than `bytes` it is replaced
// by one of bytes plus an eighth (so that small size changes do not reallocate again), rounded
// up to 16 bytes. Returns true when it was replaced: the caller must have waited for the GPU's
// use of the old one. `use`, `addressable` and `exportable` as render::Buffer's.
bool grow_buffer(const render::Context& context, render::Buffer& buffer, std::uint64_t bytes, VkBufferUsageFlags usage,
                 render::MemoryUse use, bool addressable, const char* name, bool exportable = false);
// Whether grow_buffer would replace `buffer` for `bytes`.
inline bool needs_growth(const render::Buffer& buffer, std::uint64_t bytes) {
  return !buffer || buffer.size() < bytes;
}
// An R'G'B' frame buffer (device-local, addressable, storage and transfer source and
// destination) for frames of `format`, grown by grow_buffer's rule.
bool grow_frame_buffer(const render::Context& context, render::Buffer& buffer, const FrameFormat& format,
                       const char* name);

// Where the planes of a frame staged with `layout` are once record_copy has put them in
// `device_planes`, for the passes that read them (the convert pass, the plane pass).
GpuPlanes gpu_planes(const VideoFormat& format, const VideoPlanes& planes, const render::Buffer& device_planes,
                     const PlaneOffsets& layout);

// Where frames are staged: in device memory when the device has a large enough heap for it,
// else host memory (automatic), or always host memory and copied (host: the path of devices
// without such a heap, for tests and comparisons on those that have one).
enum class Staging { automatic, host };

class FrameUpload {
 public:
  // `copy_threads` split the staging copy of frames of kParallelCopyBytes or more; 0 picks a
  // quarter of the hardware threads, from 1 to 4 (the other cores are the decoder's).
  explicit FrameUpload(render::Context& context, unsigned copy_threads = 0, Staging staging = Staging::automatic);

  // Empty when the convert pass takes a frame of this format and strides; else why.
  std::string check(const VideoFormat& format, const VideoPlanes& planes) const;

  // Whether frames are staged in device memory, read where they are staged (see the top).
  bool stages_in_device_memory() const { return direct_; }

  // Host side: copies the planes into `staging` (host-visible, grown by grow_buffer's rule:
  // the caller must not have it in use on the GPU) and returns where each plane went.
  PlaneOffsets stage(const VideoFormat& format, const VideoPlanes& planes, render::Buffer& staging);
  // Grows `device_planes` (device-local, addressable) to hold `layout`; true when replaced.
  // Nothing to grow (false) while frames are staged in device memory.
  bool grow_device_planes(render::Buffer& device_planes, const PlaneOffsets& layout) const;

  // Records the copy of a staged frame into `device_planes` and returns the buffer the passes
  // read the planes from: `device_planes`, or `staging` itself when it is device memory (no
  // copy; the submit makes the host's writes visible). After: the planes visible to
  // compute-shader reads.
  const render::Buffer& record_copy(VkCommandBuffer cmd, const render::Buffer& staging,
                                    const render::Buffer& device_planes, const PlaneOffsets& layout) const;
  // Records the convert pass from `device_planes` (the buffer record_copy returned) into `dst`
  // (converted_format(format).byte_size() bytes), with the gamut counts into `measures` when
  // it is not 0 (FrameConverter::record). After: dst written by the compute stage; the caller
  // places the barrier for its readers.
  void record_convert(VkCommandBuffer cmd, const VideoFormat& format, const VideoPlanes& planes,
                      const render::Buffer& device_planes, const PlaneOffsets& layout, VkDeviceAddress dst,
                      VkDeviceAddress measures = 0) const;
  // Records the copy of the rows of `rect` of a tightly packed frame of `whole` at `from`,
  // packed, to `to` (a frame of region_format(whole, rect)) by one compute dispatch
  // (rect_copy.comp). Before: `from` written and visible to compute reads. After: `to` visible
  // to compute reads.
  void record_rect_copy(VkCommandBuffer cmd, VkDeviceAddress from, VkDeviceAddress to, const FrameFormat& whole,
                        const PixelRect& rect) const;

 private:
  void grow_staging(render::Buffer& staging, std::uint64_t bytes);

  render::Context& context_;
  bool direct_;  // staging is device memory, read where it lies
  FrameConverter converter_;
  render::ComputePipeline rect_copy_;
  ThreadPool copiers_;
};

}  // namespace vhist
