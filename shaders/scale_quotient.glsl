// The scale factors' quotients, shared by hist_scale.comp and the fused tail of hist_fast.comp:
// both compute the correctly rounded float of an exact integer quotient by long division in
// integers, so the GPU result does not depend on the device's float division precision.
#ifndef VHIST_SCALE_QUOTIENT_GLSL
#define VHIST_SCALE_QUOTIENT_GLSL

// n / d rounded to the nearest binary32 (ties to even), for 1 <= n, d < 2^31.
float quotient_rn(uint n, uint d) {
  int exponent = 0;
  uint num = n;
  uint den = d;
  while (num >= 2u * den) {  // scale so that den <= num < 2 * den; den stays below 2^31
    den <<= 1u;
    ++exponent;
  }
  while (num < den) {
    num <<= 1u;
    --exponent;
  }
  uint mantissa = 0u;  // 24 significant bits, the leading one first
  for (uint i = 0u; i < 24u; ++i) {
    mantissa <<= 1u;
    if (num >= den) {
      num -= den;
      mantissa |= 1u;
    }
    num <<= 1u;  // num is now twice the remainder
  }
  if (num > den || (num == den && (mantissa & 1u) != 0u)) {
    ++mantissa;
    if (mantissa == (1u << 24u)) {
      mantissa >>= 1u;
      ++exponent;
    }
  }
  return uintBitsToFloat((uint(exponent + 127) << 23u) | (mantissa & 0x7fffffu));
}

// The scale of one channel whose highest bin holds max_count of pixel_count pixels, with `bins`
// bins: max(1 / max_count, 0.2 * bins / pixels); an empty channel keeps the floor value.
float channel_scale(uint max_count, uint bins, uint pixel_count) {
  const float floor_scale = quotient_rn(bins, 5u * pixel_count);
  return max_count == 0u ? floor_scale : max(quotient_rn(1u, max_count), floor_scale);
}

#endif
