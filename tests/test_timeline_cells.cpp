// The timeline heatmap's image (app/viewer/src/timeline_cells.h, heat_image()): what the viewer
// copies under its UI, one pixel per pixel of the heatmap. The expected pixels are worked out by
// hand from the documented rule (a display column fills [round(x(first)), max(round(x(last + 1)),
// left + 1)) across, later columns over earlier ones; band k fills [round(y1 - h (k + 1)),
// round(y1 - h k)) down; cells blended over the background by their alpha).
#include "timeline_cells.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

namespace vhist::viewer {
namespace {

constexpr std::uint32_t kBlack = 0xFF000000u, kRed = 0xFF0000FFu, kGreen = 0xFF00FF00u, kBlue = 0xFFFF0000u;

// Cells of `bands` bands whose display columns hold the given [first, last] frames.
TimelineCells make_cells(std::uint32_t bands, std::int64_t frames, const std::vector<std::array<std::int64_t, 2>>& spans) {
  TimelineCells cells;
  cells.bands = bands;
  cells.columns = static_cast<std::uint32_t>(spans.size());
  cells.frames = frames;
  cells.colours.assign(spans.size() * bands, 0);
  for (const auto& [first, last] : spans) {
    TimelineColumnMeasures m;
    m.first_frame = first, m.last_frame = last;
    cells.measures.push_back(m);
  }
  return cells;
}

TEST(TimelineCells, HeatImageFillsEachColumnsPixelsWithItsBandsTopRowHighest) {
  // 5 frames over x 10..20: frame f starts at 10 + 2 f. Columns: frames 0-1 (x 10-14), 2 (14-16), 3-4 (16-20).
  TimelineCells cells = make_cells(2, 5, {{0, 1}, {2, 2}, {3, 4}});
  cells.colours = {kRed, 0,                // column 0: band 0 red, band 1 empty
                   0x80FFFFFFu, kGreen,    // column 1: band 0 half-transparent white, band 1 green
                   kBlue, kBlue};          // column 2: blue
  std::uint32_t width = 0, height = 0;
  const std::vector<std::uint32_t> image = heat_image(cells, 10, 20, 50, 52, kBlack, width, height);
  ASSERT_EQ(width, 10u);
  ASSERT_EQ(height, 2u);
  ASSERT_EQ(image.size(), 20u);
  const std::uint32_t grey = 0xFF808080u;  // 255 * 128/255 over black: 128
  const std::vector<std::uint32_t> top = {kBlack, kBlack, kBlack, kBlack, kGreen, kGreen, kBlue, kBlue, kBlue, kBlue};
  const std::vector<std::uint32_t> bottom = {kRed, kRed, kRed, kRed, grey, grey, kBlue, kBlue, kBlue, kBlue};
  EXPECT_EQ(std::vector<std::uint32_t>(image.begin(), image.begin() + 10), top);
  EXPECT_EQ(std::vector<std::uint32_t>(image.begin() + 10, image.end()), bottom);
}

TEST(TimelineCells, HeatImageStartsAtTheRoundedLeftEdge) {
  // x 10.4..15.6: 6 pixels (10 to 16); frame 1 starts at 13.0, so column 0 has pixels 10-12.
  TimelineCells cells = make_cells(1, 2, {{0, 0}, {1, 1}});
  cells.colours = {kRed, kGreen};
  std::uint32_t width = 0, height = 0;
  const std::vector<std::uint32_t> image = heat_image(cells, 10.4f, 15.6f, 0, 1, kBlack, width, height);
  ASSERT_EQ(width, 6u);
  ASSERT_EQ(height, 1u);
  EXPECT_EQ(image, (std::vector<std::uint32_t>{kRed, kRed, kRed, kGreen, kGreen, kGreen}));
}

TEST(TimelineCells, HeatImageColumnNarrowerThanAPixelKeepsOnePixelUnderTheNextColumn) {
  // 10 frames over 2 pixels: column 0 (frame 0) spans x 0-0.2, one pixel at 0; column 1 (frames
  // 1-9) spans round(0.2) = 0 to 2 and is drawn over it.
  TimelineCells cells = make_cells(1, 10, {{0, 0}, {1, 9}});
  cells.colours = {kRed, kGreen};
  std::uint32_t width = 0, height = 0;
  EXPECT_EQ(heat_image(cells, 0, 2, 0, 1, kBlack, width, height), (std::vector<std::uint32_t>{kGreen, kGreen}));
  EXPECT_EQ(width, 2u);
}

TEST(TimelineCells, HeatImageOfNoPixelsIsEmpty) {
  TimelineCells cells = make_cells(1, 1, {{0, 0}});
  cells.colours = {kRed};
  std::uint32_t width = 7, height = 7;
  EXPECT_TRUE(heat_image(cells, 5, 5.2f, 0, 10, kBlack, width, height).empty());
  EXPECT_EQ(width, 0u);
  EXPECT_TRUE(heat_image(cells, 0, 10, 3, 3.2f, kBlack, width, height).empty());
  EXPECT_EQ(height, 0u);
}

TEST(TimelineCells, HeatImageBandsTakeTheRowsOfTheirRoundedEdges) {
  // 2 bands over y 0.2..3.2 (rows 0 to 3 from round(0.2) = 0): band 0 spans y 1.7..3.2, rows
  // round(1.7) = 2 to round(3.2) = 3; band 1 spans y 0.2..1.7, rows 0 to 2.
  TimelineCells cells = make_cells(2, 1, {{0, 0}});
  cells.colours = {kRed, kGreen};
  std::uint32_t width = 0, height = 0;
  EXPECT_EQ(heat_image(cells, 0, 1, 0.2f, 3.2f, kBlack, width, height), (std::vector<std::uint32_t>{kGreen, kGreen, kRed}));
  EXPECT_EQ(width, 1u);
  EXPECT_EQ(height, 3u);
}

}  // namespace
}  // namespace vhist::viewer
