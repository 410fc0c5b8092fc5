// The scopes' graticules and scales (scope_scale.h, scope_graticule.h): the waveform's levels and
// the vectorscope's colour-bar targets against the standards' published numbers (each test names
// its source), and the layout in a plot's pixels at the window sizes the viewer supports.
#include "vhist/picture/light_scale.h"
#include "vhist/picture/picture_overlay.h"
#include "vhist/picture/scope_graticule.h"
#include "vhist/picture/scope_layout.h"
#include "vhist/picture/scope_scale.h"

#include "vhist/font_shared.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace vhist::viewer {
namespace {

using Rect = std::array<float, 4>;

// ---- Waveform levels -------------------------------------------------------------------------

// The nominal range's ends: BT.709-6 item 4.6 (8 bits: black 16, white 235; 10 bits: 64, 940),
// BT.2020-2 table 5 (10 bits 64/940, 12 bits 256/3760); full range 0 and 2^n - 1 (BT.2100-2
// table 9).
TEST(WaveformScale, PercentOfTheNominalRangeAtEachDepth) {
  const struct {
    std::uint32_t bits;
    ColourRange range;
    double black, white;
  } cases[] = {{8, ColourRange::limited, 16, 235},   {10, ColourRange::limited, 64, 940},
               {12, ColourRange::limited, 256, 3760}, {16, ColourRange::limited, 4096, 60160},
               {8, ColourRange::full, 0, 255},        {10, ColourRange::full, 0, 1023}};
  for (const auto& c : cases) {
    const LevelSource source{c.bits, c.range, LightScale::none};
    EXPECT_DOUBLE_EQ(percent_code(source, 0), c.black) << c.bits;
    EXPECT_DOUBLE_EQ(percent_code(source, 100), c.white) << c.bits;
    EXPECT_DOUBLE_EQ(code_percent(source, c.white), 100.0) << c.bits;
    EXPECT_DOUBLE_EQ(code_percent(source, (c.black + c.white) / 2), 50.0) << c.bits;
  }
}

// EBU R 103 v3.0 (2020; as v2.0, 2016): R', G', B' and Y' within -5 % and 105 % of the nominal
// range. The EBU QC criteria item 0051B ("Video Signal Levels") works the codes out: 5 % of
// 16-235 is 11, so 5 and 246 at 8 bits; 5 % of 64-940 is 43.8, about 44, so 20 and 984 at 10.
TEST(WaveformScale, EbuR103LimitsArePublishedCodes) {
  EXPECT_EQ(ebu_r103_limits({8, ColourRange::limited, LightScale::none}), (LegalLimits{5, 246}));
  EXPECT_EQ(ebu_r103_limits({10, ColourRange::limited, LightScale::none}), (LegalLimits{20, 984}));
  EXPECT_EQ(ebu_r103_limits({10, ColourRange::limited, LightScale::pq}), (LegalLimits{20, 984}));
  EXPECT_FALSE(ebu_r103_limits({8, ColourRange::full, LightScale::none}).has_value());
}

TEST(WaveformScale, PercentLevelsWithLegalLines) {
  const auto levels = waveform_levels({8, ColourRange::limited, LightScale::none}, LevelUnits::percent, true);
  ASSERT_EQ(levels.size(), 13u);  // 0 .. 100 % every 10, and the two legal limits
  EXPECT_EQ(levels.front().code, 5.0);
  EXPECT_EQ(levels.front().kind, LevelKind::legal);
  EXPECT_EQ(levels.front().label, "-5%");
  EXPECT_EQ(levels[1].code, 16.0);
  EXPECT_EQ(levels[1].label, "0%");
  EXPECT_EQ(levels[1].kind, LevelKind::major);
  EXPECT_EQ(levels[2].kind, LevelKind::minor);  // 10 %
  EXPECT_NEAR(levels[2].code, 37.9, 1e-9);      // 16 + 21.9
  EXPECT_EQ(levels[11].code, 235.0);
  EXPECT_EQ(levels[11].label, "100%");
  EXPECT_EQ(levels.back().code, 246.0);
  EXPECT_EQ(levels.back().label, "105%");
  for (std::size_t i = 1; i < levels.size(); ++i) EXPECT_GE(levels[i].code, levels[i - 1].code);
  // Full range: no legal lines (no code lies outside the nominal range); without `legal` none either.
  EXPECT_EQ(waveform_levels({8, ColourRange::full, LightScale::none}, LevelUnits::percent, true).size(), 11u);
  EXPECT_EQ(waveform_levels({10, ColourRange::limited, LightScale::none}, LevelUnits::percent, false).size(), 11u);
}

// The Cb and Cr planes of the Y'CbCr parade: BT.709-6 item 4.6 (and BT.2020-2 table 5) puts
// chroma's zero at 128 (512 at 10 bits) and its range at 16..240 (64..960); no legal lines (EBU R
// 103 limits Y', R', G', B').
TEST(WaveformScale, ChromaPlanesCentreOnZeroChroma) {
  const LevelSource cb8{8, ColourRange::limited, LightScale::none, true};
  const LevelSource cb10{10, ColourRange::limited, LightScale::pq, true};
  EXPECT_DOUBLE_EQ(percent_code(cb8, -50), 16.0);
  EXPECT_DOUBLE_EQ(percent_code(cb8, 0), 128.0);
  EXPECT_DOUBLE_EQ(percent_code(cb8, 50), 240.0);
  EXPECT_DOUBLE_EQ(percent_code(cb10, -50), 64.0);
  EXPECT_DOUBLE_EQ(percent_code(cb10, 50), 960.0);
  EXPECT_DOUBLE_EQ(code_percent(cb10, 512), 0.0);
  EXPECT_FALSE(ebu_r103_limits(cb10).has_value());
  const auto levels = waveform_levels(cb10, LevelUnits::nits, true);  // no light for chroma: percent
  ASSERT_EQ(levels.size(), 11u);
  EXPECT_EQ(levels.front().label, "-50%");
  EXPECT_EQ(levels.front().code, 64.0);
  EXPECT_EQ(levels[5].label, "0%");
  EXPECT_EQ(levels[5].code, 512.0);
  EXPECT_EQ(levels.back().label, "+50%");
  EXPECT_EQ(levels.back().code, 960.0);
  std::vector<std::string> codes;
  for (const Level& l : waveform_levels(cb8, LevelUnits::codes, false)) codes.push_back(l.label);
  EXPECT_EQ(codes, (std::vector<std::string>{"0", "16", "64", "128", "192", "240", "255"}));
  // Full range (BT.2100-2 table 9: 2^(n-1) + (2^n - 1) E): -50 % at 0.5, +50 % at 255.5, half a
  // code past the top, drawn on the top code.
  const auto full = waveform_levels({8, ColourRange::full, LightScale::none, true}, LevelUnits::percent, false);
  ASSERT_EQ(full.size(), 11u);
  EXPECT_EQ(full.front().code, 0.5);
  EXPECT_EQ(full.back().code, 255.0);
}

TEST(WaveformScale, CodeLevelsIncludeTheLimitedRangeEnds) {
  const auto levels = waveform_levels({10, ColourRange::limited, LightScale::none}, LevelUnits::codes, false);
  std::vector<std::string> labels;
  for (const Level& l : levels) labels.push_back(l.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"0", "64", "256", "512", "768", "940", "1023"}));
  EXPECT_EQ(waveform_levels({8, ColourRange::full, LightScale::none}, LevelUnits::codes, false).size(), 5u);
}

