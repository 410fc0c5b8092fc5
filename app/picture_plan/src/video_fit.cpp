#include "vhist/picture/video_fit.h"

#include "vhist/picture/picture_geometry.h"

#include <algorithm>
#include <cmath>

namespace vhist::viewer {

namespace {

// The share of [lo, hi] outside [area_lo, area_hi].
float hidden_of(float lo, float hi, float area_lo, float area_hi) {
  const float size = hi - lo;
  if (size <= 0) return 0;
  const float seen = std::max(0.0f, std::min(hi, area_hi) - std::max(lo, area_lo));
  return std::clamp(1.0f - seen / size, 0.0f, 1.0f);
}

VideoPlacement placed(FitMode mode, const std::array<float, 4>& a, float w, float h, std::array<float, 2> pan) {
  VideoPlacement p;
  p.mode = mode;
  const float cx = (a[0] + a[2]) / 2, cy = (a[1] + a[3]) / 2;
  if (mode == FitMode::actual) {
    // Held so that the picture never leaves a gap at an edge it overflows; centred where it fits.
    const float room_x = std::max(0.0f, (w - (a[2] - a[0])) / 2), room_y = std::max(0.0f, (h - (a[3] - a[1])) / 2);
    p.pan = {std::round(std::clamp(pan[0], -room_x, room_x)), std::round(std::clamp(pan[1], -room_y, room_y))};
    // Whole pixels: each frame pixel lands on one target pixel.
    const float x0 = std::round(cx - w / 2 + p.pan[0]), y0 = std::round(cy - h / 2 + p.pan[1]);
    p.rect = {x0, y0, x0 + w, y0 + h};
  } else {
    p.rect = {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
  }
  p.hidden = {hidden_of(p.rect[0], p.rect[2], a[0], a[2]), hidden_of(p.rect[1], p.rect[3], a[1], a[3])};
  return p;
}

std::string percent(float share) {
  const int whole = static_cast<int>(std::lround(share * 100));
  if (whole == 0) return "under 1%";
  return std::to_string(whole) + "%";
}

}  // namespace

VideoPlacement place_video(const DrawStyle& style, float width, float height, float shown_w, float shown_h) {
  const auto a = picture_area(style, width, height);
  const float aw = a[2] - a[0], ah = a[3] - a[1];
  const float vw = std::max(shown_w, 1.0f), vh = std::max(shown_h, 1.0f);
  const float fit = std::min(aw / vw, ah / vh), cover = std::max(aw / vw, ah / vh);
  switch (style.fit) {
    case FitMode::fit: return placed(FitMode::fit, a, vw * fit, vh * fit, {});
    case FitMode::cover: return placed(FitMode::cover, a, vw * cover, vh * cover, {});
    case FitMode::actual: return placed(FitMode::actual, a, vw, vh, style.pan);
    case FitMode::automatic: break;
  }
  VideoPlacement covered = placed(FitMode::cover, a, vw * cover, vh * cover, {});
  if (std::max(covered.hidden[0], covered.hidden[1]) <= kAutoCoverMaxHidden) return covered;
  return placed(FitMode::fit, a, vw * fit, vh * fit, {});
}

float hidden_share(const VideoPlacement& p) { return 1.0f - (1.0f - p.hidden[0]) * (1.0f - p.hidden[1]); }

const char* fit_name(FitMode mode) {
  switch (mode) {
    case FitMode::automatic: return "auto";
    case FitMode::fit: return "fit";
    case FitMode::cover: return "cover";
    case FitMode::actual: return "1:1";
  }
  return "auto";
}

std::string hidden_words(const VideoPlacement& p, bool region) {
  // Below half a thousandth: a rounding of the fit, not a crop anyone could see.
  const bool wide = p.hidden[0] >= 0.0005f, tall = p.hidden[1] >= 0.0005f;
  if (!wide && !tall) return {};
  std::string text;
  if (wide) text += percent(p.hidden[0]) + " of the width";
  if (wide && tall) text += " and ";
  if (tall) text += percent(p.hidden[1]) + " of the height";
  text += " hidden; the histograms count the ";
  text += region ? "region" : "whole frame";
  return text;
}

std::string hidden_note(const VideoPlacement& p, bool region) {
  const std::string words = hidden_words(p, region);
  return words.empty() ? words : std::string(fit_name(p.mode)) + ": " + words;
}

std::string fit_message(FitMode chosen, const VideoPlacement& p, bool region) {
  std::string text = std::string("Fit: ") + fit_name(chosen);
  if (chosen == FitMode::automatic) text += std::string(" (") + fit_name(p.mode) + ")";
  const std::string words = hidden_words(p, region);
  if (words.empty()) return text + ", the whole picture shown";
  text += ", " + words;
  if (p.mode == FitMode::actual) text += " (drag with the middle button to pan)";
  return text;
}

}  // namespace vhist::viewer
