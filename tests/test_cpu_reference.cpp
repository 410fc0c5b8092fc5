// The CPU reference against values worked out by hand from the definitions (not from the code).
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/synthetic_frames.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <vector>

namespace {

using vhist::Channel;
using vhist::FrameFormat;
using vhist::PixelPacking;

std::vector<std::byte> rgba8(std::initializer_list<std::array<int, 4>> pixels) {
  std::vector<std::byte> out;
  for (const auto& p : pixels) {
    for (int c : p) out.push_back(static_cast<std::byte>(c));
  }
  return out;
}

TEST(Luma, Rec709WeightsOnPrimaries) {
  // 0.2126 * 255 = 54.2, 0.7152 * 255 = 182.4, 0.0722 * 255 = 18.4
  EXPECT_EQ(vhist::shader::vhist_luma(255, 0, 0), 54u);
  EXPECT_EQ(vhist::shader::vhist_luma(0, 255, 0), 182u);
  EXPECT_EQ(vhist::shader::vhist_luma(0, 0, 255), 18u);
  EXPECT_EQ(vhist::shader::vhist_luma(0, 0, 0), 0u);
  // Weights sum to 65536: grey stays grey at every depth, white stays white.
  for (unsigned v : {1u, 17u, 128u, 255u, 1023u, 65535u}) EXPECT_EQ(vhist::shader::vhist_luma(v, v, v), v);
}

TEST(Luma, RoundsToNearest) {
  // 13933 * 1 / 65536 = 0.21 -> 0; 46871 * 1 / 65536 = 0.715 -> 1
  EXPECT_EQ(vhist::shader::vhist_luma(1, 0, 0), 0u);
  EXPECT_EQ(vhist::shader::vhist_luma(0, 1, 0), 1u);
  // 10-bit yellow (1023, 1023, 0): (13933 + 46871) * 1023 / 65536 = 949.1
  EXPECT_EQ(vhist::shader::vhist_luma(1023, 1023, 0), 949u);
}

TEST(Bins, ValueToBin) {
  EXPECT_EQ(vhist::shader::vhist_bin(255, 256, 8), 255u);
  EXPECT_EQ(vhist::shader::vhist_bin(255, 16, 8), 15u);
  EXPECT_EQ(vhist::shader::vhist_bin(15, 16, 8), 0u);
  EXPECT_EQ(vhist::shader::vhist_bin(16, 16, 8), 1u);
  EXPECT_EQ(vhist::shader::vhist_bin(1023, 1024, 10), 1023u);
  EXPECT_EQ(vhist::shader::vhist_bin(512, 256, 10), 128u);
  EXPECT_EQ(vhist::shader::vhist_bin(65535, 1024, 16), 1023u);
}

TEST(Bins, Validation) {
  EXPECT_TRUE(vhist::check_bins(16, 8).empty());
  EXPECT_TRUE(vhist::check_bins(256, 8).empty());
  EXPECT_TRUE(vhist::check_bins(1024, 10).empty());
  EXPECT_FALSE(vhist::check_bins(512, 8).empty());
  EXPECT_FALSE(vhist::check_bins(8, 8).empty());
  EXPECT_FALSE(vhist::check_bins(100, 8).empty());
  EXPECT_FALSE(vhist::check_bins(2048, 16).empty());
  EXPECT_NE(vhist::check_bins(100, 8).find("power of two"), std::string::npos);
}

TEST(ReferenceHistogram, HandCountedFrame) {
  // 3 pixels: red, red, white (alpha ignored).
  const auto px = rgba8({{255, 0, 0, 7}, {255, 0, 0, 255}, {255, 255, 255, 0}});
  const FrameFormat f{3, 1, PixelPacking::rgba8, 8};
  const auto h = vhist::reference_histogram(px, f, 16);
  EXPECT_EQ(h.at(Channel::r, 15), 3u);
  EXPECT_EQ(h.at(Channel::g, 0), 2u);
  EXPECT_EQ(h.at(Channel::g, 15), 1u);
  EXPECT_EQ(h.at(Channel::b, 0), 2u);
  EXPECT_EQ(h.at(Channel::b, 15), 1u);
  EXPECT_EQ(h.at(Channel::l, 3), 2u);  // luma 54 -> bin 54 * 16 >> 8 = 3
  EXPECT_EQ(h.at(Channel::l, 15), 1u);
  for (Channel c : vhist::kAllChannels) EXPECT_EQ(h.total(c), 3u);
}

TEST(ReferenceHistogram, Rgba16TenBit) {
  // One 10-bit pixel (1023, 512, 0) in little-endian 16-bit fields.
  std::vector<std::byte> px(8);
  const std::uint16_t c[4] = {1023, 512, 0, 1023};
  std::memcpy(px.data(), c, 8);
  const auto h = vhist::reference_histogram(px, {1, 1, PixelPacking::rgba16, 10}, 1024);
  EXPECT_EQ(h.at(Channel::r, 1023), 1u);
  EXPECT_EQ(h.at(Channel::g, 512), 1u);
  EXPECT_EQ(h.at(Channel::b, 0), 1u);
  // 0.2126 * 1023 + 0.7152 * 512 = 217.5 + 366.2 = 583.7 -> 584
  EXPECT_EQ(h.at(Channel::l, 584), 1u);
}

TEST(ReferenceHistogram, CountsSumToPixelsForEveryContent) {
  const FrameFormat f{33, 17, PixelPacking::rgba8, 8};
  for (vhist::Content c : vhist::kAllContents) {
    const auto h = vhist::reference_histogram(vhist::make_frame(f, c), f, 64);
    for (Channel ch : vhist::kAllChannels) EXPECT_EQ(h.total(ch), f.pixel_count()) << vhist::content_name(c);
  }
}

TEST(ReferenceHistogram, RejectsBadInput) {
  const FrameFormat f{2, 2, PixelPacking::rgba8, 8};
  const std::vector<std::byte> small(8);
  EXPECT_THROW(vhist::reference_histogram(small, f, 16), std::invalid_argument);
  const std::vector<std::byte> ok(16);
  EXPECT_THROW(vhist::reference_histogram(ok, f, 48), std::invalid_argument);
  EXPECT_THROW(vhist::reference_histogram(ok, {0, 2, PixelPacking::rgba8, 8}, 16), std::invalid_argument);
}

TEST(QuotientRn, CorrectlyRounded) {
  EXPECT_EQ(std::bit_cast<std::uint32_t>(vhist::quotient_rn(1, 3)), 0x3eaaaaabu);  // 0.33333334
  EXPECT_EQ(vhist::quotient_rn(1, 1), 1.0f);
  EXPECT_EQ(vhist::quotient_rn(1, 4), 0.25f);
  EXPECT_EQ(vhist::quotient_rn(256, 5), 51.2f);
  // 1 / 10 as the nearest float is 0x3dcccccd.
  EXPECT_EQ(std::bit_cast<std::uint32_t>(vhist::quotient_rn(1, 10)), 0x3dcccccdu);
}

TEST(ReferenceScale, ArticlesFormula) {
  // 100 pixels, 16 bins; R all in one bin (max 100): 1/100 = 0.01 vs 16/500 = 0.032 -> 0.032.
  vhist::Histogram h(16);
  h.at(Channel::r, 3) = 100;
  h.at(Channel::g, 0) = 1;   // max 1: 1/1 = 1.0 wins
  h.at(Channel::b, 5) = 20;  // 1/20 = 0.05 > 0.032
  const auto s = vhist::reference_scale(h, 100);
  EXPECT_EQ(s.scale[0], vhist::quotient_rn(16, 500));
  EXPECT_FLOAT_EQ(s.scale[0], 0.032f);
  EXPECT_EQ(s.scale[1], 1.0f);
  EXPECT_EQ(s.scale[2], 0.05f);
  EXPECT_EQ(s.scale[3], vhist::quotient_rn(16, 500));  // empty channel: the floor value
  EXPECT_EQ(s.max_count[0], 100u);
  EXPECT_EQ(s.max_count[3], 0u);
}

TEST(SyntheticFrames, DeterministicAndDistinct) {
  const FrameFormat f{16, 8, PixelPacking::rgba8, 8};
  EXPECT_EQ(vhist::make_frame(f, vhist::Content::random, 3), vhist::make_frame(f, vhist::Content::random, 3));
  EXPECT_NE(vhist::make_frame(f, vhist::Content::random, 3), vhist::make_frame(f, vhist::Content::random, 4));
  const auto checker = vhist::make_frame(f, vhist::Content::checker);
  EXPECT_NE(std::memcmp(checker.data(), checker.data() + 4, 4), 0);
  EXPECT_EQ(std::memcmp(checker.data(), checker.data() + 8, 4), 0);
}

}  // namespace
