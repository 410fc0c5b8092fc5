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

// 1 / m rounded to the nearest binary32 (ties to even), for 1 <= m < 2^31: quotient_rn(1u, m)
// in a few steps instead of some 40 dependent iterations (it sits on the fused pass's critical
// path). M = floor(2^k / m) with k = msb(m) + 24 lies in [2^23, 2^24); a float estimate is
// corrected with exact 64-bit products (so the device's division precision does not matter),
// then rounded by the remainder as quotient_rn rounds.
float reciprocal_rn(uint m) {
  const int s = findMSB(m);  // 2^s <= m < 2^(s+1)
  if ((m & (m - 1u)) == 0u) return uintBitsToFloat(uint(127 - s) << 23u);
  const uint k = uint(s) + 24u;  // 24..54
  const uint pk_hi = k >= 32u ? 1u << (k - 32u) : 0u;
  const uint pk_lo = k >= 32u ? 0u : 1u << k;
  uint M = uint(clamp(16777216.0 / (float(m) * exp2(-float(s))), 8388608.0, 16777215.0));
  uint hi, lo;
  umulExtended(M, m, hi, lo);
  while (hi > pk_hi || (hi == pk_hi && lo > pk_lo)) {  // M * m > 2^k
    --M;
    umulExtended(M, m, hi, lo);
  }
  umulExtended(M + 1u, m, hi, lo);
  while (hi < pk_hi || (hi == pk_hi && lo <= pk_lo)) {  // (M + 1) * m <= 2^k
    ++M;
    umulExtended(M + 1u, m, hi, lo);
  }
  umulExtended(M, m, hi, lo);
  const uint r = pk_lo - lo;  // 2^k - M * m, in [0, m)
  if (2u * r > m || (2u * r == m && (M & 1u) != 0u)) ++M;
  if (M == (1u << 24u)) return uintBitsToFloat(uint(127 + 24 - int(k)) << 23u);
  return uintBitsToFloat((uint(127 + 23 - int(k)) << 23u) | (M & 0x7fffffu));
}

// The scale of one channel whose highest bin holds max_count of pixel_count pixels, with `bins`
// bins: max(1 / max_count, 0.2 * bins / pixels); an empty channel keeps the floor value.
float channel_scale(uint max_count, uint bins, uint pixel_count) {
  const float floor_scale = quotient_rn(bins, 5u * pixel_count);
  return max_count == 0u ? floor_scale : max(reciprocal_rn(max_count), floor_scale);
}

#endif
