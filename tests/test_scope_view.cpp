// The scopes drawn over the compute composite (frame_renderer_scopes.h), headless, on both
// engines, read back from the composite's output: colour bars put the vectorscope's dots in their
// target boxes for the frame's matrix and not in those of another matrix; a horizontal ramp draws
// a diagonal on the waveform; the parade's legal lines sit at EBU R 103's codes; the scopes count
// the region of interest only. Expected places come from the codes the test writes and the
// plot's rectangle (scope_layout.h), by the test's own arithmetic.
#include "gpu_test_env.h"
#include "picture_draw.h"
#include "scope_frames.h"

#include "vhist/picture/frame_renderer.h"
#include "vhist/picture/offscreen.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/scope_layout.h"
#include "vhist/picture/scope_scale.h"

#include <cmath>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace vhist {
namespace {

using Rgb = std::array<int, 3>;
using viewer::ScopeKind;

class ScopeViewTest : public test::GpuTest, public ::testing::WithParamInterface<bool> {
 protected:
  Engine engine() const { return GetParam() ? Engine::cpu : Engine::gpu; }
};

// Scopes only (no histograms), beside the video, traces white and saturated.
viewer::DrawStyle scopes_style(bool waveform, bool parade, bool vectorscope) {
  viewer::DrawStyle style;
  style.channels = {true, true, true, true};
  style.layout = viewer::Layout::split;
  style.waveform = waveform;
  style.parade = parade;
  style.vectorscope = vectorscope;
  style.scope_colour = viewer::ScopeColour::mono;
  style.scope_gain = 16.0f;
  return style;
}

// The panel of `kind` as the renderer lays it out in a target of `extent`.
viewer::ScopePanel panel_of(const viewer::DrawStyle& style, VkExtent2D extent, ScopeKind kind) {
  const auto laid = viewer::with_scope_layout(style, static_cast<float>(extent.width), static_cast<float>(extent.height));
  for (const auto& p : viewer::scope_panels(laid)) {
    if (p.kind == kind) return p;
  }
  ADD_FAILURE() << "no panel";
  return {};
}

// VHIST_SCOPE_DUMP=dir: each drawn picture written there as raw RGBA (for a look with ffmpeg).
void dump(const std::vector<std::uint8_t>& pixels, VkExtent2D extent, const std::string& name) {
  const char* dir = std::getenv("VHIST_SCOPE_DUMP");
  if (!dir) return;
  const std::string path = std::string(dir) + "/" + name + "_" + std::to_string(extent.width) + "x" +
                           std::to_string(extent.height) + ".rgba";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(pixels.data(), 1, pixels.size(), f);
    std::fclose(f);
  }
}

bool white(const Rgb& p) { return p[0] >= 250 && p[1] >= 250 && p[2] >= 250; }

// A yuv444p frame of eight-pixel-wide bars, each bar's Cb and Cr `codes[i]`, Y' 128.
SyntheticVideoFrame bars_frame(ColourMatrix matrix, const std::vector<std::array<std::uint32_t, 2>>& codes) {
  const auto w = static_cast<std::uint32_t>(codes.size() * 8);
  SyntheticVideoFrame f = make_synthetic_frame("yuv444p", w, 16, 1, matrix, ColourRange::limited);
  test::fill_component(f, 0, [](std::uint32_t, std::uint32_t) { return 128u; });
  test::fill_component(f, 1, [&](std::uint32_t x, std::uint32_t) { return codes[x / 8][0]; });
  test::fill_component(f, 2, [&](std::uint32_t x, std::uint32_t) { return codes[x / 8][1]; });
  return f;
}

