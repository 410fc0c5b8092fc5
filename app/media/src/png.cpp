#include "vhist/media/png.h"

#include "vhist/util/files.h"

#include <stb_image.h>
#include <stb_image_write.h>
#include <zlib.h>

#include <climits>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

// stb_image and stb_image_write come compiled in Debian's libstb (linked, see CMakeLists.txt):
// no STB_*_IMPLEMENTATION here. Only thread-safe entry points are used: the *_from_memory
// readers and stbi_write_png_to_func (their failure text is thread-local); the global settings
// (flip on load, PNG compression level, forced filter) stay at their defaults. PngFilter::none is
// written here, with zlib.

namespace vhist::media {
namespace {

using util::quoted;

// Larger inputs are not screenshots; reading them whole would only risk running out of memory.
constexpr std::size_t kMaxFileBytes = std::size_t{1} << 30;

// ---------------------------------------------------------------------------------------------
// Writing

// What is wrong with `image` for encoding; empty when nothing.
std::string check_image(const RgbaImage& image) {
  const std::string size = std::to_string(image.width) + "x" + std::to_string(image.height);
  if (image.width == 0 || image.height == 0) return "the image is empty (" + size + ")";
  // stb_image_write keeps sizes in int: the filtered rows (4 bytes a pixel plus one a row) must fit.
  if ((std::uint64_t{image.width} * 4 + 1) * image.height > INT_MAX) {
    return "the image is too large for the PNG writer (" + size + ", over 2 GiB of pixel data)";
  }
  const std::uint64_t expected = std::uint64_t{image.width} * image.height * 4;
  if (image.pixels.size() != expected) {
    return "the pixel buffer holds " + std::to_string(image.pixels.size()) + " bytes, " + size + " RGBA needs " +
           std::to_string(expected);
  }
  return {};
}

void append_bytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

// A PNG chunk: length, type, data, CRC-32 of type and data.
void append_chunk(std::string& out, const char (&type)[5], std::string_view data) {
  const auto be32 = [&out](std::uint32_t v) {
    const char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                       static_cast<char>(v)};
    out.append(b, 4);
  };
  be32(static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  out.append(type, 4);
  out.append(data);
  be32(static_cast<std::uint32_t>(::crc32(0, reinterpret_cast<const Bytef*>(out.data() + start), out.size() - start)));
}

// PngFilter::none: the rows unfiltered, deflated by zlib at level 1 (its fast matcher), about
// twice as fast as stb_image_write's deflate (level 8) and smaller for a scope (vhist scope's
// 1024x512 waveform: 10 against 20 ms, 220 against 250 KB). `pixels`: `components` bytes a pixel.
std::pair<std::string, std::string> encode_unfiltered(const std::uint8_t* pixels, std::uint32_t w, std::uint32_t h,
                                                      int components) {
  const std::size_t row = std::size_t{w} * static_cast<std::size_t>(components);
  std::string raw(h * (row + 1), '\0');  // each row: filter type 0, then its bytes
  for (std::size_t y = 0; y < h; ++y) std::memcpy(&raw[y * (row + 1) + 1], pixels + y * row, row);
  uLongf packed_size = ::compressBound(static_cast<uLong>(raw.size()));
  std::string packed(packed_size, '\0');
  if (::compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size, reinterpret_cast<const Bytef*>(raw.data()),
                  static_cast<uLong>(raw.size()), 1) != Z_OK) {
    return {{}, "the PNG encoder (zlib) failed: out of memory"};
  }
  packed.resize(packed_size);
  std::string header(13, '\0');
  for (int i = 0; i < 4; ++i) {
    header[static_cast<std::size_t>(i)] = static_cast<char>(w >> (24 - 8 * i));
    header[static_cast<std::size_t>(4 + i)] = static_cast<char>(h >> (24 - 8 * i));
  }
  header[8] = 8;                            // bits per channel
  header[9] = components == 3 ? 2 : 6;      // colour type: RGB or RGBA; compression, filter, interlace 0
  std::string out("\x89PNG\r\n\x1a\n", 8);
  append_chunk(out, "IHDR", header);
  append_chunk(out, "IDAT", packed);
  append_chunk(out, "IEND", {});
  return {std::move(out), {}};
}

// The PNG file's bytes (RGB when every alpha is 255, else RGBA), or (second) what went wrong.
std::pair<std::string, std::string> encode_bytes(const RgbaImage& image, PngFilter filter = PngFilter::adaptive) {
  bool opaque = true;
  for (std::size_t i = 3; i < image.pixels.size() && opaque; i += 4) opaque = image.pixels[i] == 255;
  const std::uint8_t* pixels = image.pixels.data();
  std::vector<std::uint8_t> rgb;
  if (opaque) {
    rgb.resize(std::size_t{image.width} * image.height * 3);
    for (std::size_t i = 0, o = 0; o < rgb.size(); i += 4, o += 3) std::memcpy(&rgb[o], pixels + i, 3);
    pixels = rgb.data();
  }
  const int components = opaque ? 3 : 4;
  if (filter == PngFilter::none) return encode_unfiltered(pixels, image.width, image.height, components);
  const int w = static_cast<int>(image.width);
  std::string bytes;
  const int written = stbi_write_png_to_func(&append_bytes, &bytes, w, static_cast<int>(image.height), components,
                                             pixels, w * components);
  if (!written) return {{}, "the PNG encoder (stb_image_write) failed: out of memory"};
  return {std::move(bytes), {}};
}

// ---------------------------------------------------------------------------------------------
// Reading

// The kind of image `bytes` hold, by their signature, for messages; empty when unknown.
std::string image_kind(std::string_view bytes) {
  if (bytes.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8)) return "PNG";
  if (bytes.substr(0, 3) == "\xff\xd8\xff") return "JPEG";
  if (bytes.substr(0, 2) == "BM") return "BMP";
  if (bytes.substr(0, 4) == "GIF8") return "GIF";
  return {};
}

