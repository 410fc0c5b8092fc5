#include "vhist/picture/scope_graticule.h"

#include "vhist/font_shared.h"
#include "vhist/picture/picture_geometry.h"
#include "vhist/picture/picture_overlay.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

namespace vhist::viewer {

namespace {

using Rgb = std::array<float, 3>;
using Rect = std::array<float, 4>;

shader::OverlayItem solid(const Rect& r, const Rgb& colour) {
  shader::OverlayItem it{};
  it.kind = shader::kOverlaySolid;
  std::copy(r.begin(), r.end(), it.rect);
  std::copy(colour.begin(), colour.end(), it.colour);
  it.colour[3] = 1;
  return it;
}

// `r` cut to `clip`; nothing where that leaves it empty.
void add_rect(std::vector<shader::OverlayItem>& out, Rect r, const Rgb& colour, const Rect& clip) {
  r = {std::max(r[0], clip[0]), std::max(r[1], clip[1]), std::min(r[2], clip[2]), std::min(r[3], clip[3])};
  if (r[0] < r[2] && r[1] < r[3]) out.push_back(solid(r, colour));
}

Rgb lighten(const std::array<double, 3>& rgb) {
  const auto light = [](double v) { return static_cast<float>(v + (1.0 - v) * kLegendLighten); };
  return {light(rgb[0]), light(rgb[1]), light(rgb[2])};
}

// Labels placed in order, each kept only inside `inside` and clear (by one font pixel) of every
// label kept before it.
class LabelPlacer {
 public:
  LabelPlacer(const Rect& inside, float s) : inside_(inside), s_(s) {}
  bool place(ScopeLabel& label) {
    const Rect r{label.x, label.y, label.x + text_width(label.text.size(), s_), label.y + 7 * s_};
    label.kept = r[0] >= inside_[0] && r[1] >= inside_[1] && r[2] <= inside_[2] && r[3] <= inside_[3] &&
                 std::none_of(kept_.begin(), kept_.end(), [&](const Rect& k) {
                   return r[0] < k[2] + s_ && k[0] < r[2] + s_ && r[1] < k[3] + s_ && k[1] < r[3] + s_;
                 });
    if (label.kept) kept_.push_back(r);
    return label.kept;
  }
  // Keeps later labels clear of `r` too (a target box).
  void avoid(const Rect& r) { kept_.push_back(r); }