// Light, against BT.2408: HDR reference white, 203 cd/m2, is 75 % of the HLG signal (10-bit
// narrow range code 721) and 58 % of the PQ signal; PQ puts 100 cd/m2 at 0.508 and 1000 at 0.752.
TEST(WaveformScale, NitsLevelsMarkHdrReferenceWhite) {
  const LevelSource hlg{10, ColourRange::limited, LightScale::hlg};
  const auto h = waveform_levels(hlg, LevelUnits::nits, false);
  const auto white = std::find_if(h.begin(), h.end(), [](const Level& l) { return l.kind == LevelKind::reference_white; });
  ASSERT_NE(white, h.end());
  EXPECT_EQ(white->label, "203");
  EXPECT_NEAR(white->code, 721.0, 1.0);
  EXPECT_EQ(h.back().label, "1000 nits");
  EXPECT_NEAR(h.back().code, 940.0, 1e-3);  // HLG's nominal peak is its 100 %

  const LevelSource pq{10, ColourRange::limited, LightScale::pq};
  const auto p = waveform_levels(pq, LevelUnits::nits, false);
  const auto pw = std::find_if(p.begin(), p.end(), [](const Level& l) { return l.kind == LevelKind::reference_white; });
  ASSERT_NE(pw, p.end());
  EXPECT_NEAR(code_percent(pq, pw->code), 58.0, 0.5);
  const auto hundred = std::find_if(p.begin(), p.end(), [](const Level& l) { return l.label == "100"; });
  ASSERT_NE(hundred, p.end());
  EXPECT_NEAR(hundred->code, 64 + 0.508 * 876, 1.0);
  EXPECT_EQ(p.back().label, "10000 nits");
  // Full range (the R'G'B' vhist converts to): 1000 cd/m2 at 0.752 of 1023, as light_scale's axis.
  const auto pf = waveform_levels({10, ColourRange::full, LightScale::pq}, LevelUnits::nits, false);
  const auto thousand = std::find_if(pf.begin(), pf.end(), [](const Level& l) { return l.label == "1000"; });
  ASSERT_NE(thousand, pf.end());
  EXPECT_NEAR(thousand->code, 0.752 * 1023, 1.0);
  // An SDR source has no light scale: percent instead.
  const auto sdr = waveform_levels({8, ColourRange::limited, LightScale::none}, LevelUnits::nits, false);
  EXPECT_EQ(sdr.back().label, "100%");
}

