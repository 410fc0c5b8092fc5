// The picture's cell sums (frame_checksum.h's CellSums, for the frozen check's held pictures):
// the reference against sums worked out by hand, and the GPU cells pass (through the video
// pipeline, frames in flight) and the CPU engine equal to the reference on every layout, odd
// sizes, frames smaller than the grid and larger than it.
#include "gamut_frames.h"
#include "gpu_test_env.h"

#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/frame_checksum.h"
#include "vhist/compute/synthetic_frames.h"
#include "vhist/compute/video_pipeline.h"

namespace vhist {
namespace {

using test::planar_frame;
using test::write_sample;

// 64 x 36 limited 4:2:0: each cell holds 2 x 2 samples. Y' = 16 everywhere but one sample:
// every cell sums 64 but that sample's, which gains the change; chroma changes nothing.
TEST(CellSums, ReferenceAddsEachCellsSamples) {
  SyntheticVideoFrame f = planar_frame(8, 1, 1, 64, 36, ColourRange::limited, ColourMatrix::bt709);
  for (std::uint32_t y = 0; y < 36; ++y) {
    for (std::uint32_t x = 0; x < 64; ++x) write_sample(f, 0, x, y, 16);
  }
  for (std::uint32_t y = 0; y < 18; ++y) {
    for (std::uint32_t x = 0; x < 32; ++x) {
      write_sample(f, 1, x, y, 200);
      write_sample(f, 2, x, y, 30);
    }
  }
  CellSums want;
  want.fill(64);
  EXPECT_EQ(reference_cell_sums(f.format, f.view()), want);
  write_sample(f, 0, 63, 35, 116);  // the last cell's
  want[shader::kCellCount - 1] += 100;
  write_sample(f, 0, 5, 2, 26);  // cell (2, 1)
  want[1 * shader::kCellColumns + 2] += 10;
  EXPECT_EQ(reference_cell_sums(f.format, f.view()), want);
}

// Fewer columns than cells: column x of a 3-wide frame is in cell column x * 32 / 3 (0, 10, 21);
// the cells between hold nothing.
TEST(CellSums, ANarrowFrameLeavesCellsEmpty) {
  SyntheticVideoFrame f = planar_frame(10, 0, 0, 3, 1, ColourRange::full, ColourMatrix::bt709);
  for (std::uint32_t x = 0; x < 3; ++x) write_sample(f, 0, x, 0, 100 * (x + 1));
  const CellSums got = reference_cell_sums(f.format, f.view());
  CellSums want{};
  want[0] = 100;
  want[10] = 200;
  want[21] = 300;
  EXPECT_EQ(got, want);
}

class CpuCells : public ::testing::TestWithParam<std::string> {};

// The CPU engine's sums, with and without the conversion, on one thread and three.
TEST_P(CpuCells, EqualTheReference) {
  CpuEngine one(1), three(3);
  for (auto [w, h] : {std::pair{1u, 1u}, {37u, 19u}, {16u, 70u}, {130u, 66u}}) {
    const SyntheticVideoFrame f = make_synthetic_frame(GetParam(), w, h, w * 3 + h);
    const CellSums want = reference_cell_sums(f.format, f.view());
    for (CpuEngine* engine : {&one, &three}) {
      for (bool levels : {true, false}) {
        CpuEngine::Request r;
        r.levels = levels;
        r.checksum = true;
        r.gamut = levels && has_planes(f.format);
        const CpuEngine::Counts got = engine->count(f.format, f.view(), 16, r);
        ASSERT_TRUE(got.cells.has_value());
        EXPECT_EQ(*got.cells, want) << w << "x" << h << (levels ? " converted" : " planes only");
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, CpuCells, ::testing::ValuesIn(synthetic_layouts()));

class GpuCells : public test::GpuTest, public ::testing::WithParamInterface<std::string> {};

// The cells pass's sums, three frames in flight, with a region (the cells stay whole).
TEST_P(GpuCells, EqualTheReference) {
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 3);
  std::vector<CellSums> want;
  std::vector<CellSums> got;
  const auto take = [&](std::optional<FrameResult> done) {
    if (!done) return;
    ASSERT_TRUE(done->cells.has_value());
    got.push_back(*done->cells);
  };
  for (auto [w, h] : {std::pair{1u, 1u}, {5u, 3u}, {67u, 35u}, {130u, 66u}, {321u, 183u}}) {
    const SyntheticVideoFrame f = make_synthetic_frame(GetParam(), w, h, w + 7 * h);
    want.push_back(reference_cell_sums(f.format, f.view()));
    SourceRequest r;
    r.checksum = true;
    if (w > 2) r.region = PixelRect{1, 1, w - 2, h - 2};
    take(pipeline.submit(f.format, f.view(), 64, 0, false, r));
  }
  while (auto done = pipeline.finish_one()) take(std::move(done));
  EXPECT_EQ(got, want);
}

INSTANTIATE_TEST_SUITE_P(All, GpuCells, ::testing::ValuesIn(synthetic_layouts()));

}  // namespace
}  // namespace vhist
