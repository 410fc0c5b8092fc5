// The viewer's picture, headless: the rasterized overlay (video quad + the articles' histogram
// quads) and the compute composite must draw the same picture; and the bars must sit where the
// histogram says. Validation on, any message fails the test.
#include "gpu_test_env.h"
#include "test_frames.h"

#include "viewer/offscreen.h"
#include "viewer/overlay.h"

#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/render/command_slot.h"
#include "vhist/render/vk_check.h"

#include <cstdlib>

namespace vhist {
namespace {

class OverlayTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {};

// Draws one tick of `frame` into `target` (raster or composite) and returns the picture.
std::vector<std::uint8_t> draw_once(render::Context& context, viewer::Overlay& overlay, viewer::OffscreenTarget& target,
                                    const test::TestFrame& frame, const viewer::OverlayStyle& style, bool composite) {
  std::vector<std::uint8_t> pixels;
  for (int tick = 0; tick < 2; ++tick) {  // the second tick redraws the same frame, counted already
    overlay.begin();
    const VideoPlanes planes = frame.view();
    const VkCommandBuffer cmd = overlay.record(
        tick == 0 ? &frame.format : nullptr, tick == 0 ? &planes : nullptr, false, style,
        composite ? target.composite() : target.raster(), nullptr, [&](VkCommandBuffer c) {
          if (composite) {
            target.record_readback_composite(c);
          } else {
            target.record_readback_raster(c);
          }
        });
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
  const test::TestFrame frame = test::make_test_frame("yuv420p", 96, 64, 3);
  const VkExtent2D extent{160, 90};
  viewer::OffscreenTarget target(context(), extent);
  viewer::Overlay overlay(context(), target.render_pass(), cpu_engine);
  for (viewer::Layout layout : {viewer::Layout::split, viewer::Layout::overlay, viewer::Layout::stacked}) {
    viewer::OverlayStyle style;
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

TEST_P(OverlayTest, BarsShowTheHistogram) {
  // A flat grey frame (full-range gray, code 200): every channel has one bin full, at
  // 200 * 16 / 256 = 12; in the split layout that column of the RGB quad is grey (R+G+B) to
  // the top, and of the luma quad white; every other column is background only.
  test::TestFrame frame = test::make_test_frame("gray", 64, 36, 1, ColourMatrix::bt709, ColourRange::full);
  for (auto& plane : frame.planes) std::fill(plane.begin(), plane.end(), std::byte{200});
  const VkExtent2D extent{320, 180};
  viewer::OffscreenTarget target(context(), extent);
  viewer::Overlay overlay(context(), target.render_pass(), GetParam());
  viewer::OverlayStyle style;
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

INSTANTIATE_TEST_SUITE_P(Engines, OverlayTest, ::testing::Values(false, true),
                         [](const auto& p) { return std::string(p.param ? "cpu_engine" : "gpu_engine"); });

}  // namespace
}  // namespace vhist
