// HDR display mapping computed independently in double precision from the standards' equations
// (SMPTE ST 2084 / BT.2100 for PQ and HLG, BT.2390-8 section 5.4.1 for the EETF, and the BT.2020
// to BT.709 matrix derived here from the two sets of primaries and D65), for checking
// hdr_display_shared.h and the shaders that use it. Not the code under test.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

namespace vhist::test {

struct PqConstants {
  double m1 = 2610.0 / 16384.0, m2 = 2523.0 / 4096.0 * 128.0;
  double c1 = 3424.0 / 4096.0, c2 = 2413.0 / 4096.0 * 32.0, c3 = 2392.0 / 4096.0 * 32.0;
};

// ST 2084 EOTF: signal -> cd/m2.
inline double pq_to_nits(double e) {
  const PqConstants k;
  const double p = std::pow(std::max(e, 0.0), 1.0 / k.m2);
  return 10000.0 * std::pow(std::max(p - k.c1, 0.0) / (k.c2 - k.c3 * p), 1.0 / k.m1);
}

// Its inverse: cd/m2 -> signal.
inline double nits_to_pq(double nits) {
  const PqConstants k;
  const double y = std::pow(std::max(nits, 0.0) / 10000.0, k.m1);
  return std::pow((k.c1 + k.c2 * y) / (1.0 + k.c3 * y), k.m2);
}

// BT.2390 EETF: PQ signal of a source mastered between lb and lw cd/m2 -> PQ signal of a display
// between lmin and lmax.
inline double eetf(double e, double lb, double lw, double lmin, double lmax) {
  const double pb = nits_to_pq(lb), pw = nits_to_pq(lw);
  const double e1 = std::clamp((e - pb) / (pw - pb), 0.0, 1.0);
  const double min_lum = (nits_to_pq(lmin) - pb) / (pw - pb), max_lum = (nits_to_pq(lmax) - pb) / (pw - pb);
  const double ks = 1.5 * max_lum - 0.5, b = min_lum;
  double e2 = e1;
  if (e1 >= ks && ks < 1.0) {
    const double t = (e1 - ks) / (1.0 - ks);
    e2 = (2 * t * t * t - 3 * t * t + 1) * ks + (t * t * t - 2 * t * t + t) * (1 - ks) + (-2 * t * t * t + 3 * t * t) * max_lum;
  }
  const double e3 = e2 + b * std::pow(1.0 - e2, 4.0);
  return e3 * (pw - pb) + pb;
}

// BT.2100 HLG inverse OETF: signal -> scene light 0..1.
inline double hlg_to_scene(double e) {
  const double a = 0.17883277, b = 1.0 - 4.0 * a, c = 0.5 - a * std::log(4.0 * a);
  return e <= 0.5 ? e * e / 3.0 : (std::exp((e - c) / a) + b) / 12.0;
}

using Mat3 = std::array<std::array<double, 3>, 3>;

inline Mat3 multiply(const Mat3& a, const Mat3& b) {
  Mat3 m{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) m[i][j] += a[i][k] * b[k][j];
  return m;
}

inline Mat3 inverse(const Mat3& m) {
  const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  Mat3 r{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
      r[i][j] = (m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1]) / det;
    }
  }
  return r;
}

// RGB -> XYZ of primaries (x, y) for R, G, B and white D65 (SMPTE RP 177).
inline Mat3 rgb_to_xyz(const std::array<std::array<double, 2>, 3>& p) {
  const double wx = 0.3127, wy = 0.3290;
  Mat3 m{};
  for (int c = 0; c < 3; ++c) {
    m[0][c] = p[c][0] / p[c][1];
    m[1][c] = 1.0;
    m[2][c] = (1.0 - p[c][0] - p[c][1]) / p[c][1];
  }
  const Mat3 inv = inverse(m);
  const std::array<double, 3> w{wx / wy, 1.0, (1.0 - wx - wy) / wy};
  for (int c = 0; c < 3; ++c) {
    const double s = inv[c][0] * w[0] + inv[c][1] * w[1] + inv[c][2] * w[2];
    for (int r = 0; r < 3; ++r) m[r][c] *= s;
  }
  return m;
}

inline Mat3 bt2020_to_bt709() {
  const Mat3 from = rgb_to_xyz({{{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}}});
  const Mat3 to = rgb_to_xyz({{{0.640, 0.330}, {0.300, 0.600}, {0.150, 0.060}}});
  return multiply(inverse(to), from);
}

// The SDR signal (0..1) of R'G'B' signal `rgb` of a PQ (hlg false) or HLG source, as
// hdr_display_shared.h describes the steps: EETF from `peak` (PQ) or 1000 (HLG) to `target`
// cd/m2, blacks 0; BT.2020 -> BT.709; clip; gamma 2.4.
inline std::array<double, 3> hdr_to_sdr(std::array<double, 3> rgb, bool hlg, double peak, double target) {
  std::array<double, 3> pq = rgb;
  if (hlg) {
    std::array<double, 3> scene{};
    for (int c = 0; c < 3; ++c) scene[c] = hlg_to_scene(rgb[c]);
    const double ys = 0.2627 * scene[0] + 0.6780 * scene[1] + 0.0593 * scene[2];
    for (int c = 0; c < 3; ++c) pq[c] = nits_to_pq(1000.0 * std::pow(ys, 0.2) * scene[c]);
    peak = 1000.0;
  }
  std::array<double, 3> nits{};
  for (int c = 0; c < 3; ++c) nits[c] = pq_to_nits(eetf(pq[c], 0.0, peak, 0.0, target));
  const Mat3 m = bt2020_to_bt709();
  std::array<double, 3> out{};
  for (int r = 0; r < 3; ++r) {
    const double v = (m[r][0] * nits[0] + m[r][1] * nits[1] + m[r][2] * nits[2]) / target;
    out[r] = std::pow(std::clamp(v, 0.0, 1.0), 1.0 / 2.4);
  }
  return out;
}

}  // namespace vhist::test
