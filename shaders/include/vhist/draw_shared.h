// The interfaces of the viewer's drawing shaders, declared once for GLSL and C++
// (interface_shared.h says how): the quads' push constants (quad.vert with video.frag or
// histogram.frag; the vertex shader reads the rect and uv every block starts with) and the
// compute composite's parameters. A shader defines VHIST_SHADER_<its name> before including
// this header.
#ifndef VHIST_DRAW_SHARED_H
#define VHIST_DRAW_SHARED_H

#include "vhist/interface_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

// Every quad's push constants start with these: its corners in clip space (x0, y0, x1, y1; y
// down, as Vulkan's) and its texture coordinates.
#define VHIST_QUAD_FIELDS \
  VHIST_VEC4(rect);       \
  VHIST_VEC4(uv)

#if defined(__cplusplus) || defined(VHIST_SHADER_quad_vert)
VHIST_PUSH_BLOCK(QuadPush) {
  VHIST_QUAD_FIELDS;
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_video_frag)
VHIST_PUSH_BLOCK(VideoPush) {
  VHIST_QUAD_FIELDS;
  VHIST_FLOAT(code_scale);  // 65535 / (2^bits - 1) for 16-bit images, 1 for 8-bit
  VHIST_FLOAT(split_x);     // framebuffer pixels: the divider of the split view
  VHIST_UINT(divider);      // draw the divider
  VHIST_UINT(pad);
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_histogram_frag)
VHIST_PUSH_BLOCK(HistogramPush) {
  VHIST_QUAD_FIELDS;
  VHIST_ADDRESS(uvec2, histogram);
  VHIST_ADDRESS(uvec2, scale);
  VHIST_ADDRESS(uvec2, palette);
  VHIST_ADDRESS(uvec2, cdf);
  VHIST_UVEC4(channel_mult);
  VHIST_UINT(bins);
  VHIST_UINT(mode);
  VHIST_FLOAT(pixels);
  VHIST_FLOAT(opacity);
  VHIST_UINT(levels);
  VHIST_UINT(cdf_fill);
  VHIST_UINT(cdf_line);
  VHIST_UINT(pad);
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_composite)
VHIST_PARAMS_BLOCK(CompositeParams) {
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
  VHIST_VEC2(cover);  // the cover scale (sx, sy)
  VHIST_UINT(bins);
  VHIST_FLOAT(opacity);
  VHIST_FLOAT(pixels);
  VHIST_FLOAT(pad0);
  VHIST_VEC4S(quad_rect, 4);   // pixels: x0, y0, x1, y1
  VHIST_UVEC4S(quad_mult, 4);  // channel weights of each quad
  VHIST_ADDRESS(uvec2, cdf);        // the cumulative histogram, `levels` records
  VHIST_ADDRESS(uvec2, equalized);  // the equalized frame (equalize.comp), shown right of split_x; 0: none
  VHIST_UINT(levels);
  VHIST_UINT(pad1);
  VHIST_UINT(cdf_fill);
  VHIST_UINT(cdf_line);
  VHIST_FLOAT(split_x);  // pixels
  VHIST_UINT(divider);   // draw a line at split_x
};

VHIST_PUSH_BLOCK(CompositePush) {
  VHIST_ADDRESS(CompositeParams, params);
} VHIST_PC;
#endif

#ifdef __cplusplus
static_assert(sizeof(QuadPush) == 32 && sizeof(VideoPush) == 48 && sizeof(HistogramPush) == 112);
static_assert(offsetof(CompositeParams, quad_rect) == 96 && offsetof(CompositeParams, cdf) == 224 &&
              sizeof(CompositeParams) == 272);
}  // namespace vhist::shader
#endif
#endif  // VHIST_DRAW_SHARED_H