// A 16-bit value -> 8 bits, scaled by 255 / 65535 and rounded to nearest (the PNG
// specification's most accurate way): v * 257 gives back v.
std::uint8_t to_8bit(std::uint16_t v) { return static_cast<std::uint8_t>((std::uint32_t{v} * 255u + 32767u) / 65535u); }

struct StbiFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

// Decodes `bytes` into `image` (RGBA8); false when stb_image fails (stbi_failure_reason says why).
bool decode(std::string_view bytes, RgbaImage& image) {
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int size = static_cast<int>(bytes.size());
  int w = 0, h = 0, channels = 0;
  std::size_t count = 0;
  if (stbi_is_16_bit_from_memory(data, size)) {
    // stb_image would drop the low byte; rounding keeps 16-bit v * 257 as v and is nearest for all.
    const std::unique_ptr<stbi_us, StbiFree> wide(stbi_load_16_from_memory(data, size, &w, &h, &channels, 4));
    if (!wide) return false;
    count = std::size_t(w) * std::size_t(h) * 4;
    image.pixels.resize(count);
    for (std::size_t i = 0; i < count; ++i) image.pixels[i] = to_8bit(wide.get()[i]);
  } else {
    const std::unique_ptr<stbi_uc, StbiFree> narrow(stbi_load_from_memory(data, size, &w, &h, &channels, 4));
    if (!narrow) return false;
    count = std::size_t(w) * std::size_t(h) * 4;
    image.pixels.assign(narrow.get(), narrow.get() + count);
  }
  image.width = static_cast<std::uint32_t>(w);
  image.height = static_cast<std::uint32_t>(h);
  return true;
}

}  // namespace

std::array<std::uint8_t, 4> RgbaImage::at(std::uint32_t x, std::uint32_t y) const {
  if (x >= width || y >= height) {
    throw std::out_of_range("pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the " +
                            std::to_string(width) + "x" + std::to_string(height) + " image");
  }
  const std::size_t i = (std::size_t{y} * width + x) * 4;
  if (i + 4 > pixels.size()) throw std::out_of_range("the image's pixel buffer is smaller than its size");
  return {pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]};
}

std::string write_png(const std::string& path, const RgbaImage& image) {
  const std::string what = "cannot write " + quoted(path) + ": ";
  if (path.empty()) return "cannot write a PNG file: no file name given";
  if (std::string problem = check_image(image); !problem.empty()) return what + problem;
  auto [bytes, problem] = encode_bytes(image);
  if (!problem.empty()) return what + problem;
  if (std::string failed = util::write_file_atomically(path, bytes); !failed.empty()) return what + failed;
  return {};
}

std::string encode_png(const RgbaImage& image, std::string& error, PngFilter filter) {
  error = check_image(image);
  if (!error.empty()) return {};
  auto [bytes, problem] = encode_bytes(image, filter);
  error = std::move(problem);
  return std::move(bytes);
}

RgbaImage read_png(const std::string& path) {
  const std::string q = quoted(path);
  if (std::string problem = util::check_local_file(path, "an image file"); !problem.empty()) throw MediaError(problem);
  std::string error;
  const std::optional<std::string> bytes = util::read_small_file(path, kMaxFileBytes, error);
  if (!bytes) throw MediaError("cannot read " + q + ": " + error);
  const std::string kind = image_kind(*bytes);
  if (kind.empty() && !stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes->data()),
                                             static_cast<int>(bytes->size()), nullptr, nullptr, nullptr)) {
    throw MediaError(q + " is not an image file vhist reads (PNG, JPEG, BMP, GIF, TGA, PSD, HDR, PIC, PNM; "
                     "convert it to PNG)");
  }
  RgbaImage image;
  if (!decode(*bytes, image)) {
    const char* why = stbi_failure_reason();
    throw MediaError(q + ": cannot decode it as " + (kind.empty() ? std::string("an image") : kind) +
                     " (stb_image says: " + (why ? why : "unknown error") + "); the file is damaged or truncated");
  }
  return image;
}

}  // namespace vhist::media