TEST(WaveformScale, ColumnBinningInWords) {
  EXPECT_EQ(waveform_column_run(3840, 960), 4u);
  EXPECT_EQ(waveform_column_run(1000, 960), 2u);  // a run is whole columns: ceil
  EXPECT_EQ(waveform_column_run(500, 960), 1u);
  EXPECT_EQ(waveform_column_run(0, 960), 1u);
  EXPECT_EQ(column_binning_text(4), "1 plot column = 4 picture columns");
  EXPECT_EQ(column_binning_text(1), "1 plot column = 1 picture column");
}

// ---- Waveform layout -------------------------------------------------------------------------

bool overlaps(const Rect& a, const Rect& b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }

Rect label_rect(const ScopeLabel& l, float s) {
  return {l.x, l.y, l.x + static_cast<float>(l.text.size() * 6 - 1) * s, l.y + 7 * s};
}

bool inside(const shader::OverlayItem& it, const Rect& r) {
  return it.rect[0] >= r[0] && it.rect[1] >= r[1] && it.rect[2] <= r[2] && it.rect[3] <= r[3];
}

bool has_line(const std::vector<shader::OverlayItem>& items, float y, float h, const std::array<float, 3>& colour) {
  return std::any_of(items.begin(), items.end(), [&](const shader::OverlayItem& it) {
    return it.kind == shader::kOverlaySolid && it.rect[1] == y && it.rect[3] == y + h && it.colour[0] == colour[0] &&
           it.colour[1] == colour[1] && it.colour[2] == colour[2];
  });
}

// A plot 256 rows tall at 8 bits: one row a code, code c in row (bottom - 1 - c).
TEST(WaveformGraticule, LegalLinesSitAtTheirCodes) {
  WaveformGraticuleInput in;
  in.source = {8, ColourRange::limited, LightScale::none};
  in.legal = true;
  in.plot = {10, 20, 330, 276};
  const auto items = waveform_graticule(in);
  EXPECT_TRUE(has_line(items, 275 - 246, 1, kScopeLegal));  // 105 %
  EXPECT_TRUE(has_line(items, 275 - 5, 1, kScopeLegal));    // -5 %
  EXPECT_TRUE(has_line(items, 275 - 16, 1, kScopeMajorLine));   // 0 %
  EXPECT_TRUE(has_line(items, 275 - 235, 1, kScopeMajorLine));  // 100 %
  for (const auto& it : items) EXPECT_TRUE(inside(it, in.plot));
  in.legal = false;
  EXPECT_FALSE(has_line(waveform_graticule(in), 275 - 246, 1, kScopeLegal));
}

// Down to the smallest panel and up to 4K: every item inside the plot, lines line_width thick,
// kept labels inside and apart, and the labels that matter most (the legal limits, 0 % and 100 %)
// kept wherever the plot is tall enough to hold them apart.
TEST(WaveformGraticule, LabelsReadableAndApartAtEverySize) {
  const struct {
    Rect plot;
    float ui_scale;
  } sizes[] = {{{0, 0, 120, 60}, 1.0f},     {{4, 30, 210, 170}, 1.0f},  {{0, 0, 426, 240}, 1.0f},
               {{0, 0, 640, 360}, 1.5f},    {{0, 0, 1280, 720}, 2.0f},  {{100, 50, 1900, 1050}, 3.0f},
               {{0, 0, 640, 30}, 1.0f}};
  for (LevelUnits units : {LevelUnits::codes, LevelUnits::percent, LevelUnits::nits}) {
    for (const auto& size : sizes) {
      WaveformGraticuleInput in;
      in.source = {10, ColourRange::limited, LightScale::pq};
      in.units = units;
      in.legal = true;
      in.plot = size.plot;
      in.ui_scale = size.ui_scale;
      std::vector<ScopeLabel> labels;
      const auto items = waveform_graticule(in, &labels);
      const float s = std::max(1.0f, std::round(size.ui_scale * 8) / 8), lw = std::max(1.0f, std::round(s));
      for (const auto& it : items) {
        EXPECT_TRUE(inside(it, size.plot));
        if (it.kind == shader::kOverlaySolid && it.rect[2] - it.rect[0] == size.plot[2] - size.plot[0]) {
          EXPECT_EQ(it.rect[3] - it.rect[1], lw);  // a graticule line
        }
      }
      for (std::size_t i = 0; i < labels.size(); ++i) {
        if (!labels[i].kept) continue;
        EXPECT_TRUE(text_drawable(labels[i].text)) << labels[i].text;
        for (std::size_t j = i + 1; j < labels.size(); ++j) {
          if (labels[j].kept) {
            EXPECT_FALSE(overlaps(label_rect(labels[i], s), label_rect(labels[j], s)));
          }
        }
      }
      if (size.plot[3] - size.plot[1] >= 140) {
        for (const char* must : {"-5%", "105%"}) {
          EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [&](const ScopeLabel& l) { return l.kept && l.text == must; }))
              << must << " at " << size.plot[2] - size.plot[0] << "x" << size.plot[3] - size.plot[1];
        }
      }
    }
  }
}

