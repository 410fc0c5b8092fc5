// The scopes' scales in numbers (issue 26): the levels the waveform's graticule marks and the
// targets the vectorscope's graticule marks, from the source's own depth, range, transfer and
// matrix. Plain C++, no Vulkan, any thread; scope_graticule.h lays them out in a plot's pixels.
// docs/user-guide.md ("Scopes") says where each level comes from.
#pragma once

#include "vhist/picture/picture_modes.h"

#include "vhist/compute/video_frame.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::viewer {

// ---- Waveform ---------------------------------------------------------------------------------

// What the waveform's level axis holds: codes of `bits` bits (8..16; 0 .. 2^bits - 1, bottom to
// top) of a signal in `range` (its nominal black and white) with transfer `light` (PQ, HLG or
// none). For the R'G'B' vhist converts to (always full range) pass ColourRange::full; for the
// stored Y'CbCr planes, the frame's range.
struct LevelSource {
  std::uint32_t bits = 8;
  ColourRange range = ColourRange::limited;
  LightScale light = LightScale::none;
  // A Cb or Cr plane (the Y'CbCr parade): zero chroma at 2^(bits-1), the nominal range -50 % ..
  // +50 % of the chroma span (16 .. 240 at 8 bits limited); no light scale, no legal lines.
  bool chroma = false;
};

// The nominal range's ends as codes: limited 16 and 235 times 2^(bits-8) (BT.601-7, BT.709-6,
// BT.2020-2: 64 and 940 at 10 bits), full 0 and 2^bits - 1; chroma limited 16 and 240 times
// 2^(bits-8), chroma full 2^(bits-1) -+ (2^bits - 1) / 2 (0.5 and 2^bits - 0.5, as BT.2100-2
// table 9 puts chroma -0.5 and +0.5).
double nominal_black(const LevelSource& source);
double nominal_white(const LevelSource& source);
// The code (not rounded) at `percent` of the nominal range (0 % black, 100 % white; chroma: 0 %
// zero chroma, -50 % and +50 % the range's ends), and back.
double percent_code(const LevelSource& source, double percent);
double code_percent(const LevelSource& source, double code);

// EBU R 103 v3.0 (2020; the same limits since v2.0, 2016): Y', R', G' and B' should stay within
// -5 % and 105 % of the nominal range ("preferred minimum/maximum"; excursions over up to 1 % of
// the picture are tolerated), as codes rounded to nearest: 5 and 246 at 8 bits, 20 and 984 at
// 10. A full-range signal has no codes outside its nominal range: none; nor has a chroma plane
// (R 103 sets limits on Y', R', G' and B', not on Cb and Cr).
struct LegalLimits {
  std::uint32_t low = 0, high = 0;
  bool operator==(const LegalLimits&) const = default;
};
inline constexpr double kLegalLowPercent = -5.0, kLegalHighPercent = 105.0;
std::optional<LegalLimits> ebu_r103_limits(const LevelSource& source);

// How the waveform's levels are labelled: code values, percent of the nominal range, or light
// (cd/m2; for PQ and HLG sources only, light_scale.h's curves).
enum class LevelUnits { codes, percent, nits };
// What a graticule line marks; the drawing picks its colour and the labels' priority from it.
enum class LevelKind { major, minor, reference_white, legal };
struct Level {
  double code = 0;     // the code value marked (not rounded: 5.05 at -5 % of 8-bit limited)
  std::string label;   // "100%", "940", "203 nits" (may be empty)
  LevelKind kind = LevelKind::major;
};
// The levels marked for `source` in `units`, bottom to top, only those within the code range:
//   codes:   0, a quarter, a half, three quarters and the top code, and for the limited range
//            its black and white (16 and 235 at 8 bits; chroma 16 and 240);
//   percent: every 10 % of the nominal range, 0, 50 and 100 major (chroma: -50 % to +50 %,
//            -50, 0 and +50 major);
//   nits:    (PQ or HLG; otherwise as percent) 0 and a decade apart (PQ 0.1 to 10000, HLG 1 to
//            1000), and HDR reference white, 203 cd/m2 (BT.2408), as LevelKind::reference_white;
// plus, with `legal`, the EBU R 103 limits as LevelKind::legal ("-5%", "105%"). A level within
// half a code of the code range is moved onto its end code.
std::vector<Level> waveform_levels(const LevelSource& source, LevelUnits units, bool legal);

// Plot columns: each sums a run of `run` picture columns (display orientation). The run for a
// picture `picture_columns` wide in a plot `plot_columns` wide: ceil(picture / plot), at least 1.
std::uint32_t waveform_column_run(std::uint32_t picture_columns, std::uint32_t plot_columns);
// The run in words for the UI: "1 plot column = 4 picture columns", "1 plot column = 1 picture
// column".
std::string column_binning_text(std::uint32_t run);

// ---- Vectorscope ------------------------------------------------------------------------------

