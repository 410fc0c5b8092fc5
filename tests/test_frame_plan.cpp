// The frame renderer's per-tick plan (frame_plan.h), without a GPU: which passes a tick runs
// from the state it starts in. The expected plans follow from what the viewer must do (a new
// frame is converted and counted once; a prefix sum or an equalized frame is made once per
// frame and reused while nothing changes), written out by hand for each case.
#include "vhist/picture/frame_plan.h"
#include "vhist/picture/picture_geometry.h"

#include <gtest/gtest.h>

namespace vhist::viewer {
namespace {

TickRequest request(Engine engine, TargetKind target, bool new_frame) {
  TickRequest r;
  r.engine = engine;
  r.target = target;
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
  const FramePlan plan = tick(state, request(Engine::gpu, TargetKind::raster, false));
  EXPECT_FALSE(plan.convert_on_gpu || plan.convert_on_cpu || plan.count_on_gpu || plan.upload_counts || plan.scan ||
               plan.equalize);
  EXPECT_TRUE(plan.draw_raster);
  EXPECT_FALSE(plan.draw_composite || plan.draw_video || plan.draw_histograms);
  EXPECT_FALSE(state.has_frame);
}

TEST(FramePlan, GpuEngineConvertsAndCountsANewFrameOnce) {
  PictureState state;
  FramePlan plan = tick(state, request(Engine::gpu, TargetKind::raster, true));
  EXPECT_TRUE(plan.convert_on_gpu);
  EXPECT_TRUE(plan.upload_video_image);
  EXPECT_TRUE(plan.count_on_gpu);
  EXPECT_FALSE(plan.convert_on_cpu || plan.upload_rgb || plan.upload_counts || plan.upload_levels);
  EXPECT_FALSE(plan.scan || plan.equalize || plan.draw_cdf || plan.draw_equalized);  // not asked for
  EXPECT_TRUE(plan.draw_video && plan.draw_histograms);
  EXPECT_TRUE(state.has_frame && state.rgb_current);
  EXPECT_EQ(state.counted_bins, 256u);

  // The same frame again: only drawn.
  plan = tick(state, request(Engine::gpu, TargetKind::raster, false));
  EXPECT_FALSE(plan.convert_on_gpu || plan.upload_video_image || plan.count_on_gpu);
  EXPECT_TRUE(plan.draw_video && plan.draw_histograms);
}

TEST(FramePlan, NewBinsOrARecountCountTheCurrentFrameAgain) {
  PictureState state;
  tick(state, request(Engine::gpu, TargetKind::raster, true));
  TickRequest r = request(Engine::gpu, TargetKind::raster, false);
  r.bins = 64;
  FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.count_on_gpu);
  EXPECT_FALSE(plan.convert_on_gpu || plan.upload_video_image);
  EXPECT_EQ(state.counted_bins, 64u);
  plan = tick(state, r);
  EXPECT_FALSE(plan.count_on_gpu);
  r.rehistogram = true;
  plan = tick(state, r);
  EXPECT_TRUE(plan.count_on_gpu);
}

TEST(FramePlan, CpuEngineUploadsItsResults) {
  PictureState state;
  // Rasterized, no equalization: the frame goes only to the video image (from staging).
  FramePlan plan = tick(state, request(Engine::cpu, TargetKind::raster, true));
  EXPECT_TRUE(plan.convert_on_cpu && plan.upload_counts && plan.upload_video_image);
  EXPECT_FALSE(plan.convert_on_gpu || plan.count_on_gpu || plan.upload_rgb);
  EXPECT_FALSE(state.rgb_current);
  // The composite reads the frame from the R'G'B' buffer: it goes there, and not to an image.
  plan = tick(state, request(Engine::cpu, TargetKind::composite, true));
  EXPECT_TRUE(plan.convert_on_cpu && plan.upload_rgb && plan.upload_counts && plan.draw_composite);
  EXPECT_FALSE(plan.upload_video_image || plan.draw_raster);
  EXPECT_TRUE(state.rgb_current);
}

TEST(FramePlan, PrefixSumOncePerFrameWhenACurveIsDrawn) {
  PictureState state;
  TickRequest r = request(Engine::gpu, TargetKind::raster, true);
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
  TickRequest hidden = request(Engine::gpu, TargetKind::raster, true);
  hidden.style.cdf[2] = CdfMode::instead;
  hidden.style.channels[2] = false;
  plan = tick(fresh, hidden);
  EXPECT_FALSE(plan.scan || plan.draw_cdf);
}

TEST(FramePlan, CpuEngineUploadsTheStatisticsHistogramForThePrefixSum) {
  PictureState state;
  TickRequest r = request(Engine::cpu, TargetKind::raster, true);
  r.style.cdf[3] = CdfMode::instead;
  const FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.scan && plan.upload_levels && plan.draw_cdf);
}

TEST(FramePlan, EqualizesOncePerFrameAndMode) {
  PictureState state;
  TickRequest r = request(Engine::gpu, TargetKind::raster, true);
  r.style.equalize = EqualizeMode::luma;
  FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.scan && plan.equalize && plan.upload_equalized_image && plan.draw_equalized);
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

TEST(FramePlan, CpuFrameFromBeforeEqualizationIsShownUnequalizedUntilTheNextFrame) {
  PictureState state;
  TickRequest r = request(Engine::cpu, TargetKind::raster, true);
  tick(state, r);  // no equalization: the frame only went to the video image
  r.new_frame = false;
  r.style.equalize = EqualizeMode::luma;
  FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.scan);
  EXPECT_FALSE(plan.equalize || plan.draw_equalized);  // the frame is not in the R'G'B' buffer
  r.new_frame = true;
  plan = tick(state, r);
  EXPECT_TRUE(plan.upload_rgb && plan.equalize && plan.draw_equalized);
}

TEST(FramePlan, CompositeEqualizesIntoTheBufferOnly) {
  PictureState state;
  TickRequest r = request(Engine::gpu, TargetKind::composite, true);
  r.style.equalize = EqualizeMode::luma;
  FramePlan plan = tick(state, r);
  EXPECT_TRUE(plan.equalize && plan.draw_equalized);
  EXPECT_FALSE(plan.upload_equalized_image || plan.upload_video_image);
  // Rasterizing the same frame next: no equalized image has been written yet, so the original
  // is drawn rather than an empty image.
  r.new_frame = false;
  r.target = TargetKind::raster;
  plan = tick(state, r);
  EXPECT_FALSE(plan.draw_equalized);
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

}  // namespace
}  // namespace vhist::viewer
