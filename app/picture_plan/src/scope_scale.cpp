#include "vhist/picture/scope_scale.h"

#include "vhist/compute/transfer.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace vhist::viewer {

namespace {

double depth_factor(std::uint32_t bits) { return std::ldexp(1.0, static_cast<int>(bits) - 8); }
double top_code(std::uint32_t bits) { return std::ldexp(1.0, static_cast<int>(bits)) - 1.0; }

std::string percent_label(double percent, bool sign = false) {
  const long p = std::lround(percent);
  return (sign && p > 0 ? "+" : "") + std::to_string(p) + "%";
}

// Chroma's zero and span (the codes from -0.5 to +0.5): limited 224 * 2^(bits-8), full 2^bits - 1.
double zero_code(std::uint32_t bits) { return std::ldexp(1.0, static_cast<int>(bits) - 1); }
double span_of(ColourRange range, std::uint32_t bits) {
  return range == ColourRange::limited ? 224.0 * depth_factor(bits) : top_code(bits);
}

// Codes: the quarters of the code range, and the limited range's black and white.
std::vector<Level> code_levels(const LevelSource& source) {
  const auto n = static_cast<std::uint32_t>(top_code(source.bits)) + 1;
  std::vector<Level> levels;
  for (std::uint32_t code : {0u, n / 4, n / 2, 3 * n / 4, n - 1}) {
    levels.push_back({static_cast<double>(code), std::to_string(code), LevelKind::major});
  }
  if (source.range == ColourRange::limited) {
    for (double code : {nominal_black(source), nominal_white(source)}) {
      levels.push_back({code, std::to_string(static_cast<std::uint32_t>(code)), LevelKind::major});
    }
  }
  return levels;
}

// Percent: every 10 % of the nominal range; 0, 50 and 100 major (chroma -50 .. +50).
std::vector<Level> percent_levels(const LevelSource& source) {
  std::vector<Level> levels;
  const int first = source.chroma ? -50 : 0;
  for (int p = first; p <= first + 100; p += 10) {
    const LevelKind kind = p % 50 == 0 ? LevelKind::major : LevelKind::minor;
    levels.push_back({percent_code(source, p), percent_label(p, source.chroma), kind});
  }
  return levels;
}

double signal_of(LightScale light, double nits) { return light == LightScale::pq ? pq_signal(nits) : hlg_signal(nits); }

// Light: 0 and the decades (the top one carrying the unit), and HDR reference white.
std::vector<Level> nits_levels(const LevelSource& source) {
  const bool pq = source.light == LightScale::pq;
  std::vector<Level> levels{{nominal_black(source), "0", LevelKind::major}};
  const char* labels_pq[] = {"0.1", "1", "10", "100", "1000", "10000"};
  const char* labels_hlg[] = {"1", "10", "100", "1000"};
  const std::size_t count = pq ? 6 : 4;
  for (std::size_t i = 0; i < count; ++i) {
    const double nits = (pq ? 0.1 : 1.0) * std::pow(10.0, static_cast<double>(i));
    levels.push_back({percent_code(source, 100.0 * signal_of(source.light, nits)), pq ? labels_pq[i] : labels_hlg[i],
                      LevelKind::major});
  }
  levels.back().label += " nits";
  // BT.2408's HDR reference white: PQ 58 %, HLG 75 % of the nominal range.
  levels.push_back({percent_code(source, 100.0 * signal_of(source.light, 203.0)), "203", LevelKind::reference_white});
  return levels;
}

}  // namespace

double nominal_black(const LevelSource& source) {
  if (source.chroma) return zero_code(source.bits) - span_of(source.range, source.bits) / 2;
  return source.range == ColourRange::limited ? 16.0 * depth_factor(source.bits) : 0.0;
}

double nominal_white(const LevelSource& source) {
  if (source.chroma) return zero_code(source.bits) + span_of(source.range, source.bits) / 2;
  return source.range == ColourRange::limited ? 235.0 * depth_factor(source.bits) : top_code(source.bits);
}

