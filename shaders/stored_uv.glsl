// The video's one transform, in composite.comp: a frame is drawn upright
// (VideoFormat::rotation), its quad sized by the display aspect ratio (the sample aspect ratio
// applied; place_video() from display_width() and display_height()).
#ifndef VHIST_STORED_UV_GLSL
#define VHIST_STORED_UV_GLSL

// The stored frame's texture coordinates of display coordinates uv (0..1 across the upright
// picture) for a frame turned `rotation` degrees clockwise to upright.
vec2 stored_uv(vec2 uv, uint rotation) {
  if (rotation == 90u) return vec2(uv.y, 1.0 - uv.x);
  if (rotation == 180u) return vec2(1.0 - uv.x, 1.0 - uv.y);
  if (rotation == 270u) return vec2(1.0 - uv.y, uv.x);
  return uv;
}

#endif  // VHIST_STORED_UV_GLSL
