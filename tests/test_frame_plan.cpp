// The frame renderer's per-tick plan (frame_plan.h), without a GPU: which passes a tick runs
// from the state it starts in. The expected plans follow from what the viewer must do (a new
// frame is converted and counted once; a prefix sum or an equalized frame is made once per
// frame and reused while nothing changes), written out by hand for each case.
#include "vhist/exposure_shared.h"
#include "vhist/picture/frame_plan.h"
#include "vhist/picture/light_scale.h"
#include "vhist/picture/overlay_grid.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/picture_overlay.h"

#include "vhist/clip_shared.h"
#include "vhist/font_shared.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <gtest/gtest.h>

namespace vhist::viewer {
namespace {

TickRequest request(Engine engine, bool new_frame) {
  TickRequest r;
  r.engine = engine;
  r.new_frame = new_frame;
  r.bins = 256;
  return r;
}

// Runs `r` from `state` and moves `state` on, as FrameRenderer does after recording.
FramePlan tick(PictureState& state, const TickRequest& r) {
  const FramePlan plan = plan_tick(state, r);
  state = plan.next;
  return plan;
}

TEST(FramePlan, NothingShownYetDrawsOnlyTheBackground) {
  PictureState state;
  const FramePlan plan = tick(state, request(Engine::gpu, false));
  EXPECT_FALSE(plan.convert_on_gpu || plan.convert_on_cpu || plan.count_on_gpu || plan.upload_counts || plan.scan ||
               plan.equalize);
  EXPECT_FALSE(plan.draw_video || plan.draw_histograms || plan.draw_equalized || plan.scopes);
  EXPECT_FALSE(state.has_frame);
}

TEST(FramePlan, GpuEngineConvertsAndCountsANewFrameOnce) {
  PictureState state;
  FramePlan plan = tick(state, request(Engine::gpu, true));
  EXPECT_TRUE(plan.convert_on_gpu);
  EXPECT_TRUE(plan.count_on_gpu);
  EXPECT_FALSE(plan.convert_on_cpu || plan.upload_rgb || plan.upload_counts || plan.upload_levels);
  EXPECT_FALSE(plan.scan || plan.equalize || plan.draw_cdf || plan.draw_equalized);  // not asked for
  EXPECT_TRUE(plan.draw_video && plan.draw_histograms);
  EXPECT_TRUE(state.has_frame);
  EXPECT_EQ(state.counted_bins, 256u);

  // The same frame again: only drawn.
  plan = tick(state, request(Engine::gpu, false));
  EXPECT_FALSE(plan.convert_on_gpu || plan.count_on_gpu);
  EXPECT_TRUE(plan.draw_video && plan.draw_histograms);
}

TEST(FramePlan, NewBinsOrARecountCountTheCurrentFrameAgain) {
  PictureState state;
  tick(state, request(Engine::gpu, true));
  TickRequest r = request(Engine::gpu, false);
  r.bins = 64;
  FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.count_on_gpu);
  EXPECT_FALSE(plan.convert_on_gpu);
  EXPECT_EQ(state.counted_bins, 64u);
  plan = tick(state, r);
  EXPECT_FALSE(plan.count_on_gpu);
  r.rehistogram = true;
  plan = tick(state, r);
  EXPECT_TRUE(plan.count_on_gpu);
}

TEST(FramePlan, CpuEngineUploadsItsResults) {
  PictureState state;
  // The composite reads the frame from the R'G'B' buffer: it goes there from staging.
  FramePlan plan = tick(state, request(Engine::cpu, true));
  EXPECT_TRUE(plan.convert_on_cpu && plan.upload_rgb && plan.upload_counts);
  EXPECT_FALSE(plan.convert_on_gpu || plan.count_on_gpu);
  EXPECT_TRUE(plan.draw_video && plan.draw_histograms);
  // The same frame again: nothing converted or uploaded.
  plan = tick(state, request(Engine::cpu, false));
  EXPECT_FALSE(plan.convert_on_cpu || plan.upload_rgb || plan.upload_counts);
  EXPECT_TRUE(plan.draw_video && plan.draw_histograms);
}

TEST(FramePlan, PrefixSumOncePerFrameWhenACurveIsDrawn) {
  PictureState state;
  TickRequest r = request(Engine::gpu, true);
  r.style.cdf[2] = CdfMode::over;  // blue
  FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.count_on_gpu && plan.scan && plan.draw_cdf);
  EXPECT_FALSE(plan.upload_levels);
  r.new_frame = false;
  plan = tick(state, r);
  EXPECT_FALSE(plan.scan);
  EXPECT_TRUE(plan.draw_cdf);  // still the frame's
  // A recount outdates it.
  r.bins = 128;
  plan = tick(state, r);
  EXPECT_TRUE(plan.count_on_gpu && plan.scan && plan.draw_cdf);
  // The curve of a channel that is not drawn needs no prefix sum.
  PictureState fresh;
  TickRequest hidden = request(Engine::gpu, true);
  hidden.style.cdf[2] = CdfMode::instead;
  hidden.style.channels[2] = false;
  plan = tick(fresh, hidden);
  EXPECT_FALSE(plan.scan || plan.draw_cdf);
}

TEST(FramePlan, CpuEngineUploadsTheStatisticsHistogramForThePrefixSum) {
  PictureState state;
  TickRequest r = request(Engine::cpu, true);
  r.style.cdf[3] = CdfMode::instead;
  const FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.scan && plan.upload_levels && plan.draw_cdf);
}

TEST(FramePlan, EqualizesOncePerFrameAndMode) {
  PictureState state;
  TickRequest r = request(Engine::gpu, true);
  r.style.equalize = EqualizeMode::luma;
  FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.scan && plan.equalize && plan.draw_equalized);
  r.new_frame = false;
  plan = tick(state, r);
  EXPECT_FALSE(plan.scan || plan.equalize);
  EXPECT_TRUE(plan.draw_equalized);
  // Another mode: the table is the same, the frame through it is not.
  r.style.equalize = EqualizeMode::channels;
  plan = tick(state, r);
  EXPECT_FALSE(plan.scan);
  EXPECT_TRUE(plan.equalize && plan.draw_equalized);
  // Off: the original is drawn.
  r.style.equalize = EqualizeMode::off;
  plan = tick(state, r);
  EXPECT_FALSE(plan.equalize || plan.draw_equalized);
}

