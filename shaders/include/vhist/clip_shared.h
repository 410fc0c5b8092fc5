// The clip markers' size and the end bins' flags, shared by the drawing shaders
// (histogram_bars.glsl) and the C++ that lays out and hit-tests the panels, so the hover
// readout and the picture agree. Valid GLSL 4.60 and C++20.
//
// A clip marker is a right isosceles triangle in a top corner of a panel's bars (left: the
// lowest code, right: the highest), one per drawn channel, in its channel's palette colour
// (overlapping markers add their channel bits, as the bars do). Its legs grow with the share of
// the counted pixels at the end code, on a log scale: any pixel there gives the smallest marker,
// 0.01% or less the smallest too, 100% the largest; no pixel, no marker.
#ifndef VHIST_CLIP_SHARED_H
#define VHIST_CLIP_SHARED_H

#ifdef __cplusplus
#include <cmath>
#include <cstdint>
namespace vhist::shader {
#define VHIST_CLIP_FN inline
#define VHIST_CLIP_UINT std::uint32_t
#define VHIST_LOG2(x) std::log2(x)
#else
#define VHIST_CLIP_FN
#define VHIST_CLIP_UINT uint
#define VHIST_LOG2(x) log2(x)
#endif

// Bits of the drawing shaders' `ends` field.
const VHIST_CLIP_UINT kEndsMarkers = 1u;   // draw the clip markers
const VHIST_CLIP_UINT kEndsOwnScale = 2u;  // the end bins on their own scale (height = share of pixels)

// The cap on a bar cut by the scale: this orange (RGB), unlike every palette colour, over the
// bar's top 2 pixels, then 1 dark pixel.
const float kClipCapR = 1.0f;
const float kClipCapG = 0.55f;
const float kClipCapB = 0.2f;

// The share below which every marker has the smallest size: 0.01% (log2(1e-4) = -13.2877).
const float kClipLog2Floor = -13.287712f;

// The marker's leg in pixels for `count` pixels at the end code out of `total` (> 0), in bars
// `height` pixels tall: 0 for none, else from the smallest (max(6, 5% of the height)) to the
// largest (40% of the height, at least 6 pixels more), growing with log2 of the share.
VHIST_CLIP_FN float vhist_clip_marker(float count, float total, float height) {
  if (count <= 0.0f || total <= 0.0f) return 0.0f;
  const float smallest = height * 0.05f > 6.0f ? height * 0.05f : 6.0f;
  const float largest = height * 0.4f > smallest + 6.0f ? height * 0.4f : smallest + 6.0f;
  float t = (VHIST_LOG2(count / total) - kClipLog2Floor) / -kClipLog2Floor;
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  return smallest + (largest - smallest) * t;
}

// Whether the pixel whose centre is `dx` pixels from the bars' side edge (left edge for the
// low end, right edge for the high end) and `dy` pixels below their top is inside a marker
// whose legs are `leg` pixels.
VHIST_CLIP_FN bool vhist_in_clip_marker(float dx, float dy, float leg) { return dx + dy < leg; }

#undef VHIST_CLIP_FN
#undef VHIST_CLIP_UINT
#undef VHIST_LOG2
#ifdef __cplusplus
}  // namespace vhist::shader
#endif
#endif  // VHIST_CLIP_SHARED_H