 private:
  Rect inside_;
  float s_;
  std::vector<Rect> kept_;
};

float scale_of(float ui_scale) {
  DrawStyle style;
  style.ui_scale = ui_scale;
  return text_scale(style);
}

int label_priority(LevelKind kind) {
  switch (kind) {
    case LevelKind::legal: return 0;
    case LevelKind::reference_white: return 1;
    case LevelKind::major: return 2;
    case LevelKind::minor: return 3;
  }
  return 3;
}

Rgb level_colour(LevelKind kind) {
  switch (kind) {
    case LevelKind::legal: return kScopeLegal;
    case LevelKind::reference_white: return kScopeReferenceWhite;
    case LevelKind::major: return kScopeMajorLine;
    case LevelKind::minor: return kScopeMinorLine;
  }
  return kScopeMajorLine;
}

// The levels drawn: all but minor ones closer than 3 line widths to a line of another level.
std::vector<std::pair<Level, float>> drawn_levels(const WaveformGraticuleInput& in, float lw) {
  const std::vector<Level> levels = waveform_levels(in.source, in.units, in.legal);
  std::vector<std::pair<Level, float>> drawn;
  for (const Level& l : levels) {
    if (l.kind != LevelKind::minor) drawn.emplace_back(l, level_y(in.plot, l.code, in.source.bits, lw));
  }
  for (const Level& l : levels) {
    if (l.kind != LevelKind::minor) continue;
    const float y = level_y(in.plot, l.code, in.source.bits, lw);
    const bool crowded = std::any_of(levels.begin(), levels.end(), [&](const Level& o) {
      return &o != &l && std::abs(level_y(in.plot, o.code, in.source.bits, lw) - y) < 3 * lw;
    });
    if (!crowded) drawn.emplace_back(l, y);
  }
  std::stable_sort(drawn.begin(), drawn.end(), [](const auto& a, const auto& b) {
    return label_priority(a.first.kind) < label_priority(b.first.kind);
  });
  return drawn;
}

}  // namespace

void add_segment(std::vector<shader::OverlayItem>& out, std::array<float, 2> a, std::array<float, 2> b, float lw,
                 const Rgb& colour, const Rect& clip) {
  // Step along the major axis a pixel at a time; the minor coordinate, snapped to whole multiples
  // of the line's width (a 1-pixel line's pixels, scaled up), changes only every few steps on a
  // shallow line, so each run of equal ones is one rect: a line lw wide costs 1/lw of the rects.
  const bool x_major = std::abs(b[0] - a[0]) >= std::abs(b[1] - a[1]);
  const std::size_t major = x_major ? 0 : 1, minor = 1 - major;
  if (a[major] > b[major]) std::swap(a, b);
  const float d = b[major] - a[major], slope = d > 0 ? (b[minor] - a[minor]) / d : 0.0f;
  const float half = std::floor(lw / 2);
  const auto first = static_cast<long>(std::floor(a[major])), last = static_cast<long>(std::floor(b[major]));
  long run_start = first;
  float run_minor = 0;
  const auto flush = [&](long end) {
    Rect r{};
    r[major] = static_cast<float>(run_start);
    r[major + 2] = static_cast<float>(end);
    r[minor] = run_minor;
    r[minor + 2] = run_minor + lw;
    add_rect(out, r, colour, clip);
  };
  for (long p = first; p <= last; ++p) {
    const float m = lw * std::floor((a[minor] + (static_cast<float>(p) + 0.5f - a[major]) * slope - half) / lw);
    if (p == first) {
      run_minor = m;
    } else if (m != run_minor) {
      flush(p);
      run_start = p;
      run_minor = m;
    }
  }
  flush(last + 1);
}

float level_y(const std::array<float, 4>& plot, double code, std::uint32_t bits, float lw) {
  const double centre = plot[3] - (code + 0.5) * (static_cast<double>(plot[3]) - plot[1]) / std::ldexp(1.0, static_cast<int>(bits));
  return static_cast<float>(std::floor(centre) - std::floor((lw - 1) / 2));
}

std::vector<shader::OverlayItem> waveform_graticule(const WaveformGraticuleInput& in,
                                                    std::vector<ScopeLabel>* labels_out) {
  const float s = scale_of(in.ui_scale), lw = line_width(s);
  const Rect plot{std::floor(in.plot[0]), std::floor(in.plot[1]), std::floor(in.plot[2]), std::floor(in.plot[3])};
  std::vector<shader::OverlayItem> out;
  auto drawn = drawn_levels(in, lw);
  // Lines first, the most important last (the last item covering a pixel wins), then the text
  // over them all.
  for (auto it = drawn.rbegin(); it != drawn.rend(); ++it) {
    it->second = std::clamp(it->second, plot[1], plot[3] - lw);  // the top code's line whole, inside
    add_rect(out, {plot[0], it->second, plot[2], it->second + lw}, level_colour(it->first.kind), plot);
  }
  LabelPlacer placer(plot, s);
  std::vector<ScopeLabel> labels;
  for (const auto& [level, y] : drawn) {
    if (!in.labels || level.label.empty()) continue;
    // The legal and reference white labels at the right edge, the scale's at the left, so that
    // -5 % and 0 % (11 codes apart at 8 bits) do not push each other out. Above the line, or
    // below it where that would leave the plot.
    const bool right = level.kind == LevelKind::legal || level.kind == LevelKind::reference_white;
    const float w = text_width(level.label.size(), s);
    ScopeLabel label{level.label, std::round(right ? plot[2] - 2 * s - w : plot[0] + 2 * s), std::round(y - s - 7 * s)};
    if (label.y < plot[1]) label.y = std::round(y + lw + s);
    if (placer.place(label)) add_text(out, label.x, label.y, s, right ? level_colour(level.kind) : kOverlayText, label.text);
    labels.push_back(label);
  }
  if (labels_out) *labels_out = std::move(labels);
  return out;
}

namespace {

// The outline of the pixel rectangle r, `lw` thick inside it.
void add_outline(std::vector<shader::OverlayItem>& out, const Rect& r, float lw, const Rgb& colour, const Rect& clip) {
  add_rect(out, {r[0], r[1], r[2], r[1] + lw}, colour, clip);
  add_rect(out, {r[0], r[3] - lw, r[2], r[3]}, colour, clip);
  add_rect(out, {r[0], r[1] + lw, r[0] + lw, r[3] - lw}, colour, clip);
  add_rect(out, {r[2] - lw, r[1] + lw, r[2], r[3] - lw}, colour, clip);
}

// A box of codes as whole pixels of the square (Cr up: cr1 is the top), at least 3 line widths wide.
Rect box_pixels(const VectorscopeGraticuleInput& in, const Rect& square, const ChromaBox& box, float lw) {
  const auto a = chroma_to_plot(square, in.source.bits, in.zoom, box.cb0, box.cr1);
  const auto b = chroma_to_plot(square, in.source.bits, in.zoom, box.cb1, box.cr0);
  Rect r{std::round(a[0]), std::round(a[1]), std::round(b[0]), std::round(b[1])};
  for (std::size_t i : {0u, 1u}) {
    const float grow = std::max(0.0f, 3 * lw - (r[i + 2] - r[i]));
    r[i] -= std::floor(grow / 2);
    r[i + 2] += std::ceil(grow / 2);
  }
  return r;
}

// A bar's label beside `box`: past it along the ray from the centre `c` if that fits, else
// right, left, above or below it, the first place inside the square clear of the labels and
// boxes placed.
void add_bar_label(std::vector<shader::OverlayItem>& out, std::vector<ScopeLabel>& labels, LabelPlacer& placer,
                   Bar bar, const Rect& box, std::array<float, 2> c, float s) {
  const std::string text(bar_label(bar));
  const float w = text_width(text.size(), s), h = 7 * s;
  const float mx = (box[0] + box[2]) / 2, my = (box[1] + box[3]) / 2;
  const float len = std::max(1.0f, std::hypot(mx - c[0], my - c[1]));
  const float reach = std::hypot(box[2] - box[0], box[3] - box[1]) / 2 + std::hypot(w, h) / 2 + s;
  const std::array<std::array<float, 2>, 5> places{{{mx + (mx - c[0]) / len * reach - w / 2, my + (my - c[1]) / len * reach - h / 2},
                                                    {box[2] + s, my - h / 2},
                                                    {box[0] - s - w, my - h / 2},
                                                    {mx - w / 2, box[1] - s - h},
                                                    {mx - w / 2, box[3] + s}}};
  ScopeLabel label{text, 0, 0};
  for (const auto& [x, y] : places) {
    label.x = std::round(x);
    label.y = std::round(y);
    if (placer.place(label)) break;
  }
  if (label.kept) add_text(out, label.x, label.y, s, lighten(bar_rgb(bar, 1.0)), label.text);
  labels.push_back(label);
}

// Each bar's target boxes, and its label beside the outermost of them whose centre is in the
// square (none where zoom has pushed both out).
void add_targets(std::vector<shader::OverlayItem>& out, std::vector<ScopeLabel>& labels,
                 const VectorscopeGraticuleInput& in, const Rect& square, float s) {
  const float lw = line_width(s);
  LabelPlacer placer(square, s);
  std::array<std::optional<Rect>, kBars.size()> anchors;
  for (std::size_t i = 0; i < kBars.size(); ++i) {
    for (double level : {0.75, 1.0}) {
      if ((level < 1.0 && !in.targets75) || (level == 1.0 && !in.targets100)) continue;
      const Rect box = box_pixels(in, square, target_box(in.source, kBars[i], level), lw);
      add_outline(out, box, lw, lighten(bar_rgb(kBars[i], 1.0)), square);
      placer.avoid(box);
      const float mx = (box[0] + box[2]) / 2, my = (box[1] + box[3]) / 2;
      if (mx >= square[0] && mx < square[2] && my >= square[1] && my < square[3]) anchors[i] = box;
    }
  }
  const auto centre = chroma_to_plot(square, in.source.bits, in.zoom, chroma_zero(in.source), chroma_zero(in.source));
  for (std::size_t i = 0; i < kBars.size(); ++i) {
    if (anchors[i]) add_bar_label(out, labels, placer, kBars[i], *anchors[i], centre, s);
  }
}

// The legal chroma box and the gamut hexagon.
void add_legal(std::vector<shader::OverlayItem>& out, const VectorscopeGraticuleInput& in, const Rect& square, float lw) {
  add_outline(out, box_pixels(in, square, legal_chroma_box(in.source), lw), lw, kScopeLegal, square);
  const auto hexagon = gamut_hexagon(in.source);
  for (std::size_t i = 0; i < hexagon.size(); ++i) {
    const Chroma& a = hexagon[i];
    const Chroma& b = hexagon[(i + 1) % hexagon.size()];
    add_segment(out, chroma_to_plot(square, in.source.bits, in.zoom, a.cb, a.cr),
                chroma_to_plot(square, in.source.bits, in.zoom, b.cb, b.cr), lw, kScopeLegal, square);
  }
}

}  // namespace

std::vector<shader::OverlayItem> vectorscope_graticule(const VectorscopeGraticuleInput& in,
                                                       std::vector<ScopeLabel>* labels_out) {
  const float s = scale_of(in.ui_scale), lw = line_width(s);
  const Rect square = vectorscope_square(in.plot);
  std::vector<shader::OverlayItem> out;
  std::vector<ScopeLabel> labels;
  if (square[2] - square[0] < 8 * lw || !valid_zoom(in.zoom)) return out;
  // The centre cross: zero chroma, through the whole square.
  const auto c = chroma_to_plot(square, in.source.bits, in.zoom, chroma_zero(in.source), chroma_zero(in.source));
  const float cx = std::floor(c[0]) - std::floor((lw - 1) / 2), cy = std::floor(c[1]) - std::floor((lw - 1) / 2);
  add_rect(out, {square[0], cy, square[2], cy + lw}, kScopeMinorLine, square);
  add_rect(out, {cx, square[1], cx + lw, square[3]}, kScopeMinorLine, square);
  if (in.legal) add_legal(out, in, square, lw);
  if (in.skin_tone) {
    const double a = skin_tone_angle_degrees() * std::numbers::pi / 180.0;
    const float reach = 2 * (square[2] - square[0]);  // clipped at the square's edge
    add_segment(out, c, {c[0] + reach * static_cast<float>(std::cos(a)), c[1] - reach * static_cast<float>(std::sin(a))},
                lw, kScopeSkinTone, square);
  }
  if (in.targets75 || in.targets100) add_targets(out, labels, in, square, s);
  if (labels_out) *labels_out = std::move(labels);
  return out;
}

}  // namespace vhist::viewer
