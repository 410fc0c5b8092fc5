// The GPU prefix sum (hist_cdf.comp) against the CPU reference: the cumulative counts and the
// equalization table must be equal, for every level count, depth and awkward histogram.
#include "gpu_test_env.h"

#include "vhist/compute/blocking_io.h"
#include "vhist/compute/cdf.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/histogram_match.h"
#include "vhist/compute/synthetic_frames.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

namespace {

using vhist::Channel;
using vhist::Histogram;

class GpuCdf : public vhist::test::GpuTest {
 protected:
  void expect_exact(vhist::HistogramEngine& engine, const Histogram& h, std::uint32_t bits, const std::string& what) {
    SCOPED_TRACE(what + ": " + std::to_string(h.bins) + " levels, " + std::to_string(bits) + " bits");
    const auto got = vhist::cdf_on_gpu(engine, h, bits);
    const auto expected_cdf = vhist::reference_cdf(h);
    ASSERT_EQ(got.cdf.counts, expected_cdf.counts);
    ASSERT_EQ(got.table.codes, vhist::reference_equalize_table(expected_cdf, bits).codes);
  }
};

TEST_F(GpuCdf, RandomHistogramsEveryLevelCountAndDepth) {
  vhist::HistogramEngine engine(context());
  std::mt19937 rng(11);
  for (std::uint32_t bits : {8u, 10u, 12u, 16u}) {
    for (std::uint32_t levels = 16; levels <= std::min(1024u, 1u << bits); levels *= 2) {
      Histogram h(levels);
      for (auto& v : h.counts) v = rng() % 100000;
      expect_exact(engine, h, bits, "random");
      if (HasFatalFailure()) return;
    }
  }
}

TEST_F(GpuCdf, EdgeCases) {
  vhist::HistogramEngine engine(context());
  for (std::uint32_t levels : {16u, 256u, 1024u}) {
    const std::uint32_t bits = levels == 1024 ? 10 : 8;
    Histogram empty(levels);
    expect_exact(engine, empty, bits, "no pixels");
    Histogram single(levels);
    for (Channel c : vhist::kAllChannels) single.at(c, levels / 3) = 12345;
    expect_exact(engine, single, bits, "one level");
    Histogram ends(levels);
    ends.at(Channel::r, 0) = 1;
    ends.at(Channel::r, levels - 1) = 1;
    ends.at(Channel::g, levels - 1) = 7;
    ends.at(Channel::b, 0) = 9;
    ends.at(Channel::l, 1) = 1;
    ends.at(Channel::l, levels - 2) = 2;
    expect_exact(engine, ends, bits, "first and last levels");
    // Near the 32-bit limit: the table's product needs 48 bits.
    Histogram huge(levels);
    for (Channel c : vhist::kAllChannels) {
      huge.at(c, 1) = 1;
      huge.at(c, levels / 2) = 0xfffffff0u / 2;
      huge.at(c, levels - 1) = 0xfffffff0u / 2 - 1;
    }
    expect_exact(engine, huge, 16, "4 billion pixels");
    if (HasFatalFailure()) return;
  }
}

TEST_F(GpuCdf, ChainedAfterTheHistogramOfARealFrame) {
  // The histogram pass and the prefix sum in one command buffer, as the viewer records them.
  vhist::HistogramEngine engine(context());
  for (auto [bits_of_case, packing] : {std::pair{8u, vhist::PixelPacking::rgba8}, {10u, vhist::PixelPacking::rgba16}}) {
    const std::uint32_t bits = bits_of_case;  // a variable, not a binding: lambdas capture it (clang 14)
    const vhist::FrameFormat f{333, 177, packing, bits};
    const std::uint32_t levels = vhist::stats_levels(bits);
    const auto pixels = vhist::make_frame(f, vhist::Content::natural, 5);
    vhist::render::Buffer frame = engine.create_frame_buffer(f, "frame");
    vhist::upload_blocking(context(), frame, pixels);
    const auto counts = engine.create_target("levels");
    const auto target = engine.create_cdf_target("cdf");
    context().submit_and_wait([&](VkCommandBuffer cmd) {
      vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
      engine.record(cmd, frame.address(), f, levels, vhist::Strategy::fast, counts);
      vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
      engine.record_cdf(cmd, counts.histogram, levels, bits, target);
      vhist::results_to_transfer(cmd);
    });
    const auto got = vhist::read_back_blocking(context(), target, levels, bits);
    const auto expected = vhist::reference_cdf(vhist::reference_histogram(pixels, f, levels));
    for (Channel c : vhist::kAllChannels) ASSERT_EQ(expected.total(c), f.pixel_count());
    ASSERT_EQ(got.cdf, expected);
    ASSERT_EQ(got.table, vhist::reference_equalize_table(expected, bits));
  }
}

TEST_F(GpuCdf, EqualizePassEqualsTheReference) {
  // equalize.comp over whole frames, odd sizes (pixels left over after the 16-byte blocks),
  // 8 and 10-bit, both modes: the codes must be reference_equalize()'s, the padding kept.
  vhist::HistogramEngine engine(context());
  for (auto [bits_of_case, packing] : {std::pair{8u, vhist::PixelPacking::rgba8}, {10u, vhist::PixelPacking::rgba16}}) {
    const std::uint32_t bits = bits_of_case;  // a variable, not a binding: lambdas capture it (clang 14)
    for (auto [w, h] : {std::pair{333u, 177u}, {7u, 1u}, {64u, 36u}}) {
      const vhist::FrameFormat f{w, h, packing, bits};
      const std::uint32_t levels = vhist::stats_levels(bits);
      const auto pixels = vhist::make_frame(f, vhist::Content::natural, 9);
      const auto histogram = vhist::reference_histogram(pixels, f, levels);
      const auto table = vhist::reference_equalize_table(vhist::reference_cdf(histogram), bits);
      const auto source = engine.create_target("source");
      vhist::upload_blocking(context(), source.histogram, std::as_bytes(std::span(histogram.counts)));
      const auto cdf = engine.create_cdf_target("cdf");
      vhist::render::Buffer frame = engine.create_frame_buffer(f, "frame");
      vhist::render::Buffer out = engine.create_frame_buffer(f, "equalized");
      vhist::upload_blocking(context(), frame, pixels);
      for (vhist::EqualizeMode mode : {vhist::EqualizeMode::luma, vhist::EqualizeMode::channels}) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) + "-bit mode " +
                     std::to_string(static_cast<int>(mode)));
        context().submit_and_wait([&](VkCommandBuffer cmd) {
          vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
          engine.record_cdf(cmd, source.histogram, levels, bits, cdf);
          vhist::render::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
          engine.record_equalize(cmd, frame.address(), f, levels, cdf.table, mode, out.address());
          vhist::results_to_transfer(cmd);
        });
        std::vector<std::byte> expected(pixels.size());
        vhist::reference_equalize(pixels, f, table, mode, expected);
        vhist::render::Buffer host(context(), f.byte_size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                   vhist::render::MemoryUse::readback, false, "readback");
        context().submit_and_wait([&](VkCommandBuffer cmd) {
          const VkBufferCopy region{0, 0, f.byte_size()};
          vkCmdCopyBuffer(cmd, out.get(), host.get(), 1, &region);
        });
        ASSERT_EQ(std::memcmp(host.mapped(), expected.data(), expected.size()), 0);
      }
    }
  }
}