// ui_scale 2: lines 2 pixels, glyphs at 16 eighths of a pixel per font pixel; a parade's second
// plot (labels off) draws lines only.
TEST(WaveformGraticule, ScaleFollowsUiScaleAndLabelsCanBeOff) {
  WaveformGraticuleInput in;
  in.plot = {0, 0, 800, 512};
  in.ui_scale = 2.0f;
  const auto items = waveform_graticule(in);
  std::size_t glyphs = 0;
  for (const auto& it : items) {
    if (it.kind == shader::kOverlayGlyph) {
      EXPECT_EQ(it.scale, 16u);
      ++glyphs;
    } else if (it.rect[2] - it.rect[0] == 800) {
      EXPECT_EQ(it.rect[3] - it.rect[1], 2.0f);
    }
  }
  EXPECT_GT(glyphs, 0u);
  in.labels = false;
  for (const auto& it : waveform_graticule(in)) EXPECT_EQ(it.rect[2] - it.rect[0], 800.0f);
}

// The last item covering a pixel wins: the text comes after every line, and the legal lines after
// the scale's, so neither is hidden by a line drawn later.
TEST(WaveformGraticule, TextAndLegalLinesDrawnLast) {
  WaveformGraticuleInput in;
  in.source = {8, ColourRange::limited, LightScale::none};
  in.legal = true;
  in.plot = {0, 0, 400, 300};
  const auto items = waveform_graticule(in);
  std::size_t last_line = 0, first_text = items.size(), last_scale_line = 0, first_legal = items.size();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool line = items[i].kind == shader::kOverlaySolid && items[i].rect[2] - items[i].rect[0] == 400;
    if (line) last_line = i;
    if (!line) first_text = std::min(first_text, i);
    const bool legal = line && items[i].colour[0] == kScopeLegal[0] && items[i].colour[1] == kScopeLegal[1];
    if (legal) first_legal = std::min(first_legal, i);
    if (line && !legal) last_scale_line = i;
  }
  EXPECT_LT(last_line, first_text);
  EXPECT_LT(last_scale_line, first_legal);
}

// ---- Vectorscope targets ---------------------------------------------------------------------

struct Published {
  Bar bar;
  std::uint32_t cb, cr;
};

void expect_bars(const ChromaSource& source, double level, const std::vector<Published>& table, const char* what) {
  for (const Published& p : table) {
    const auto codes = bar_codes(source, p.bar, level);
    EXPECT_EQ(codes[0], p.cb) << what << " " << bar_label(p.bar) << " Cb";
    EXPECT_EQ(codes[1], p.cr) << what << " " << bar_label(p.bar) << " Cr";
  }
}

// BT.601, 8 bits: the 100/0/75/0 bars of ITU-R BT.801-1 / SMPTE EG 1 (as reproduced by the
// AviSynth wiki's "ColorBars theory", which cites BT.801-1; EG 1's 10-bit values below agree), and
// the 100/0/100/0 bars as BT.801-1 tabulates them (these from the table as commonly quoted; no
// copy of the standard was at hand to re-read them).
const std::vector<Published> kBt601Bars75 = {{Bar::yellow, 44, 142}, {Bar::cyan, 156, 44}, {Bar::green, 72, 58},
                                              {Bar::magenta, 184, 198}, {Bar::red, 100, 212}, {Bar::blue, 212, 114}};
const std::vector<Published> kBt601Bars100 = {{Bar::yellow, 16, 146}, {Bar::cyan, 166, 16}, {Bar::green, 54, 34},
                                               {Bar::magenta, 202, 222}, {Bar::red, 90, 240}, {Bar::blue, 240, 110}};
// SMPTE RP 219 (HD bars, BT.709), 75 % bars, 8 bits (as the AviSynth wiki reproduces them; they
// are RP 219-2's 10-bit values below rounded to 8 bits).
const std::vector<Published> kBt709Bars75 = {{Bar::yellow, 44, 136}, {Bar::cyan, 147, 44}, {Bar::green, 63, 52},
                                              {Bar::magenta, 193, 204}, {Bar::red, 109, 212}, {Bar::blue, 212, 120}};

