// The viewer's picture, headless: the rasterized overlay (video quad + the articles' histogram
// quads) and the compute composite must draw the same picture; and the bars must sit where the
// histogram says. Validation on, any message fails the test.
#include "gpu_test_env.h"
#include "vhist/compute/synthetic_frames.h"

#include "vhist/picture/offscreen.h"
#include "vhist/picture/frame_renderer.h"

#include "vhist/compute/cdf.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"

#include <cstdlib>
#include <cstring>

namespace vhist {
namespace {

class OverlayTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {};

// Draws one tick of `frame` into `target` (raster or composite) and returns the picture.
std::vector<std::uint8_t> draw_once(render::Context& context, viewer::FrameRenderer& overlay, viewer::OffscreenTarget& target,
                                    const SyntheticVideoFrame& frame, const viewer::DrawStyle& style, bool composite) {
  std::vector<std::uint8_t> pixels;
  for (int tick = 0; tick < 2; ++tick) {  // the second tick redraws the same frame, counted already
    overlay.begin();
    const VideoPlanes planes = frame.view();
    const VideoFormat* format = tick == 0 ? &frame.format : nullptr;
    const VideoPlanes* new_planes = tick == 0 ? &planes : nullptr;
    const VkCommandBuffer cmd =
        composite ? overlay.record_composite(format, new_planes, false, style, target.composite(),
                                             [&](VkCommandBuffer c) { target.record_readback_composite(c); })
                  : overlay.record_raster(format, new_planes, false, style, target.raster(), nullptr,
                                          [&](VkCommandBuffer c) { target.record_readback_raster(c); });
    render::submit(context, cmd, overlay.fence());
    overlay.end();
    overlay.wait_idle();
    pixels = target.pixels();
  }
  return pixels;
}

TEST_P(OverlayTest, ComputeCompositeDrawsTheRasterPicture) {
  const bool cpu_engine = GetParam();
  // A 4:2:0 frame of another aspect than the target, so that the cover fit crops.
  const SyntheticVideoFrame frame = make_synthetic_frame("yuv420p", 96, 64, 3);
  const VkExtent2D extent{160, 90};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), target.render_pass(), cpu_engine ? Engine::cpu : Engine::gpu);
  for (viewer::Layout layout : {viewer::Layout::split, viewer::Layout::overlay, viewer::Layout::stacked}) {
    viewer::DrawStyle style;
    style.layout = layout;
    style.bins = 16;
    style.opacity = 0.6f;
    const auto raster = draw_once(context(), overlay, target, frame, style, false);
    const auto composite = draw_once(context(), overlay, target, frame, style, true);
    ASSERT_EQ(raster.size(), composite.size());
    std::size_t off = 0, worst = 0;
    for (std::size_t i = 0; i < raster.size(); i += 4) {
      std::size_t d = 0;
      for (int c = 0; c < 3; ++c) d = std::max<std::size_t>(d, static_cast<std::size_t>(std::abs(raster[i + c] - composite[i + c])));
      // Filtering in the sampler and in the shader round differently by a code or two.
      if (d > 3) ++off;
      worst = std::max(worst, d);
    }
    // Only pixels on an exact bar-top or quad-edge threshold may differ by more.
    EXPECT_LE(off, raster.size() / 4 / 200) << "layout " << static_cast<int>(layout) << ", worst difference " << worst;
  }
}

// A 64x36 full-range grey frame, every pixel at code 200.
SyntheticVideoFrame flat_grey_frame() {
  SyntheticVideoFrame frame = make_synthetic_frame("gray", 64, 36, 1, ColourMatrix::bt709, ColourRange::full);
  for (auto& plane : frame.planes) std::fill(plane.begin(), plane.end(), std::byte{200});
  return frame;
}