TEST_F(GpuCdf, RejectsBadLevelCounts) {
  vhist::HistogramEngine engine(context());
  EXPECT_THROW(vhist::cdf_on_gpu(engine, Histogram(48), 8), std::invalid_argument);
  EXPECT_THROW(vhist::cdf_on_gpu(engine, Histogram(512), 8), std::invalid_argument);
  EXPECT_THROW(vhist::cdf_on_gpu(engine, Histogram(8), 8), std::invalid_argument);
}

}  // namespace

// The match pass (hist_match.comp) against reference_match_table(): random live and reference
// histograms at every depth and reference level count, empty channels, and a frame matched to
// its own histogram (the identity on every level it has).
namespace {

TEST_F(GpuCdf, MatchTableEqualsTheReference) {
  vhist::HistogramEngine engine(context());
  vhist::MatchPass pass(context());
  std::mt19937 rng(5);
  for (std::uint32_t bits : {8u, 10u, 12u}) {
    const std::uint32_t levels = vhist::stats_levels(bits);
    Histogram live(levels);
    for (auto& v : live.counts) v = rng() % 3 == 0 ? 0 : rng() % 50000;
    for (std::uint32_t ref_levels : {16u, 256u, levels}) {
      Histogram reference(ref_levels);
      for (auto& v : reference.counts) v = rng() % 4 == 0 ? 0 : rng() % 90000;
      for (std::uint32_t l = 0; l < ref_levels; ++l) reference.at(Channel::b, l) = 0;  // an empty channel
      SCOPED_TRACE(std::to_string(bits) + " bits, reference of " + std::to_string(ref_levels) + " levels");
      const auto want = vhist::reference_match_table(vhist::reference_cdf(live), vhist::reference_cdf(reference), bits);
      ASSERT_EQ(vhist::match_on_gpu(engine, pass, live, reference, bits).codes, want.codes);
    }
    const auto self = vhist::match_on_gpu(engine, pass, live, live, bits);
    const std::uint32_t codes_per_level = (1u << bits) / levels;
    for (std::uint32_t v = 0; v < levels; ++v) {
      for (Channel c : vhist::kAllChannels) {
        if (live.at(c, v) != 0) {
          ASSERT_EQ(self.at(c, v), v * codes_per_level) << bits << " bits, level " << v;
        }
      }
    }
  }
}

}  // namespace