TEST(VectorscopeTargets, EightBitBarsMatchPublishedTables) {
  expect_bars({ColourMatrix::bt601, ColourRange::limited, 8}, 0.75, kBt601Bars75, "BT.801 75%");
  expect_bars({ColourMatrix::bt601, ColourRange::limited, 8}, 1.0, kBt601Bars100, "BT.801 100%");
  expect_bars({ColourMatrix::bt709, ColourRange::limited, 8}, 0.75, kBt709Bars75, "RP 219 75%");
}

// SMPTE RP 219-2 (2016), 10 bits: pattern 1's 75 % bars and patterns 2 and 3's 100 % cyan, blue,
// yellow and red, for BT.709 and for BT.2020 (its UHDTV bars); SMPTE EG 1's 75 % bars (BT.601)
// at 10 bits. As tabulated, with those sources named, in ifb/vapoursynth-colorbars (colorbars.c),
// which uses RP 219-2's explicit values rather than computing them.
TEST(VectorscopeTargets, TenBitBarsMatchRp219AndEg1) {
  const ChromaSource bt709{ColourMatrix::bt709, ColourRange::limited, 10};
  const ChromaSource bt2020{ColourMatrix::bt2020, ColourRange::limited, 10};
  const ChromaSource bt601{ColourMatrix::bt601, ColourRange::limited, 10};
  expect_bars(bt709, 0.75,
              {{Bar::yellow, 176, 543}, {Bar::cyan, 589, 176}, {Bar::green, 253, 207}, {Bar::magenta, 771, 817},
               {Bar::red, 435, 848}, {Bar::blue, 848, 481}},
              "RP 219-2 BT.709 75%");
  expect_bars(bt709, 1.0, {{Bar::yellow, 64, 553}, {Bar::cyan, 615, 64}, {Bar::red, 409, 960}, {Bar::blue, 960, 471}},
              "RP 219-2 BT.709 100%");
  expect_bars(bt2020, 0.75,
              {{Bar::yellow, 176, 539}, {Bar::cyan, 606, 176}, {Bar::green, 270, 203}, {Bar::magenta, 754, 821},
               {Bar::red, 418, 848}, {Bar::blue, 848, 485}},
              "RP 219-2 BT.2020 75%");
  expect_bars(bt2020, 1.0, {{Bar::yellow, 64, 548}, {Bar::cyan, 637, 64}, {Bar::red, 387, 960}, {Bar::blue, 960, 476}},
              "RP 219-2 BT.2020 100%");
  expect_bars(bt601, 0.75,
              {{Bar::yellow, 176, 567}, {Bar::cyan, 625, 176}, {Bar::green, 289, 231}, {Bar::magenta, 735, 793},
               {Bar::red, 399, 848}, {Bar::blue, 848, 457}},
              "EG 1 75%");
}

// The boxes move with the matrix: each published bar lies in its own matrix's box and outside the
// other matrix's, so a scope labelled with the wrong matrix would show every bar off target.
TEST(VectorscopeTargets, Bt601AndBt709BoxesDiffer) {
  const ChromaSource bt601{ColourMatrix::bt601, ColourRange::limited, 8};
  const ChromaSource bt709{ColourMatrix::bt709, ColourRange::limited, 8};
  for (std::size_t i = 0; i < 6; ++i) {
    const Published& p601 = kBt601Bars75[i];
    const Published& p709 = kBt709Bars75[i];
    EXPECT_TRUE(target_box(bt601, p601.bar, 0.75).contains(p601.cb, p601.cr)) << bar_label(p601.bar);
    EXPECT_FALSE(target_box(bt709, p601.bar, 0.75).contains(p601.cb, p601.cr)) << bar_label(p601.bar);
    EXPECT_TRUE(target_box(bt709, p709.bar, 0.75).contains(p709.cb, p709.cr)) << bar_label(p709.bar);
    EXPECT_FALSE(target_box(bt601, p709.bar, 0.75).contains(p709.cb, p709.cr)) << bar_label(p709.bar);
    // The 75 % and 100 % boxes of a bar are apart.
    const ChromaBox a = target_box(bt709, p709.bar, 0.75), b = target_box(bt709, p709.bar, 1.0);
    EXPECT_TRUE(a.cb1 < b.cb0 || b.cb1 < a.cb0 || a.cr1 < b.cr0 || b.cr1 < a.cr0) << bar_label(p709.bar);
  }
  for (const Published& p : kBt601Bars100) EXPECT_TRUE(target_box(bt601, p.bar, 1.0).contains(p.cb, p.cr));
}

double angle_of(const ChromaSource& source, Bar bar) {
  const auto c = bar_codes(source, bar, 1.0);
  return std::atan2(c[1] - chroma_zero(source), c[0] - chroma_zero(source)) * 180.0 / std::numbers::pi;
}

