// The HDR display mapping's curves (hdr_display_shared.h, compiled as C++ here and as GLSL in
// the shaders) against the standards' equations computed independently in double precision
// (hdr_reference.h), and the viewer's choice of mapping and its words.
#include "hdr_reference.h"

#include "vhist/hdr_display_shared.h"
#include "vhist/picture/light_scale.h"

#include <gtest/gtest.h>

namespace vhist {
namespace {

TEST(HdrCurves, PqEotfAndItsInverseFollowSt2084) {
  for (double e = 0.0; e <= 1.0; e += 1.0 / 64) {
    const double nits = test::pq_to_nits(e);
    EXPECT_NEAR(10000.0 * shader::vhist_pq_eotf(static_cast<float>(e)), nits, 1e-3 + 1e-4 * nits) << e;
    EXPECT_NEAR(shader::vhist_pq_inverse_eotf(static_cast<float>(nits / 10000.0)), e, 2e-5) << e;
  }
  // Known points of ST 2084: 100 cd/m2 at signal 0.508, 1000 at 0.752, 10000 at 1.
  EXPECT_NEAR(test::nits_to_pq(100), 0.5081, 1e-4);
  EXPECT_NEAR(test::nits_to_pq(1000), 0.7518, 1e-4);
  EXPECT_NEAR(test::nits_to_pq(10000), 1.0, 1e-12);
}

TEST(HdrCurves, HlgInverseOetfFollowsBt2100) {
  for (double e = 0.0; e <= 1.0; e += 1.0 / 64) {
    EXPECT_NEAR(shader::vhist_hlg_inverse_oetf(static_cast<float>(e)), test::hlg_to_scene(e), 2e-6) << e;
  }
  EXPECT_NEAR(test::hlg_to_scene(0.5), 1.0 / 12.0, 1e-12);  // the two pieces meet
  EXPECT_NEAR(test::hlg_to_scene(1.0), 1.0, 1e-6);
}

TEST(HdrCurves, EetfIsBt2390s) {
  // Sources mastered at 1000 and 4000 cd/m2 onto a 203 cd/m2 target, and a 100 cd/m2 target.
  for (const double peak : {1000.0, 4000.0}) {
    for (const double target : {203.0, 100.0}) {
      const auto sp = static_cast<float>(test::nits_to_pq(peak)), tp = static_cast<float>(test::nits_to_pq(target));
      for (double e = 0.0; e <= 1.0; e += 1.0 / 128) {
        EXPECT_NEAR(shader::vhist_eetf(static_cast<float>(e), sp, tp), test::eetf(e, 0, peak, 0, target), 3e-6)
            << "signal " << e << ", peak " << peak << ", target " << target;
      }
      // The source's peak lands on the target's; below the knee nothing changes.
      EXPECT_NEAR(test::eetf(test::nits_to_pq(peak), 0, peak, 0, target), test::nits_to_pq(target), 1e-9);
      EXPECT_NEAR(test::eetf(test::nits_to_pq(1.0), 0, peak, 0, target), test::nits_to_pq(1.0), 1e-12);
    }
  }
  // A source no brighter than the target: identity.
  const auto sp = static_cast<float>(test::nits_to_pq(100)), tp = static_cast<float>(test::nits_to_pq(203));
  EXPECT_FLOAT_EQ(shader::vhist_eetf(0.4f, sp, tp), 0.4f);
}

TEST(HdrCurves, Bt2020ToBt709MatrixFromThePrimaries) {
  const test::Mat3 m = test::bt2020_to_bt709();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(shader::kBt2020To709[r * 3 + c], m[r][c], 2e-6) << r << "," << c;
  }
}

TEST(HdrDisplay, ChosenForPqAndHlgOnlyAndSaidInWords) {
  using viewer::LightScale;
  EXPECT_EQ(viewer::hdr_display_for(LightScale::none, true, 0).mapped, LightScale::none);
  const auto pq = viewer::hdr_display_for(LightScale::pq, true, 4000);
  EXPECT_EQ(pq.mapped, LightScale::pq);
  EXPECT_EQ(pq.source_peak, 4000.0f);  // the mastering display's peak
  EXPECT_EQ(pq.target, 203.0f);
  EXPECT_EQ(viewer::hdr_display_for(LightScale::pq, true, 0).source_peak, 1000.0f);  // unknown: 1000
  EXPECT_EQ(viewer::hdr_display_for(LightScale::hlg, true, 4000).source_peak, 1000.0f);
  EXPECT_EQ(viewer::hdr_display_for(LightScale::hlg, false, 0).mapped, LightScale::none);
  EXPECT_EQ(viewer::hdr_display_text(LightScale::pq, pq), "HDR PQ tone-mapped to SDR: BT.2390 EETF, 4000 to 203 cd/m2");
  EXPECT_EQ(viewer::hdr_display_text(LightScale::hlg, viewer::hdr_display_for(LightScale::hlg, true, 0)),
            "HDR HLG tone-mapped to SDR: 1000 cd/m2 display, BT.2390 EETF to 203 cd/m2");
  EXPECT_EQ(viewer::hdr_display_text(LightScale::hlg, {}), "HDR HLG shown as code values, not tone-mapped");
  EXPECT_EQ(viewer::hdr_display_text(LightScale::none, {}), "");
}

}  // namespace
}  // namespace vhist

