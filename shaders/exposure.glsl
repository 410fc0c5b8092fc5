// The exposure marks over the video (exposure_shared.h): false colour and zebras, decided from a
// stored pixel's codes. `frag` is the target pixel (for the stripes), `phase` moves them.
#ifndef VHIST_EXPOSURE_GLSL
#define VHIST_EXPOSURE_GLSL

#include "vhist/exposure_shared.h"

vec3 unpack_rgb(uint rgb) { return vec3((rgb >> 16u) & 0xffu, (rgb >> 8u) & 0xffu, rgb & 0xffu) / 255.0; }

const float kRangeDim = 0.25;

// Whether a pixel's code of a channel in `mask` lies in [low, high].
bool in_range(uvec4 codes, uint mask, uint low, uint high) {
  bool inside = false;
  for (uint c = 0u; c < 4u; ++c) {
    inside = inside || ((mask >> c) & 1u) != 0u && codes[c] >= low && codes[c] <= high;
  }
  return inside;
}

// The false-colour band of a luma code: how many bands' first codes (`lo`, `hi`: bands 1 to 8, in
// order, vhist_band_of's thresholds made on the host) it reaches. Eight compares, no loop.
uint band_of(uint luma, uvec4 lo, uvec4 hi) {
  const uvec4 l = uvec4(luma);
  const uvec4 n = uvec4(greaterThanEqual(l, lo)) + uvec4(greaterThanEqual(l, hi));
  return n.x + n.y + n.z + n.w;
}

vec3 exposure_marked(vec3 colour, uvec3 codes, vec2 frag, uint marks, uint low, uint high, uint bits, float phase,
                     uvec3 range, uvec4 band_lo, uvec4 band_hi) {
  if (marks == 0u) return colour;
  const uint luma = vhist_luma(codes.r, codes.g, codes.b);
  if ((marks & kMarkFalseColour) != 0u) {
    const uint c = vhist_band_colour(band_of(luma, band_lo, band_hi));
    colour = c == kBandGrey ? vec3(float(luma) / float((1u << bits) - 1u)) : unpack_rgb(c);
  }
  // After false colour, so that a highlighted range dims the rest of a false-colour picture too.
  if ((marks & kMarkRange) != 0u && !in_range(uvec4(codes, luma), range.x, range.y, range.z)) {
    colour *= kRangeDim;
  }
  const bool rgb = (marks & kMarkZebraRgb) != 0u;
  const uint top = rgb ? max(codes.r, max(codes.g, codes.b)) : luma;
  const uint bottom = rgb ? min(codes.r, min(codes.g, codes.b)) : luma;
  const bool over = (marks & kMarkZebraHigh) != 0u && top >= high;
  const bool under = (marks & kMarkZebraLow) != 0u && bottom <= low;
  if (!over && !under) return colour;
  const vec3 mark = over ? vec3(1.0, 0.0, 1.0) : vec3(0.0, 0.6, 1.0);
  if ((marks & kMarkZebraSolid) != 0u) return mark;
  // Diagonal stripes 8 pixels wide, every 16, moving with the phase.
  const bool stripe = mod(frag.x + frag.y + phase, 16.0) < 8.0;
  return stripe ? (over ? vec3(0.0) : mark) : colour;
}

#endif  // VHIST_EXPOSURE_GLSL
