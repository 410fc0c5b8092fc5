#include "vhist/compute/colour_names.h"

#include <array>
#include <span>

namespace vhist {

namespace {

template <typename E>
struct Names {
  E value;
  std::string_view id;      // what the records carry
  std::string_view spoken;  // what people read
};

template <typename E>
using Table = std::span<const Names<E>>;

// vhist's matrices (the converters' ColourMatrix; FFmpeg's several names for BT.601 and BT.2020
// stay in the tag, the stream's own word).
constexpr std::array kMatrices = {Names<ColourMatrix>{ColourMatrix::bt601, "bt601", "BT.601"},
                                  Names<ColourMatrix>{ColourMatrix::bt709, "bt709", "BT.709"},
                                  Names<ColourMatrix>{ColourMatrix::bt2020, "bt2020", "BT.2020"}};

constexpr std::array kRanges = {Names<ColourRange>{ColourRange::limited, "limited", "limited"},
                                Names<ColourRange>{ColourRange::full, "full", "full"}};

// FFmpeg's colour primaries.
using P = ColourPrimaries;
constexpr std::array kPrimaries = {
    Names<P>{P::bt709, "bt709", "BT.709"},
    Names<P>{P::bt470m, "bt470m", "BT.470 M"},
    Names<P>{P::bt470bg, "bt470bg", "BT.601 625-line (PAL)"},
    Names<P>{P::smpte170m, "smpte170m", "BT.601 525-line (NTSC)"},
    Names<P>{P::smpte240m, "smpte240m", "SMPTE 240M"},
    Names<P>{P::film, "film", "film (illuminant C)"},
    Names<P>{P::bt2020, "bt2020", "BT.2020"},
    Names<P>{P::smpte428, "smpte428", "XYZ (SMPTE 428)"},
    Names<P>{P::smpte431, "smpte431", "DCI-P3"},
    Names<P>{P::smpte432, "smpte432", "Display P3"},
    Names<P>{P::ebu3213, "ebu3213", "EBU 3213-E"},
    Names<P>{P::other, "unknown", "unknown"}};

// FFmpeg's transfer characteristics (FFmpeg names gamma 2.2 and 2.8 after BT.470's systems).
using T = ColourTransfer;
constexpr std::array kTransfers = {
    Names<T>{T::bt709, "bt709", "BT.709"},
    Names<T>{T::gamma22, "bt470m", "gamma 2.2"},
    Names<T>{T::gamma28, "bt470bg", "gamma 2.8"},
    Names<T>{T::smpte170m, "smpte170m", "BT.601"},
    Names<T>{T::smpte240m, "smpte240m", "SMPTE 240M"},
    Names<T>{T::linear, "linear", "linear"},
    Names<T>{T::log100, "log100", "log 100:1"},
    Names<T>{T::log316, "log316", "log 316:1"},
    Names<T>{T::iec61966_2_4, "iec61966-2-4", "xvYCC"},
    Names<T>{T::bt1361e, "bt1361e", "BT.1361"},
    Names<T>{T::iec61966_2_1, "iec61966-2-1", "sRGB"},
    Names<T>{T::bt2020_10, "bt2020-10", "BT.2020"},
    Names<T>{T::bt2020_12, "bt2020-12", "BT.2020"},
    Names<T>{T::smpte2084, "smpte2084", "PQ"},
    Names<T>{T::smpte428, "smpte428", "SMPTE 428"},
    Names<T>{T::arib_std_b67, "arib-std-b67", "HLG"},
    Names<T>{T::other, "unknown", "unknown"}};

// FFmpeg's chroma locations: already words.
using C = ChromaSiting;
constexpr std::array kSitings = {Names<C>{C::left, "left", "left"},       Names<C>{C::center, "center", "center"},
                                 Names<C>{C::topleft, "topleft", "topleft"}, Names<C>{C::top, "top", "top"},
                                 Names<C>{C::bottomleft, "bottomleft", "bottomleft"},
                                 Names<C>{C::bottom, "bottom", "bottom"}};

using S = ColourSource;
constexpr std::array kSources = {Names<S>{S::stream, "stream", "stream"}, Names<S>{S::format, "format", "format"},
                                 Names<S>{S::assumed, "assumed", "assumed"},
                                 Names<S>{S::not_applicable, "n/a", "n/a"}};

Table<ColourMatrix> table(ColourMatrix) { return kMatrices; }
Table<ColourRange> table(ColourRange) { return kRanges; }
Table<ColourPrimaries> table(ColourPrimaries) { return kPrimaries; }
Table<ColourTransfer> table(ColourTransfer) { return kTransfers; }
Table<ChromaSiting> table(ChromaSiting) { return kSitings; }
Table<ColourSource> table(ColourSource) { return kSources; }

template <typename E>
const Names<E>* entry(E v) {
  for (const Names<E>& n : table(v)) {
    if (n.value == v) return &n;
  }
  return nullptr;  // a value cast from outside the enum
}

template <typename E>
std::string_view id_of(E v) {
  const Names<E>* n = entry(v);
  return n ? n->id : "unknown";
}

template <typename E>
std::string_view spoken_of(E v) {
  const Names<E>* n = entry(v);
  return n ? n->spoken : "unknown";
}

}  // namespace

std::string_view colour_id(ColourMatrix v) { return id_of(v); }
std::string_view colour_id(ColourRange v) { return id_of(v); }
std::string_view colour_id(ColourPrimaries v) { return id_of(v); }
std::string_view colour_id(ColourTransfer v) { return id_of(v); }
std::string_view colour_id(ChromaSiting v) { return id_of(v); }
std::string_view colour_id(ColourSource v) { return id_of(v); }

std::string_view spoken_colour(ColourMatrix v) { return spoken_of(v); }
std::string_view spoken_colour(ColourRange v) { return spoken_of(v); }
std::string_view spoken_colour(ColourPrimaries v) { return spoken_of(v); }
std::string_view spoken_colour(ColourTransfer v) { return spoken_of(v); }
std::string_view spoken_colour(ChromaSiting v) { return spoken_of(v); }

template <typename E>
std::optional<E> colour_from_id(std::string_view id) {
  for (const Names<E>& n : table(E{})) {
    if (n.id == id) return n.value;
  }
  return std::nullopt;
}

template std::optional<ColourMatrix> colour_from_id<ColourMatrix>(std::string_view);
template std::optional<ColourRange> colour_from_id<ColourRange>(std::string_view);
template std::optional<ColourPrimaries> colour_from_id<ColourPrimaries>(std::string_view);
template std::optional<ColourTransfer> colour_from_id<ColourTransfer>(std::string_view);
template std::optional<ChromaSiting> colour_from_id<ChromaSiting>(std::string_view);
template std::optional<ColourSource> colour_from_id<ColourSource>(std::string_view);

std::string spoken_colour_summary(const SourceColour& c) {
  const std::string transfer(spoken_colour(c.transfer));
  const std::string range(colour_id(c.range));
  if (!c.matrix.applies()) return transfer + " R'G'B' " + range;
  const std::string matrix(spoken_colour(c.matrix));
  std::string out = matrix + " " + range + ", " + transfer;
  // Primaries said only when they are not the matrix's own standard's.
  const std::string_view primaries = spoken_colour(c.primaries);
  if (!primaries.starts_with(matrix)) out += ", primaries " + std::string(primaries);
  return out;
}

}  // namespace vhist