// The chroma the vectorscope plots: Cb and Cr codes of `bits` bits, of `matrix` and `range`.
struct ChromaSource {
  ColourMatrix matrix = ColourMatrix::bt709;
  ColourRange range = ColourRange::limited;
  std::uint32_t bits = 8;
};
struct Chroma {
  double cb = 0, cr = 0;  // codes, not rounded
};
// The matrix's Kr and Kb (BT.601-7 0.299/0.114, BT.709-6 0.2126/0.0722, BT.2020-2 0.2627/0.0593).
std::array<double, 2> matrix_kr_kb(ColourMatrix matrix);
// The code of zero chroma, 2^(bits-1) (128 at 8 bits) in both ranges, and the codes from
// chroma -0.5 to +0.5: limited 224 * 2^(bits-8), full 2^bits - 1.
double chroma_zero(const ChromaSource& source);
double chroma_span(const ChromaSource& source);
// The Cb and Cr codes of R'G'B' (each 0..1) by the source's matrix (Y' = Kr R' + Kg G' + Kb B';
// Cb = (B' - Y') / (2 (1 - Kb)); Cr = (R' - Y') / (2 (1 - Kr))), not rounded.
Chroma chroma_of(const ChromaSource& source, double r, double g, double b);

// The colour bars the targets mark, in the conventional order of a bar pattern.
enum class Bar { yellow, cyan, green, magenta, red, blue };
inline constexpr std::array<Bar, 6> kBars{Bar::yellow, Bar::cyan, Bar::green, Bar::magenta, Bar::red, Bar::blue};
std::string_view bar_label(Bar bar);                 // "Yl", "Cy", "G", "Mg", "R", "B"
std::array<double, 3> bar_rgb(Bar bar, double level);  // R'G'B' of the bar at `level` (0.75, 1)
// A bar's Cb and Cr at `level` (0.75: 75 % bars, 100/0/75/0; 1: 100 % bars), rounded to the
// nearest code as the bar patterns are (SMPTE RP 219, ITU-R BT.801): {cb, cr}.
std::array<std::uint32_t, 2> bar_codes(const ChromaSource& source, Bar bar, double level);

// A rectangle of Cb x Cr codes (inclusive bounds, not rounded).
struct ChromaBox {
  double cb0 = 0, cr0 = 0, cb1 = 0, cr1 = 0;
  bool contains(double cb, double cr) const { return cb >= cb0 && cb <= cb1 && cr >= cr0 && cr <= cr1; }
};
// A target box: centred on the bar's exact chroma, +-2 % of the chroma span each way (+-4.48
// codes at 8 bits limited): small enough that the bars of a neighbouring matrix fall outside it
// (BT.601 and BT.709 bars are 6 or more codes apart at 8 bits).
inline constexpr double kTargetBoxHalf = 0.02;
ChromaBox target_box(const ChromaSource& source, Bar bar, double level);
// The legal chroma box: the nominal Cb/Cr range (limited 16..240 times 2^(bits-8); full 0 ..
// 2^bits - 1).
ChromaBox legal_chroma_box(const ChromaSource& source);
// The R'G'B' gamut's outline in the Cb/Cr plane: the 100 % bars' chroma in order of hue (R, Mg,
// B, Cy, G, Yl). Every R'G'B' in 0..1 maps inside this hexagon, so chroma outside it cannot come
// from legal R'G'B' (whatever the luma).
std::array<Chroma, 6> gamut_hexagon(const ChromaSource& source);

// The skin-tone line's angle in degrees, counter-clockwise from +Cb (Cr up): the NTSC +I axis,
// which SMPTE 170M puts at 123 degrees from +(B'-Y') in the scaled U/V plane (U = 0.492111
// (B'-Y'), V = 0.877283 (R'-Y')); with Cb and Cr scaled alike (BT.601's 2 (1 - Kb), 2 (1 - Kr))
// that direction is at 132.5 degrees, between red and yellow. One angle for every matrix: it
// marks a hue, not a colour.
double skin_tone_angle_degrees();

// The zooms the vectorscope offers: x1 (every code of the depth fills the square), x2, x5.
inline constexpr std::array<float, 3> kVectorscopeZooms{1.0f, 2.0f, 5.0f};
bool valid_zoom(float zoom);
// The vectorscope's square in a plot rectangle (x0, y0, x1, y1): the largest centred square of
// whole pixels.
std::array<float, 4> vectorscope_square(const std::array<float, 4>& plot);
// Where code (cb, cr) lies in `square` at `zoom`, in target pixels: Cb to the right, Cr up,
// zero chroma at the square's centre, zoom * side / 2^bits pixels a code (at x1 codes 0 ..
// 2^bits - 1 fill the side). Outside the square for codes a zoom pushes out.
std::array<float, 2> chroma_to_plot(const std::array<float, 4>& square, std::uint32_t bits, float zoom, double cb,
                                    double cr);

}  // namespace vhist::viewer
