// The interface of the viewer's drawing shader, declared once for GLSL and C++
// (interface_shared.h says how): the overlay items and the compute composite's parameters and
// push constants. A shader defines VHIST_SHADER_<its name> before including this header.
#ifndef VHIST_DRAW_SHARED_H
#define VHIST_DRAW_SHARED_H

#include "vhist/interface_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

// One thing drawn over a histogram panel (overlay.glsl), in target pixels: the axis, its ticks
// and labels, the guides, the legend and the scale label. Laid out on the CPU
// (picture_overlay.h); every item is opaque and the last one covering a pixel wins. A panel's
// items come in three bands, so a pixel tests only its own: the guides (over the bars), the
// axis strip's, the header strip's.
#ifdef __cplusplus
#define VHIST_STRUCT(name) struct alignas(16) name
#else
#define VHIST_STRUCT(name) struct name
#endif
VHIST_CONST kOverlaySolid = 0u;        // the rect filled
VHIST_CONST kOverlayGlyph = 1u;        // glyph `glyph` (font_shared.h) at `scale` / kTextScaleUnit pixels per font pixel
VHIST_CONST kOverlayCountAuto = 2u;    // character `glyph` (from the left) of the count a full-height
VHIST_CONST kOverlayCountLog = 3u;     // bar means, read from the scale buffer for the channels in
VHIST_CONST kOverlayCountFixed = 4u;   // `mask` (the largest), written with thousands commas
VHIST_CONST kTextScaleUnit = 8u;       // OverlayItem::scale counts eighths of a pixel per font pixel
VHIST_STRUCT(OverlayItem) {
  VHIST_VEC4(rect);    // pixels: x0, y0, x1, y1
  VHIST_VEC4(colour);  // RGB; alpha unused (opaque)
  VHIST_UINT(kind);    // kOverlay*
  VHIST_UINT(glyph);
  VHIST_UINT(scale);
  VHIST_UINT(mask);   // count: channel bits (R 1, G 2, B 4, L 8)
  VHIST_UINT(value);  // count: the full-height count of the fixed scale (auto: the cap 5 * pixels / bins)
  // glyph: its pixels, font_shared.h's kFont[2 * glyph] and kFont[2 * glyph + 1] (overlay_grid()
  // copies them), for shaders that test them without the font table
  VHIST_UINT(pixels_low);
  VHIST_UINT(pixels_high);
  VHIST_UINT(pad2);
};

#if defined(__cplusplus) || defined(VHIST_SHADER_composite)
// The composite's parameters: a read-only storage buffer at set 0, binding 0. Not a uniform
// buffer: lavapipe inlines a uniform buffer's values into the shader and compiles it again for
// each new value, and the window's values change (a 640x360 window drew 7 frames a second
// instead of 18, its memory growing to 1.3 GiB with the compiled copies).
VHIST_UNIFORM_BLOCK(CompositeParams) {
  VHIST_ADDRESS(uvec2, frame);    // the R'G'B' frame (rgba8 or rgba16 words)
  VHIST_ADDRESS(uvec2, output_);  // the RGBA8 picture
  VHIST_ADDRESS(uvec2, histogram);
  VHIST_ADDRESS(uvec2, scale);
  VHIST_ADDRESS(uvec2, palette);
  VHIST_UINT(width);  // the frame
  VHIST_UINT(height);
  VHIST_UINT(bits);
  VHIST_UINT(has_video);
  VHIST_UINT(target_w);
  VHIST_UINT(target_h);
  VHIST_UINT(quad_count);
  VHIST_UINT(mode);
  VHIST_VEC2(pad5);   // was the cover scale: video_rect places the video in every fit mode
  VHIST_UINT(bins);
  VHIST_FLOAT(opacity);
  VHIST_FLOAT(pixels);
  VHIST_FLOAT(pad0);
  VHIST_VEC4S(quad_rect, 4);   // pixels: x0, y0, x1, y1
  VHIST_UVEC4S(quad_mult, 4);  // channel weights of each quad
  VHIST_ADDRESS(uvec2, cdf);        // the cumulative histogram, `levels` records
  VHIST_ADDRESS(uvec2, equalized);  // the equalized frame (equalize.comp), shown right of split_x; 0: none
  VHIST_UINT(levels);
  VHIST_UINT(ends);  // clip_shared.h kEnds*
  VHIST_UINT(cdf_fill);
  VHIST_UINT(cdf_line);
  VHIST_FLOAT(split_x);  // pixels
  VHIST_UINT(divider);   // draw a line at split_x
  VHIST_VEC4(area);      // pixels: where the picture goes; black outside
  VHIST_VEC4S(quad_bars, 4);   // pixels: each panel's bars
  VHIST_UVEC4(overlay_first);      // each panel's grid in `overlay` (overlay_grid.h)
  VHIST_UVEC4(overlay_count);      // 0: nothing over the panel
  VHIST_UVEC4(overlay_over_bars);  // 0: nothing over the bars (no guides): their pixels read no overlay
  VHIST_ADDRESS(uvec2, overlay);
  VHIST_UINT(rotation);  // degrees clockwise that turn the stored frame upright (0, 90, 180, 270)
  VHIST_UINT(marks);     // exposure marks (exposure_shared.h kMark*)
  VHIST_UINT(zebra_low);   // luma codes at or below are marked (kMarkZebraLow)
  VHIST_UINT(zebra_high);  // luma codes at or above are marked (kMarkZebraHigh)
  VHIST_FLOAT(phase);      // pixels: moves the zebra stripes
  VHIST_UINT(range_mask);  // kMarkRange: the channels (R 1, G 2, B 4, L 8) and their codes' range
  VHIST_UINT(range_low);
  VHIST_UINT(range_high);
  VHIST_UINT(reference_line);          // channel bits: the channels whose reference is outlined
  VHIST_ADDRESS(uvec2, reference);     // `bins` records of 4 floats: the reference at the live scale
  VHIST_ADDRESS(uvec2, level_counts);  // the statistics histogram, `levels` records: the clip markers' counts
  VHIST_UVEC4(band_lo);  // false colour: the first codes of bands 1-4 and 5-8 (band_codes())
  VHIST_UVEC4(band_hi);
  VHIST_VEC4(video_rect);  // pixels: the upright video (place_video()); black outside it
  VHIST_UINT(hdr);  // how an HDR source is shown (hdr_display_shared.h kHdr*) (the original picture; the
                    // equalized one is shown as codes)
  VHIST_FLOAT(hdr_peak);    // cd/m2: the source's peak (PQ: its mastering display's, else 1000)
  VHIST_FLOAT(hdr_target);  // cd/m2: shown as SDR white
  VHIST_UINT(bgra);  // 1: the output's bytes in B, G, R, A order (a B8G8R8A8 swapchain's), 0: R, G, B, A
} VHIST_UB;

VHIST_PUSH_BLOCK(CompositePush) {
  VHIST_UINT(quad);  // the panels' pass: the panel whose rect is dispatched
  VHIST_UINT(x0);    // target pixels: the dispatch's first column and row
  VHIST_UINT(y0);
  VHIST_UINT(pad0);
} VHIST_PC;
#endif

#ifdef __cplusplus
static_assert(offsetof(CompositeParams, quad_rect) == 96 && offsetof(CompositeParams, cdf) == 224 &&
              offsetof(CompositeParams, area) == 272 && offsetof(CompositeParams, overlay) == 400 &&
              sizeof(CompositeParams) == 528);
static_assert(sizeof(OverlayItem) == 64);
}  // namespace vhist::shader
#endif
#endif  // VHIST_DRAW_SHARED_H
