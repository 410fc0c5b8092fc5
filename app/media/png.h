// PNG files through FFmpeg's libraries: screenshots out (`--screenshot FILE.png`) and still images
// in (the tests read the screenshots back). Lives in app/media because it includes libav* headers.
//
// Writing: libavcodec's PNG encoder, 8 bits per channel. The file is RGB (colour type 2) when
// every alpha value is 255, else RGBA (colour type 6); nothing else is chosen. Default zlib
// compression, no interlacing.
//
// Reading: any still image FFmpeg reads (png, jpeg, bmp, tiff, webp, ... through the image2 or an
// image-pipe demuxer), opened with the `file` protocol only. The first frame is turned into RGBA
// with 8 bits per channel, without libswscale for RGB, gray and palette images of any packing,
// endianness and depth up to 16 bits (8-bit values exactly; other depths scaled to 0..255 and
// rounded to nearest, so a 16-bit v * 257 comes back as v); anything else (YUV from JPEG or
// WebP, float, Bayer, XYZ) through libswscale, with the matrix and range the file gives (BT.601
// when it says nothing).
#pragma once

#include "media/media_source.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vhist::media {

struct RgbaImage {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> pixels;  // width*height*4 bytes, R G B A, rows top to bottom, tightly packed

  // The pixel at column x, row y as {r, g, b, a}. Out of range: std::out_of_range.
  std::array<std::uint8_t, 4> at(std::uint32_t x, std::uint32_t y) const;
};

// Encodes `image` as PNG (RGB when every alpha is 255, else RGBA; 8 bits per channel) and writes it
// to `path` atomically: into `path` + ".tmp", flushed to disk, then renamed over `path` (the
// temporary file is removed on failure). Returns what went wrong and why ("cannot write
// 'shots/a.png': cannot create 'shots/a.png.tmp': No such file or directory"), empty on success.
// Does not throw for bad images or I/O errors (only std::bad_alloc can escape).
std::string write_png(const std::string& path, const RgbaImage& image);

// Decodes the first frame of a still image file into RGBA8. Throws MediaError with a one-line
// message when the file cannot be opened (missing, directory, permission), is not an image FFmpeg
// reads, or does not decode.
RgbaImage read_png(const std::string& path);

}  // namespace vhist::media