// SMPTE 170M's I axis (123 degrees from B'-Y' in the U/V plane) at 132.5 degrees from +Cb with Cb
// and Cr scaled alike (broadcast component scopes put the skin-tone line near 133 degrees):
// between red and yellow for every matrix, in the top left quadrant.
TEST(VectorscopeTargets, SkinToneLineBetweenRedAndYellow) {
  EXPECT_NEAR(skin_tone_angle_degrees(), 132.5, 0.2);
  for (ColourMatrix m : {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020}) {
    const ChromaSource source{m, ColourRange::limited, 8};
    EXPECT_GT(skin_tone_angle_degrees(), angle_of(source, Bar::red));
    EXPECT_LT(skin_tone_angle_degrees(), angle_of(source, Bar::yellow));
  }
}

bool in_polygon(const std::array<Chroma, 6>& poly, double x, double y) {
  bool in = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    if ((poly[i].cr > y) != (poly[j].cr > y) &&
        x < (poly[j].cb - poly[i].cb) * (y - poly[i].cr) / (poly[j].cr - poly[i].cr) + poly[i].cb) {
      in = !in;
    }
  }
  return in;
}

// Every R'G'B' of the cube maps inside the gamut hexagon, which lies inside the legal chroma box;
// chroma in the box's corners (no R'G'B' has it) lies outside the hexagon.
TEST(VectorscopeTargets, GamutHexagonHoldsEveryLegalColour) {
  for (ColourMatrix m : {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020}) {
    const ChromaSource source{m, ColourRange::limited, 10};
    const auto hex = gamut_hexagon(source);
    const ChromaBox box = legal_chroma_box(source);
    EXPECT_EQ(box.cb0, 64.0);
    EXPECT_EQ(box.cr1, 960.0);
    // On the box's edges (Cb or Cr +-0.5: 64 or 960), to rounding.
    for (const Chroma& v : hex) EXPECT_TRUE((ChromaBox{box.cb0 - 1e-9, box.cr0 - 1e-9, box.cb1 + 1e-9, box.cr1 + 1e-9}.contains(v.cb, v.cr)));
    for (double r = 0.05; r < 1; r += 0.15) {
      for (double g = 0.05; g < 1; g += 0.15) {
        for (double b = 0.05; b < 1; b += 0.15) {
          const Chroma c = chroma_of(source, r, g, b);
          EXPECT_TRUE(in_polygon(hex, c.cb, c.cr)) << r << " " << g << " " << b;
        }
      }
    }
    EXPECT_FALSE(in_polygon(hex, 70, 70));
    EXPECT_FALSE(in_polygon(hex, 950, 950));
  }
}

// Cb right, Cr up: red (Cb below zero, Cr above) in the top left; zoom stretches about the centre.
TEST(VectorscopeTargets, ZoomMapsAboutTheCentre) {
  const Rect square = vectorscope_square({0, 0, 356, 256});
  EXPECT_EQ(square, (Rect{50, 0, 306, 256}));
  const auto zero = chroma_to_plot(square, 8, 1, 128, 128);
  EXPECT_EQ(zero[0], 178.0f);
  EXPECT_EQ(zero[1], 128.0f);
  const auto red = chroma_to_plot(square, 8, 1, 109, 212);
  EXPECT_LT(red[0], zero[0]);
  EXPECT_LT(red[1], zero[1]);
  EXPECT_EQ(chroma_to_plot(square, 8, 1, 0, 0), (std::array<float, 2>{50, 256}));
  EXPECT_EQ(chroma_to_plot(square, 8, 2, 192, 64), (std::array<float, 2>{306, 256}));
  EXPECT_EQ(chroma_to_plot(square, 10, 5, 512 + 10, 512), (std::array<float, 2>{178 + 12.5f, 128}));
  EXPECT_TRUE(valid_zoom(5));
  EXPECT_FALSE(valid_zoom(3));
}

// ---- Vectorscope layout ----------------------------------------------------------------------

// At each zoom and size every item lies in the square, labels are apart, and each published bar
// maps inside its box's outline (the box's items span its pixel).
TEST(VectorscopeGraticule, ItemsInsideAndLabelsApart) {
  for (float zoom : kVectorscopeZooms) {
    for (const auto& [plot, ui] : {std::pair{Rect{0, 0, 160, 120}, 1.0f}, std::pair{Rect{10, 10, 410, 310}, 1.0f},
                                   std::pair{Rect{0, 0, 1000, 1000}, 2.0f}, std::pair{Rect{0, 0, 2000, 1400}, 3.0f}}) {
      VectorscopeGraticuleInput in;
      in.source = {ColourMatrix::bt709, ColourRange::limited, 8};
      in.zoom = zoom;
      in.plot = plot;
      in.ui_scale = ui;
      std::vector<ScopeLabel> labels;
      const auto items = vectorscope_graticule(in, &labels);
      const Rect square = vectorscope_square(plot);
      ASSERT_FALSE(items.empty());
      for (const auto& it : items) EXPECT_TRUE(inside(it, square));
      const float s = std::max(1.0f, std::round(ui * 8) / 8);
      for (std::size_t i = 0; i < labels.size(); ++i) {
        for (std::size_t j = i + 1; j < labels.size(); ++j) {
          if (labels[i].kept && labels[j].kept) {
            EXPECT_FALSE(overlaps(label_rect(labels[i], s), label_rect(labels[j], s)));
          }
        }
      }
      if (zoom == 1 && plot[2] - plot[0] >= 400) {
        EXPECT_EQ(std::count_if(labels.begin(), labels.end(), [](const ScopeLabel& l) { return l.kept; }), 6);
      }
    }
  }
}

