// The GPU engine against the CPU reference: exact equality of all four histograms and of the
// scale block, for both strategies, every bin count, odd frame sizes and the four contents.
#include "gpu_test_env.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/histogram_engine.h"
#include "vhist/compute/synthetic_frames.h"
#include "vhist/shader_shared.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

using vhist::Content;
using vhist::FrameFormat;
using vhist::PixelPacking;
using vhist::Strategy;

class GpuHistogram : public vhist::test::GpuTest, public ::testing::WithParamInterface<Strategy> {
 protected:
  // Checks one frame with one bin count; returns false (with gtest failures) on a mismatch.
  void expect_exact(vhist::HistogramEngine& engine, const FrameFormat& f, Content content, std::uint32_t bins,
                    std::uint32_t seed = 1) {
    SCOPED_TRACE(std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::string(vhist::content_name(content)) +
                 " bins " + std::to_string(bins) + " bits " + std::to_string(f.bits) + " " +
                 std::string(vhist::strategy_name(GetParam())));
    const auto pixels = vhist::make_frame(f, content, seed);
    const auto expected = vhist::reference_histogram(pixels, f, bins);
    const auto expected_scale = vhist::reference_scale(expected, f.pixel_count());
    const auto got = vhist::histogram_on_gpu(engine, pixels, f, bins, GetParam());
    for (vhist::Channel c : vhist::kAllChannels) ASSERT_EQ(got.histogram.total(c), f.pixel_count());
    ASSERT_EQ(got.histogram.counts, expected.counts);
    ASSERT_EQ(got.scale.max_count, expected_scale.max_count);
    for (int c = 0; c < 4; ++c) {
      // Bit-exact, not approximately equal.
      std::uint32_t a = 0, b = 0;
      std::memcpy(&a, &got.scale.scale[c], 4);
      std::memcpy(&b, &expected_scale.scale[c], 4);
      ASSERT_EQ(a, b) << "scale of channel " << c << ": GPU " << got.scale.scale[c] << " CPU " << expected_scale.scale[c];
    }
  }
};

constexpr std::uint32_t kAllBins8[] = {16, 32, 64, 128, 256};

