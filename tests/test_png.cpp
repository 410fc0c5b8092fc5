// app/media/png: PNG files written with stb_image_write and read back with stb_image, checked
// against the ffmpeg command-line tools (ffprobe reads ours; ours reads ffmpeg's in several pixel formats).
#include "vhist/media/png.h"

#include "test_clips.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace vhist::media;
using vhist::test::clip_dir;
using vhist::test::make_clip;

namespace {

// Distinct values in every channel: red by column, green by row, blue by both.
RgbaImage gradient(std::uint32_t w, std::uint32_t h, bool varied_alpha) {
  RgbaImage image;
  image.width = w;
  image.height = h;
  image.pixels.resize(std::size_t{w} * h * 4);
  for (std::uint32_t y = 0; y < h; ++y) {
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint8_t* p = image.pixels.data() + (std::size_t{y} * w + x) * 4;
      p[0] = static_cast<std::uint8_t>(x * 7 + 1);
      p[1] = static_cast<std::uint8_t>(y * 11 + 2);
      p[2] = static_cast<std::uint8_t>((x * 31 + y * 17) ^ 0x5a);
      // Alpha 0 included: PNG is not premultiplied, the colour under it must survive.
      p[3] = varied_alpha ? static_cast<std::uint8_t>(x * 13 + y * 5) : 255;
    }
  }
  return image;
}

