// qc::HeldPicture (held_picture.h) on cell sums made by hand: the change is the cells' mean
// change in percent of the nominal range, held up to the threshold and not beyond it, measured
// from the frame that began the picture (so a slow drift ends the hold), and a frame of another
// shape begins a picture.
#include "vhist/qc/held_picture.h"

#include <gtest/gtest.h>

namespace vhist::qc {
namespace {

// 320 x 180, 8-bit limited: every cell holds 10 x 10 samples, so a sum changed by 100 d moves its
// mean by d codes, d / 219 of the range.
VideoFormat format(std::uint32_t width = 320, std::uint32_t height = 180) {
  VideoFormat f;
  f.width = width;
  f.height = height;
  f.bits = 8;
  f.range = ColourRange::limited;
  return f;
}

CellSums cells(std::uint32_t sum) {
  CellSums c;
  c.fill(sum);
  return c;
}

TEST(HeldPicture, HoldsUpToTheThresholdAndNotBeyond) {
  HeldPicture held(0.1);
  EXPECT_FALSE(held.next(cells(8000), format()).held);  // the first frame begins a picture
  // 21 / 100 code = 0.0959 % of 219: held; 22 / 100 = 0.1005 %: not.
  const HeldPicture::Verdict in = held.next(cells(8021), format());
  EXPECT_TRUE(in.held);
  EXPECT_NEAR(in.change, 21.0 / 100 / 219 * 100, 1e-5);
  const HeldPicture::Verdict out = held.next(cells(8022), format());
  EXPECT_FALSE(out.held);
  EXPECT_EQ(out.change, 0.0f);  // it begins the next picture
  EXPECT_TRUE(held.next(cells(8022), format()).held);
}

TEST(HeldPicture, OneCellsChangeCountsAsItsShareOfTheCells) {
  HeldPicture held(0.1);
  held.next(cells(8000), format());
  CellSums one = cells(8000);
  one[100] += 100 * 219 * 57 / 100;  // one cell 57 % brighter: 57 % / 576 of the mean change
  const HeldPicture::Verdict v = held.next(one, format());
  EXPECT_TRUE(v.held);
  EXPECT_NEAR(v.change, 57.0 / 576, 1e-4);
}

TEST(HeldPicture, ASlowDriftEndsTheHoldAsItAddsUp) {
  // Each frame 0.1 code (0.046 %) on from the last: within the threshold of the frame before,
  // but the third is 0.137 % from the first.
  HeldPicture held(0.1);
  held.next(cells(8000), format());
  EXPECT_TRUE(held.next(cells(8010), format()).held);
  EXPECT_TRUE(held.next(cells(8020), format()).held);
  EXPECT_FALSE(held.next(cells(8030), format()).held);
  EXPECT_TRUE(held.next(cells(8040), format()).held);  // held from the new first frame
}

TEST(HeldPicture, AnotherShapeBeginsAPicture) {
  HeldPicture held(0.1);
  held.next(cells(8000), format());
  EXPECT_FALSE(held.next(cells(8000), format(640, 360)).held);
  VideoFormat full = format(640, 360);
  full.range = ColourRange::full;
  EXPECT_FALSE(held.next(cells(8000), full).held);
  EXPECT_TRUE(held.next(cells(8000), full).held);
}

TEST(HeldPicture, ZeroHoldsOnlyEqualCells) {
  HeldPicture held(0.0);
  held.next(cells(8000), format());
  EXPECT_TRUE(held.next(cells(8000), format()).held);
  EXPECT_FALSE(held.next(cells(8001), format()).held);
}

}  // namespace
}  // namespace vhist::qc