TEST_P(OverlayTest, BarsShowTheHistogram) {
  // A flat grey frame (full-range gray, code 200): every channel has one bin full, at
  // 200 * 16 / 256 = 12; in the split layout that column of the RGB quad is grey (R+G+B) to
  // the top, and of the luma quad white; every other column is background only.
  const SyntheticVideoFrame frame = flat_grey_frame();
  const VkExtent2D extent{320, 180};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), target.render_pass(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.bins = 16;
  style.opacity = 1.0f;
  for (bool composite : {false, true}) {
    const auto pixels = draw_once(context(), overlay, target, frame, style, composite);
    const auto at = [&](float x, float y) {
      const std::size_t i = (static_cast<std::size_t>(y) * extent.width + static_cast<std::size_t>(x)) * 4;
      return std::array<int, 3>{pixels[i], pixels[i + 1], pixels[i + 2]};
    };
    const auto quads = viewer::layout_quads(style, 320, 180);
    ASSERT_EQ(quads.size(), 2u);
    const float y_mid = (quads[0].rect[1] + quads[0].rect[3]) / 2;
    const auto column = [&](const viewer::HistogramQuad& q, int bin) {
      return q.rect[0] + (bin + 0.5f) * (q.rect[2] - q.rect[0]) / 16;
    };
    EXPECT_EQ(at(column(quads[0], 12), y_mid), (std::array<int, 3>{128, 128, 128})) << "composite " << composite;
    EXPECT_EQ(at(column(quads[0], 5), y_mid), (std::array<int, 3>{0, 0, 0})) << "composite " << composite;
    EXPECT_EQ(at(column(quads[1], 12), y_mid), (std::array<int, 3>{255, 255, 255})) << "composite " << composite;
    EXPECT_EQ(at(column(quads[1], 3), y_mid), (std::array<int, 3>{0, 0, 0})) << "composite " << composite;
    // Above the quads: the video, grey 200.
    EXPECT_EQ(at(160, 40), (std::array<int, 3>{200, 200, 200})) << "composite " << composite;
  }
}

// A low-contrast R'G'B' frame (rgb24, so the conversion is the identity): each channel holds
// codes 64..191 with a triangular distribution (more pixels mid-range), different per channel;
// with `grey` the three channels are equal.
SyntheticVideoFrame low_contrast_frame(std::uint32_t width, std::uint32_t height, bool grey) {
  SyntheticVideoFrame frame = make_synthetic_frame("rgb24", width, height, 1, ColourMatrix::bt709, ColourRange::full);
  std::uint32_t state = 12345;
  const auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (std::uint32_t y = 0; y < height; ++y) {
    for (std::uint32_t x = 0; x < width; ++x) {
      std::array<std::uint32_t, 3> v{};
      for (auto& c : v) c = 64 + (next() % 65 + next() % 64);  // the sum of two uniforms: triangular, 64..192
      if (grey) v[1] = v[2] = v[0];
      auto* p = frame.planes[0].data() + std::size_t{y} * frame.stride[0] + std::size_t{x} * 3;
      for (int c = 0; c < 3; ++c) p[c] = static_cast<std::byte>(std::min(v[static_cast<std::size_t>(c)], 191u));
    }
  }
  return frame;
}

// The frame equalized by the CPU reference (histogram -> CDF -> table -> pixels), as RGBA8.
std::vector<std::uint8_t> reference_equalized(const SyntheticVideoFrame& frame, EqualizeMode mode) {
  const auto rgb = reference_convert(frame.format, frame.view());
  const FrameFormat f = converted_format(frame.format);
  const auto table = reference_equalize_table(reference_cdf(reference_histogram(rgb, f, stats_levels(f.bits))), f.bits);
  std::vector<std::byte> out(rgb.size());
  reference_equalize(rgb, f, table, mode, out);
  std::vector<std::uint8_t> pixels(out.size());
  std::memcpy(pixels.data(), out.data(), out.size());
  return pixels;
}