double percent_code(const LevelSource& source, double percent) {
  if (source.chroma) return zero_code(source.bits) + percent / 100.0 * span_of(source.range, source.bits);
  return nominal_black(source) + percent / 100.0 * (nominal_white(source) - nominal_black(source));
}

double code_percent(const LevelSource& source, double code) {
  if (source.chroma) return 100.0 * (code - zero_code(source.bits)) / span_of(source.range, source.bits);
  return 100.0 * (code - nominal_black(source)) / (nominal_white(source) - nominal_black(source));
}

std::optional<LegalLimits> ebu_r103_limits(const LevelSource& source) {
  if (source.range != ColourRange::limited || source.chroma) return std::nullopt;
  return LegalLimits{static_cast<std::uint32_t>(std::lround(percent_code(source, kLegalLowPercent))),
                     static_cast<std::uint32_t>(std::lround(percent_code(source, kLegalHighPercent)))};
}

std::vector<Level> waveform_levels(const LevelSource& source, LevelUnits units, bool legal) {
  std::vector<Level> levels;
  if (units == LevelUnits::codes) {
    levels = code_levels(source);
  } else if (units == LevelUnits::nits && source.light != LightScale::none && !source.chroma) {
    levels = nits_levels(source);
  } else {
    levels = percent_levels(source);
  }
  if (const auto limits = ebu_r103_limits(source); legal && limits) {
    levels.push_back({static_cast<double>(limits->low), percent_label(kLegalLowPercent), LevelKind::legal});
    levels.push_back({static_cast<double>(limits->high), percent_label(kLegalHighPercent), LevelKind::legal});
  }
  const double top = top_code(source.bits);
  std::erase_if(levels, [&](const Level& l) { return l.code < -0.5 || l.code > top + 0.5; });
  for (Level& l : levels) l.code = std::clamp(l.code, 0.0, top);
  std::stable_sort(levels.begin(), levels.end(), [](const Level& a, const Level& b) { return a.code < b.code; });
  return levels;
}

std::uint32_t waveform_column_run(std::uint32_t picture_columns, std::uint32_t plot_columns) {
  if (plot_columns == 0) return std::max(picture_columns, 1u);
  return std::max(1u, (picture_columns + plot_columns - 1) / plot_columns);
}

std::string column_binning_text(std::uint32_t run) {
  run = std::max(run, 1u);
  return "1 plot column = " + std::to_string(run) + (run == 1 ? " picture column" : " picture columns");
}

std::array<double, 2> matrix_kr_kb(ColourMatrix matrix) {
  switch (matrix) {
    case ColourMatrix::bt601: return {0.299, 0.114};     // ITU-R BT.601-7, table 4
    case ColourMatrix::bt709: return {0.2126, 0.0722};   // ITU-R BT.709-6, item 3.2
    case ColourMatrix::bt2020: return {0.2627, 0.0593};  // ITU-R BT.2020-2, table 4
  }
  return {0.2126, 0.0722};
}

double chroma_zero(const ChromaSource& source) { return zero_code(source.bits); }

double chroma_span(const ChromaSource& source) { return span_of(source.range, source.bits); }

Chroma chroma_of(const ChromaSource& source, double r, double g, double b) {
  const auto [kr, kb] = matrix_kr_kb(source.matrix);
  const double y = kr * r + (1.0 - kr - kb) * g + kb * b;
  const double pb = (b - y) / (2.0 * (1.0 - kb)), pr = (r - y) / (2.0 * (1.0 - kr));
  return {chroma_zero(source) + chroma_span(source) * pb, chroma_zero(source) + chroma_span(source) * pr};
}

std::string_view bar_label(Bar bar) {
  switch (bar) {
    case Bar::yellow: return "Yl";
    case Bar::cyan: return "Cy";
    case Bar::green: return "G";
    case Bar::magenta: return "Mg";
    case Bar::red: return "R";
    case Bar::blue: return "B";
  }
  return "";
}

