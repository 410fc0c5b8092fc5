// The viewer's picture with hardware-decoded frames (FrameRenderer::set_import, issue 27), on any
// Vulkan device: frames that are not in host memory come in through a FrameImport, the tick's
// submission waits for its copy and every tick signals its release. NVDEC needs an NVIDIA GPU, so
// here the importer is one of Vulkan's own, the shape frame_import.h gives a VAAPI backend: the
// "decoder's memory" is a Vulkan buffer per plane (DeviceFrame::address holds its device
// address), copied into the importer's planes buffer by a submission of the importer's on the
// same queue, which waits for `released` and signals `copied` as the CUDA one does on its stream.
// Validation is on (GpuTest): a timeline value that does not grow, or a wait without its signal,
// is reported. The numbers and the picture must be the host path's.
#include "gpu_test_env.h"
#include "picture_draw.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_converter.h"
#include "vhist/compute/frame_import.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/frame_upload.h"

#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>

namespace vhist {
namespace {

render::UniqueSemaphore timeline(const render::Context& context) {
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  VHIST_VK_CHECK(vkCreateSemaphore(context.device(), &info, nullptr, &semaphore));
  return render::UniqueSemaphore(context.device(), semaphore);
}

class QueueCopyImport final : public FrameImport {
 public:
  explicit QueueCopyImport(render::Context& context)
      : context_(context), copied_(timeline(context)), released_(timeline(context)) {}
  ~QueueCopyImport() override { render::wait_idle_for_teardown(context_.device()); }

  // A frame in "the decoder's memory": each plane in a Vulkan buffer of its own.
  DeviceFrame put(const SyntheticVideoFrame& frame) {
    DeviceFrame device{FrameMemory::cuda, {}};
    for (std::size_t p = 0; p < frame.planes.size(); ++p) {
      auto buffer = std::make_unique<render::Buffer>(context_, frame.planes[p].size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                     render::MemoryUse::upload, true, "test decoder plane");
      std::memcpy(buffer->mapped(), frame.planes[p].data(), frame.planes[p].size());
      device.address[p] = buffer->address();
      sources_[buffer->address()] = std::move(buffer);
    }
    return device;
  }

  std::string_view name() const override { return "queue copy"; }
  bool accepts(FrameMemory memory) const override { return memory == FrameMemory::cuda; }
  const render::Buffer& planes(std::uint32_t slot, std::uint64_t bytes) override {
    while (slots_.size() <= slot) slots_.push_back(std::make_unique<Slot>(context_));
    grow_buffer(context_, slots_[slot]->buffer, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                render::MemoryUse::device, true, "test import planes");
    return slots_[slot]->buffer;
  }
  render::TimelinePoint copy(std::uint32_t slot, const VideoFormat& format, const VideoPlanes& strides,
                             const DeviceFrame& frame, const PlaneOffsets& layout, std::uint64_t sequence,
                             std::uint64_t reuse_after) override {
    if (sequence <= last_copy_ || reuse_after < last_wait_) throw std::logic_error("the consumer's numbers went back");
    last_copy_ = sequence;
    last_wait_ = reuse_after;
    Slot& s = *slots_.at(slot);
    const VkFence fence = s.commands.fence();
    if (s.used) {  // the slot's previous copy (submitted earlier, so it ends without this one)
      VHIST_VK_CHECK(vkWaitForFences(context_.device(), 1, &fence, VK_TRUE, UINT64_MAX));
      VHIST_VK_CHECK(vkResetFences(context_.device(), 1, &fence));
    }
    const VkCommandBuffer cmd = s.commands.begin();
    for (std::uint32_t p = 0; p < format.plane_count; ++p) {
      const render::Buffer& source = *sources_.at(frame.address[p]);
      const VkBufferCopy region{0, layout.offset[p], VkDeviceSize{strides.stride[p]} * format.plane_rows(p)};
      vkCmdCopyBuffer(cmd, source.get(), s.buffer.get(), 1, &region);
    }
    VHIST_VK_CHECK(vkEndCommandBuffer(cmd));
    const render::TimelinePoint wait{released_.get(), reuse_after, VK_PIPELINE_STAGE_2_COPY_BIT};
    const render::TimelinePoint signal{copied_.get(), sequence, VK_PIPELINE_STAGE_2_COPY_BIT};
    render::submit_timeline(context_, cmd, fence, reuse_after > 0 ? std::span(&wait, 1) : std::span<const render::TimelinePoint>(),
                            {&signal, 1});
    s.used = true;
    ++copies;
    return {copied_.get(), sequence, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT};
  }
  VkSemaphore release() const override { return released_.get(); }
  double copy_ms(std::uint32_t) override { return 0; }

  int copies = 0;

