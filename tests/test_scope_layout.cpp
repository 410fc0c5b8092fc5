// The scopes' place in the picture (scope_layout.h): beside and under take their room from the
// video and histograms, over leaves the picture whole; panels do not overlap; the counts each
// panel asks for follow its plot's size.
#include "vhist/picture/frame_plan.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/scope_layout.h"

#include <gtest/gtest.h>

#include <cmath>

namespace vhist::viewer {
namespace {

using Rect = std::array<float, 4>;

bool overlap(const Rect& a, const Rect& b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }
bool inside(const Rect& a, const Rect& outer) {
  return a[0] >= outer[0] && a[1] >= outer[1] && a[2] <= outer[2] && a[3] <= outer[3];
}
bool whole(const Rect& r) {
  for (float v : r) {
    if (v != std::round(v)) return false;
  }
  return true;
}

DrawStyle all_three(ScopePlace place) {
  DrawStyle style;
  style.waveform = style.parade = style.vectorscope = true;
  style.scope_place = place;
  return style;
}

TEST(ScopeLayout, NoScopesLeaveThePictureAlone) {
  const DrawStyle style;
  const DrawStyle laid = with_scope_layout(style, 1280, 720);
  EXPECT_EQ(laid.area, (Rect{0, 0, 1280, 720}));
  EXPECT_TRUE(scope_panels(laid).empty());
}

TEST(ScopeLayout, EveryPlaceAtEverySize) {
  for (const ScopePlace place : {ScopePlace::beside, ScopePlace::under, ScopePlace::over}) {
    for (const auto& size : {std::array<float, 2>{640, 360}, {1280, 720}, {1920, 1080}, {3840, 2160}}) {
      DrawStyle style = all_three(place);
      style.ui_scale = size[1] / 720;
      const DrawStyle laid = with_scope_layout(style, size[0], size[1]);
      const auto panels = scope_panels(laid);
      ASSERT_EQ(panels.size(), 3u);
      EXPECT_EQ(panels[0].kind, ScopeKind::waveform);
      EXPECT_EQ(panels[1].kind, ScopeKind::parade);
      EXPECT_EQ(panels[2].kind, ScopeKind::vectorscope);
      const Rect all{0, 0, size[0], size[1]};
      for (std::size_t i = 0; i < panels.size(); ++i) {
        EXPECT_TRUE(inside(panels[i].rect, all));
        EXPECT_TRUE(inside(panels[i].plot, panels[i].rect));
        EXPECT_TRUE(whole(panels[i].plot));
        EXPECT_GT(panels[i].plot[2] - panels[i].plot[0], 50);
        EXPECT_GT(panels[i].plot[3] - panels[i].plot[1], 50);
        for (std::size_t j = i + 1; j < panels.size(); ++j) EXPECT_FALSE(overlap(panels[i].rect, panels[j].rect));
        if (place != ScopePlace::over) {
          EXPECT_FALSE(overlap(panels[i].rect, laid.area)) << i;
        }
      }
      if (place == ScopePlace::over) {
        EXPECT_EQ(laid.area, all);
      }
      if (place == ScopePlace::beside) {
        EXPECT_EQ(laid.area[2], size[0] - std::round(0.32f * size[0]));
        EXPECT_EQ(laid.area[3], size[1]);
      }
      if (place == ScopePlace::under) {
        EXPECT_EQ(laid.area[2], size[0]);
        EXPECT_EQ(laid.area[3], size[1] - std::round(0.32f * size[1]));
      }
      // The parade's three parts fill its plot.
      const ScopePanel& parade = panels[1];
      EXPECT_EQ(parade.plot[0] + 3 * parade.part + 2 * parade.gap, parade.plot[2]);
    }
  }
}

// vhist scope's PNG: the one scope fills the area (less its panel's margin) wherever
// scope_place would put it, and no histogram is drawn whatever the channels.
TEST(ScopeLayout, ScopesOnlyFillTheArea) {
  for (const ScopePlace place : {ScopePlace::beside, ScopePlace::under, ScopePlace::over}) {
    for (const int kind : {0, 1, 2}) {
      DrawStyle style;
      style.waveform = kind == 0;
      style.parade = kind == 1;
      style.vectorscope = kind == 2;
      style.scope_place = place;
      style.scopes_only = true;
      const DrawStyle laid = with_scope_layout(style, 1024, 512);
      const auto panels = scope_panels(laid);
      ASSERT_EQ(panels.size(), 1u);
      const Rect& r = panels[0].rect;
      EXPECT_LE(r[0], 2.0f);
      EXPECT_LE(r[1], 2.0f);
      EXPECT_GE(r[2], 1022.0f);
      EXPECT_GE(r[3], 510.0f);
      EXPECT_TRUE(layout_quads(laid, 1024, 512).empty());
      style.scopes_only = false;
      EXPECT_FALSE(layout_quads(with_scope_layout(style, 1024, 512), 1024, 512).empty());
    }
  }
}

TEST(ScopeLayout, LaidOutOnce) {
  const DrawStyle once = with_scope_layout(all_three(ScopePlace::beside), 1280, 720);
  const DrawStyle twice = with_scope_layout(once, 1280, 720);
  EXPECT_EQ(once.area, twice.area);
  EXPECT_EQ(scope_panels(once), scope_panels(twice));
}

TEST(ScopeLayout, CountsFollowThePlot) {
  ScopePanel p;
  p.kind = ScopeKind::waveform;
  p.plot = {10, 20, 410, 220};  // 400 x 200
  EXPECT_EQ(scope_plot_width(p), 400u);
  EXPECT_EQ(scope_levels(p, 8), 256u);   // 200 rows -> 256, all of 8 bits
  EXPECT_EQ(scope_levels(p, 10), 256u);  // 200 rows -> 256 of 1024
  p.plot = {10, 20, 410, 620};           // 600 rows
  EXPECT_EQ(scope_levels(p, 10), 1024u);
  p.kind = ScopeKind::parade;
  p.part = 130;
  EXPECT_EQ(scope_plot_width(p), 130u);
  p.kind = ScopeKind::vectorscope;
  p.plot = {0, 0, 300, 200};  // a 200 square
  EXPECT_EQ(vectorscope_grid(p, 1, 8), 256u);
  EXPECT_EQ(vectorscope_grid(p, 1, 10), 256u);
  EXPECT_EQ(vectorscope_grid(p, 5, 10), 1024u);
}

TEST(ScopeLayout, ParadeFallsBackWithoutPlanes) {
  DrawStyle style;
  style.parade_view = ParadeView::ycbcr;
  EXPECT_EQ(panel_mode(style, ScopeKind::parade, true), WaveformMode::ycbcr);
  EXPECT_EQ(panel_mode(style, ScopeKind::parade, false), WaveformMode::rgb);
  const std::string title = scope_title(style, ScopeKind::parade, WaveformMode::rgb, 3, ColourMatrix::bt709, false);
  EXPECT_NE(title.find("no Y'CbCr planes"), std::string::npos) << title;
  EXPECT_NE(title.find("1 plot column = 3 picture columns"), std::string::npos) << title;
}

// Titles fitted to their strip: whole parts while they fit, a cut word marked with a full stop.
TEST(ScopeLayout, TitlesFitTheirStrip) {
  const std::string t = "Vectorscope  BT.709  x1";
  EXPECT_EQ(fit_title(t, 40), t);
  EXPECT_EQ(fit_title(t, 23), t);
  EXPECT_EQ(fit_title(t, 22), "Vectorscope  BT.709");
  EXPECT_EQ(fit_title(t, 19), "Vectorscope  BT.709");
  EXPECT_EQ(fit_title(t, 18), "Vectorscope");
  EXPECT_EQ(fit_title(t, 11), "Vectorscope");
  EXPECT_EQ(fit_title(t, 8), "Vectors.");
  EXPECT_EQ(fit_title("Parade  R'G'B'", 6), "Parade");
  EXPECT_EQ(fit_title("Waveform luma", 6), "Wavef.");
  EXPECT_EQ(fit_title("Ab cd", 4), "Ab.");  // no space before the stop
  EXPECT_EQ(fit_title(t, 1), "");
  for (std::size_t n = 0; n < 30; ++n) EXPECT_LE(fit_title(t, n).size(), n);
}

TEST(ScopeLayout, PlanDrawsScopesOnceAFrameIsShown) {
  PictureState state;
  TickRequest request;
  request.style.vectorscope = true;
  EXPECT_FALSE(plan_tick(state, request).scopes);  // no frame yet
  request.new_frame = true;
  EXPECT_TRUE(plan_tick(state, request).scopes);
  request.style.vectorscope = false;
  EXPECT_FALSE(plan_tick(state, request).scopes);
}

// `vhist scope` (scopes only, CPU engine): the converted frame stays on the host, where the
// scopes are counted; the window's composite, which draws the video, uploads it.
TEST(ScopeLayout, ScopesOnlyLeaveTheCpuEnginesFrameOnTheHost) {
  PictureState state;
  TickRequest request;
  request.new_frame = true;
  request.engine = Engine::cpu;
  request.style.waveform = true;
  EXPECT_TRUE(plan_tick(state, request).upload_rgb);
  request.style.scopes_only = true;
  request.style.video = false;
  const FramePlan plan = plan_tick(state, request);
  EXPECT_FALSE(plan.upload_rgb);
  EXPECT_TRUE(plan.convert_on_cpu);
  EXPECT_TRUE(plan.scopes);
  request.style.equalize = EqualizeMode::luma;  // the equalize pass reads it on the GPU
  EXPECT_TRUE(plan_tick(state, request).upload_rgb);
}

}  // namespace
}  // namespace vhist::viewer