TEST_P(GpuHistogram, OddSizesEveryBinCountEveryContent) {
  vhist::HistogramEngine engine(context());
  for (auto [w, h] : {std::pair{1u, 1u}, {3u, 7u}, {257u, 1u}, {1u, 4097u}, {5u, 3u}, {1023u, 3u}}) {
    for (std::uint32_t bins : kAllBins8) {
      for (Content content : vhist::kAllContents) {
        expect_exact(engine, {w, h, PixelPacking::rgba8, 8}, content, bins);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST_P(GpuHistogram, FullHdEveryBinCountEveryContent) {
  vhist::HistogramEngine engine(context());
  for (std::uint32_t bins : kAllBins8) {
    for (Content content : vhist::kAllContents) {
      expect_exact(engine, {1920, 1080, PixelPacking::rgba8, 8}, content, bins);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(GpuHistogram, DeepComponentsUpTo1024Bins) {
  vhist::HistogramEngine engine(context());
  for (std::uint32_t bits : {10u, 12u, 16u}) {
    for (std::uint32_t bins : {16u, 256u, 1024u}) {
      for (Content content : vhist::kAllContents) {
        expect_exact(engine, {641, 359, PixelPacking::rgba16, bits}, content, bins);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST_P(GpuHistogram, ManyRandomSeedsAndSizes) {
  // Sizes around multiples of the workgroup and block widths, with varied content.
  vhist::HistogramEngine engine(context());
  std::uint32_t seed = 11;
  for (std::uint32_t w : {255u, 256u, 257u, 1025u}) {
    for (std::uint32_t h : {1u, 2u, 9u}) {
      expect_exact(engine, {w, h, PixelPacking::rgba8, 8}, Content::random, 64, seed++);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(GpuHistogram, MaximumWidthAndHeight) {
  vhist::HistogramEngine engine(context());
  const std::uint32_t max = context().properties().max_image_dimension_2d;
  expect_exact(engine, {max, 2, PixelPacking::rgba8, 8}, Content::natural, 256);
  expect_exact(engine, {3, max, PixelPacking::rgba8, 8}, Content::checker, 128);
}

TEST_P(GpuHistogram, FrameLargerThanMaxStorageBufferRange) {
  // 7680x4320 at 8 bytes per pixel is 265 MB: more than lavapipe's 128 MiB storage-buffer range,
  // which the engine side-steps by reading frames through device addresses.
  vhist::HistogramEngine engine(context());
  expect_exact(engine, {7680, 4320, PixelPacking::rgba16, 10}, Content::natural, 1024);
}

INSTANTIATE_TEST_SUITE_P(Strategies, GpuHistogram, ::testing::Values(Strategy::fast, Strategy::baseline),
                         [](const auto& param_info) { return std::string(vhist::strategy_name(param_info.param)); });

// The fast strategy's parameters change speed, never results.
class FastParameters : public GpuHistogram {};
TEST_P(FastParameters, ResultsDoNotDependOnThem) {
  vhist::HistogramEngine engine(context());
  for (std::uint32_t copies : {1u, 2u, 3u}) {
    for (std::uint32_t wg : {64u, 256u}) {
      for (std::uint32_t unroll : {1u, 2u, 4u}) {
        for (int merge : {0, 1}) {
          // Both layouts of the copies; the clear and the scale fused into the count or not.
          const int layout = static_cast<int>((copies + unroll) % 2);
          engine.set_fast_overrides({wg, copies, 3, unroll, merge, layout, merge, copies + unroll});
          for (Content content : {Content::natural, Content::checker}) {
            expect_exact(engine, {333, 97, PixelPacking::rgba8, 8}, content, 32);
            if (HasFatalFailure()) return;
          }
        }
      }
    }
  }
}

// 16-bit packed shared counters (two entries per word), every copy count the device's shared
// memory holds up to 16, 8-bit and deep frames, fused and not.
TEST_P(FastParameters, PackedCountersGiveTheSameResults) {
  vhist::HistogramEngine engine(context());
  constexpr int kPacked = static_cast<int>(vhist::shader::kLayoutPacked16);
  for (std::uint32_t copies : {1u, 3u, 16u}) {
    for (std::uint32_t wg : {64u, 256u}) {
      for (std::uint32_t unroll : {1u, 2u, 4u}) {
        // Merging on and off, fused and not, 1 to 4 copies of the running sums.
        const int merge = static_cast<int>((copies + unroll + wg / 64) % 2);
        engine.set_fast_overrides({wg, copies, 3, unroll, merge, kPacked, merge, copies % 4 + 1});
        for (Content content : {Content::natural, Content::random, Content::checker}) {
          expect_exact(engine, {333, 97, PixelPacking::rgba8, 8}, content, unroll == 1 ? 256 : 32);
          if (HasFatalFailure()) return;
        }
        expect_exact(engine, {201, 67, PixelPacking::rgba16, 10}, Content::random, 1024);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// Packed counters are flushed before any can overflow: one workgroup counts frames whose one
// bin per copy reaches far more than 65535 (a solid frame puts every pixel in one bin of each
// channel), so only the flushes between segments keep the result exact. Natural and random
// frames of the same size check the flushes with counts spread over many bins.
TEST_P(FastParameters, PackedCountersFlushBeforeTheyOverflow) {
  vhist::HistogramEngine engine(context());
  const FrameFormat frames[] = {{1920, 1080, PixelPacking::rgba8, 8}, {1024, 1024, PixelPacking::rgba16, 12}};
  for (const FrameFormat& f : frames) {
    const std::uint32_t bins = f.bits == 8 ? 256 : 1024;
    for (int fused : {1, 0}) {
      engine.set_fast_overrides({256, 16, 1, 2, 0, static_cast<int>(vhist::shader::kLayoutPacked16), fused, 4});
      const vhist::FastConfig c = engine.fast_config(f, bins);
      ASSERT_EQ(c.layout, vhist::shader::kLayoutPacked16);
      ASSERT_EQ(c.workgroups, 1u);
      // The one bin of a solid frame in one copy, were the copies never flushed: each of the
      // copy's invocations adds 4 per group it counts.
      const std::uint64_t groups_per_invocation = (f.pixel_count() / 4 + c.workgroup_size - 1) / c.workgroup_size;
      const std::uint64_t invocations_per_copy = (c.workgroup_size + c.copies - 1) / c.copies;
      ASSERT_GT(4 * invocations_per_copy * groups_per_invocation, 65535u) << vhist::fast_config_text(c);
      for (Content content : {Content::solid, Content::natural, Content::random}) {
        expect_exact(engine, f, content, bins);
        if (HasFatalFailure()) return;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fast, FastParameters, ::testing::Values(Strategy::fast),
                         [](const auto& param_info) { return std::string(vhist::strategy_name(param_info.param)); });

using EngineChecks = vhist::test::GpuTest;

TEST_F(EngineChecks, RejectsBadFramesWithAReason) {
  vhist::HistogramEngine engine(context());
  const std::uint32_t max = context().properties().max_image_dimension_2d;
  EXPECT_NE(engine.check({max + 1, 1, PixelPacking::rgba8, 8}, 256).find("exceeds the device's limit"), std::string::npos);
  EXPECT_NE(engine.check({0, 1, PixelPacking::rgba8, 8}, 256).find("empty"), std::string::npos);
  EXPECT_NE(engine.check({4, 4, PixelPacking::rgba8, 8}, 1024).find("power of two"), std::string::npos);
  EXPECT_NE(engine.check({4, 4, PixelPacking::rgba8, 10}, 256).find("8-bit"), std::string::npos);
  EXPECT_TRUE(engine.check({4, 4, PixelPacking::rgba16, 10}, 1024).empty());
  const std::vector<std::byte> pixels(64);
  EXPECT_THROW(vhist::histogram_on_gpu(engine, pixels, {4, 4, PixelPacking::rgba8, 8}, 100, Strategy::fast),
               std::invalid_argument);
}

TEST_F(EngineChecks, TwoFramesInOneCommandBufferKeepSeparateResults) {
  // Recording the engine twice into one command buffer (as the viewer does with frames in
  // flight) gives each target its own frame's histogram.
  vhist::HistogramEngine engine(context());
  const FrameFormat f{97, 31, PixelPacking::rgba8, 8};
  const auto a = vhist::make_frame(f, Content::natural);
  const auto b = vhist::make_frame(f, Content::checker);
  auto frame_a = engine.create_frame_buffer(f, "a");
  auto frame_b = engine.create_frame_buffer(f, "b");
  vhist::upload_blocking(context(), frame_a, a);
  vhist::upload_blocking(context(), frame_b, b);
  auto target_a = engine.create_target("a");
  auto target_b = engine.create_target("b");
  context().submit_and_wait([&](VkCommandBuffer cmd) {
    vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    engine.record(cmd, frame_a.address(), f, 64, Strategy::fast, target_a);
    engine.record(cmd, frame_b.address(), f, 64, Strategy::baseline, target_b);
    vhist::results_to_transfer(cmd);
  });
  EXPECT_EQ(vhist::read_back_blocking(context(), target_a, 64).histogram, vhist::reference_histogram(a, f, 64));
  EXPECT_EQ(vhist::read_back_blocking(context(), target_b, 64).histogram, vhist::reference_histogram(b, f, 64));
}

TEST_F(EngineChecks, OneTargetFrameAfterFrame) {
  // The fused fast pass leaves the target's running sums zero for the next frame: one target,
  // frames of different contents, bin counts and depths in turn, each exact (scale too).
  vhist::HistogramEngine engine(context());
  const vhist::HistogramTarget target = engine.create_target("reused");
  struct Case {
    FrameFormat format;
    Content content;
    std::uint32_t bins;
  };
  const Case cases[] = {{{333, 97, PixelPacking::rgba8, 8}, Content::random, 256},
                        {{333, 97, PixelPacking::rgba8, 8}, Content::solid, 256},
                        {{97, 31, PixelPacking::rgba8, 8}, Content::natural, 16},
                        {{200, 50, PixelPacking::rgba16, 10}, Content::random, 1024},
                        {{333, 97, PixelPacking::rgba8, 8}, Content::checker, 64}};
  for (const std::uint32_t global_copies : {0u, 3u}) {  // 0: the engine's choice
    engine.set_fast_overrides({0, 0, 0, 0, -1, -1, -1, global_copies});
    for (const Case& c : cases) {
      const auto pixels = vhist::make_frame(c.format, c.content);
      auto frame = engine.create_frame_buffer(c.format, "frame");
      vhist::upload_blocking(context(), frame, pixels);
      context().submit_and_wait([&](VkCommandBuffer cmd) {
        vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        engine.record(cmd, frame.address(), c.format, c.bins, Strategy::fast, target);
        vhist::results_to_transfer(cmd);
      });
      const auto got = vhist::read_back_blocking(context(), target, c.bins);
      const auto expected = vhist::reference_histogram(pixels, c.format, c.bins);
      EXPECT_EQ(got.histogram, expected) << vhist::content_name(c.content) << " " << c.bins << " bins";
      EXPECT_EQ(got.scale, vhist::reference_scale(expected, c.format.pixel_count()));
    }
  }
}

// The scale of the bins between the end bins (the viewer's end bins on their own scale):
// record_inner_scale equals reference_scale() of the histogram with its end bins emptied, bit
// for bit, on frames whose end bins hold the largest counts.
class InnerScale : public vhist::test::GpuTest {};

TEST_F(InnerScale, EqualsTheReferenceScaleWithoutTheEndBins) {
  vhist::HistogramEngine engine(context());
  const FrameFormat f{64, 32, PixelPacking::rgba8, 8};
  vhist::HistogramTarget target = engine.create_target("counts"), inner = engine.create_target("inner scale");
  for (Content content : vhist::kAllContents) {
    auto pixels = vhist::make_frame(f, content, 3);
    for (std::uint32_t i = 0; i < f.pixel_count(); ++i) {  // 24 columns black, 16 white: the ends' spikes
      const std::uint32_t x = i % f.width;
      if (x < 24 || x >= 48) std::memset(&pixels[std::size_t{i} * 4], x < 24 ? 0 : 255, 3);
    }
    auto frame = engine.create_frame_buffer(f, "frame");
    vhist::upload_blocking(context(), frame, pixels);
    for (std::uint32_t bins : kAllBins8) {
      context().submit_and_wait([&](VkCommandBuffer cmd) {
        vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        engine.record(cmd, frame.address(), f, bins, Strategy::fast, target);
        vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        engine.record_inner_scale(cmd, target.histogram, inner.scale, bins, f.pixel_count());
        vhist::results_to_transfer(cmd);
      });
      vhist::Histogram without_ends = vhist::reference_histogram(pixels, f, bins);
      for (std::uint32_t c = 0; c < 4; ++c) {
        without_ends.counts[c] = 0;
        without_ends.counts[std::size_t{bins - 1} * 4 + c] = 0;
      }
      const auto expected = vhist::reference_scale(without_ends, f.pixel_count());
      const auto got = vhist::read_back_blocking(context(), inner, bins).scale;
      EXPECT_EQ(got.max_count, expected.max_count) << vhist::content_name(content) << " " << bins << " bins";
      for (int c = 0; c < 4; ++c) {
        std::uint32_t a = 0, b = 0;
        std::memcpy(&a, &got.scale[static_cast<std::size_t>(c)], 4);
        std::memcpy(&b, &expected.scale[static_cast<std::size_t>(c)], 4);
        EXPECT_EQ(a, b) << "channel " << c << ", " << bins << " bins";
      }
    }
  }
}

}  // namespace
