// The scopes' drawing (scope_draw.comp), declared once for GLSL and C++ (interface_shared.h says
// how): one panel's parameters, written by the frame renderer (frame_renderer_scopes.cpp) each
// tick, and the push constants of its dispatch. The counts are laid out as scope_counts.h says.
#ifndef VHIST_SCOPE_DRAW_SHARED_H
#define VHIST_SCOPE_DRAW_SHARED_H

#include "vhist/interface_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

VHIST_CONST kScopeDrawWaveform = 0u;  // one plot: 1 component (luma) or 3 added in their colours (overlay)
VHIST_CONST kScopeDrawParade = 1u;    // 3 parts side by side, component k in part k
VHIST_CONST kScopeDrawVector = 2u;    // Cb right, Cr up, in the plot's square
VHIST_CONST kScopeMapLog = 0u;
VHIST_CONST kScopeMapLinear = 1u;

#if defined(__cplusplus) || defined(VHIST_SHADER_scope_draw)
VHIST_PARAMS_BLOCK(ScopeDrawParams) {
  VHIST_ADDRESS(uvec2, output_);       // the RGBA8 picture, drawn over
  VHIST_ADDRESS(uvec2, counts);        // the frame's counts
  VHIST_ADDRESS(uvec2, counts_right);  // right of split_x: the equalized (or matched) frame's; 0: none
  VHIST_ADDRESS(uvec2, overlay);       // the panels' overlay grids (overlay_grid.h)
  VHIST_VEC4(rect);                    // pixels: the panel (its background)
  VHIST_VEC4(plot);                    // pixels: the counts (the vectorscope: its square)
  VHIST_VEC4S(colour, 3);              // the components' trace colours
  VHIST_VEC4(cb_rgb);                  // vectorscope: R'G'B' per unit of Cb and of Cr (channel colours)
  VHIST_VEC4(cr_rgb);
  VHIST_UINT(target_w);
  VHIST_UINT(target_h);
  VHIST_UINT(pad0);        // (the kind, kScopeDraw*, is the pipeline's: scope_draw.comp's kKind)
  VHIST_UINT(components);  // in the counts: 1 or 3
  VHIST_UINT(levels);      // waveform: levels per column; vectorscope: the grid's side N
  VHIST_UINT(columns);     // waveform: plot columns in the counts (shape.plot_columns)
  VHIST_UINT(mask);        // the components drawn (bit k)
  VHIST_UINT(mapping);     // kScopeMap*
  VHIST_FLOAT(gain);
  VHIST_FLOAT(samples);    // the count that maps to full brightness before the gain
  VHIST_FLOAT(part);       // parade: a part's width in pixels, and the gap between parts
  VHIST_FLOAT(gap);
  VHIST_FLOAT(split_x);    // counts_right is drawn from this fraction of the plot's (a part's) width on
  VHIST_FLOAT(zoom);       // vectorscope
  VHIST_FLOAT(opacity);    // the background's
  VHIST_UINT(bits);        // vectorscope: the chroma codes' depth
  VHIST_UINT(plot_width);  // waveform: the request's plot width (counts' column stride is `columns`)
  VHIST_UINT(overlay_first);
  VHIST_UINT(overlay_count);  // 0: no overlay
  VHIST_UINT(vector_colours);  // vectorscope: 1 traces in the chroma's colour, 0 white
  VHIST_UINT(bgra);  // 1: the picture's bytes in B, G, R, A order (CompositeTarget::bgra)
  VHIST_UINT(pad1);
};

VHIST_PUSH_BLOCK(ScopeDrawPush) {
  VHIST_ADDRESS(ScopeDrawParams, params);
  VHIST_UINT(x0);  // the dispatch's first pixel (the panel's top left)
  VHIST_UINT(y0);
} VHIST_PC;
#endif

#ifdef __cplusplus
static_assert(sizeof(ScopeDrawParams) == 240 && sizeof(ScopeDrawPush) == 16);
}  // namespace vhist::shader
#endif
#endif  // VHIST_SCOPE_DRAW_SHARED_H
