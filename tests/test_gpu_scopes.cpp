// The GPU scope passes (scope_waveform.comp, scope_vector.comp) against the CPU reference, bit
// for bit, validation on: every mode, 8-, 10- and 12-bit, both ranges, every rotation, regions,
// plot widths that do not divide the width; and the known-content checks (ramp, solid colour).
#include "gpu_test_env.h"
#include "scope_frames.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/scope_pass.h"
#include "vhist/compute/scope_reference.h"

#include <cmath>
#include <cstring>

namespace vhist {
namespace {

using test::fill_component;

class GpuScopes : public test::GpuTest {};

// One frame on the GPU: its planes uploaded and converted, ready for the scope passes.
class GpuFrame {
 public:
  GpuFrame(render::Context& context, const SyntheticVideoFrame& t) : context_(context), t_(t) {
    const PlaneOffsets layout = plane_offsets(t.format, t.stride);
    planes_ = render::Buffer(context, layout.total, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                             render::MemoryUse::device, true, "test planes");
    std::vector<std::byte> host(layout.total);
    copy_planes(t.format, t.view(), layout, host.data());
    upload_blocking(context, planes_, host);
    const FrameFormat out = converted_format(t.format);
    rgb_ = render::Buffer(context, (out.byte_size() + 15) & ~std::uint64_t{15}, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                          render::MemoryUse::device, true, "test rgb");
    inputs_.format = t.format;
    for (std::uint32_t p = 0; p < t.format.plane_count; ++p) {
      inputs_.planes.address[p] = planes_.address() + layout.offset[p];
      inputs_.planes.stride[p] = t.stride[p];
    }
    inputs_.rgb = rgb_.address();
    FrameConverter converter(context);
    context.submit_and_wait([&](VkCommandBuffer cmd) {
      render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
      converter.record(cmd, t.format, inputs_.planes, rgb_.address());
      render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                             VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    });
  }

  // Records one pass into a fresh counts buffer of `bytes`, runs it and returns the words.
  std::vector<std::uint32_t> run(VkDeviceSize bytes, const std::function<void(VkCommandBuffer, const render::Buffer&)>& pass) {
    render::Buffer counts = scopes_.create_counts(bytes, "test");
    render::Buffer back(context_, counts.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, render::MemoryUse::readback, false,
                        "test readback");
    context_.submit_and_wait([&](VkCommandBuffer cmd) {
      pass(cmd, counts);
      results_to_transfer(cmd);
      const VkBufferCopy region{0, 0, counts.size()};
      vkCmdCopyBuffer(cmd, counts.get(), back.get(), 1, &region);
    });
    std::vector<std::uint32_t> words(counts.size() / 4);
    std::memcpy(words.data(), back.mapped(), counts.size());
    return words;
  }

  ScopePass& scopes() { return scopes_; }

  WaveformCounts waveform(const WaveformRequest& request) {
    const auto words = run(ScopePass::waveform_bytes(t_.format, request), [&](VkCommandBuffer cmd, const render::Buffer& b) {
      scopes_.record_waveform(cmd, inputs_, request, b);
    });
    return waveform_from_words(t_.format, request, words.data());
  }
  VectorscopeCounts vectorscope(const VectorscopeRequest& request) {
    const auto words = run(ScopePass::vectorscope_bytes(request), [&](VkCommandBuffer cmd, const render::Buffer& b) {
      scopes_.record_vectorscope(cmd, inputs_, request, b);
    });
    return vectorscope_from_words(t_.format, request, words.data());
  }