// Where the vectorscope drew the dot near the codes of `box`: the centre of the white pixels
// within 4 pixels of the box, mapped back to codes (the square's centre is zero chroma, `zoom` x
// side / 256 pixels a code, Cb right, Cr up; code c fills the pixels from c to c + 1, so the
// centre of its pixels maps to c + 0.5). None without white pixels there.
std::optional<std::array<double, 2>> dot_near(const std::vector<std::uint8_t>& pixels, VkExtent2D extent,
                                              const std::array<float, 4>& square, float zoom,
                                              const viewer::ChromaBox& box) {
  const double k = zoom * (square[2] - square[0]) / 256.0;
  const double cx = (square[0] + square[2]) / 2.0, cy = (square[1] + square[3]) / 2.0;
  const int x0 = static_cast<int>(std::floor(cx + (box.cb0 - 128) * k)) - 4, x1 = static_cast<int>(std::ceil(cx + (box.cb1 - 128) * k)) + 4;
  const int y0 = static_cast<int>(std::floor(cy - (box.cr1 - 128) * k)) - 4, y1 = static_cast<int>(std::ceil(cy - (box.cr0 - 128) * k)) + 4;
  double sx = 0, sy = 0;
  int n = 0;
  for (int y = std::max(y0, 0); y <= y1 && y < static_cast<int>(extent.height); ++y) {
    for (int x = std::max(x0, 0); x <= x1 && x < static_cast<int>(extent.width); ++x) {
      if (!white(rgb_at(pixels, extent.width, x, y))) continue;
      sx += x + 0.5;
      sy += y + 0.5;
      ++n;
    }
  }
  if (n == 0) return std::nullopt;
  return std::array<double, 2>{128 + (sx / n - cx) / k - 0.5, 128 - (sy / n - cy) / k - 0.5};
}

TEST_P(ScopeViewTest, ColourBarsHitTheirTargetsOnlyForTheirMatrix) {
  // x1: the 100 % bars reach the square's edge (x2 and x5 show the middle codes only).
  const VkExtent2D extent{1200, 1000};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), engine());
  auto style = scopes_style(false, false, true);
  const float zoom = 1.0f;
  for (const ColourMatrix matrix : {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020}) {
    // A matrix whose bars lie 6 or more codes from these (BT.709's and BT.2020's are within 1).
    const ColourMatrix wrong = matrix == ColourMatrix::bt601 ? ColourMatrix::bt709 : ColourMatrix::bt601;
    const viewer::ChromaSource source{matrix, ColourRange::limited, 8}, other{wrong, ColourRange::limited, 8};
    for (const double level : {0.75, 1.0}) {
      std::vector<std::array<std::uint32_t, 2>> codes;
      for (const viewer::Bar bar : viewer::kBars) codes.push_back(viewer::bar_codes(source, bar, level));
      const auto frame = bars_frame(matrix, codes);
      const auto pixels = draw_once(context(), renderer, target, frame, style);
      dump(pixels, extent, "bars_" + std::string(matrix_name(matrix)) + (level < 1 ? "_75" : "_100"));
      const auto square = viewer::vectorscope_square(panel_of(style, extent, ScopeKind::vectorscope).plot);
      for (const viewer::Bar bar : viewer::kBars) {
        const std::string what = std::string(matrix_name(matrix)) + " " + std::to_string(level) + " " +
                                 std::string(viewer::bar_label(bar));
        const auto right = viewer::target_box(source, bar, level);
        const auto dot = dot_near(pixels, extent, square, zoom, right);
        ASSERT_TRUE(dot.has_value()) << what << ": no dot near its target";
        EXPECT_TRUE(right.contains((*dot)[0], (*dot)[1])) << what << ": dot at " << (*dot)[0] << ", " << (*dot)[1];
        EXPECT_FALSE(viewer::target_box(other, bar, level).contains((*dot)[0], (*dot)[1]))
            << what << ": dot at " << (*dot)[0] << ", " << (*dot)[1] << " is in " << matrix_name(wrong) << "'s box";
      }
    }
  }
}