// The CPU engine's frame is in the R'G'B' buffer whether or not equalization was on when it
// came: equalization asked for later equalizes it at once.
TEST(FramePlan, CpuFrameIsEqualizedWhenAskedForLater) {
  PictureState state;
  TickRequest r = request(Engine::cpu, true);
  tick(state, r);
  r.new_frame = false;
  r.style.equalize = EqualizeMode::luma;
  const FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.scan && plan.equalize && plan.draw_equalized);
  EXPECT_FALSE(plan.convert_on_cpu || plan.upload_rgb);
}

TEST(FramePlan, NeedsCdfOnlyForDrawnCurvesOrEqualization) {
  DrawStyle style;
  EXPECT_FALSE(needs_cdf(style));
  style.cdf[0] = CdfMode::over;
  style.cdf[3] = CdfMode::instead;
  EXPECT_TRUE(needs_cdf(style));
  EXPECT_EQ(cdf_mask(style, CdfMode::over), 1u);
  EXPECT_EQ(cdf_mask(style, CdfMode::instead), 8u);
  style.channels = {false, true, true, false};
  EXPECT_FALSE(needs_cdf(style));
  style.equalize = EqualizeMode::channels;
  EXPECT_TRUE(needs_cdf(style));
}

TEST(PictureGeometry, CoverScaleFillsTheWindowAndCrops) {
  // A 4:3 video in a 16:9 window: full width, the height overflows by (16/9) / (4/3) = 4/3.
  auto s = cover_scale(1600, 900, 640, 480);
  EXPECT_FLOAT_EQ(s[0], 1.0f);
  EXPECT_FLOAT_EQ(s[1], 4.0f / 3.0f);
  // A 2:1 video in a square window: full height, the width overflows twice.
  s = cover_scale(500, 500, 200, 100);
  EXPECT_FLOAT_EQ(s[0], 2.0f);
  EXPECT_FLOAT_EQ(s[1], 1.0f);
}

// The picture's area: the quads are laid out in it with the same fractions as in a whole
// target of its size, moved to its corner; all zero means the whole target.
TEST(PictureGeometry, QuadsAreLaidOutInsideTheArea) {
  DrawStyle style;
  style.layout = Layout::split;
  const auto whole = layout_quads(style, 1280, 720);
  ASSERT_EQ(whole.size(), 2u);
  // Split layout of a 1280x720 area: 2.5% margins, 45% wide, 25% high, bottom 2.5% up.
  EXPECT_FLOAT_EQ(whole[0].rect[0], 32.0f);
  EXPECT_FLOAT_EQ(whole[0].rect[1], 702.0f - 180.0f);
  EXPECT_FLOAT_EQ(whole[0].rect[2], 32.0f + 576.0f);
  EXPECT_FLOAT_EQ(whole[0].rect[3], 702.0f);
  EXPECT_FLOAT_EQ(whole[1].rect[2], 1248.0f);
  // A 640x360 area at (300, 100) in a 1280x720 target.
  style.area = {300.4f, 99.6f, 940.2f, 460.0f};  // rounded to whole pixels: 300, 100, 940, 460
  const auto inside = layout_quads(style, 1280, 720);
  ASSERT_EQ(inside.size(), 2u);
  EXPECT_FLOAT_EQ(inside[0].rect[0], 300.0f + 16.0f);
  EXPECT_FLOAT_EQ(inside[0].rect[1], 100.0f + 351.0f - 90.0f);
  EXPECT_FLOAT_EQ(inside[0].rect[2], 300.0f + 16.0f + 288.0f);
  EXPECT_FLOAT_EQ(inside[0].rect[3], 100.0f + 351.0f);
  EXPECT_FLOAT_EQ(inside[1].rect[2], 940.0f - 16.0f);
  for (const auto& q : inside) {
    EXPECT_GE(q.rect[0], 300.0f);
    EXPECT_LE(q.rect[2], 940.0f);
    EXPECT_GE(q.rect[1], 100.0f);
    EXPECT_LE(q.rect[3], 460.0f);
  }
  EXPECT_EQ(picture_area(style, 1280, 720), (std::array<float, 4>{300, 100, 940, 460}));
  // An area reaching past the target is clipped to it; an empty one means the whole target.
  style.area = {-10, -10, 5000, 5000};
  EXPECT_EQ(picture_area(style, 1280, 720), (std::array<float, 4>{0, 0, 1280, 720}));
  style.area = {100, 100, 100, 300};
  EXPECT_EQ(picture_area(style, 1280, 720), (std::array<float, 4>{0, 0, 1280, 720}));
}

// The panel's strips: a header of 10 font-scale pixels and an axis of 13 where the panel is tall
// enough, the bars between them; the text scale is ui_scale rounded.
TEST(PictureGeometry, BarsLeaveRoomForTheHeaderAndTheAxis) {
  DrawStyle style;
  const auto q = layout_quads(style, 640, 360)[0];  // 90 pixels high: both strips (3 x 23 = 69)
  EXPECT_TRUE(q.header && q.axis);
  EXPECT_FLOAT_EQ(q.bars[1], 261.0f + 10.0f);
  EXPECT_FLOAT_EQ(q.bars[3], 351.0f - 13.0f);
  EXPECT_FLOAT_EQ(q.bars[0], q.rect[0]);
  EXPECT_FLOAT_EQ(q.bars[2], q.rect[2]);
  style.ui_scale = 2.0f;  // scale 2: 20 + 26 pixels; 3 x 46 = 138 > 90: the axis alone (3 x 26 = 78)
  EXPECT_EQ(text_scale(style), 2.0f);
  const auto q2 = layout_quads(style, 640, 360)[0];
  EXPECT_FALSE(q2.header);
  EXPECT_TRUE(q2.axis);
  EXPECT_FLOAT_EQ(q2.bars[1], q2.rect[1]);
  EXPECT_FLOAT_EQ(q2.bars[3], 351.0f - 26.0f);
  style.ui_scale = 1;
  const auto tiny = layout_quads(style, 160, 90)[0];  // 22.5 pixels high: no strips
  EXPECT_FALSE(tiny.header || tiny.axis);
  EXPECT_EQ(tiny.bars, tiny.rect);
  style.ui_scale = 0.3f;
  EXPECT_EQ(text_scale(style), 1.0f);  // never below the minimum text size
  style.ui_scale = 1.4f;               // to the nearest eighth; the strips whole pixels
  EXPECT_EQ(text_scale(style), 1.375f);
  EXPECT_EQ(header_height(1.375f), 14.0f);
  EXPECT_EQ(axis_height(1.375f), 18.0f);
  EXPECT_EQ(line_width(1.375f), 1.0f);
  EXPECT_EQ(line_width(1.5f), 2.0f);
}