std::array<double, 3> bar_rgb(Bar bar, double level) {
  switch (bar) {
    case Bar::yellow: return {level, level, 0};
    case Bar::cyan: return {0, level, level};
    case Bar::green: return {0, level, 0};
    case Bar::magenta: return {level, 0, level};
    case Bar::red: return {level, 0, 0};
    case Bar::blue: return {0, 0, level};
  }
  return {0, 0, 0};
}

std::array<std::uint32_t, 2> bar_codes(const ChromaSource& source, Bar bar, double level) {
  const auto [r, g, b] = bar_rgb(bar, level);
  const Chroma c = chroma_of(source, r, g, b);
  return {static_cast<std::uint32_t>(std::lround(c.cb)), static_cast<std::uint32_t>(std::lround(c.cr))};
}

ChromaBox target_box(const ChromaSource& source, Bar bar, double level) {
  const auto [r, g, b] = bar_rgb(bar, level);
  const Chroma c = chroma_of(source, r, g, b);
  const double h = kTargetBoxHalf * chroma_span(source);
  return {c.cb - h, c.cr - h, c.cb + h, c.cr + h};
}

ChromaBox legal_chroma_box(const ChromaSource& source) {
  const double lo = chroma_zero(source) - chroma_span(source) / 2.0, hi = chroma_zero(source) + chroma_span(source) / 2.0;
  // Full range: 2^(n-1) -+ (2^n - 1) / 2 is -0.5 .. 2^n - 1.5; the codes themselves end at 0 and 2^n - 1.
  return {std::max(lo, 0.0), std::max(lo, 0.0), std::min(hi, top_code(source.bits)), std::min(hi, top_code(source.bits))};
}

std::array<Chroma, 6> gamut_hexagon(const ChromaSource& source) {
  std::array<Chroma, 6> out{};
  const Bar order[] = {Bar::red, Bar::magenta, Bar::blue, Bar::cyan, Bar::green, Bar::yellow};
  for (std::size_t i = 0; i < 6; ++i) {
    const auto [r, g, b] = bar_rgb(order[i], 1.0);
    out[i] = chroma_of(source, r, g, b);
  }
  return out;
}

double skin_tone_angle_degrees() {
  // SMPTE 170M: I at 123 degrees in the U/V plane; U = 0.492111 (B'-Y'), V = 0.877283 (R'-Y').
  const double theta = 123.0 * std::numbers::pi / 180.0;
  const double b_y = std::cos(theta) / 0.492111, r_y = std::sin(theta) / 0.877283;
  // Cb and Cr scaled alike: Pb = (B'-Y') / (2 (1 - Kb)), Pr = (R'-Y') / (2 (1 - Kr)), BT.601's Kr and Kb.
  const double pb = b_y / (2.0 * (1.0 - 0.114)), pr = r_y / (2.0 * (1.0 - 0.299));
  return std::atan2(pr, pb) * 180.0 / std::numbers::pi;
}

bool valid_zoom(float zoom) {
  return std::find(kVectorscopeZooms.begin(), kVectorscopeZooms.end(), zoom) != kVectorscopeZooms.end();
}

std::array<float, 4> vectorscope_square(const std::array<float, 4>& plot) {
  const float w = std::floor(plot[2] - plot[0]), h = std::floor(plot[3] - plot[1]);
  const float side = std::max(0.0f, std::min(w, h));
  const float x0 = std::floor(plot[0] + (w - side) / 2), y0 = std::floor(plot[1] + (h - side) / 2);
  return {x0, y0, x0 + side, y0 + side};
}

std::array<float, 2> chroma_to_plot(const std::array<float, 4>& square, std::uint32_t bits, float zoom, double cb,
                                    double cr) {
  const double side = static_cast<double>(square[2]) - square[0];
  const double k = zoom * side / std::ldexp(1.0, static_cast<int>(bits));
  const double zero = std::ldexp(1.0, static_cast<int>(bits) - 1);
  const double cx = (static_cast<double>(square[0]) + square[2]) / 2, cy = (static_cast<double>(square[1]) + square[3]) / 2;
  return {static_cast<float>(cx + (cb - zero) * k), static_cast<float>(cy - (cr - zero) * k)};
}

}  // namespace vhist::viewer