// A gray ramp of `bits` bits across 200 columns (code round(x * top / 199), top = 2^bits - 1),
// R' = G' = B' so that luma is the same code.
SyntheticVideoFrame gray_ramp(std::uint32_t bits) {
  const double top = std::ldexp(1.0, static_cast<int>(bits)) - 1;
  SyntheticVideoFrame f = make_synthetic_frame(bits == 8 ? "gbrp" : "gbrp10", 200, 20, 1, ColourMatrix::bt709,
                                               ColourRange::full);
  for (std::uint32_t c = 0; c < 3; ++c) {
    test::fill_component(f, c, [top](std::uint32_t x, std::uint32_t) {
      return static_cast<std::uint32_t>(std::lround(x * top / 199.0));
    });
  }
  return f;
}

TEST_P(ScopeViewTest, RampDrawsADiagonal) {
  const VkExtent2D extent{640, 360};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), engine());
  const auto style = scopes_style(true, false, false);
  for (const std::uint32_t bits : {8u, 10u}) {
    const double top_code = std::ldexp(1.0, static_cast<int>(bits)) - 1, codes = top_code + 1;
    const auto pixels = draw_once(context(), renderer, target, gray_ramp(bits), style);
    dump(pixels, extent, "ramp" + std::to_string(bits));
    const auto plot = panel_of(style, extent, ScopeKind::waveform).plot;
    const int x0 = static_cast<int>(plot[0]), x1 = static_cast<int>(plot[2]);
    // Each plot column sums `run` picture columns; the plot's columns are spread over its width.
    const double run = std::ceil(200.0 / (x1 - x0)), columns = std::ceil(200.0 / run), h = plot[3] - plot[1];
    int checked = 0;
    for (int px = x0; px < x1; ++px) {
      const double column = std::floor((px - x0) * columns / (x1 - x0));
      const double first = column * run, last = std::min(199.0, first + run - 1);
      // Rows from the codes' places: code c spans (c .. c + 1) / 2^bits of the height up; a
      // pixel row may sum several levels (one row and a half of slack each way).
      const double top = plot[3] - (std::lround(last * top_code / 199.0) + 1.0) * h / codes - 1.5;
      const double bottom = plot[3] - std::lround(first * top_code / 199.0) * h / codes + 1.5;
      int lit = 0;
      for (int y = static_cast<int>(plot[1]); y < static_cast<int>(plot[3]); ++y) {
        if (!white(rgb_at(pixels, extent.width, px, y))) continue;
        ++lit;
        EXPECT_TRUE(y >= top && y <= bottom)
            << bits << " bits: column " << px << " lit at row " << y << ", expected " << top << ".." << bottom;
      }
      EXPECT_GE(lit, 1) << bits << " bits: column " << px;
      ++checked;
    }
    EXPECT_GT(checked, 50);
  }
}

TEST_P(ScopeViewTest, LegalLinesSitAtR103Codes) {
  const VkExtent2D extent{640, 480};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), engine());
  auto style = scopes_style(false, true, false);
  style.parade_view = viewer::ParadeView::ycbcr;
  style.scope_legal = true;
  SyntheticVideoFrame frame = make_synthetic_frame("yuv420p", 64, 32, 1, ColourMatrix::bt709, ColourRange::limited);
  for (std::uint32_t c = 0; c < 3; ++c) test::fill_component(frame, c, [](std::uint32_t, std::uint32_t) { return 128u; });
  const auto pixels = draw_once(context(), renderer, target, frame, style);
  const auto panel = panel_of(style, extent, ScopeKind::parade);
  const int x = static_cast<int>(panel.plot[0] + panel.part / 2);  // the Y' part's middle
  const double h = panel.plot[3] - panel.plot[1];
  // EBU R 103: -5 % and 105 % of 16..235 are codes 5.05 and 245.95, drawn at codes 5 and 246.
  for (const int code : {5, 246}) {
    const int row = static_cast<int>(std::floor(panel.plot[3] - (code + 0.5) * h / 256));
    bool amber = false;
    for (int y = row - 1; y <= row + 1; ++y) {
      const Rgb p = rgb_at(pixels, extent.width, x, y);
      amber = amber || (p[0] > 200 && p[1] > 140 && p[1] < 220 && p[2] < 90);
    }
    EXPECT_TRUE(amber) << "no legal line at code " << code << " (row " << row << ")";
  }
}