// Every text the overlay draws, enumerated from the functions that build it in every mode, scale,
// matrix, depth and range: the scopes' titles and labels and the histograms' header, legend and
// axis. Each character must have a glyph in the font (add_text draws nothing for one it lacks:
// "equalized" was drawn "e uali ed" in the split view's title).
std::vector<std::string> every_overlay_text() {
  std::vector<std::string> texts;
  const ScopeKind kinds[] = {ScopeKind::waveform, ScopeKind::parade, ScopeKind::vectorscope};
  const WaveformMode modes[] = {WaveformMode::luma, WaveformMode::rgb, WaveformMode::ycbcr};
  const ColourMatrix matrices[] = {ColourMatrix::bt601, ColourMatrix::bt709, ColourMatrix::bt2020};
  DrawStyle style;
  for (ScopeKind kind : kinds) {
    for (WaveformMode mode : modes) {
      for (ColourMatrix matrix : matrices) {
        for (ScopeZoom zoom : {ScopeZoom::x1, ScopeZoom::x2, ScopeZoom::x5}) {
          for (ParadeView view : {ParadeView::rgb, ParadeView::ycbcr}) {
            for (int flags = 0; flags < 8; ++flags) {
              style.scope_zoom = zoom;
              style.parade_view = view;
              style.match = (flags & 4) != 0;
              for (std::uint32_t run : {1u, 2u, 13u, 1024u}) {
                texts.push_back(scope_title(style, kind, mode, run, matrix, (flags & 1) != 0, (flags & 2) != 0));
              }
            }
          }
        }
      }
    }
  }
  for (Bar bar : kBars) texts.emplace_back(bar_label(bar));
  for (std::uint32_t bits : {8u, 10u, 12u, 16u}) {
    for (ColourRange range : {ColourRange::limited, ColourRange::full}) {
      for (LightScale light : {LightScale::none, LightScale::pq, LightScale::hlg}) {
        for (bool chroma : {false, true}) {
          for (LevelUnits units : {LevelUnits::codes, LevelUnits::percent, LevelUnits::nits}) {
            for (bool legal : {false, true}) {
              WaveformGraticuleInput in;
              in.source = {bits, range, light, chroma};
              in.units = units;
              in.legal = legal;
              in.plot = {0, 0, 1024, 512};
              std::vector<ScopeLabel> labels;
              waveform_graticule(in, &labels);
              for (const ScopeLabel& l : labels) texts.push_back(l.text);
              for (const Level& l : waveform_levels(in.source, units, legal)) texts.push_back(l.label);
            }
          }
        }
        for (LightAxis axis : {LightAxis::nits, LightAxis::stops, LightAxis::codes}) {
          if (light == LightScale::none) continue;
          for (const LightTick& t : light_ticks(light, bits, axis)) texts.push_back(t.label);
        }
      }
      for (ColourMatrix matrix : matrices) {
        VectorscopeGraticuleInput in;
        in.source = {matrix, range, bits};
        in.plot = {0, 0, 512, 512};
        std::vector<ScopeLabel> labels;
        vectorscope_graticule(in, &labels);
        for (const ScopeLabel& l : labels) texts.push_back(l.text);
      }
      for (std::uint32_t code : axis_codes(bits, 4096, 1)) texts.push_back(std::to_string(code));
    }
  }
  for (ScaleMode mode : {ScaleMode::automatic, ScaleMode::logarithmic, ScaleMode::fixed}) {
    texts.push_back(std::string(scale_words(mode)) + count_text(4294967295u));
  }
  texts.push_back("ends  max " + count_text(1234567890));
  for (std::size_t c = 0; c < 4; ++c) {
    texts.emplace_back(channel_label(c, false));
    texts.emplace_back(channel_label(c, true));
  }
  return texts;
}