// The hit test: a point over a panel gives the bin under it, counted from the bars' left edge,
// and the codes that bin holds; points outside every panel give nothing.
// Text on the picture grows smoothly with the picture: one font pixel per 720 pixels of height
// (7-pixel glyphs at 720, 10.5 at 1080, 21 at 2160), never below the minimum text size (7-pixel
// glyphs) nor the screen's content scale; no step anywhere: between 720 and 1080 it grows.
TEST(PictureGeometry, TextScaleFollowsThePictureHeightAndTheContentScale) {
  EXPECT_EQ(picture_ui_scale(1.0f, 360.0f), 1.0f);
  EXPECT_EQ(picture_ui_scale(1.0f, 720.0f), 1.0f);
  EXPECT_EQ(picture_ui_scale(1.0f, 1080.0f), 1.5f);
  EXPECT_EQ(picture_ui_scale(1.0f, 2160.0f), 3.0f);
  EXPECT_EQ(picture_ui_scale(2.0f, 720.0f), 2.0f);   // HiDPI at a small window
  EXPECT_EQ(picture_ui_scale(1.5f, 500.0f), 1.5f);   // a fractional content scale kept
  EXPECT_EQ(picture_ui_scale(0.5f, 100.0f), 1.0f);
  DrawStyle style;
  style.ui_scale = picture_ui_scale(1.0f, 700.0f);
  float last = text_scale(style);
  for (float h = 710; h <= 1100; h += 10) {
    style.ui_scale = picture_ui_scale(1.0f, h);
    const float s = text_scale(style);
    EXPECT_GE(s, last) << h;
    EXPECT_LE(s - last, 0.125f + 1e-6f) << "a step at " << h;
    EXPECT_GE(kMinGlyphHeight * s, 7.0f) << h;
    last = s;
  }
  EXPECT_GT(last, 1.4f);  // at 1100
}

TEST(PictureGeometry, HitTestFindsTheBinUnderThePoint) {
  DrawStyle style;
  style.layout = Layout::split;
  // 1280x720: the RGB panel spans x 32..608 (576 px), y 522..702; the luma panel x 672..1248.
  // 16 bins of 36 px; 8-bit codes, 16 a bin.
  auto hit = hit_bin(style, 1280, 720, 32 + 36 * 5 + 1, 600, 16, 8);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->quad, 0u);
  EXPECT_EQ(hit->channel_mult, (std::array<std::uint32_t, 4>{1, 2, 4, 0}));
  EXPECT_EQ(hit->bin, 5u);
  EXPECT_EQ(hit->code_lo, 80u);
  EXPECT_EQ(hit->code_hi, 95u);
  hit = hit_bin(style, 1280, 720, 1247.9f, 700, 16, 8);  // the last column of the luma panel, in its axis strip
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->quad, 1u);
  EXPECT_EQ(hit->channel_mult, (std::array<std::uint32_t, 4>{0, 0, 0, 8}));
  EXPECT_EQ(hit->bin, 15u);
  EXPECT_EQ(hit->code_lo, 240u);
  EXPECT_EQ(hit->code_hi, 255u);
  // 10-bit codes at 256 bins: 4 codes a bin; 576 px / 256 = 2.25 px a bin.
  hit = hit_bin(style, 1280, 720, 32 + 2.25f * 100 + 0.1f, 600, 256, 10);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->bin, 100u);
  EXPECT_EQ(hit->code_lo, 400u);
  EXPECT_EQ(hit->code_hi, 403u);
  EXPECT_FALSE(hit_bin(style, 1280, 720, 640, 600, 16, 8).has_value());  // between the panels
  EXPECT_FALSE(hit_bin(style, 1280, 720, 100, 300, 16, 8).has_value());  // above them
  EXPECT_FALSE(hit_bin(style, 1280, 720, 100, 703, 16, 8).has_value());  // below
  EXPECT_FALSE(hit_bin(style, 1280, 720, 31.9f, 600, 16, 8).has_value());
  // In an area, the panels move with it.
  style.area = {640, 0, 1280, 360};
  hit = hit_bin(style, 1280, 720, 640 + 16 + 18 * 3 + 1, 300, 16, 8);  // 288 px panel, 18 px bins
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->bin, 3u);
  EXPECT_FALSE(hit_bin(style, 1280, 720, 100, 660, 16, 8).has_value());
  // The stacked layout: the R panel is the top one (L at the bottom).
  style = DrawStyle{};
  style.layout = Layout::stacked;
  const float band = 0.12f * 720, gap = 0.01f * 720, bottom = 702;
  hit = hit_bin(style, 1280, 720, 40, bottom - 3 * (band + gap) - band / 2, 16, 8);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->channel_mult, (std::array<std::uint32_t, 4>{1, 0, 0, 0}));
}

// The font: the glyph table's bits as the digits' shapes (spot checks drawn by hand).
TEST(PictureOverlay, FontHasTheGlyphsTheLabelsUse) {
  // A comma is not a full stop: three pixels, with a tail down and to the left.
  const auto glyph_pixels = [](std::uint32_t g) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> on;
    for (std::uint32_t y = 0; y < shader::kGlyphHeight; ++y) {
      for (std::uint32_t x = 0; x < shader::kGlyphWidth; ++x) {
        if (shader::vhist_glyph_pixel(g, x, y)) on.emplace_back(x, y);
      }
    }
    return on;
  };
  const auto comma = glyph_pixels(static_cast<std::uint32_t>(shader::kFontChars.find(',')));
  ASSERT_EQ(comma.size(), 3u);
  EXPECT_LT(comma.back().first, comma.front().first);  // the lowest pixel left of the top one
  EXPECT_NE(comma, glyph_pixels(static_cast<std::uint32_t>(shader::kFontChars.find('.'))));
  for (char c : std::string_view("0123456789,auto  max log fixed RGBL")) {
    EXPECT_NE(shader::kFontChars.find(c), std::string_view::npos) << c;
  }
  // '1': a vertical stroke in column 2, a base of three in the last row.
  const auto one = static_cast<std::uint32_t>(shader::kFontChars.find('1'));
  for (std::uint32_t y = 0; y < 7; ++y) EXPECT_TRUE(shader::vhist_glyph_pixel(one, 2, y)) << y;
  EXPECT_TRUE(shader::vhist_glyph_pixel(one, 1, 6) && shader::vhist_glyph_pixel(one, 3, 6));
  EXPECT_FALSE(shader::vhist_glyph_pixel(one, 0, 3) || shader::vhist_glyph_pixel(one, 4, 3));
  // 'L': column 0 and the bottom row.
  const auto ell = static_cast<std::uint32_t>(shader::kFontChars.find('L'));
  int on = 0;
  for (std::uint32_t y = 0; y < 7; ++y) {
    for (std::uint32_t x = 0; x < 5; ++x) on += shader::vhist_glyph_pixel(ell, x, y) ? 1 : 0;
  }
  EXPECT_EQ(on, 7 + 4);
  EXPECT_EQ(shader::kFontChars[shader::kGlyphComma], ',');
  EXPECT_EQ(shader::kFontChars[shader::kGlyphSpace], ' ');
}

