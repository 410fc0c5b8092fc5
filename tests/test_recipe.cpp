// The project's one recipe for Y'CbCr clips made from R'G'B' sources (scripts/ycbcr.sh), which
// the demo, scripts/make_footage.sh, the benchmark clips and the tests' clips use: known R'G'B'
// patches, converted by the recipe, encoded losslessly, then decoded by vhist as tagged, come back
// as those patches. A clip made with FFmpeg's default (BT.601's matrix) and tagged BT.709 is
// shown to miss them, so the test can tell a right recipe from a wrong one.
#include "test_clips.h"

#include "vhist/compute/colour.h"
#include "vhist/media/media_source.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace vhist;
using namespace vhist::test;

constexpr std::uint32_t kPatch = 32, kColumns = 4, kRows = 3;  // 128x96
// Saturated primaries and secondaries at 100 % and 75 % (the bars), a skin tone, a sky, greys
// and near-black: the colours a matrix error moves most and least.
constexpr std::array<std::array<std::uint8_t, 3>, kColumns * kRows> kPatches = {{
    {255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 0},
    {0, 255, 255}, {255, 0, 255}, {191, 191, 0}, {0, 191, 191},
    {224, 172, 138}, {90, 140, 220}, {128, 128, 128}, {6, 4, 2},
}};

// The patches as one rgb24 frame.
std::string patch_frame() {
  std::string rgb(std::size_t{kPatch} * kColumns * kPatch * kRows * 3, '\0');
  for (std::uint32_t y = 0; y < kPatch * kRows; ++y) {
    for (std::uint32_t x = 0; x < kPatch * kColumns; ++x) {
      const auto& c = kPatches[(y / kPatch) * kColumns + x / kPatch];
      for (int i = 0; i < 3; ++i) rgb[(std::size_t{y} * kPatch * kColumns + x) * 3 + i] = static_cast<char>(c[i]);
    }
  }
  return rgb;
}

// Two frames of the patches through `filters` and ffv1 (lossless) with `tags`.
std::string patch_clip(const std::string& name, const std::string& filters, const std::string& tags) {
  const std::string cmd = "ffmpeg -v error -y -f rawvideo -pix_fmt rgb24 -s 128x96 -r 25 -i - -vf '" + filters +
                          "' -frames:v 2 -c:v ffv1 " + tags + " ";
  return shared_file(name, cmd, [&](const std::string& temp) {
    std::FILE* pipe = ::popen((cmd + quote(temp)).c_str(), "w");
    if (pipe == nullptr) return false;
    const std::string frame = patch_frame();
    for (int n = 0; n < 2; ++n) std::fwrite(frame.data(), 1, frame.size(), pipe);
    return ::pclose(pipe) == 0;
  });
}

struct Miss {
  int worst = 0;      // the largest difference of a component from its patch, in codes
  std::string where;  // which patch and component
};

// Decodes the clip's first frame as tagged (checking the tags it was given) and compares the
// centre of each patch, converted by vhist's reference, with the patch's colour at the
// frame's depth (code * (2^bits - 1) / 255).
Miss decode_and_compare(const std::string& path, ColourMatrix matrix, ColourRange range, std::uint32_t bits) {
  auto source = media::MediaSource::open(path);
  media::DecodedFrame f;
  EXPECT_EQ(source->next(f, std::chrono::seconds(20)), media::MediaSource::Status::frame) << path;
  EXPECT_EQ(f.format.matrix, matrix) << path;
  EXPECT_EQ(f.format.range, range) << path;
  EXPECT_EQ(f.format.bits, bits) << path;
  const ConversionCoefficients k = conversion_coefficients(f.format.matrix, f.format.range, f.format.bits);
  const double scale = ((1u << bits) - 1u) / 255.0;
  Miss miss;
  for (std::uint32_t i = 0; i < kPatches.size(); ++i) {
    const std::uint32_t x = (i % kColumns) * kPatch + kPatch / 2, y = (i / kColumns) * kPatch + kPatch / 2;
    const Rgb got = reference_pixel(f.format, f.planes, k, x, y);
    const std::array<std::uint32_t, 3> values = {got.r, got.g, got.b};
    for (int c = 0; c < 3; ++c) {
      const int want = static_cast<int>(std::lround(kPatches[i][c] * scale));
      const int off = std::abs(static_cast<int>(values[c]) - want);
      if (off > miss.worst) miss = {off, "patch " + std::to_string(i) + " component " + "RGB"[c]};
    }
  }
  return miss;
}