 private:
  struct Slot {
    explicit Slot(const render::Context& context) : commands(context, false) {}
    render::Buffer buffer;
    render::CommandSlot commands;
    bool used = false;
  };
  render::Context& context_;
  render::UniqueSemaphore copied_, released_;
  std::map<VkDeviceAddress, std::unique_ptr<render::Buffer>> sources_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::uint64_t last_copy_ = 0, last_wait_ = 0;
};

class PictureImport : public test::GpuTest, public ::testing::WithParamInterface<const char*> {};

// Frames as NVDEC hands them over (NV12, P010), new ones and paused redraws: each tick's
// statistics histogram (read back two ticks later) is the CPU reference of the frame it drew,
// and the last picture is the one the host path draws of the same frame.
TEST_P(PictureImport, ImportedFramesDrawAndCountAsHostFrames) {
  constexpr std::uint32_t kW = 64, kH = 36;
  const VkExtent2D extent{160, 90};
  std::vector<SyntheticVideoFrame> frames;
  std::vector<Histogram> want;
  for (std::uint32_t i = 0; i < 3; ++i) {
    frames.push_back(make_synthetic_frame(GetParam(), kW, kH, 7 + i));
    const SyntheticVideoFrame& f = frames.back();
    want.push_back(reference_histogram(reference_convert(f.format, f.view()), converted_format(f.format),
                                       stats_levels(f.format.bits)));
  }
  ASSERT_NE(want[0], want[1]);  // else a frame mixed up would pass
  QueueCopyImport import(context());
  std::vector<DeviceFrame> device;
  for (const auto& f : frames) device.push_back(import.put(f));

  viewer::DrawStyle style;
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), Engine::gpu);
  renderer.set_import(&import);
  // New frames on ticks 0-4, paused (no frame) on 5-7, new again on 8-10.
  const auto new_frame = [](int tick) { return tick < 5 || tick >= 8; };
  std::vector<int> shown;
  std::vector<std::uint8_t> pixels;
  for (int tick = 0; tick < 11; ++tick) {
    renderer.begin();
    if (tick >= 2) {
      EXPECT_TRUE(renderer.statistics().levels == want[static_cast<std::size_t>(shown[static_cast<std::size_t>(tick - 2)])])
          << "tick " << tick;
    }
    const int k = new_frame(tick) ? tick % 3 : shown.back();
    shown.push_back(k);
    const SyntheticVideoFrame& f = frames[static_cast<std::size_t>(k)];
    const VideoPlanes planes = f.view();
    const bool fresh = new_frame(tick);
    const VkCommandBuffer cmd = renderer.record_composite(
        fresh ? &f.format : nullptr, fresh ? &planes : nullptr, false, style, target.composite(),
        [&](VkCommandBuffer c) { target.record_readback_composite(c); }, fresh ? &device[static_cast<std::size_t>(k)] : nullptr);
    EXPECT_EQ(renderer.import_wait().semaphore != VK_NULL_HANDLE, fresh) << "tick " << tick;
    ASSERT_EQ(renderer.import_release().semaphore, import.release());
    const render::TimelinePoint wait = renderer.import_wait(), release = renderer.import_release();
    render::submit_timeline(context(), cmd, renderer.fence(), {&wait, 1}, {&release, 1});
    renderer.end();
    EXPECT_TRUE(renderer.frame_imported());
  }
  renderer.wait_idle();
  pixels = target.pixels();
  EXPECT_EQ(import.copies, 8);

  viewer::OffscreenTarget host_target(context(), extent);
  viewer::FrameRenderer host(context(), Engine::gpu);
  const std::vector<std::uint8_t> want_pixels = draw_once(context(), host, host_target, frames[static_cast<std::size_t>(shown.back())], style);
  EXPECT_TRUE(pixels == want_pixels) << "the imported frame's picture differs from the host frame's";
}

INSTANTIATE_TEST_SUITE_P(NvdecLayouts, PictureImport, ::testing::Values("nv12", "p010"));

// The CPU engine reads frames in host memory: a frame in another API's memory is refused, never
// read as if it were on the host.
class PictureImportCpu : public test::GpuTest {};

TEST_F(PictureImportCpu, TheCpuEngineRefusesAFrameOnTheGpu) {
  const SyntheticVideoFrame frame = make_synthetic_frame("nv12", 32, 18, 1);
  QueueCopyImport import(context());
  const DeviceFrame device = import.put(frame);
  viewer::OffscreenTarget target(context(), {64, 36});
  viewer::FrameRenderer renderer(context(), Engine::cpu);
  renderer.set_import(&import);
  renderer.begin();
  const VideoPlanes planes = frame.view();
  EXPECT_THROW(renderer.record_composite(&frame.format, &planes, false, viewer::DrawStyle{}, target.composite(), nullptr,
                                         &device),
               std::invalid_argument);
  EXPECT_EQ(import.copies, 0);
}

}  // namespace
}  // namespace vhist