TEST_P(OverlayTest, EqualizedPictureIsTheReferenceAndSpansTheRange) {
  // The target has the frame's size, so every pixel centre is a texel centre: the picture is the
  // equalized frame itself, which must equal the CPU reference code for code, drawn by the
  // rasterizer (video.frag) and by the compute composite. No histogram quads.
  for (bool grey : {true, false}) {
    const SyntheticVideoFrame frame = low_contrast_frame(128, 72, grey);
    const VkExtent2D extent{128, 72};
    viewer::OffscreenTarget target(context(), extent);
    viewer::FrameRenderer overlay(context(), target.render_pass(), GetParam() ? Engine::cpu : Engine::gpu);
    for (EqualizeMode mode : {EqualizeMode::luma, EqualizeMode::channels}) {
      viewer::DrawStyle style;
      style.channels = {false, false, false, false};
      style.equalize = mode;
      const auto expected = reference_equalized(frame, mode);
      for (bool composite : {false, true}) {
        SCOPED_TRACE(std::string(grey ? "grey" : "colour") + (mode == EqualizeMode::luma ? " luma" : " channels") +
                     (composite ? " composite" : " raster"));
        const auto pixels = draw_once(context(), overlay, target, frame, style, composite);
        ASSERT_EQ(pixels.size(), expected.size());
        std::size_t differing = 0;
        for (std::size_t i = 0; i < pixels.size(); i += 4) {
          for (int c = 0; c < 3; ++c) differing += pixels[i + c] != expected[i + c];
        }
        ASSERT_EQ(differing, 0u);

        // What equalization is for: each channel (grey: the one value; colour, per channel: R,
        // G and B) spans the full range 0..255, and its 16-bin histogram is close to flat.
        // Tolerance: a bin may be off its share N/16 by at most two input levels' worth of
        // pixels (the levels at its two ends move in or out whole), checked against the
        // largest level of the input.
        if (!grey && mode == EqualizeMode::luma) continue;  // luma of colour: checked as exact above
        const std::size_t n = std::size_t{extent.width} * extent.height;
        for (int c = 0; c < (grey ? 1 : 3); ++c) {
          std::array<std::size_t, 256> input_levels{};
          std::array<std::size_t, 16> bins{};
          std::uint8_t lo = 255, hi = 0;
          for (std::uint32_t y = 0; y < extent.height; ++y) {
            for (std::uint32_t x = 0; x < extent.width; ++x) {
              const auto in = static_cast<std::uint8_t>(frame.planes[0][std::size_t{y} * frame.stride[0] + x * 3 + c]);
              ++input_levels[in];
              const std::uint8_t v = pixels[(std::size_t{y} * extent.width + x) * 4 + static_cast<std::size_t>(c)];
              ++bins[v / 16];
              lo = std::min(lo, v);
              hi = std::max(hi, v);
            }
          }
          EXPECT_EQ(lo, 0) << "channel " << c;
          EXPECT_EQ(hi, 255) << "channel " << c;
          const std::size_t largest_level = *std::max_element(input_levels.begin(), input_levels.end());
          for (std::size_t b = 0; b < 16; ++b) {
            const double off = std::abs(static_cast<double>(bins[b]) - static_cast<double>(n) / 16);
            EXPECT_LE(off, 2.0 * static_cast<double>(largest_level)) << "channel " << c << " bin " << b << ": " << bins[b]
                                                                     << " of " << n;
          }
        }
      }
    }
  }
}

TEST_P(OverlayTest, SplitViewShowsOriginalLeftAndEqualizedRight) {
  const SyntheticVideoFrame frame = low_contrast_frame(128, 72, false);
  const VkExtent2D extent{128, 72};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), target.render_pass(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.channels = {false, false, false, false};
  style.equalize = EqualizeMode::channels;
  style.split_view = true;
  style.split_position = 0.25f;  // the divider at x = 32
  const auto equalized = reference_equalized(frame, EqualizeMode::channels);
  const auto original = reference_convert(frame.format, frame.view());
  for (bool composite : {false, true}) {
    const auto pixels = draw_once(context(), overlay, target, frame, style, composite);
    for (std::uint32_t y = 0; y < extent.height; ++y) {
      for (std::uint32_t x = 0; x < extent.width; ++x) {
        const std::size_t i = (std::size_t{y} * extent.width + x) * 4;
        for (int c = 0; c < 3; ++c) {
          const int got = pixels[i + c];
          if (x == 31 || x == 32) {
            ASSERT_EQ(got, 230) << "divider at " << x << "," << y << " composite " << composite;  // 0.9 * 255
          } else if (x < 31) {
            ASSERT_EQ(got, static_cast<int>(original[i + c])) << x << "," << y << " composite " << composite;
          } else {
            ASSERT_EQ(got, static_cast<int>(equalized[i + c])) << x << "," << y << " composite " << composite;
          }
        }
      }
    }
  }
}