TEST(OverlayFont, EveryTextTheOverlayDrawsHasItsGlyphs) {
  const std::vector<std::string> texts = every_overlay_text();
  std::string used;
  for (const std::string& t : texts) {
    for (char c : t) {
      if (used.find(c) == std::string::npos) used += c;
    }
    EXPECT_TRUE(text_drawable(t)) << "'" << t << "'";
  }
  // The enumeration reaches the texts that need the scopes' letters (not a vacuous pass).
  for (char c : std::string_view("%MyWVPTvch=():qz")) EXPECT_NE(used.find(c), std::string::npos) << c;
  // One glyph item per character but spaces: none is left out.
  for (const std::string& t : texts) {
    std::vector<shader::OverlayItem> out;
    add_text(out, 3, 4, 1.5f, kOverlayText, t);
    EXPECT_EQ(out.size(), static_cast<std::size_t>(std::count_if(t.begin(), t.end(), [](char c) { return c != ' '; })))
        << t;
    for (const auto& it : out) EXPECT_EQ(it.kind, shader::kOverlayGlyph);
  }
  EXPECT_FALSE(text_drawable("Q"));  // a letter the font lacks
}

// The font: one glyph per character, every glyph but the space lit, no two alike, each inside its
// 5x7 cell (bits 35..63 clear), and the glyphs the scopes added where a reader expects them.
TEST(OverlayFont, GlyphsAreDistinctAndDrawn) {
  std::vector<std::uint64_t> seen;
  for (std::uint32_t g = 0; g < shader::kGlyphCount; ++g) {
    const std::uint64_t bits = shader::kFont[2 * g] | static_cast<std::uint64_t>(shader::kFont[2 * g + 1]) << 32;
    EXPECT_EQ(bits >> 35, 0u) << shader::kFontChars[g];
    EXPECT_EQ(bits == 0, shader::kFontChars[g] == ' ') << shader::kFontChars[g];
    EXPECT_EQ(std::count(seen.begin(), seen.end(), bits), 0) << shader::kFontChars[g];
    EXPECT_EQ(shader::kFontChars.find(shader::kFontChars[g]), g) << shader::kFontChars[g];
    seen.push_back(bits);
  }
  const auto rows = [](char c) {
    const auto g = static_cast<std::uint32_t>(shader::kFontChars.find(c));
    std::string out;
    for (std::uint32_t y = 0; y < shader::kGlyphHeight; ++y) {
      for (std::uint32_t x = 0; x < shader::kGlyphWidth; ++x) out += shader::vhist_glyph_pixel(g, x, y) ? '#' : '.';
      out += '|';
    }
    return out;
  };
  EXPECT_EQ(rows('%'), "##...|##..#|...#.|..#..|.#...|#..##|...##|");
  EXPECT_EQ(rows('M'), "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#|");
  EXPECT_EQ(rows('y'), ".....|.....|#...#|#...#|.####|....#|.###.|");
  EXPECT_EQ(rows('q'), ".....|.....|.####|#...#|.####|....#|....#|");
  EXPECT_EQ(rows('z'), ".....|.....|#####|...#.|..#..|.#...|#####|");
  // 'l' is not '1': with a serif base like the one's, the vectorscope's yellow "Yl" read "Y1".
  EXPECT_EQ(rows('l'), ".##..|..#..|..#..|..#..|..#..|..#..|...##|");
  EXPECT_EQ(rows('1'), "..#..|.##..|..#..|..#..|..#..|..#..|.###.|");
}

// A slanted line is runs of whole pixels: a 45-degree one a pixel per step, a shallow one few
// rects, all inside the clip.
TEST(VectorscopeGraticule, SegmentsAreRunsOfPixels) {
  std::vector<shader::OverlayItem> out;
  add_segment(out, {0, 0}, {10, 10}, 1, kScopeLegal, {0, 0, 100, 100});
  EXPECT_EQ(out.size(), 11u);
  for (const auto& it : out) {
    EXPECT_EQ(it.rect[2] - it.rect[0], 1.0f);
    EXPECT_EQ(it.rect[3] - it.rect[1], 1.0f);
    EXPECT_EQ(it.rect[0], it.rect[1]);
  }
  out.clear();
  add_segment(out, {0, 10.5f}, {100, 14.5f}, 1, kScopeLegal, {0, 0, 50, 100});
  EXPECT_LE(out.size(), 3u);
  for (const auto& it : out) EXPECT_LE(it.rect[2], 50.0f);
  // Three pixels wide: steps of 3, a third of the rects, each 3 across the line, touching the next.
  out.clear();
  add_segment(out, {0, 0}, {30, 30}, 3, kScopeLegal, {0, 0, 100, 100});
  EXPECT_LE(out.size(), 12u);
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].rect[3] - out[i].rect[1], 3.0f);
    if (i > 0) {
      EXPECT_EQ(out[i].rect[0], out[i - 1].rect[2]);
    }
  }
}

}  // namespace
}  // namespace vhist::viewer