 private:
  render::Context& context_;
  const SyntheticVideoFrame& t_;
  ScopePass scopes_{context_};
  render::Buffer planes_, rgb_;
  ScopeInputs inputs_;
};

// Every case twice: once as one band of lines per workgroup, once in bands of a few lines (the
// band of a chroma sample decided by its first luma pixel inside the region, as its column is).
TEST_F(GpuScopes, CountsEqualTheReference) {
  std::uint32_t seed = 11;
  for (const test::ScopeCase& c : test::scope_cases()) {
    const SyntheticVideoFrame t = test::scope_frame(c.layout, 37, 23, seed++, c.range, c.rotation, ColourMatrix::bt601);
    GpuFrame gpu(context(), t);
    if (seed % 2 == 0) gpu.scopes().set_waveform_group_pixels(40);
    for (WaveformMode mode : {WaveformMode::luma, WaveformMode::rgb, WaveformMode::ycbcr}) {
      if (mode == WaveformMode::ycbcr && t.format.model != ColourModel::yuv) continue;
      for (auto [levels, width] : {std::pair{max_bins_for_bits(t.format.bits), 16u}, {32u, 7u}}) {
        const WaveformRequest request{mode, levels, width, c.region};
        ASSERT_EQ(gpu.waveform(request), reference_waveform(t.format, t.view(), request))
            << test::describe(c) << " " << waveform_mode_name(mode) << " levels " << levels << " width " << width;
      }
    }
    // With the shared window around zero chroma (the whole grid at 32) and without it.
    for (bool window : {true, false}) {
      gpu.scopes().set_vectorscope_window(window);
      for (std::uint32_t size : {max_bins_for_bits(t.format.bits), 32u}) {
        const VectorscopeRequest request{size, c.region};
        ASSERT_EQ(gpu.vectorscope(request), reference_vectorscope(t.format, t.view(), request))
            << test::describe(c) << " size " << size << " window " << window;
      }
    }
  }
}

// A frame wider than one workgroup's share of plot columns (several workgroups, several plot
// columns each) and solid areas (many equal cells in a row for the vectorscope's runs).
TEST_F(GpuScopes, LargerFrameEqualsTheReference) {
  SyntheticVideoFrame t = make_natural_yuv420(700, 40, 10, 3);
  t.format.rotation = 270;
  GpuFrame gpu(context(), t);
  for (WaveformMode mode : {WaveformMode::luma, WaveformMode::rgb, WaveformMode::ycbcr}) {
    for (std::uint32_t width : {700u, 333u}) {
      const WaveformRequest request{mode, 1024, width, PixelRect{5, 3, 690, 37}};
      ASSERT_EQ(gpu.waveform(request), reference_waveform(t.format, t.view(), request)) << waveform_mode_name(mode);
    }
  }
  t.format.rotation = 0;
  GpuFrame upright(context(), t);
  for (WaveformMode mode : {WaveformMode::luma, WaveformMode::rgb, WaveformMode::ycbcr}) {
    const WaveformRequest request{mode, 256, 640, std::nullopt};
    ASSERT_EQ(upright.waveform(request), reference_waveform(t.format, t.view(), request)) << waveform_mode_name(mode);
  }
  ASSERT_EQ(upright.vectorscope({1024, std::nullopt}), reference_vectorscope(t.format, t.view(), {1024, std::nullopt}));
}

TEST_F(GpuScopes, RampIsADiagonalAndSolidColourOneCell) {
  SyntheticVideoFrame t = make_synthetic_frame("yuv420p", 64, 6, 9, ColourMatrix::bt709, ColourRange::full);
  fill_component(t, 0, [](std::uint32_t x, std::uint32_t) { return 4 * x; });
  fill_component(t, 1, [](std::uint32_t, std::uint32_t) { return 90u; });
  fill_component(t, 2, [](std::uint32_t, std::uint32_t) { return 200u; });
  GpuFrame gpu(context(), t);
  const WaveformCounts y = gpu.waveform({WaveformMode::ycbcr, 256, 32, std::nullopt});
  // Plot column p sums columns 2p and 2p + 1: 6 samples at level 8p and 6 at 8p + 4.
  for (std::uint32_t p = 0; p < 32; ++p) {
    for (std::uint32_t level = 0; level < 256; ++level) {
      const std::uint32_t want = level == 8 * p || level == 8 * p + 4 ? 6u : 0u;
      ASSERT_EQ(y.at(0, p, level), want) << "plot column " << p << " level " << level;
    }
    EXPECT_EQ(y.at(1, p, 90), 3u);
    EXPECT_EQ(y.at(2, p, 200), 3u);
  }
  const VectorscopeCounts v = gpu.vectorscope({256, std::nullopt});
  EXPECT_EQ(v.at(200, 90), 32u * 3u);
  std::uint64_t total = 0;
  for (std::uint32_t n : v.counts) total += n;
  EXPECT_EQ(total, 32u * 3u);
}

// A gray ramp stored down the rows, turned 90 degrees: stored row y shows at display column
// 63 - y, so rows holding 4 (63 - y) show a ramp rising to the right; and a solid R'G'B' colour
// is one vectorscope cell, the one the real-valued BT.709 formula gives.
TEST_F(GpuScopes, TurnedRampIsADiagonalAndSolidRgbOneCell) {
  SyntheticVideoFrame t = make_synthetic_frame("gray", 6, 64, 5, ColourMatrix::bt709, ColourRange::full);
  t.format.rotation = 90;
  fill_component(t, 0, [](std::uint32_t, std::uint32_t y) { return 4 * (63 - y); });
  GpuFrame gpu(context(), t);
  const WaveformCounts luma = gpu.waveform({WaveformMode::luma, 256, 32, std::nullopt});
  for (std::uint32_t p = 0; p < 32; ++p) {
    for (std::uint32_t level = 0; level < 256; ++level) {
      const std::uint32_t want = level == 8 * p || level == 8 * p + 4 ? 6u : 0u;
      ASSERT_EQ(luma.at(0, p, level), want) << "plot column " << p << " level " << level;
    }
  }
  SyntheticVideoFrame rgb = make_synthetic_frame("rgb24", 13, 7, 4);
  const std::uint32_t colour[3] = {200, 40, 60};
  for (std::uint32_t c = 0; c < 3; ++c) fill_component(rgb, c, [&](std::uint32_t, std::uint32_t) { return colour[c]; });
  const double y = 0.2126 * 200 + 0.7152 * 40 + 0.0722 * 60;
  const auto cb = static_cast<std::uint32_t>(std::lround(128 + (60 - y) / (2 * (1 - 0.0722))));
  const auto cr = static_cast<std::uint32_t>(std::lround(128 + (200 - y) / (2 * (1 - 0.2126))));
  GpuFrame solid(context(), rgb);
  const VectorscopeCounts v = solid.vectorscope({256, PixelRect{2, 1, 10, 5}});
  EXPECT_EQ(v.at(cr, cb), 50u);
  std::uint64_t total = 0;
  for (std::uint32_t n : v.counts) total += n;
  EXPECT_EQ(total, 50u);
}

TEST_F(GpuScopes, MissingInputsAndSmallBuffersThrow) {
  const SyntheticVideoFrame t = make_synthetic_frame("rgb24", 16, 8, 1);
  ScopePass scopes(context());
  ScopeInputs no_rgb;
  no_rgb.format = t.format;
  render::Buffer small = scopes.create_counts(64, "small");
  context().submit_and_wait([&](VkCommandBuffer cmd) {
    EXPECT_THROW(scopes.record_waveform(cmd, no_rgb, {WaveformMode::luma, 256, 16, std::nullopt}, small),
                 std::invalid_argument);
    no_rgb.rgb = small.address();
    EXPECT_THROW(scopes.record_waveform(cmd, no_rgb, {WaveformMode::luma, 256, 16, std::nullopt}, small),
                 std::invalid_argument);
    EXPECT_THROW(scopes.record_vectorscope(cmd, no_rgb, {256, std::nullopt}, small), std::invalid_argument);
    EXPECT_THROW(scopes.record_waveform(cmd, no_rgb, {WaveformMode::ycbcr, 256, 16, std::nullopt}, small),
                 std::invalid_argument);
  });
}

}  // namespace
}  // namespace vhist