TEST_P(ScopeViewTest, CountsTheRegionOnly) {
  const VkExtent2D extent{640, 360};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), engine());
  auto style = scopes_style(true, false, false);
  style.scope_legal = false;
  // Left half code 40, right half code 200.
  const auto frame = pattern_frame(64, 32, [](std::uint32_t x, std::uint32_t) {
    const int v = x < 32 ? 40 : 200;
    return Rgb{v, v, v};
  });
  const auto plot = panel_of(style, extent, ScopeKind::waveform).plot;
  const double h = plot[3] - plot[1];
  const auto lit_rows_near = [&](const std::vector<std::uint8_t>& pixels, int code) {
    const int row = static_cast<int>(std::floor(plot[3] - (code + 0.5) * h / 256));
    int n = 0;
    for (int y = row - 1; y <= row + 1; ++y) {
      for (int px = static_cast<int>(plot[0]); px < static_cast<int>(plot[2]); ++px) n += white(rgb_at(pixels, extent.width, px, y));
    }
    return n;
  };
  const auto whole = draw_once(context(), renderer, target, frame, style);
  EXPECT_GT(lit_rows_near(whole, 40), 0);
  EXPECT_GT(lit_rows_near(whole, 200), 0);
  style.region = PixelRect{32, 0, 32, 32};
  const auto region = draw_once(context(), renderer, target, frame, style);
  EXPECT_EQ(lit_rows_near(region, 40), 0) << "the region's waveform shows the code outside it";
  EXPECT_GT(lit_rows_near(region, 200), 0);
}

// The split view: the waveform's left part shows the frame (a ramp over codes 100..140), its
// right part the equalized frame, whose codes spread to the whole range.
TEST_P(ScopeViewTest, SplitViewShowsTheEqualizedFrameRightOfTheSplit) {
  const VkExtent2D extent{640, 360};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), engine());
  auto style = scopes_style(true, false, false);
  style.scope_legal = false;
  style.equalize = EqualizeMode::luma;
  style.split_view = true;
  style.split_position = 0.5f;
  const auto frame = pattern_frame(128, 32, [](std::uint32_t x, std::uint32_t) {
    const int v = 100 + static_cast<int>(x * 40 / 127);
    return Rgb{v, v, v};
  });
  const auto pixels = draw_once(context(), renderer, target, frame, style);
  dump(pixels, extent, "split");
  const auto plot = panel_of(style, extent, ScopeKind::waveform).plot;
  const double h = plot[3] - plot[1];
  const int mid = static_cast<int>((plot[0] + plot[2]) / 2);
  // Lit rows above code 200 (the original has none; the equalized ramp reaches the top).
  const auto lit_above_200 = [&](int x0, int x1) {
    int n = 0;
    const int row = static_cast<int>(std::floor(plot[3] - 200.5 * h / 256));
    for (int y = static_cast<int>(plot[1]); y < row; ++y) {
      for (int x = x0; x < x1; ++x) n += white(rgb_at(pixels, extent.width, x, y));
    }
    return n;
  };
  EXPECT_EQ(lit_above_200(static_cast<int>(plot[0]), mid - 1), 0);
  EXPECT_GT(lit_above_200(mid + 1, static_cast<int>(plot[2])), 0);
}

