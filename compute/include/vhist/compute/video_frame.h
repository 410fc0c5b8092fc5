// How a decoded video frame lies in memory, described without FFmpeg types: the media code in
// app/ translates FFmpeg's pixel-format descriptors into this, and the converters (the GPU pass
// and the CPU reference) read the planes through it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace vhist {

// The Y'CbCr -> R'G'B' matrix: BT.601 (Kr 0.299, Kb 0.114), BT.709 (0.2126, 0.0722) and
// BT.2020 non-constant luminance (0.2627, 0.0593).
enum class ColourMatrix : std::uint32_t { bt601 = 0, bt709 = 1, bt2020 = 2 };
// Quantization range: limited ("TV", Y' 16..235 and C 16..240 at 8 bits, scaled by 2^(n-8))
// or full ("PC", 0..2^n-1).
enum class ColourRange : std::uint32_t { limited = 0, full = 1 };
// What the three components are: Y'CbCr (needs the matrix), R'G'B' (copied), or gray (one
// component, R' = G' = B' = Y', range-expanded when limited).
enum class ColourModel : std::uint32_t { yuv = 0, rgb = 1, gray = 2 };

std::string_view matrix_name(ColourMatrix m);  // "bt601", "bt709", "bt2020"
std::string_view range_name(ColourRange r);    // "limited", "full"
std::string_view model_name(ColourModel m);    // "yuv", "rgb", "gray"

// Where one component's samples are: sample (x, y) of the component's own grid lies at
//   plane `plane`, byte  y * stride[plane] + x * step + offset,
// stored in `VideoFormat::sample_bytes` bytes (little-endian) and holding the code value in bits
// [shift, shift + bits) (p010 keeps 10-bit values in the high bits: shift 6).
struct ComponentLayout {
  std::uint32_t plane = 0;
  std::uint32_t offset = 0;  // bytes
  std::uint32_t step = 1;    // bytes between horizontally adjacent samples
  std::uint32_t shift = 0;
};

// The layout and colour of a frame the converters accept directly (no CPU conversion).
// Components: yuv -> Y', Cb, Cr; rgb -> R', G', B'; gray -> Y' (components[1..2] unused).
// Every component has `bits` bits; chroma (yuv components 1 and 2) is subsampled by
// 2^chroma_shift_x horizontally and 2^chroma_shift_y vertically (each 0 or 1); chroma sample
// positions are those of MPEG-2/H.264 4:2:0 (co-sited horizontally with even luma columns,
// midway between luma rows vertically); docs/colour.md defines the upsampling.
struct VideoFormat {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t bits = 8;          // 8..16 (yuv: 8..12)
  std::uint32_t sample_bytes = 1;  // 1 for 8-bit components, 2 for deeper ones
  ColourModel model = ColourModel::yuv;
  std::uint32_t chroma_shift_x = 0;
  std::uint32_t chroma_shift_y = 0;
  std::array<ComponentLayout, 3> components{};
  std::uint32_t plane_count = 1;  // 1..3
  ColourMatrix matrix = ColourMatrix::bt709;
  ColourRange range = ColourRange::limited;
  std::string pixel_format;  // FFmpeg's name of the decoder's format, for messages ("yuv420p")
  // How the stored picture is shown; the histograms count the stored pixels whatever these say.
  std::uint32_t rotation = 0;               // degrees clockwise that turn it upright: 0, 90, 180, 270
  std::uint32_t sar_num = 1, sar_den = 1;   // sample aspect ratio: one stored pixel's width:height

  // Width and height of the chroma grid (rounded up): the luma size for rgb and gray.
  std::uint32_t chroma_width() const;
  std::uint32_t chroma_height() const;
  // The size it is shown at: the width scaled by the sample aspect ratio (rounded, at least 1),
  // then width and height swapped for a rotation of 90 or 270 degrees.
  std::uint32_t display_width() const;
  std::uint32_t display_height() const;
  // Rows and bytes of a tightly-described plane p: the rows its components span, and the
  // bytes of one row actually read (the stride may be larger).
  std::uint32_t plane_rows(std::uint32_t p) const;
  std::uint32_t plane_row_bytes(std::uint32_t p) const;
  bool operator==(const VideoFormat&) const = default;
};

// Empty when the converters handle `f`, else what is wrong.
std::string check_video_format(const VideoFormat& f);

// A frame's alpha samples in host memory, where the decoder left them: sample (x, y) at
// data + y * stride + x * layout.step + layout.offset (layout.plane unused), `bits` bits in
// `sample_bytes` bytes from bit layout.shift. data == nullptr: no alpha is available.
struct AlphaPlane {
  const std::byte* data = nullptr;
  std::uint32_t stride = 0;
  ComponentLayout layout;
  std::uint32_t bits = 8, sample_bytes = 1;
};

// One frame's planes in host memory: plane p starts at data[p], rows stride[p] bytes apart
// (stride >= plane_row_bytes(p)).
struct VideoPlanes {
  std::array<const std::byte*, 3> data{};
  std::array<std::uint32_t, 3> stride{};
};

// Where a hardware decoder left a frame: in GPU memory of another API, not in host memory. The
// plane strides are VideoPlanes::stride as for host frames (VideoPlanes::data stays null).
// app/hwdec imports such frames into the Vulkan planes buffer (frame_import.h).
enum class FrameMemory : std::uint32_t {
  host = 0,  // VideoPlanes::data
  cuda = 1,  // CUdeviceptr of each plane in `address`, on the CUDA context the decoder was given
};
struct DeviceFrame {
  FrameMemory memory = FrameMemory::host;
  std::array<std::uint64_t, 3> address{};
};

}  // namespace vhist
