// The colour description's enums and their one table of names (colour_names.h): every value's
// identifier is its own and reads back to it, the words people read, a part that does not apply,
// and the summary. The identifiers against FFmpeg's own names: test_media.cpp.
#include "vhist/compute/colour_names.h"
#include "vhist/picture/light_scale.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace vhist {
namespace {

// Every value of E from the first to `last`: an identifier no other value has, which
// colour_from_id reads back to the value.
template <typename E>
void expect_round_trip(E last, std::size_t count) {
  std::set<std::string_view> seen;
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    const auto v = static_cast<E>(i);
    const std::string_view id = colour_id(v);
    EXPECT_FALSE(id.empty()) << i;
    EXPECT_TRUE(seen.insert(id).second) << "\"" << id << "\" names two values";
    EXPECT_EQ(colour_from_id<E>(id), v) << "\"" << id << "\" (value " << i << ")";
  }
  EXPECT_EQ(seen.size(), count);
  EXPECT_EQ(colour_from_id<E>("not-a-colour"), std::nullopt);
  EXPECT_EQ(colour_from_id<E>(""), std::nullopt);
}

TEST(ColourNames, EveryIdentifierRoundTrips) {
  expect_round_trip(ColourMatrix::bt2020, 3);
  expect_round_trip(ColourRange::full, 2);
  expect_round_trip(ColourPrimaries::other, 12);
  expect_round_trip(ColourTransfer::other, 17);
  expect_round_trip(ChromaSiting::bottom, 6);
  expect_round_trip(ColourSource::not_applicable, 4);
}

TEST(ColourNames, IdentifiersAreTheRecordsWords) {
  // What analyze's header has always printed (FFmpeg's names; vhist's for its matrices).
  EXPECT_EQ(colour_id(ColourMatrix::bt601), "bt601");
  EXPECT_EQ(colour_id(ColourMatrix::bt2020), "bt2020");
  EXPECT_EQ(colour_id(ColourRange::limited), "limited");
  EXPECT_EQ(colour_id(ColourRange::full), "full");
  EXPECT_EQ(colour_id(ColourPrimaries::smpte432), "smpte432");
  EXPECT_EQ(colour_id(ColourTransfer::smpte2084), "smpte2084");
  EXPECT_EQ(colour_id(ColourTransfer::arib_std_b67), "arib-std-b67");
  EXPECT_EQ(colour_id(ColourTransfer::iec61966_2_1), "iec61966-2-1");
  EXPECT_EQ(colour_id(ColourTransfer::gamma22), "bt470m");
  EXPECT_EQ(colour_id(ChromaSiting::left), "left");
  EXPECT_EQ(colour_id(ColourSource::stream), "stream");
  EXPECT_EQ(colour_id(ColourSource::format), "format");
  EXPECT_EQ(colour_id(ColourSource::assumed), "assumed");
  EXPECT_EQ(colour_id(ColourSource::not_applicable), "n/a");
  // The converters' names are the same table's.
  EXPECT_EQ(matrix_name(ColourMatrix::bt709), "bt709");
  EXPECT_EQ(range_name(ColourRange::limited), "limited");
}

TEST(ColourNames, IdentifiersAsPeopleSayThem) {
  EXPECT_EQ(spoken_colour(ColourTransfer::smpte2084), "PQ");
  EXPECT_EQ(spoken_colour(ColourTransfer::arib_std_b67), "HLG");
  EXPECT_EQ(spoken_colour(ColourTransfer::bt709), "BT.709");
  EXPECT_EQ(spoken_colour(ColourTransfer::iec61966_2_1), "sRGB");
  EXPECT_EQ(spoken_colour(ColourTransfer::smpte170m), "BT.601");
  EXPECT_EQ(spoken_colour(ColourMatrix::bt2020), "BT.2020");
  EXPECT_EQ(spoken_colour(ColourMatrix::bt601), "BT.601");
  EXPECT_EQ(spoken_colour(ColourPrimaries::bt2020), "BT.2020");
  EXPECT_EQ(spoken_colour(ColourPrimaries::smpte432), "Display P3");
  EXPECT_EQ(spoken_colour(ColourPrimaries::bt470bg), "BT.601 625-line (PAL)");
  EXPECT_EQ(spoken_colour(ColourRange::limited), "limited");
  EXPECT_EQ(spoken_colour(ChromaSiting::left), "left");
  // The same identifier names different things in different parts.
  EXPECT_EQ(colour_id(ColourTransfer::gamma28), colour_id(ColourPrimaries::bt470bg));
  EXPECT_EQ(spoken_colour(ColourTransfer::gamma28), "gamma 2.8");
}

