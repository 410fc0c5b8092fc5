#version 460
// A quad from gl_VertexIndex (two triangles, no vertex buffer): its corners at `rect` in clip
// space (x0, y0, x1, y1; y down, as Vulkan's), texture coordinates from `uv`. The video's rect
// is place_video()'s (video_fit.h): larger than the area where cover or 1:1 crops (the articles'
// cover scale), inside it where fit letterboxes; histograms use a rect inside the area.
#extension GL_GOOGLE_include_directive : require
#define VHIST_SHADER_quad_vert
#include "vhist/draw_shared.h"  // the push constants

layout(location = 0) out vec2 v_uv;

const vec2 kCorners[6] = vec2[](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
                                vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0));

void main() {
  vec2 c = kCorners[gl_VertexIndex];
  gl_Position = vec4(mix(pc.rect.xy, pc.rect.zw, c), 0.0, 1.0);
  v_uv = mix(pc.uv.xy, pc.uv.zw, c);
}
