// The GPU convert pass and the video pipeline against the CPU reference: every layout, odd
// sizes, all matrices and ranges; byte-exact R'G'B' and exact histograms.
#include "gpu_test_env.h"
#include "vhist/compute/synthetic_frames.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/frame_upload.h"
#include "vhist/compute/video_pipeline.h"

#include <cstring>

namespace vhist {
namespace {

class GpuConvert : public test::GpuTest, public ::testing::WithParamInterface<std::string> {};

// Uploads the frame's planes, runs the convert pass, reads the R'G'B' frame back.
std::vector<std::byte> convert_on_gpu(render::Context& context, const SyntheticVideoFrame& t) {
  const PlaneOffsets layout = plane_offsets(t.format, t.stride);
  render::Buffer planes(context, layout.total, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                        render::MemoryUse::device, true, "test planes");
  std::vector<std::byte> host(layout.total);
  copy_planes(t.format, t.view(), layout, host.data());
  upload_blocking(context, planes, host);
  const FrameFormat out = converted_format(t.format);
  render::Buffer rgb(context, (out.byte_size() + 15) & ~std::uint64_t{15},
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, render::MemoryUse::device, true,
                     "test rgb");
  render::Buffer back(context, rgb.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                      "test readback");
  FrameConverter converter(context);
  GpuPlanes gpu;
  for (std::uint32_t p = 0; p < t.format.plane_count; ++p) {
    gpu.address[p] = planes.address() + layout.offset[p];
    gpu.stride[p] = t.stride[p];
  }
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    converter.record(cmd, t.format, gpu, rgb.address());
    results_to_transfer(cmd);
    const VkBufferCopy region{0, 0, rgb.size()};
    vkCmdCopyBuffer(cmd, rgb.get(), back.get(), 1, &region);
  });
  std::vector<std::byte> result(out.byte_size());
  std::memcpy(result.data(), back.mapped(), result.size());
  return result;
}

TEST_P(GpuConvert, EqualsTheReferenceByteForByte) {
  for (auto [w, h] : {std::pair{1u, 1u}, {3u, 5u}, {17u, 9u}, {66u, 34u}}) {
    for (ColourMatrix m : {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020}) {
      for (ColourRange r : {ColourRange::limited, ColourRange::full}) {
        const SyntheticVideoFrame t = make_synthetic_frame(GetParam(), w, h, w * 7 + h, m, r);
        const auto want = reference_convert(t.format, t.view());
        const auto got = convert_on_gpu(context(), t);
        ASSERT_EQ(got.size(), want.size());
        std::size_t first_diff = 0;
        while (first_diff < got.size() && got[first_diff] == want[first_diff]) ++first_diff;
        ASSERT_EQ(first_diff, got.size()) << GetParam() << " " << w << "x" << h << " " << matrix_name(m) << " "
                                          << range_name(r) << ": first difference at byte " << first_diff;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, GpuConvert, ::testing::ValuesIn(synthetic_layouts()));

class VideoPipelineTest : public test::GpuTest {};
// The same through both staging paths: frames read where they are staged in device memory
// (lavapipe's whole memory is such a heap, so `automatic` takes that path here) and host
// staging copied to the device.
class VideoPipelineStaging : public test::GpuTest, public ::testing::WithParamInterface<Staging> {};

// Frames of changing layouts and sizes through three slots: each histogram equals the
// reference's, results come back in order with their tags.
TEST_P(VideoPipelineStaging, ManyFramesInFlightEqualTheReference) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 3, Strategy::fast, 0, nullptr, GetParam());
  struct Expect {
    std::uint64_t tag;
    Histogram histogram;
  };
  std::vector<Expect> expected;
  std::vector<FrameResult> results;
  const std::vector<std::string> layouts = {"yuv420p", "nv12", "yuv420p10", "p010", "yuyv422", "rgb24", "gray16"};
  std::uint64_t tag = 0;
  for (int round = 0; round < 2; ++round) {
    for (const auto& layout : layouts) {
      const std::uint32_t w = 40 + 13 * static_cast<std::uint32_t>(tag % 5), h = 24 + 7 * static_cast<std::uint32_t>(tag % 3);
      const SyntheticVideoFrame t = make_synthetic_frame(layout, w, h, static_cast<std::uint32_t>(tag) + 100);
      const std::uint32_t bins = stats_levels(t.format.bits);
      expected.push_back({tag, reference_histogram(reference_convert(t.format, t.view()), converted_format(t.format), bins)});
      if (auto done = pipeline.submit(t.format, t.view(), bins, tag)) results.push_back(std::move(*done));
      ++tag;
    }
  }
  while (auto done = pipeline.finish_one()) results.push_back(std::move(*done));
  ASSERT_EQ(results.size(), expected.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].tag, expected[i].tag);
    EXPECT_EQ(results[i].histogram, expected[i].histogram) << "frame " << i;
    EXPECT_GE(results[i].gpu_ms, 0.0);
  }
}

// Frames over 4 MiB are copied to staging by several threads: the split must not lose a byte.
TEST_P(VideoPipelineStaging, ParallelStagingCopyOfLargeFrames) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 2, Strategy::fast, 3, nullptr, GetParam());
  for (const char* layout : {"yuv420p10", "nv12"}) {
    const SyntheticVideoFrame t = make_synthetic_frame(layout, 1921, 1081, 7);
    const std::uint32_t bins = stats_levels(t.format.bits);
    const Histogram want = reference_histogram(reference_convert(t.format, t.view()), converted_format(t.format), bins);
    ASSERT_FALSE(pipeline.submit(t.format, t.view(), bins, 0).has_value());
    const auto got = pipeline.finish_one();
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->histogram, want) << layout;
  }
}

INSTANTIATE_TEST_SUITE_P(Both, VideoPipelineStaging, ::testing::Values(Staging::automatic, Staging::host),
                         [](const auto& p) { return p.param == Staging::host ? "host" : "automatic"; });

// Which path `automatic` takes: device memory exactly where the device has a heap that is
// device-local, host-visible and large (a CPU device's memory is the host's); host staging
// when asked.
TEST_F(VideoPipelineTest, StagesInDeviceMemoryWhereTheHeapAllows) {
  const bool large = context().host_visible_device_heap() >= kDirectStagingHeap;
  if (context().properties().kind == render::DeviceKind::cpu) {
    EXPECT_TRUE(large) << "a CPU device's memory is the host's";
  }
  EXPECT_EQ(FrameUpload(context(), 1).stages_in_device_memory(), large);
  EXPECT_FALSE(FrameUpload(context(), 1, Staging::host).stages_in_device_memory());
}

TEST_F(VideoPipelineTest, RejectsFramesBeyondTheDeviceLimit) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 2);
  const std::uint32_t too_wide = context().properties().max_image_dimension_2d + 2;
  VideoFormat f = synthetic_layout_format("gray", too_wide, 1);
  std::vector<std::byte> row(too_wide);
  VideoPlanes planes;
  planes.data[0] = row.data();
  planes.stride[0] = too_wide;
  EXPECT_NE(pipeline.check(f, planes, 256), "");
  EXPECT_THROW(pipeline.submit(f, planes, 256, 0), std::invalid_argument);
}

}  // namespace
}  // namespace vhist