// The axis labels, guides and the count's text, from the rules in picture_overlay.h.
TEST(PictureOverlay, AxisCodesGuidesAndCounts) {
  EXPECT_EQ(axis_codes(8, 288, 1), (std::vector<std::uint32_t>{0, 64, 128, 192, 255}));
  EXPECT_EQ(axis_codes(10, 576, 1), (std::vector<std::uint32_t>{0, 256, 512, 768, 1023}));
  EXPECT_EQ(axis_codes(12, 576, 2), (std::vector<std::uint32_t>{0, 1024, 2048, 3072, 4095}));
  // "1023" and two characters: 6 characters, 35 px; five labels need 140, three 70.
  EXPECT_EQ(axis_codes(10, 100, 1), (std::vector<std::uint32_t>{0, 512, 1023}));
  EXPECT_EQ(axis_codes(10, 60, 1), (std::vector<std::uint32_t>{0, 1023}));
  EXPECT_EQ(guide_codes(8), (std::array<std::uint32_t, 4>{0, 16, 235, 255}));
  EXPECT_EQ(guide_codes(10), (std::array<std::uint32_t, 4>{0, 64, 940, 1023}));
  EXPECT_EQ(guide_codes(12), (std::array<std::uint32_t, 4>{0, 256, 3760, 4095}));
  EXPECT_EQ(count_text(0), "0");
  EXPECT_EQ(count_text(999), "999");
  EXPECT_EQ(count_text(12345), "12,345");
  EXPECT_EQ(count_text(1234567), "1,234,567");
  // Code 128 of 256 in bars 100..356: its column is 100 + 128.5 = 228.5 -> pixel 228.
  EXPECT_FLOAT_EQ(code_x({100, 0, 356, 10}, 128, 8), 228.0f);
}

// The overlay of the split layout: per panel, the axis line under the bars, a tick and label per
// axis code, the scale label's count slots reading the drawn channels, the legend in palette
// colours; guides only when asked.
TEST(PictureOverlay, PanelsGetAxisLegendAndScaleLabel) {
  DrawStyle style;
  style.channels = {true, false, true, true};
  const auto quads = layout_quads(style, 640, 360);
  ASSERT_EQ(quads.size(), 2u);
  auto overlay = overlay_items(style, quads, {8, 256, 640 * 360});
  ASSERT_EQ(overlay.first.size(), 2u);
  const auto panel = [&](std::size_t i) {
    return std::vector<shader::OverlayItem>(overlay.items.begin() + overlay.first[i],
                                            overlay.items.begin() + overlay.first[i] + overlay.count[i]);
  };
  const auto p0 = panel(0);
  const auto glyphs_of = [&](const std::vector<shader::OverlayItem>& items) {
    std::string text;
    for (const auto& it : items) {
      if (it.kind == shader::kOverlayGlyph) text += shader::kFontChars[it.glyph];
    }
    return text;
  };
  // Labels 0 64 128 192 255, then the scale words without spaces, then the legend R and B.
  EXPECT_EQ(glyphs_of(p0), "064128192255automaxRB");
  std::size_t counts = 0, solids = 0;
  for (const auto& it : p0) {
    if (it.kind == shader::kOverlayCountAuto) {
      ++counts;
      EXPECT_EQ(it.mask, 1u | 4u);
      EXPECT_EQ(it.value, static_cast<std::uint32_t>(5 * 640 * 360 / 256));
    }
    solids += it.kind == shader::kOverlaySolid ? 1 : 0;
  }
  EXPECT_EQ(counts, kCountChars);
  EXPECT_EQ(solids, 1u + 5u);  // the axis line and five ticks
  EXPECT_EQ(glyphs_of(panel(1)), "064128192255automaxL");
  style.guides = true;
  style.scale = ScaleMode::logarithmic;
  overlay = overlay_items(style, quads, {10, 256, 640 * 360});
  const auto p1 = panel(1);
  EXPECT_EQ(glyphs_of(p1), "02565127681023logmaxL");
  std::size_t guides = 0;
  for (const auto& it : p1) {
    if (it.kind == shader::kOverlaySolid && it.rect[1] == quads[1].bars[1]) ++guides;
    if (it.kind == shader::kOverlayCountLog) {
      EXPECT_EQ(it.mask, 8u);
    }
  }
  EXPECT_EQ(guides, 4u);
}