TEST(ColourNames, UnknownIsOtherAndNeverHdr) {
  using viewer::LightScale;
  // A code vhist does not know is `other`, printed "unknown", and is no light scale.
  EXPECT_EQ(colour_id(ColourTransfer::other), "unknown");
  EXPECT_EQ(spoken_colour(ColourTransfer::other), "unknown");
  EXPECT_EQ(colour_id(ColourPrimaries::other), "unknown");
  EXPECT_EQ(viewer::light_scale_of(ColourTransfer::other), LightScale::none);
  // Only PQ and HLG have one.
  for (int i = 0; i <= static_cast<int>(ColourTransfer::other); ++i) {
    const auto t = static_cast<ColourTransfer>(i);
    const LightScale want = t == ColourTransfer::smpte2084      ? LightScale::pq
                            : t == ColourTransfer::arib_std_b67 ? LightScale::hlg
                                                                : LightScale::none;
    EXPECT_EQ(viewer::light_scale_of(t), want) << colour_id(t);
  }
  // An identifier vhist does not have is read as nothing, not as some value.
  EXPECT_EQ(colour_from_id<ColourTransfer>("something-new"), std::nullopt);
  EXPECT_EQ(colour_from_id<ColourTransfer>("PQ"), std::nullopt);  // a spoken name is no identifier
}

TEST(ColourNames, PartThatDoesNotApplyIsNone) {
  const ColourTag<ColourMatrix> matrix{ColourMatrix::bt709, ColourSource::not_applicable, {}};
  EXPECT_EQ(colour_id(matrix), "none");
  EXPECT_EQ(spoken_colour(matrix), "none (R'G'B')");
  const ColourTag<ChromaSiting> siting{ChromaSiting::left, ColourSource::not_applicable, {}};
  EXPECT_EQ(colour_id(siting), "none");
  EXPECT_EQ(spoken_colour(siting), "none");
  const ColourTag<ChromaSiting> used{ChromaSiting::left, ColourSource::assumed, "center"};
  EXPECT_EQ(colour_id(used), "left");
}

TEST(ColourNames, SummaryInAFewWords) {
  SourceColour c;
  c.matrix = {ColourMatrix::bt2020, ColourSource::stream, {}};
  c.range = {ColourRange::limited, ColourSource::stream, {}};
  c.primaries = {ColourPrimaries::bt2020, ColourSource::stream, {}};
  c.transfer = {ColourTransfer::smpte2084, ColourSource::stream, {}};
  EXPECT_EQ(spoken_colour_summary(c), "BT.2020 limited, PQ");
  c.transfer.value = ColourTransfer::arib_std_b67;
  EXPECT_EQ(spoken_colour_summary(c), "BT.2020 limited, HLG");
  c.matrix.value = ColourMatrix::bt709;
  c.transfer.value = ColourTransfer::bt709;
  EXPECT_EQ(spoken_colour_summary(c), "BT.709 limited, BT.709, primaries BT.2020");
  c.matrix.source = ColourSource::not_applicable;
  c.range.value = ColourRange::full;
  c.transfer.value = ColourTransfer::iec61966_2_1;
  EXPECT_EQ(spoken_colour_summary(c), "sRGB R'G'B' full");
}

}  // namespace
}  // namespace vhist