// The split view of a 4:2:0 frame: the equalized frame is R'G'B' without chroma subsampling (the
// source's shifts kept made the scopes refuse it and the viewer stop). Both halves of the
// waveform are drawn, and the vectorscope.
TEST_P(ScopeViewTest, SplitViewOfASubsampledFrame) {
  const VkExtent2D extent{640, 360};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), engine());
  auto style = scopes_style(true, true, true);
  style.parade_view = viewer::ParadeView::ycbcr;
  style.equalize = EqualizeMode::luma;
  style.split_view = true;
  style.split_position = 0.5f;
  const auto frame = make_natural_yuv420(64, 36, 8, 2);
  const auto pixels = draw_once(context(), renderer, target, frame, style);
  dump(pixels, extent, "split420");
  const auto lit = [&](const std::array<float, 4>& plot, int x0, int x1) {
    int n = 0;
    for (int y = static_cast<int>(plot[1]); y < static_cast<int>(plot[3]); ++y) {
      for (int x = x0; x < x1; ++x) n += white(rgb_at(pixels, extent.width, x, y));
    }
    return n;
  };
  const auto wave = panel_of(style, extent, ScopeKind::waveform).plot;
  const int mid = static_cast<int>((wave[0] + wave[2]) / 2);
  EXPECT_GT(lit(wave, static_cast<int>(wave[0]), mid - 1), 0);
  EXPECT_GT(lit(wave, mid + 1, static_cast<int>(wave[2])), 0);
  const auto vector = panel_of(style, extent, ScopeKind::vectorscope).plot;
  EXPECT_GT(lit(vector, static_cast<int>(vector[0]), static_cast<int>(vector[2])), 0);
}

// Paused: the CPU engine counts on the host from the frame, so a change of what the scopes count
// asks for the frame again (and the GPU engine, which counts from the frame on the GPU, does not).
TEST_P(ScopeViewTest, PausedFrameComesAgainOnlyForTheCpuEngine) {
  const VkExtent2D extent{320, 180};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), engine());
  auto style = scopes_style(true, false, false);
  const auto frame = make_natural_yuv420(64, 36, 8, 2);
  draw_once(context(), renderer, target, frame, style);
  const auto laid = [&](const viewer::DrawStyle& s) { return viewer::with_scope_layout(s, 320, 180); };
  EXPECT_FALSE(renderer.wants_frame_again(laid(style)));  // counted
  style.vectorscope = true;
  EXPECT_EQ(renderer.wants_frame_again(laid(style)), engine() == Engine::cpu);
  draw_once(context(), renderer, target, frame, style);
  EXPECT_FALSE(renderer.wants_frame_again(laid(style)));
}

// All three scopes of a natural-looking frame at three window sizes in each place: every panel
// has its title (text-grey pixels in its title strip) and traces in its plot; beside and under
// leave the video's pixels alone outside the panels.
TEST_P(ScopeViewTest, AllThreeInEveryPlace) {
  const auto frame = make_natural_yuv420(320, 180, 8, 1);
  for (const VkExtent2D extent : {VkExtent2D{640, 360}, VkExtent2D{1280, 720}}) {
    viewer::OffscreenTarget target(context(), extent);
    viewer::FrameRenderer renderer(context(), engine());
    for (const auto place : {viewer::ScopePlace::beside, viewer::ScopePlace::under, viewer::ScopePlace::over}) {
      viewer::DrawStyle style;
      style.waveform = style.parade = style.vectorscope = true;
      style.scope_place = place;
      style.ui_scale = viewer::picture_ui_scale(1.0f, static_cast<float>(extent.height));
      const auto pixels = draw_once(context(), renderer, target, frame, style);
      dump(pixels, extent, "all_" + std::to_string(static_cast<int>(place)));
      const auto laid = viewer::with_scope_layout(style, static_cast<float>(extent.width), static_cast<float>(extent.height));
      for (const auto& panel : viewer::scope_panels(laid)) {
        int text = 0, traces = 0;
        for (int y = static_cast<int>(panel.title[1]); y < static_cast<int>(panel.title[3]); ++y) {
          for (int x = static_cast<int>(panel.title[0]); x < static_cast<int>(panel.title[2]); ++x) {
            const Rgb p = rgb_at(pixels, extent.width, x, y);
            text += p[0] == 217 && p[1] == 217 && p[2] == 217;  // 0.85 grey
          }
        }
        for (int y = static_cast<int>(panel.plot[1]); y < static_cast<int>(panel.plot[3]); ++y) {
          for (int x = static_cast<int>(panel.plot[0]); x < static_cast<int>(panel.plot[2]); ++x) {
            const Rgb p = rgb_at(pixels, extent.width, x, y);
            traces += p[0] + p[1] + p[2] > 200;
          }
        }
        EXPECT_GT(text, 20) << static_cast<int>(panel.kind) << " at " << extent.width;
        EXPECT_GT(traces, 50) << static_cast<int>(panel.kind) << " at " << extent.width;
      }
    }
  }
}

