// PNG files through stb (Debian's libstb): screenshots out (`--screenshot FILE.png`) and still
// images in (the tests read the screenshots back). Plain C++ apart from MediaError; lives in
// app/media because reading an image is media input and its errors are MediaErrors.
//
// Writing: stb_image_write's PNG encoder, 8 bits per channel. The file is RGB (colour type 2)
// when every alpha value is 255, else RGBA (colour type 6); nothing else is chosen. stb's default
// compression (zlib level 8, a filter chosen per row), no interlacing.
//
// Reading: the still images stb_image reads (PNG of any colour type and depth, including palette
// with transparency and 16 bits; baseline and progressive JPEG; BMP; the first frame of a GIF;
// TGA, PSD, HDR, PIC, PNM), turned into RGBA with 8 bits per channel: 8-bit values exactly, gray
// replicated into R, G and B, no alpha as 255, 16-bit values scaled to 0..255 and rounded to
// nearest (so a 16-bit v * 257 comes back as v). JPEG's Y'CbCr goes to R'G'B' with stb's JFIF
// (BT.601 full-range) conversion. TIFF and WebP are not read.
#pragma once

#include "vhist/media/media_source.h"

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

// Encodes `image` as PNG (RGB when every alpha is 255, else RGBA; 8 bits per channel) and writes
// it to `path` atomically by vhist::util::write_file_atomically's rule (`path` + ".tmp", fsync,
// rename, fsync of the folder; the temporary file is removed on failure). Returns what went wrong
// and why ("cannot write 'shots/a.png': cannot create 'shots/a.png.tmp': No such file or
// directory"), empty on success. Does not throw for bad images or I/O errors (only std::bad_alloc
// can escape). Any thread.
std::string write_png(const std::string& path, const RgbaImage& image);

// How rows are filtered before compression: stb's choice per row (adaptive, the default), or no
// filter, which encodes in half the time and compresses pictures of flat areas and thin lines
// (scopes) as well or better; photographs compress worse.
enum class PngFilter { adaptive, none };

// The PNG file's bytes of `image`, encoded as write_png does (with `filter`); empty with `error`
// set (what is wrong with the image, or the encoder's failure) when it cannot be. Any thread.
std::string encode_png(const RgbaImage& image, std::string& error, PngFilter filter = PngFilter::adaptive);

// Decodes a still image file (the first frame of a GIF) into RGBA8. Throws MediaError with a
// one-line message when the file cannot be opened (missing, directory, permission, empty), is
// not an image stb_image reads, or does not decode (damaged, truncated). Any thread.
RgbaImage read_png(const std::string& path);

}  // namespace vhist::media