// A command's standard output (stderr goes to the test's log).
std::string run(const std::string& cmd) {
  std::string out;
  if (std::FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = ::pclose(p);
    EXPECT_EQ(status, 0) << cmd;
  } else {
    ADD_FAILURE() << "cannot run " << cmd;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// "width,height,pix_fmt" as ffprobe sees the file.
std::string probe(const std::string& path) {
  return run("ffprobe -v error -show_entries stream=width,height,pix_fmt -of csv=p=0 '" + path + "'");
}

std::string temp_path(const std::string& name) { return (clip_dir() / name).string(); }

// testsrc 32x24 written by ffmpeg in `pix_fmt`.
std::string testsrc_png(const std::string& pix_fmt) {
  return make_clip("testsrc_" + pix_fmt + ".png", "-f lavfi -i testsrc=s=32x24 -frames:v 1 -pix_fmt " + pix_fmt);
}

void expect_same_pixels(const RgbaImage& a, const RgbaImage& b) {
  ASSERT_EQ(a.width, b.width);
  ASSERT_EQ(a.height, b.height);
  ASSERT_EQ(a.pixels.size(), b.pixels.size());
  int shown = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    for (std::uint32_t x = 0; x < a.width; ++x) {
      if (a.at(x, y) != b.at(x, y) && shown++ < 5) {
        const auto p = a.at(x, y);
        const auto q = b.at(x, y);
        ADD_FAILURE() << "pixel (" << x << ", " << y << "): " << +p[0] << " " << +p[1] << " " << +p[2] << " "
                      << +p[3] << " vs " << +q[0] << " " << +q[1] << " " << +q[2] << " " << +q[3];
      }
    }
  }
  EXPECT_EQ(shown, 0) << "pixels differ";
}

// ---------------------------------------------------------------------------------------------

TEST(Png, RoundTripOpaqueIsRgb) {
  const RgbaImage image = gradient(37, 23, false);
  const std::string path = temp_path("opaque.png");
  ASSERT_EQ(write_png(path, image), "");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  const std::string bytes = vhist::test::read_file(path);
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(probe(path), "37,23,rgb24");
  expect_same_pixels(read_png(path), image);
}

// encode_png's bytes, either filter: a PNG FFmpeg reads as the same pixels; the unfiltered one is
// another encoding (its rows are not filtered), and the adaptive one is write_png's file.
TEST(Png, EncodesToMemoryWithEitherFilter) {
  for (const bool alpha : {false, true}) {
    const RgbaImage image = gradient(61, 17, alpha);
    std::string error;
    const std::string adaptive = encode_png(image, error);
    ASSERT_EQ(error, "");
    const std::string none = encode_png(image, error, PngFilter::none);
    ASSERT_EQ(error, "");
    EXPECT_NE(adaptive, none);
    const std::string path = temp_path(alpha ? "encoded_alpha.png" : "encoded.png");
    ASSERT_EQ(write_png(path, image), "");
    EXPECT_EQ(vhist::test::read_file(path), adaptive);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << none;
    EXPECT_EQ(probe(path), alpha ? "61,17,rgba" : "61,17,rgb24");
    expect_same_pixels(read_png(path), image);
  }
  std::string error;
  EXPECT_EQ(encode_png(RgbaImage{}, error), "");
  EXPECT_NE(error.find("empty"), std::string::npos) << error;
}

TEST(Png, RoundTripVariedAlphaIsRgba) {
  const RgbaImage image = gradient(37, 23, true);
  const std::string path = temp_path("alpha.png");
  ASSERT_EQ(write_png(path, image), "");
  EXPECT_EQ(probe(path), "37,23,rgba");
  const RgbaImage back = read_png(path);
  expect_same_pixels(back, image);
  EXPECT_EQ(back.at(0, 0)[3], 0);  // fully transparent, colour kept
  EXPECT_EQ(back.at(0, 0)[0], 1);
}

TEST(Png, OneTransparentPixelMakesRgba) {
  RgbaImage image = gradient(5, 4, false);
  image.pixels[(3 * 5 + 4) * 4 + 3] = 254;
  const std::string path = temp_path("one_alpha.png");
  ASSERT_EQ(write_png(path, image), "");
  EXPECT_EQ(probe(path), "5,4,rgba");
  expect_same_pixels(read_png(path), image);
}

TEST(Png, OnePixelImage) {
  RgbaImage image;
  image.width = image.height = 1;
  image.pixels = {10, 20, 30, 255};
  const std::string path = temp_path("one.png");
  ASSERT_EQ(write_png(path, image), "");
  EXPECT_EQ(probe(path), "1,1,rgb24");
  expect_same_pixels(read_png(path), image);
}

TEST(Png, OverwritesAnExistingFile) {
  const std::string path = temp_path("overwrite.png");
  ASSERT_EQ(write_png(path, gradient(8, 8, true)), "");
  const RgbaImage second = gradient(9, 3, false);
  ASSERT_EQ(write_png(path, second), "");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  expect_same_pixels(read_png(path), second);
}

TEST(Png, NameWithPercentIsNotAPattern) {
  const RgbaImage image = gradient(6, 5, false);
  const std::string path = temp_path("shot%d 100%.png");
  ASSERT_EQ(write_png(path, image), "");
  expect_same_pixels(read_png(path), image);
}

// The screenshot case: 1280x720 well under a second (sanitizer builds get more room).
TEST(Png, Encodes720pQuickly) {
  RgbaImage image = gradient(1280, 720, false);
  const std::string path = temp_path("720p.png");
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(write_png(path, image), "");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("encode_ms", static_cast<int>(seconds * 1000));
  std::printf("1280x720 written in %.1f ms (%ju bytes)\n", seconds * 1000,
              static_cast<std::uintmax_t>(fs::file_size(path)));
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(probe(path), "1280,720,rgb24");
  expect_same_pixels(read_png(path), image);
}

// ---------------------------------------------------------------------------------------------
// PNGs from the ffmpeg tool, against the same picture it wrote as rgb24.

class FfmpegPng : public ::testing::TestWithParam<const char*> {};

TEST_P(FfmpegPng, ReadsAgainstRgb24) {
  const std::string pix_fmt = GetParam();
  const RgbaImage reference = read_png(testsrc_png("rgb24"));
  ASSERT_EQ(reference.width, 32u);
  ASSERT_EQ(reference.height, 24u);
  const std::string path = testsrc_png(pix_fmt);
  EXPECT_EQ(probe(path), "32,24," + pix_fmt);  // ffmpeg wrote what was asked
  const RgbaImage image = read_png(path);
  ASSERT_EQ(image.width, 32u);
  ASSERT_EQ(image.height, 24u);
  ASSERT_EQ(image.pixels.size(), 32u * 24u * 4u);

  if (pix_fmt == "rgb24" || pix_fmt == "rgba") {
    expect_same_pixels(image, reference);  // lossless
    return;
  }
  if (pix_fmt == "rgb48be" || pix_fmt == "rgba64be") {
    // Not quite lossless on ffmpeg's side: its rgb24 -> rgb48 conversion (libswscale, through a
    // 15-bit intermediate) lands up to 289 / 257 levels away from v * 257. Exactness of the
    // 16-bit path is checked on unconverted data in Png.Reads16BitExactly.
    int worst = 0;
    for (std::size_t i = 0; i < image.pixels.size(); ++i) {
      worst = std::max(worst, std::abs(image.pixels[i] - reference.pixels[i]));
    }
    EXPECT_LE(worst, 1);
    return;
  }
  if (pix_fmt == "gray" || pix_fmt == "gray16be" || pix_fmt == "ya8") {
    // One value in all three channels, near the reference's luma (full-range BT.601).
    double worst = 0;
    for (std::uint32_t y = 0; y < 24; ++y) {
      for (std::uint32_t x = 0; x < 32; ++x) {
        const auto p = image.at(x, y);
        const auto r = reference.at(x, y);
        ASSERT_EQ(p[0], p[1]) << x << "," << y;
        ASSERT_EQ(p[0], p[2]) << x << "," << y;
        ASSERT_EQ(p[3], 255) << x << "," << y;
        const double luma = 0.299 * r[0] + 0.587 * r[1] + 0.114 * r[2];
        worst = std::max(worst, std::abs(p[0] - luma));
      }
    }
    EXPECT_LT(worst, 2.0);
    std::printf("%s: worst luma difference %.2f\n", pix_fmt.c_str(), worst);
    return;
  }
  // pal8: quantised to ffmpeg's palette, so only near the reference on average and per pixel.
  double total = 0;
  int worst = 0;
  for (std::uint32_t y = 0; y < 24; ++y) {
    for (std::uint32_t x = 0; x < 32; ++x) {
      const auto p = image.at(x, y);
      const auto r = reference.at(x, y);
      EXPECT_EQ(p[3], 255) << x << "," << y;
      for (int c = 0; c < 3; ++c) {
        const int d = std::abs(p[static_cast<std::size_t>(c)] - r[static_cast<std::size_t>(c)]);
        total += d;
        worst = std::max(worst, d);
      }
    }
  }
  const double mean = total / (32 * 24 * 3);
  EXPECT_LT(mean, 6.0);
  EXPECT_LT(worst, 64);
  std::printf("pal8: mean difference %.2f, worst %d\n", mean, worst);
}

INSTANTIATE_TEST_SUITE_P(PixelFormats, FfmpegPng,
                         ::testing::Values("rgb24", "rgba", "gray", "pal8", "rgb48be", "rgba64be", "gray16be",
                                           "ya8"),
                         [](const auto& param_info) { return std::string(param_info.param); });

// 16-bit PNGs whose samples are v * 257 (big-endian raw data, encoded by ffmpeg without any
// conversion) come back as v exactly.
TEST(Png, Reads16BitExactly) {
  for (const bool alpha : {false, true}) {
    const RgbaImage image = gradient(37, 23, alpha);
    const std::string pix_fmt = alpha ? "rgba64be" : "rgb48be";
    const std::string raw = temp_path("gradient_" + pix_fmt + ".raw");
    {
      std::ofstream out(raw, std::ios::binary);
      for (std::size_t i = 0; i < image.pixels.size(); ++i) {
        if (!alpha && i % 4 == 3) continue;
        const unsigned v = image.pixels[i] * 257u;
        out.put(static_cast<char>(v >> 8)).put(static_cast<char>(v & 0xff));
      }
    }
    const std::string path = make_clip("gradient_" + pix_fmt + ".png", "-f rawvideo -pix_fmt " + pix_fmt +
                                                                           " -s 37x23 -i '" + raw +
                                                                           "' -frames:v 1 -pix_fmt " + pix_fmt);
    EXPECT_EQ(probe(path), "37,23," + pix_fmt);
    expect_same_pixels(read_png(path), image);
  }
}

// A lossless still image that is not a PNG (bgr24 in a BMP) reads exactly the same.
TEST(Png, ReadsBmpExactly) {
  const RgbaImage reference = read_png(testsrc_png("rgb24"));
  const std::string path = make_clip("testsrc.bmp", "-f lavfi -i testsrc=s=32x24 -frames:v 1 -pix_fmt bgr24");
  EXPECT_EQ(probe(path), "32,24,bgr24");
  expect_same_pixels(read_png(path), reference);
}

// A still image that is not a PNG goes through the same path (YUV through libswscale).
TEST(Png, ReadsJpegNearReference) {
  const RgbaImage reference = read_png(testsrc_png("rgb24"));
  const std::string path = make_clip("testsrc.jpg", "-f lavfi -i testsrc=s=32x24 -frames:v 1 -q:v 2");
  const RgbaImage image = read_png(path);
  ASSERT_EQ(image.width, 32u);
  ASSERT_EQ(image.height, 24u);
  double total = 0;
  for (std::size_t i = 0; i < image.pixels.size(); ++i) {
    if (i % 4 == 3) {
      EXPECT_EQ(image.pixels[i], 255);
      continue;
    }
    total += std::abs(image.pixels[i] - reference.pixels[i]);
  }
  EXPECT_LT(total / (32 * 24 * 3), 20.0);
}

// ---------------------------------------------------------------------------------------------
// Errors

TEST(PngErrors, UnwritablePathReturnsMessage) {
  const std::string path = temp_path("no/such/folder/shot.png");
  const std::string error = write_png(path, gradient(4, 4, false));
  EXPECT_NE(error.find("cannot write '" + path + "'"), std::string::npos) << error;
  EXPECT_NE(error.find("shot.png."), std::string::npos) << error;
  EXPECT_NE(error.find(".tmp'"), std::string::npos) << error;
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(path));
}