// The axis labels as read: the glyphs under the bars, in words split where a whole character's
// gap (or more) lies between two glyphs. Each word must be a tick's label (or a word of one), so
// two labels run together ("192255", seen on the 258-pixel-wide picture beside the scopes at
// 640x360) fail, at every width, depth and light axis.
TEST(PictureOverlay, AxisLabelsNeverRunTogether) {
  struct Axis {
    std::uint32_t bits;
    LightScale light;
    LightAxis axis;
  };
  const Axis axes[] = {{8, LightScale::none, LightAxis::codes},  {10, LightScale::none, LightAxis::codes},
                       {12, LightScale::none, LightAxis::codes}, {10, LightScale::pq, LightAxis::nits},
                       {10, LightScale::pq, LightAxis::stops},   {10, LightScale::hlg, LightAxis::nits},
                       {12, LightScale::hlg, LightAxis::stops}};
  int checked = 0;
  for (const Axis& a : axes) {
    std::vector<std::string> words;
    for (std::uint32_t code = 0; code < (1u << a.bits); ++code) words.push_back(std::to_string(code));
    if (a.light != LightScale::none) {
      for (const LightTick& t : light_ticks(a.light, a.bits, a.axis)) {
        std::size_t from = 0;
        for (std::size_t sp; (sp = t.label.find(' ', from)) != std::string::npos; from = sp + 1) {
          words.push_back(t.label.substr(from, sp - from));
        }
        words.push_back(t.label.substr(from));
      }
    }
    for (float ui : {1.0f, 1.5f, 3.0f}) {
      for (float w = 240; w <= 1920 * ui; w += 17 * ui) {
        DrawStyle style;
        style.ui_scale = ui;
        style.light = a.light;
        style.light_axis = a.axis;
        style.area = {0, 0, w, 360 * ui};
        const auto quads = layout_quads(style, w, 360 * ui);
        const auto overlay = overlay_items(style, quads, {a.bits, 256, 1000});
        const float s = text_scale(style), advance = static_cast<float>(shader::kGlyphAdvance) * s;
        for (std::size_t i = 0; i < quads.size(); ++i) {
          std::vector<std::pair<float, char>> glyphs;
          for (std::uint32_t k = overlay.first[i]; k < overlay.first[i] + overlay.count[i]; ++k) {
            const auto& it = overlay.items[k];
            if (it.kind == shader::kOverlayGlyph && it.rect[1] > quads[i].bars[3]) {
              glyphs.emplace_back(it.rect[0], shader::kFontChars[it.glyph]);
            }
          }
          std::sort(glyphs.begin(), glyphs.end());
          std::string word;
          for (std::size_t g = 0; g < glyphs.size(); ++g) {
            word += glyphs[g].second;
            if (g + 1 < glyphs.size() && glyphs[g + 1].first - glyphs[g].first < 1.5f * advance) continue;
            EXPECT_NE(std::find(words.begin(), words.end(), word), words.end())
                << "'" << word << "' at width " << w << ", ui " << ui << ", " << a.bits << " bits";
            word.clear();
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

// The header's count is whole or not drawn: the glyphs of the widest count it can show (the
// automatic scale's cap, five times a bin's share: 40,500 of 1920x1080 in 256 bins) lie inside
// the panel, at every width (a 60-pixel panel of a 360x640 window showed "max 40,5"); and at the
// common sizes it is drawn, with its mode's words.
TEST(PictureOverlay, HeaderCountIsWholeOrNotDrawn) {
  const std::uint64_t pixels = 1920 * 1080;
  const std::size_t widest = std::string("40,500").size();
  int drawn = 0, left_out = 0;
  for (float ui : {1.0f, 1.5f, 3.0f}) {
    for (float w = 60; w <= 1920 * ui; w += 13 * ui) {
      DrawStyle style;
      style.ui_scale = ui;
      style.area = {0, 0, w, 720 * ui};
      const auto quads = layout_quads(style, w, 720 * ui);
      const auto overlay = overlay_items(style, quads, {8, 256, pixels});
      for (std::size_t i = 0; i < quads.size(); ++i) {
        std::vector<shader::OverlayItem> count;
        std::string words;
        for (std::uint32_t k = overlay.first[i]; k < overlay.first[i] + overlay.count[i]; ++k) {
          const auto& it = overlay.items[k];
          if (it.kind == shader::kOverlayCountAuto) count.push_back(it);
          if (it.kind == shader::kOverlayGlyph && it.rect[3] <= quads[i].bars[1]) words += shader::kFontChars[it.glyph];
        }
        if (!quads[i].header || count.empty()) {
          left_out += quads[i].header ? 1 : 0;
          continue;
        }
        ++drawn;
        ASSERT_EQ(count.size(), kCountChars);
        for (std::size_t k = 0; k < widest; ++k) {
          EXPECT_LE(count[k].rect[2], std::floor(quads[i].rect[2])) << "width " << w << ", ui " << ui;
        }
        EXPECT_TRUE(words.rfind("max", 0) == 0 || words.rfind("automax", 0) == 0) << words;
        if (w >= 640 * ui) {
          EXPECT_EQ(words.rfind("automax", 0), 0u) << "width " << w << ": " << words;
        }
      }
    }
  }
  EXPECT_GT(drawn, 100);
  EXPECT_GT(left_out, 0);  // the narrowest panels have no count
}

// The composite's grid: for every pixel of every panel, the items its cell lists that cover the
// pixel are exactly the panel's items that cover it, in the panel's order (the last wins), and a
// panel with nothing over its bars says so. Covering is decided here from the rects alone.
TEST(OverlayGrid, EachPixelsCellListsTheItemsOverIt) {
  DrawStyle style;
  style.guides = true;
  for (const auto& [w, h] : {std::pair{640.0f, 360.0f}, std::pair{1283.0f, 721.0f}}) {
    const auto quads = layout_quads(style, w, h);
    const auto overlay = overlay_items(style, quads, {10, 1024, 1283 * 721});
    const auto grid = overlay_grid(overlay, quads);
    ASSERT_EQ(grid.first.size(), quads.size());
    for (std::size_t i = 0; i < quads.size(); ++i) {
      ASSERT_GT(grid.count[i], 0u);
      EXPECT_EQ(grid.over_bars[i], 1u);  // the guides
      const shader::OverlayItem& head = grid.slots[grid.first[i]];
      const auto* words = reinterpret_cast<const std::uint32_t*>(&grid.slots[grid.first[i] + 1]);
      for (int y = static_cast<int>(quads[i].rect[1]); y < static_cast<int>(quads[i].rect[3]); ++y) {
        for (int x = static_cast<int>(quads[i].rect[0]); x < static_cast<int>(quads[i].rect[2]); ++x) {
          const float cx = static_cast<float>(x) + 0.5f, cy = static_cast<float>(y) + 0.5f;
          const auto covers = [&](const shader::OverlayItem& it) {
            return cx >= it.rect[0] && cx < it.rect[2] && cy >= it.rect[1] && cy < it.rect[3];
          };
          std::vector<std::array<float, 4>> want, got;
          for (std::uint32_t k = overlay.first[i]; k < overlay.first[i] + overlay.count[i]; ++k) {
            const auto& it = overlay.items[k];
            if (covers(it)) want.push_back({it.rect[0], it.rect[1], it.rect[2], it.rect[3]});
          }
          const auto col = static_cast<std::uint32_t>(std::floor((cx - head.rect[0]) / head.rect[2]));
          const auto row = static_cast<std::uint32_t>(std::floor((cy - head.rect[1]) / head.rect[3]));
          ASSERT_LT(col, head.glyph);
          ASSERT_LT(row, head.scale);
          const std::uint32_t entry = words[row * head.glyph + col];
          for (std::uint32_t k = 0; k < (entry >> 16); ++k) {
            const auto& it = grid.slots[grid.first[i] + (entry & 0xffffu) + k];
            if (covers(it)) got.push_back({it.rect[0], it.rect[1], it.rect[2], it.rect[3]});
          }
          ASSERT_EQ(got, want) << "panel " << i << " pixel " << x << "," << y;
        }
      }
    }
  }
  style.guides = false;
  const auto quads = layout_quads(style, 640, 360);
  const auto grid = overlay_grid(overlay_items(style, quads, {8, 256, 640 * 360}), quads);
  for (std::uint32_t over : grid.over_bars) EXPECT_EQ(over, 0u);
}

// Light for HDR sources, against published values: PQ (SMPTE ST 2084) puts 100 cd/m2 at signal
// 0.508, 1000 at 0.752 and 10000 at 1 (BT.2408, table of PQ levels); HLG on BT.2100's 1000 cd/m2
// reference display puts HDR reference white, 203 cd/m2, at 75% (BT.2408) and the peak at 1.
TEST(LightScale, PqAndHlgSignalsOfKnownLight) {
  EXPECT_NEAR(pq_signal(100), 0.508, 0.001);
  EXPECT_NEAR(pq_signal(1000), 0.752, 0.001);
  EXPECT_NEAR(pq_signal(10000), 1.0, 1e-9);
  EXPECT_NEAR(pq_signal(0), 0.0, 1e-6);  // 0.0000007: c1^m2
  EXPECT_NEAR(hlg_signal(203), 0.75, 0.002);
  EXPECT_NEAR(hlg_signal(1000), 1.0, 1e-6);
  EXPECT_EQ(light_scale_of(ColourTransfer::smpte2084), LightScale::pq);
  EXPECT_EQ(light_scale_of(ColourTransfer::arib_std_b67), LightScale::hlg);
  EXPECT_EQ(light_scale_of(ColourTransfer::bt709), LightScale::none);
  // 10-bit ticks: 100 cd/m2 at code round(0.508078 * 1023) = 520, 1000 at 769, the top at 1023.
  const auto pq = light_ticks(LightScale::pq, 10);
  ASSERT_EQ(pq.size(), 7u);
  EXPECT_EQ(pq[0].code, 0u);
  EXPECT_EQ(pq[4].code, 520u);
  EXPECT_EQ(pq[4].label, "100");
  EXPECT_EQ(pq[5].code, 769u);
  EXPECT_EQ(pq[6].code, 1023u);
  EXPECT_EQ(pq[6].label, "10000 nits");
  const auto hlg = light_ticks(LightScale::hlg, 10);
  ASSERT_EQ(hlg.size(), 5u);
  EXPECT_EQ(hlg.back().code, 1023u);
  EXPECT_EQ(hlg.back().label, "1000 nits");
  EXPECT_TRUE(light_ticks(LightScale::none, 10).empty());
}

// The stored pixel under a point, as the shaders map it: a 320x180 frame cover-fitted into a
// 640x360 area (2x), upright and turned 90 degrees clockwise (stored 180x320, shown 320x180).
TEST(PixelUnder, FollowsTheCoverFitAndTheRotation) {
  DrawStyle style;
  style.area = {0, 0, 640, 360};
  const PictureShape upright{0, 320, 180, 320, 180};
  EXPECT_EQ(stored_pixel_at(style, 640, 360, upright, 0.5f, 0.5f), (std::array<std::uint32_t, 2>{0, 0}));
  EXPECT_EQ(stored_pixel_at(style, 640, 360, upright, 639.5f, 359.5f), (std::array<std::uint32_t, 2>{319, 179}));
  EXPECT_EQ(stored_pixel_at(style, 640, 360, upright, 201.0f, 101.0f), (std::array<std::uint32_t, 2>{100, 50}));
  EXPECT_FALSE(stored_pixel_at(style, 640, 360, upright, 700.0f, 10.0f).has_value());
  // Rotated: the shown top-left corner is the stored bottom-left pixel (column 0, last row);
  // the shown top-right corner is the stored top-left.
  const PictureShape turned{90, 320, 180, 180, 320};
  EXPECT_EQ(stored_pixel_at(style, 640, 360, turned, 0.5f, 0.5f), (std::array<std::uint32_t, 2>{0, 319}));
  EXPECT_EQ(stored_pixel_at(style, 640, 360, turned, 639.5f, 0.5f), (std::array<std::uint32_t, 2>{0, 0}));
  EXPECT_EQ(stored_pixel_at(style, 640, 360, turned, 639.5f, 359.5f), (std::array<std::uint32_t, 2>{179, 0}));
}

// A region's outline: the points just inside each corner of the target rectangle of a region
// are the region's corner pixels, upright and turned, and the whole frame fills the cover fit.
TEST(PixelUnder, RegionOutlineMapsBackToItsCorners) {
  DrawStyle style;
  style.area = {0, 0, 640, 360};
  const PixelRect rect{20, 30, 50, 40};
  for (const PictureShape& shape : {PictureShape{0, 320, 180, 320, 180}, PictureShape{90, 320, 180, 180, 320},
                                    PictureShape{180, 320, 180, 320, 180}, PictureShape{270, 320, 180, 180, 320}}) {
    const auto r = target_rect_of(style, 640, 360, shape, rect);
    std::vector<std::array<std::uint32_t, 2>> corners;
    for (const float x : {r[0] + 0.5f, r[2] - 0.5f}) {
      for (const float y : {r[1] + 0.5f, r[3] - 0.5f}) {
        const auto p = stored_pixel_at(style, 640, 360, shape, x, y);
        ASSERT_TRUE(p.has_value()) << shape.rotation;
        corners.push_back(*p);
      }
    }
    for (const auto& p : corners) {
      EXPECT_TRUE(p[0] == rect.x || p[0] == rect.x + rect.width - 1) << shape.rotation << ": " << p[0];
      EXPECT_TRUE(p[1] == rect.y || p[1] == rect.y + rect.height - 1) << shape.rotation << ": " << p[1];
    }
    EXPECT_NE(corners[0], corners[3]) << shape.rotation;  // opposite corners
  }
  const auto whole = target_rect_of(style, 640, 360, PictureShape{0, 320, 180, 320, 180}, {0, 0, 320, 180});
  EXPECT_EQ(whole, (std::array<float, 4>{0, 0, 640, 360}));
}

// A pixel's codes marked on the histograms: one line per marked channel, in the panels drawing
// that channel, at the code's place on the axis.
TEST(PixelUnder, MarkersAreDrawnAtTheirCodes) {
  DrawStyle style;
  style.markers = {128, -1, -1, 64};
  const auto quads = layout_quads(style, 1280, 720);
  ASSERT_EQ(quads.size(), 2u);
  const auto overlay = overlay_items(style, quads, {8, 256, 100});
  for (std::size_t panel = 0; panel < 2; ++panel) {
    const auto& q = quads[panel];
    const float want = q.bars[0] + (panel == 0 ? 128.5f : 64.5f) * (q.bars[2] - q.bars[0]) / 256;
    int lines = 0;
    for (std::uint32_t k = overlay.first[panel]; k < overlay.first[panel] + overlay.count[panel]; ++k) {
      const auto& it = overlay.items[k];
      if (it.kind != shader::kOverlaySolid || it.rect[1] != q.bars[1] || it.rect[3] != q.bars[3]) continue;
      ++lines;
      EXPECT_NEAR((it.rect[0] + it.rect[2]) / 2, want, 1.5f) << "panel " << panel;
    }
    EXPECT_EQ(lines, 1) << "panel " << panel;  // R in the RGB panel, L in the luma panel
  }
}

// The stops axis: 0 at HDR reference white, 203 cd/m2, which BT.2408 puts at PQ signal 0.58
// and HLG 75%; every 2 stops; codes gives no light ticks.
TEST(LightScale, StopsFromReferenceWhite) {
  const auto pq = light_ticks(LightScale::pq, 10, LightAxis::stops);
  ASSERT_EQ(pq.size(), 9u);  // -12 .. +4
  EXPECT_EQ(pq.front().label, "-12");
  EXPECT_EQ(pq[6].label, "0");
  EXPECT_NEAR(pq[6].code / 1023.0, 0.58, 0.005);
  EXPECT_EQ(pq.back().label, "+4 stops");
  for (std::size_t i = 1; i < pq.size(); ++i) EXPECT_GT(pq[i].code, pq[i - 1].code);
  const auto hlg = light_ticks(LightScale::hlg, 10, LightAxis::stops);
  ASSERT_EQ(hlg.size(), 5u);  // -6 .. +2
  EXPECT_NEAR(hlg[3].code / 1023.0, 0.75, 0.003);
  EXPECT_EQ(hlg[4].label, "+2 stops");
  EXPECT_TRUE(light_ticks(LightScale::pq, 10, LightAxis::codes).empty());
}

// The stops axis in the font: every character has a glyph, and the labels do not overlap.
TEST(LightScale, StopsAxisIsDrawnInTheFont) {
  DrawStyle style;
  style.light = LightScale::pq;
  style.light_axis = LightAxis::stops;
  const auto quads = layout_quads(style, 1280, 720);
  const auto overlay = overlay_items(style, quads, {10, 256, 100});
  std::string text;
  float last_right = -1;
  for (std::uint32_t k = overlay.first[1]; k < overlay.first[1] + overlay.count[1]; ++k) {
    const auto& it = overlay.items[k];
    if (it.kind != shader::kOverlayGlyph || it.rect[1] < quads[1].bars[3]) continue;
    EXPECT_GE(it.rect[0], last_right);
    last_right = it.rect[2];
    text += shader::kFontChars[it.glyph];
  }
  EXPECT_NE(text.find("+4stops"), std::string::npos) << text;
  EXPECT_NE(text.find("-12"), std::string::npos) << text;
}

// A PQ source's axis is labelled in light, in the font, with no label overlapping the next.
TEST(LightScale, PqAxisLabelsFitAndDoNotOverlap) {
  DrawStyle style;
  style.light = LightScale::pq;
  for (const float w : {640.0f, 1280.0f}) {
    const auto quads = layout_quads(style, w, w * 9 / 16);
    const auto overlay = overlay_items(style, quads, {10, 256, 100});
    std::string text;
    float last_right = -1;
    for (std::uint32_t k = overlay.first[1]; k < overlay.first[1] + overlay.count[1]; ++k) {
      const auto& it = overlay.items[k];
      if (it.kind != shader::kOverlayGlyph || it.rect[1] < quads[1].bars[3]) continue;  // the axis strip's glyphs
      EXPECT_GE(it.rect[0], last_right) << "overlapping glyphs at " << w;
      last_right = it.rect[2];
      text += shader::kFontChars[it.glyph];
    }
    EXPECT_NE(text.find("10000nits"), std::string::npos) << text;  // spaces are not glyphs
    EXPECT_EQ(text.find("1023"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace vhist::viewer

namespace vhist::viewer {
namespace {

// The band of every luma code, at every depth, is the first whose top code (the division's
// rounding, as the user guide's table and the zebra thresholds use it) lies above the code.
TEST(FalseColourBands, BandOfEveryCodeIsBelowItsTopCode) {
  for (std::uint32_t bits : {8u, 10u, 12u, 16u}) {
    for (std::uint32_t luma = 0; luma < (1u << bits); ++luma) {
      std::uint32_t want = 0;
      while (want + 1 < shader::kBandCount && luma >= shader::vhist_permille_code(shader::vhist_band_top(want), bits)) {
        ++want;
      }
      ASSERT_EQ(shader::vhist_band_of(luma, bits), want) << bits << " bits, luma " << luma;
    }
  }
}

// For PQ and HLG sources the bands are in light: every code's light, by the transfer's EOTF,
// lies in its band's range of cd/m2.
TEST(FalseColourBands, HdrBandsAreInLight) {
  for (LightScale scale : {LightScale::pq, LightScale::hlg}) {
    for (std::uint32_t bits : {10u, 12u}) {
      const auto codes = band_codes(bits, scale);
      const double top = static_cast<double>((1u << bits) - 1);
      for (std::uint32_t c = 0; c < (1u << bits); ++c) {
        std::size_t band = 0;
        while (band < 8 && c >= codes[band]) ++band;
        const double nits = scale == LightScale::pq ? pq_nits(c / top) : hlg_nits(c / top);
        if (band > 0) {
          ASSERT_GE(nits, kHdrBandNits[band - 1]) << bits << " bits, code " << c;
        }
        if (band < 8) {
          ASSERT_LT(nits, kHdrBandNits[band]) << bits << " bits, code " << c;
        }
      }
      EXPECT_LT(codes[6], codes[7]);
    }
  }
  EXPECT_EQ(band_codes(8, LightScale::none)[0], shader::vhist_permille_code(shader::vhist_band_top(0), 8));
}

}  // namespace
}  // namespace vhist::viewer

namespace vhist::viewer {
namespace {

TEST(FramePlan, CpuEngineUploadsTheStatisticsHistogramWithEveryCount) {
  // The clip markers read the end codes' counts from it on every drawn tick.
  PictureState state;
  FramePlan plan = tick(state, request(Engine::cpu, true));
  EXPECT_TRUE(plan.upload_counts && plan.upload_levels);
  plan = tick(state, request(Engine::cpu, false));
  EXPECT_FALSE(plan.upload_counts || plan.upload_levels);  // kept from the count
}

TEST(FramePlan, InnerScaleEveryDrawnTickWithTheEndsOnTheirOwnScale) {
  PictureState state;
  TickRequest r = request(Engine::gpu, false);
  r.style.end_scale = true;
  EXPECT_FALSE(tick(state, r).inner_scale);  // nothing shown yet
  r.new_frame = true;
  EXPECT_TRUE(tick(state, r).inner_scale);
  r.new_frame = false;
  EXPECT_TRUE(tick(state, r).inner_scale);
  r.style.end_scale = false;
  EXPECT_FALSE(tick(state, r).inner_scale);
}

TEST(ClipMarker, SizeGrowsWithTheShareAndIsNoneWithoutPixels) {
  const float h = 200;  // bars 200 pixels tall: legs from 10 (5%) to 80 (40%)
  EXPECT_EQ(shader::vhist_clip_marker(0, 1000, h), 0.0f);
  EXPECT_FLOAT_EQ(shader::vhist_clip_marker(1, 1e6f, h), 10.0f);  // 0.0001%: the smallest
  EXPECT_FLOAT_EQ(shader::vhist_clip_marker(1, 1e4f, h), 10.0f);  // 0.01%
  EXPECT_FLOAT_EQ(shader::vhist_clip_marker(1000, 1000, h), 80.0f);
  // log2 of the share: each tenfold step adds a quarter of the range (10 + 70 / 4 at 0.1%).
  EXPECT_NEAR(shader::vhist_clip_marker(1, 1000, h), 27.5f, 1e-3f);
  EXPECT_NEAR(shader::vhist_clip_marker(1, 10, h), 62.5f, 1e-3f);
  float last = 0;
  for (float share = 1e-5f; share <= 1.0f; share *= 1.7f) {
    const float leg = shader::vhist_clip_marker(share * 1e6f, 1e6f, h);
    EXPECT_GE(leg, last);
    last = leg;
  }
  EXPECT_FLOAT_EQ(shader::vhist_clip_marker(1, 1, 20), 12.0f);  // short bars: at least 6 pixels, 6 more at most
  EXPECT_FLOAT_EQ(shader::vhist_clip_marker(1, 1e6f, 20), 6.0f);
}

TEST(ClipMarker, CornersOfTheBarsHitTestToTheirEnd) {
  DrawStyle style;
  const auto quads = layout_quads(style, 1280, 720);
  const auto& b = quads[0].bars;
  EXPECT_EQ(clip_corner_at(style, 1280, 720, b[0] + 1, b[1] + 1), std::optional<bool>(false));
  EXPECT_EQ(clip_corner_at(style, 1280, 720, b[2] - 2, b[1] + 1), std::optional<bool>(true));
  EXPECT_EQ(clip_corner_at(style, 1280, 720, (b[0] + b[2]) / 2, b[1] + 1), std::nullopt);
  EXPECT_EQ(clip_corner_at(style, 1280, 720, b[0] + 1, b[3] - 1), std::nullopt);
}

TEST(ClipMarker, EndScaleIsLabelledInTheHeader) {
  DrawStyle style;
  const auto quads = layout_quads(style, 1920, 1080);
  ASSERT_TRUE(quads[0].header);
  const OverlayInput in{8, 256, 2073600};
  const std::size_t plain = overlay_items(style, quads, in).items.size();
  style.end_scale = true;
  const std::size_t labelled = overlay_items(style, quads, in).items.size();
  // "ends  max 2,073,600": 4 + 3 + 9 glyphs (spaces are not items) per panel.
  EXPECT_EQ(labelled, plain + 2 * 16);
}

// Every glyph of a header stays inside its panel, the end scale's label included: beside the
// panel at 640x360 (a picture 380 wide) "ends  max 2,073,600" ran past the RGB panel into the
// luma panel's header. There it is shortened ("ends 2,073,600") or left out; at 1920x1080 whole.
TEST(ClipMarker, EndScaleLabelStaysInsideItsPanel) {
  DrawStyle style;
  style.end_scale = true;
  const OverlayInput in{8, 256, 2073600};
  for (const auto& [w, h] : {std::pair{380, 360}, std::pair{300, 360}, std::pair{640, 360}, std::pair{1920, 1080}}) {
    const auto quads = layout_quads(style, static_cast<float>(w), static_cast<float>(h));
    const auto overlay = overlay_items(style, quads, in);
    for (std::size_t i = 0; i < quads.size(); ++i) {
      for (std::uint32_t k = overlay.first[i]; k < overlay.first[i] + overlay.count[i]; ++k) {
        const auto& it = overlay.items[k];
        // The header's glyphs, above the bars (the axis below them centres its end labels on the
        // end ticks; the count's slots, filled by the GPU, are sized for the longest count).
        if (it.kind != shader::kOverlayGlyph || it.rect[1] >= quads[i].bars[1]) continue;
        EXPECT_LE(it.rect[2], quads[i].rect[2]) << w << "x" << h << " panel " << i << " item " << k;
        EXPECT_GE(it.rect[0], quads[i].rect[0]) << w << "x" << h << " panel " << i << " item " << k;
      }
    }
  }
}

}  // namespace
}  // namespace vhist::viewer

namespace vhist::viewer {
namespace {

TEST(ClipMarker, HoverTextGivesTheSharesAtTheEndCode) {
  Histogram levels(256);
  levels.at(Channel::r, 0) = 395;  // of 10000 pixels
  levels.at(Channel::b, 255) = 1;
  levels.at(Channel::l, 255) = 2500;
  EXPECT_EQ(clip_share_text(levels, 10000, {1, 2, 4, 0}, false), "at code 0:  R 3.95%  G 0.00%  B 0.00%");
  EXPECT_EQ(clip_share_text(levels, 10000, {1, 2, 4, 0}, true), "at the top code:  R 0.00%  G 0.00%  B 0.01%");
  EXPECT_EQ(clip_share_text(levels, 10000, {0, 0, 0, 8}, true), "at the top code:  L 25.00%");
}

}  // namespace
}  // namespace vhist::viewer