// The split view of a 4:2:0 frame: the equalized frame's counts (R'G'B', one pixel each) are
// drawn right of the split in each scope (the pass was once given the frame's subsampling with
// the R'G'B' model, and refused the tick).
TEST_P(ScopeViewTest, SplitViewOfA420Frame) {
  const VkExtent2D extent{640, 360};
  viewer::OffscreenTarget target(context(), extent);
  viewer::FrameRenderer renderer(context(), engine());
  viewer::DrawStyle style;
  style.waveform = style.parade = style.vectorscope = true;
  style.equalize = EqualizeMode::luma;
  style.split_view = true;
  style.split_position = 0.5f;
  style.ui_scale = viewer::picture_ui_scale(1.0f, static_cast<float>(extent.height));
  const auto frame = make_natural_yuv420(320, 180, 8, 1);
  std::vector<std::uint8_t> pixels;
  ASSERT_NO_THROW(pixels = draw_once(context(), renderer, target, frame, style));
  dump(pixels, extent, "split_420");
  const auto laid = viewer::with_scope_layout(style, static_cast<float>(extent.width), static_cast<float>(extent.height));
  for (const auto& panel : viewer::scope_panels(laid)) {
    int traces = 0;
    for (int y = static_cast<int>(panel.plot[1]); y < static_cast<int>(panel.plot[3]); ++y) {
      for (int x = static_cast<int>((panel.plot[0] + panel.plot[2]) / 2) + 1; x < static_cast<int>(panel.plot[2]); ++x) {
        const Rgb p = rgb_at(pixels, extent.width, x, y);
        traces += p[0] + p[1] + p[2] > 200;
      }
    }
    EXPECT_GT(traces, 20) << static_cast<int>(panel.kind);
  }
}

// `vhist scope`'s picture (scopes only, its pipelines made when first used): the CPU engine
// converts the frame (and takes its statistics) only for a scope that reads its R'G'B'; the
// vectorscope of a frame's Y'CbCr planes is drawn without.
TEST_P(ScopeViewTest, ScopesOnlyConvertTheFrameOnlyForAScopeThatReadsIt) {
  const VkExtent2D extent{320, 160};
  viewer::OffscreenTarget target(context(), extent);
  const auto frame = make_natural_yuv420(64, 36, 8, 2);
  for (const bool vector : {true, false}) {
    viewer::FrameRenderer renderer(context(), engine(), viewer::FrameRenderer::Pipelines::on_first_use);
    auto style = scopes_style(!vector, false, vector);
    style.scopes_only = true;
    style.video = false;
    const auto pixels = draw_once(context(), renderer, target, frame, style);
    if (engine() == Engine::cpu) {
      EXPECT_EQ(renderer.statistics().valid, !vector) << vector;
    }
    int traces = 0;
    for (int y = 0; y < static_cast<int>(extent.height); ++y) {
      for (int x = 0; x < static_cast<int>(extent.width); ++x) {
        const Rgb p = rgb_at(pixels, extent.width, x, y);
        traces += p[0] + p[1] + p[2] > 600;
      }
    }
    EXPECT_GT(traces, 20) << vector;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, ScopeViewTest, ::testing::Bool(),
                         [](const auto& p) { return p.param ? std::string("cpu") : std::string("gpu"); });

}  // namespace
}  // namespace vhist