TEST(PngErrors, DirectoryInTheWayReturnsMessageAndLeavesNoTemporary) {
  const std::string path = temp_path("a_folder.png");
  fs::create_directories(path);
  const std::string error = write_png(path, gradient(4, 4, false));
  EXPECT_NE(error.find("cannot rename"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  EXPECT_TRUE(fs::is_directory(path));
}

TEST(PngErrors, BadImagesReturnMessages) {
  const std::string path = temp_path("bad.png");
  RgbaImage empty;
  EXPECT_NE(write_png(path, empty).find("empty"), std::string::npos);
  RgbaImage short_buffer = gradient(4, 4, false);
  short_buffer.pixels.pop_back();
  const std::string error = write_png(path, short_buffer);
  EXPECT_NE(error.find("63 bytes"), std::string::npos) << error;
  EXPECT_NE(write_png("", gradient(2, 2, false)), "");
  EXPECT_FALSE(fs::exists(path));
}

std::string read_error(const std::string& path) {
  try {
    read_png(path);
  } catch (const MediaError& e) {
    return e.what();
  }
  return "(no MediaError)";
}

TEST(PngErrors, MissingFileThrows) {
  const std::string path = temp_path("missing.png");
  EXPECT_EQ(read_error(path), "cannot open '" + path + "': no such file");
}

TEST(PngErrors, TextFileThrows) {
  for (const char* name : {"notes.txt", "notes.png", "notes"}) {
    const std::string path = temp_path(name);
    std::ofstream(path) << "This is not an image.\nJust some text, a few lines of it.\n";
    const std::string error = read_error(path);
    EXPECT_NE(error.find("'" + path + "'"), std::string::npos) << error;
    EXPECT_NE(error, "(no MediaError)") << name;
    std::printf("%s: %s\n", name, error.c_str());
  }
}

TEST(PngErrors, TruncatedPngThrows) {
  const std::string good = temp_path("to_truncate.png");
  ASSERT_EQ(write_png(good, gradient(37, 23, false)), "");
  const std::string bytes = vhist::test::read_file(good);
  // In the header, and in the middle of the picture data.
  for (const std::size_t size : {std::size_t{40}, bytes.size() / 2}) {
    const std::string path = temp_path("truncated_" + std::to_string(size) + ".png");
    std::ofstream(path, std::ios::binary) << bytes.substr(0, size);
    const std::string error = read_error(path);
    EXPECT_NE(error, "(no MediaError)") << size;
    std::printf("truncated to %zu bytes: %s\n", size, error.c_str());
  }
}

TEST(PngErrors, DirectoryAndEmptyFileThrow) {
  EXPECT_NE(read_error(clip_dir().string()).find("is a directory"), std::string::npos);
  const std::string path = temp_path("empty.png");
  std::ofstream{path};
  EXPECT_NE(read_error(path).find("is empty"), std::string::npos);
}

TEST(PngErrors, VideoFileIsNotAnImage) {
  const std::string path = make_clip("clip.mkv", "-f lavfi -i testsrc=s=32x24:r=10 -frames:v 3 -c:v ffv1");
  EXPECT_NE(read_error(path).find("not an image"), std::string::npos) << read_error(path);
}

TEST(PngErrors, PixelOutsideThrows) {
  const RgbaImage image = gradient(3, 2, false);
  EXPECT_NO_THROW(image.at(2, 1));
  EXPECT_THROW(image.at(3, 0), std::out_of_range);
  EXPECT_THROW(image.at(0, 2), std::out_of_range);
}

}  // namespace
