// How the video sits in the picture's area: the fit modes (FitMode, picture_modes.h), the
// rectangle the upright picture is drawn in and how much of it the area hides. The compute
// composite, the pointer's mapping to stored pixels (picture_geometry.h) and the viewer's notes
// use this one placement, so what is drawn is what is pointed at.
#pragma once

#include "vhist/picture/draw_style.h"

#include <array>
#include <string>

namespace vhist::viewer {

// FitMode::automatic covers when the cover fit hides at most this share of the picture's width
// (or height: a cover crops one of them), and fits otherwise: a 16:9 clip in a 16:9.5 area is
// covered, one beside the panel (28% of its width hidden) or a portrait clip is fitted.
inline constexpr float kAutoCoverMaxHidden = 0.05f;

struct VideoPlacement {
  FitMode mode = FitMode::cover;  // as drawn: fit, cover or actual (automatic resolved)
  // The upright picture in target pixels (x0, y0, x1, y1): inside the area (fit), or reaching
  // past it where it is cropped (cover, 1:1). With FitMode::actual its corners are whole pixels.
  std::array<float, 4> rect{};
  std::array<float, 2> hidden{};  // the share of the picture's width and height outside the area, 0..1
  std::array<float, 2> pan{};     // FitMode::actual: style.pan held within the picture's overflow
};

// The upright video, shown_w x shown_h at its display size (rotation and sample aspect ratio
// applied), placed in picture_area(style, width, height) by style.fit (and style.pan).
VideoPlacement place_video(const DrawStyle& style, float width, float height, float shown_w, float shown_h);
// The share of the picture's pixels outside the area, 0..1.
float hidden_share(const VideoPlacement& placement);
// "fit", "cover", "1:1"; automatic: "auto".
const char* fit_name(FitMode mode);
// What the picture hides, in words: "28% of the width hidden; the histograms count the whole
// frame" (or "the region" when `region`); a share under 1% says "under 1%"; empty when the whole
// picture is shown (less than 0.05% hidden in either direction: a rounding, not a crop).
std::string hidden_words(const VideoPlacement& placement, bool region);
// hidden_words() after the mode drawn: "cover: 28% of the width hidden; ..."; empty likewise.
std::string hidden_note(const VideoPlacement& placement, bool region);
// The OSD line when the mode changes to `chosen`: "Fit: auto (fit), the whole picture shown",
// "Fit: cover, 28% of the width hidden; the histograms count the whole frame".
std::string fit_message(FitMode chosen, const VideoPlacement& placement, bool region);

}  // namespace vhist::viewer
