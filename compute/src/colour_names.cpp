#include "vhist/compute/colour_names.h"

#include <array>
#include <utility>

namespace vhist {

namespace {

using Names = std::pair<std::string_view, std::string_view>;

// vhist's matrix names and FFmpeg's colour spaces.
constexpr std::array kMatrices = {
    Names{"bt601", "BT.601"},       Names{"bt709", "BT.709"},     Names{"bt2020", "BT.2020"},
    Names{"bt2020nc", "BT.2020"},   Names{"bt2020c", "BT.2020 constant luminance"},
    Names{"smpte170m", "BT.601"},   Names{"bt470bg", "BT.601"},   Names{"fcc", "FCC"},
    Names{"smpte240m", "SMPTE 240M"}, Names{"ycgco", "YCgCo"},  Names{"gbr", "RGB"},
    Names{"none", "none (R'G'B')"}};

// FFmpeg's colour primaries.
constexpr std::array kPrimaries = {
    Names{"bt709", "BT.709"},  Names{"bt2020", "BT.2020"},  Names{"bt470bg", "BT.601 625-line (PAL)"},
    Names{"smpte170m", "BT.601 525-line (NTSC)"},  Names{"smpte240m", "SMPTE 240M"},  Names{"bt470m", "BT.470 M"},
    Names{"film", "film (illuminant C)"},  Names{"smpte428", "XYZ (SMPTE 428)"},  Names{"smpte431", "DCI-P3"},
    Names{"smpte432", "Display P3"},  Names{"jedec-p22", "EBU 3213-E"},  Names{"ebu3213", "EBU 3213-E"}};

// FFmpeg's transfer characteristics.
constexpr std::array kTransfers = {
    Names{"bt709", "BT.709"},        Names{"smpte2084", "PQ"},         Names{"arib-std-b67", "HLG"},
    Names{"iec61966-2-1", "sRGB"},   Names{"smpte170m", "BT.601"},     Names{"bt470m", "gamma 2.2"},
    Names{"bt470bg", "gamma 2.8"},   Names{"gamma22", "gamma 2.2"},    Names{"gamma28", "gamma 2.8"},
    Names{"linear", "linear"},       Names{"bt2020-10", "BT.2020"},    Names{"bt2020-12", "BT.2020"},
    Names{"smpte240m", "SMPTE 240M"}, Names{"log100", "log 100:1"},    Names{"log316", "log 316:1"},
    Names{"iec61966-2-4", "xvYCC"},  Names{"bt1361e", "BT.1361"},      Names{"smpte428", "SMPTE 428"}};

template <std::size_t N>
std::string look_up(const std::array<Names, N>& names, std::string_view value) {
  for (const auto& [id, spoken] : names) {
    if (id == value) return std::string(spoken);
  }
  return std::string(value);
}

}  // namespace

std::string spoken_colour(ColourPart part, std::string_view value) {
  switch (part) {
    case ColourPart::matrix: return look_up(kMatrices, value);
    case ColourPart::primaries: return look_up(kPrimaries, value);
    case ColourPart::transfer: return look_up(kTransfers, value);
    case ColourPart::range:
    case ColourPart::chroma_location: break;
  }
  return std::string(value);  // limited, full; left, center, ...: already words
}

std::string spoken_colour_summary(const SourceColour& c) {
  const std::string transfer = spoken_colour(ColourPart::transfer, c.transfer.value);
  if (c.matrix.value == "none") return transfer + " R'G'B' " + c.range.value;
  const std::string matrix = spoken_colour(ColourPart::matrix, c.matrix.value);
  std::string out = matrix + " " + c.range.value + ", " + transfer;
  // Primaries said only when they are not the matrix's own standard's.
  const std::string primaries = spoken_colour(ColourPart::primaries, c.primaries.value);
  if (primaries.rfind(matrix, 0) != 0) out += ", primaries " + primaries;
  return out;
}

}  // namespace vhist