TEST_P(OverlayTest, CumulativeHistogramReplacesOrOverlaysTheBars) {
  // A flat grey frame at code 200 (as above): its CDF is 0 below level 200 and 1 from there.
  // Instead of the histogram, the L quad shows the CDF's area: background left of 200/256 of
  // the width, white to the top right of it. Over the histogram, the curve runs along the
  // bottom left of the step and along the top right of it.
  const SyntheticVideoFrame frame = flat_grey_frame();
  const VkExtent2D extent{320, 180};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer overlay(context(), target.render_pass(), GetParam() ? Engine::cpu : Engine::gpu);
  viewer::DrawStyle style;
  style.bins = 16;
  style.opacity = 1.0f;
  style.channels = {false, false, false, true};
  const auto quads = viewer::layout_quads(style, 320, 180);
  ASSERT_EQ(quads.size(), 1u);
  const auto& r = quads[0].rect;
  const auto x_at = [&](float u) { return r[0] + u * (r[2] - r[0]); };
  const auto y_at = [&](float v) { return r[1] + v * (r[3] - r[1]); };  // v = 0 top
  for (bool composite : {false, true}) {
    style.cdf = {viewer::CdfMode::off, viewer::CdfMode::off, viewer::CdfMode::off, viewer::CdfMode::instead};
    auto pixels = draw_once(context(), overlay, target, frame, style, composite);
    const auto at = [&](float x, float y) {
      const std::size_t i = (static_cast<std::size_t>(y) * extent.width + static_cast<std::size_t>(x)) * 4;
      return std::array<int, 3>{pixels[i], pixels[i + 1], pixels[i + 2]};
    };
    const std::array<int, 3> white{255, 255, 255}, black{0, 0, 0};
    // Histogram bin 12 (codes 192..207) would be full height at u = 12.5 / 16; the CDF at
    // u = 0.70 (level 179) is 0 and at u = 0.9 (level 230) is 1.
    EXPECT_EQ(at(x_at(0.70f), y_at(0.5f)), black) << "composite " << composite;
    EXPECT_EQ(at(x_at(0.90f), y_at(0.1f)), white) << "composite " << composite;
    EXPECT_EQ(at(x_at(0.30f), y_at(0.95f)), black) << "composite " << composite;

    style.cdf[3] = viewer::CdfMode::over;
    pixels = draw_once(context(), overlay, target, frame, style, composite);
    // The bars are back: bin 12 full height, white, where the CDF is 1 at the top. The step of
    // the curve at level 200 (u = 200/256) crosses the whole quad, darkened over the white bar.
    EXPECT_EQ(at(x_at(0.8f), y_at(0.5f)), white) << "composite " << composite;
    EXPECT_EQ(at(x_at(200.0f / 256), y_at(0.5f)), (std::array<int, 3>{76, 76, 76})) << "composite " << composite;
    // Left of the step the curve runs along the bottom, right of it (past the bar) along the
    // top: in each of those columns the only white pixels are within two rows of that edge.
    const auto white_rows = [&](float u) {
      std::vector<int> rows;
      for (int y = static_cast<int>(r[1]) + 1; y < static_cast<int>(r[3]); ++y) {
        if (at(x_at(u), static_cast<float>(y)) == white) rows.push_back(y);
      }
      return rows;
    };
    for (const auto& [u, edge] : {std::pair{0.3f, r[3]}, {0.95f, r[1]}}) {
      const auto rows = white_rows(u);
      ASSERT_FALSE(rows.empty()) << "no curve at u " << u << ", composite " << composite;
      for (int y : rows) EXPECT_LE(std::abs(y + 0.5f - edge), 2.5f) << "u " << u << " row " << y << " composite " << composite;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, OverlayTest, ::testing::Values(false, true),
                         [](const auto& p) { return std::string(p.param ? "cpu_engine" : "gpu_engine"); });

}  // namespace
}  // namespace vhist