struct RecipeCase {
  const char* matrix;  // the ffmpeg tag
  const char* pix_fmt;
  const char* range;
  ColourMatrix want_matrix;
  ColourRange want_range;
  std::uint32_t bits;
};

TEST(Clips, TheRecipeDecodesBackToItsPatches) {
  const std::vector<RecipeCase> cases = {
      {"bt709", "yuv420p", "tv", ColourMatrix::bt709, ColourRange::limited, 8},
      {"bt709", "yuv444p", "pc", ColourMatrix::bt709, ColourRange::full, 8},
      {"bt709", "yuv420p10le", "tv", ColourMatrix::bt709, ColourRange::limited, 10},
      {"smpte170m", "yuv420p", "tv", ColourMatrix::bt601, ColourRange::limited, 8},
      {"bt470bg", "yuv422p", "tv", ColourMatrix::bt601, ColourRange::limited, 8},
      {"bt2020nc", "yuv420p10le", "tv", ColourMatrix::bt2020, ColourRange::limited, 10},
      {"bt709", "yuv422p10le", "pc", ColourMatrix::bt709, ColourRange::full, 10},
  };
  for (const RecipeCase& c : cases) {
    const std::string name = std::string("recipe_") + c.matrix + "_" + c.pix_fmt + "_" + c.range + ".mkv";
    const std::string clip = patch_clip(name, ycbcr_vf(c.matrix, c.pix_fmt, c.range), ycbcr_tags(c.matrix, c.range));
    const Miss miss = decode_and_compare(clip, c.want_matrix, c.want_range, c.bits);
    // The rounding of the Y'CbCr codes alone moves B' by up to half a code of Y' (255/219 of an
    // R'G'B' code in limited range) plus half a code of Cb times 2(1 - Kb) (1.86 x 255/224), and
    // the R'G'B' code's own rounding adds half: 2.1 codes at 8 and at 10 bits. A matrix mistaken
    // for another moves saturated colours by tens of codes (the test below).
    EXPECT_LE(miss.worst, 2) << name << ": " << miss.where << " is " << miss.worst << " codes off";
  }
}

// The fault the recipe exists for: FFmpeg's default conversion (BT.601's matrix) tagged BT.709.
TEST(Clips, TheDefaultConversionTaggedBt709MissesThePatches) {
  const std::string clip = patch_clip("recipe_default_tagged_709.mkv", "format=yuv420p",
                                      "-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv");
  const Miss miss = decode_and_compare(clip, ColourMatrix::bt709, ColourRange::limited, 8);
  EXPECT_GT(miss.worst, 10) << miss.where;
}

TEST(Clips, ARecipeForAnUnknownMatrixFails) {
  EXPECT_THROW(ycbcr_vf("bt601"), std::runtime_error);  // a scaler's name, not a tag
  EXPECT_THROW(ycbcr_tags("jpeg"), std::runtime_error);
}

TEST(Clips, AMatrixTagOnADrawnSourceNeedsTheRecipe) {
  EXPECT_TRUE(tags_a_matrix_without_the_recipe("-f lavfi -i testsrc2 -pix_fmt yuv420p -colorspace bt709"));
  EXPECT_FALSE(tags_a_matrix_without_the_recipe("-f lavfi -i testsrc2," + ycbcr_vf("bt709") + " " + ycbcr_tags("bt709")));
  EXPECT_FALSE(tags_a_matrix_without_the_recipe("-f lavfi -i testsrc2 -pix_fmt yuv420p"));  // untagged
}

}  // namespace
