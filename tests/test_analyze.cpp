// Video files end to end: clips made during the run with the ffmpeg tool, decoded by the media
// input, converted and histogrammed by the GPU (validation on) and by the CPU engine, compared
// with the CPU reference; and `vhist analyze` run as a process on good and bad inputs.
#include "gpu_test_env.h"
#include "analyze_process.h"
#include "test_clips.h"

#include "vhist/media/media_source.h"
#include "vhist/compute/colour.h"
#include "vhist/compute/cpu_engine.h"
#include "vhist/compute/cpu_reference.h"
#include "vhist/compute/frame_stats.h"
#include "vhist/compute/video_pipeline.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace vhist {
namespace {

using test::all_lines;
using test::clip_dir;
using test::has_tag;
using test::header_of;
using test::json_array;
using test::json_array_in;
using test::lines;
using test::make_clip;
using test::ycbcr_tags;
using test::ycbcr_vf;
using test::ProcessResult;
using test::read_file;
using test::run_vhist;

// --- decoded planes through the GPU and the CPU engine, against the reference ---------------

struct YuvCase {
  const char* name;
  const char* pix_fmt;
  const char* colorspace;  // ffmpeg -colorspace
  const char* range;       // ffmpeg -color_range: tv or pc
  ColourMatrix matrix;
  ColourRange expect_range;
  std::uint32_t bits;
};

void PrintTo(const YuvCase& c, std::ostream* os) { *os << c.name; }

class DecodedClips : public test::GpuTest, public ::testing::WithParamInterface<YuvCase> {};

TEST_P(DecodedClips, GpuAndCpuEngineEqualTheReference) {
  const YuvCase& c = GetParam();
  // A moving pattern with gradients and noise, lossless so every code value is exercised.
  const std::string clip =
      make_clip(std::string(c.name) + ".mkv", "-f lavfi -i testsrc2=s=96x54:r=25,noise=alls=12:allf=t," +
                                                  ycbcr_vf(c.colorspace, c.pix_fmt, c.range) + " -frames:v 6 -pix_fmt " +
                                                  c.pix_fmt + " " + ycbcr_tags(c.colorspace, c.range) + " -c:v ffv1");
  auto source = media::MediaSource::open(clip);
  HistogramEngine engine(context());
  VideoPipeline pipeline(engine, 2);
  CpuEngine cpu(2);
  media::DecodedFrame frame;
  int frames = 0;
  std::vector<Histogram> expected;
  std::vector<Histogram> got;
  while (source->next(frame, std::chrono::milliseconds(5000)) == media::MediaSource::Status::frame) {
    ASSERT_EQ(frame.format.matrix, c.matrix) << c.name;
    ASSERT_EQ(frame.format.range, c.expect_range) << c.name;
    ASSERT_EQ(frame.format.bits, c.bits) << c.name;
    ASSERT_EQ(frame.format.model, ColourModel::yuv);
    const std::uint32_t bins = stats_levels(c.bits);
    const auto rgb = reference_convert(frame.format, frame.planes);
    const Histogram want = reference_histogram(rgb, converted_format(frame.format), bins);
    EXPECT_EQ(cpu.histogram(frame.format, frame.planes, bins), want) << c.name << " frame " << frames;
    expected.push_back(want);
    if (auto done = pipeline.submit(frame.format, frame.planes, bins, static_cast<std::uint64_t>(frames))) {
      got.push_back(done->histogram);
    }
    ++frames;
  }
  while (auto done = pipeline.finish_one()) got.push_back(done->histogram);
  EXPECT_EQ(frames, 6);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << c.name << " frame " << i;
}

INSTANTIATE_TEST_SUITE_P(
    Clips, DecodedClips,
    ::testing::Values(
        YuvCase{"bt601_limited_420", "yuv420p", "smpte170m", "tv", ColourMatrix::bt601, ColourRange::limited, 8},
        YuvCase{"bt601_full_420", "yuv420p", "smpte170m", "pc", ColourMatrix::bt601, ColourRange::full, 8},
        YuvCase{"bt709_limited_420", "yuv420p", "bt709", "tv", ColourMatrix::bt709, ColourRange::limited, 8},
        YuvCase{"bt709_full_422", "yuv422p", "bt709", "pc", ColourMatrix::bt709, ColourRange::full, 8},
        YuvCase{"bt709_limited_444", "yuv444p", "bt709", "tv", ColourMatrix::bt709, ColourRange::limited, 8},
        YuvCase{"bt601_limited_420_10", "yuv420p10le", "bt470bg", "tv", ColourMatrix::bt601, ColourRange::limited, 10},
        YuvCase{"bt709_full_422_10", "yuv422p10le", "bt709", "pc", ColourMatrix::bt709, ColourRange::full, 10},
        YuvCase{"bt709_limited_444_10", "yuv444p10le", "bt709", "tv", ColourMatrix::bt709, ColourRange::limited, 10},
        YuvCase{"bt2020_limited_420_10", "yuv420p10le", "bt2020nc", "tv", ColourMatrix::bt2020, ColourRange::limited, 10},
        YuvCase{"bt709_limited_420_12", "yuv420p12le", "bt709", "tv", ColourMatrix::bt709, ColourRange::limited, 12}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// --- vhist analyze as a process ------------------------------------------------------------

// Two known colours side by side, lossless R'G'B': every count is known in advance.
std::string two_colour_clip() {
  return make_clip("two_colours.mkv",
                   "-f lavfi -i color=c=0x204060:s=32x48:r=10,format=gbrp -f lavfi -i color=c=0xff8000:s=32x48:r=10,format=gbrp "
                   "-filter_complex hstack -frames:v 5 -c:v ffv1");
}

// Luma of R'G'B' codes with the Rec.709 weights, rounded: written independently of the code.
std::uint32_t luma709(double r, double g, double b) {
  return static_cast<std::uint32_t>(std::floor(0.2126 * r + 0.7152 * g + 0.0722 * b + 0.5));
}

TEST(Analyze, KnownColoursGiveExactCounts) {
  for (const char* engine : {"gpu", "cpu"}) {
    const ProcessResult r = run_vhist("analyze '" + two_colour_clip() + "' --engine " + engine);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto records = lines(r.out);
    ASSERT_EQ(records.size(), 5u);
    for (const auto& rec : records) {
      std::vector<std::uint64_t> want_r(256), want_g(256), want_b(256), want_l(256);
      want_r[0x20] += 1536, want_g[0x40] += 1536, want_b[0x60] += 1536;
      want_r[0xff] += 1536, want_g[0x80] += 1536, want_b[0x00] += 1536;
      want_l[luma709(0x20, 0x40, 0x60)] += 1536;
      want_l[luma709(0xff, 0x80, 0x00)] += 1536;
      EXPECT_EQ(json_array(rec, "r"), want_r) << engine;
      EXPECT_EQ(json_array(rec, "g"), want_g) << engine;
      EXPECT_EQ(json_array(rec, "b"), want_b) << engine;
      EXPECT_EQ(json_array(rec, "l"), want_l) << engine;
      EXPECT_NE(rec.find("\"width\":64,\"height\":48,\"bits\":8,\"bins\":256"), std::string::npos) << rec.substr(0, 120);
      // Red: half the pixels at 0x20, half at the highest code.
      EXPECT_NE(rec.find("\"r\":{\"min\":32,\"max\":255,\"mean\":143.5000,\"median\":32,\"p1\":32,\"p99\":255,"
                         "\"clip_low\":0.00000000,\"clip_high\":0.50000000}"),
                std::string::npos)
          << rec.substr(rec.find("\"stats\""));
    }
  }
}

TEST(Analyze, BinsFramesAndCsv) {
  const std::string clip = two_colour_clip();
  const ProcessResult r = run_vhist("analyze '" + clip + "' --bins 16 --frames 3 --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 1u + 3u * 4u);  // header, then r g b l for each frame
  EXPECT_EQ(rows[0].rfind("frame,pts,width,height,bits,bins,rotation,display_width,display_height,counted,y_below,y_above,"
                          "c_below,c_above,max_cll,fall,channel,min,max,mean,median,p1,p99,clip_low,clip_high,c0,",
                          0),
            0u);
  EXPECT_NE(rows[0].find(",c15"), std::string::npos);
  EXPECT_EQ(rows[0].find(",c16"), std::string::npos);
  // Frame 0, channel r: 0x20 -> bin 2, 0xff -> bin 15, 1536 each.
  // The range check's four shares, then max_cll and fall left empty (not PQ).
  EXPECT_EQ(rows[1].rfind("0,0.000000,64,48,8,16,0,64,48,", 0), 0u) << rows[1];
  EXPECT_NE(rows[1].find(",,,r,32,255,"), std::string::npos) << rows[1];
  EXPECT_NE(rows[1].find(",0,0,1536,0,0,0,0,0,0,0,0,0,0,0,0,1536"), std::string::npos) << rows[1];
  EXPECT_EQ(rows[4].substr(0, 20).find(",l,"), std::string::npos);
  EXPECT_NE(rows[4].find(",,,l,"), std::string::npos);

  const ProcessResult too_many = run_vhist("analyze '" + clip + "' --bins 1024");
  EXPECT_EQ(too_many.status, 2);
  EXPECT_NE(too_many.err.find("8-bit"), std::string::npos) << too_many.err;
}

TEST(Analyze, CdfIsTheRunningSumOfTheHistogramAndGivesThePercentiles) {
  // A natural clip, both engines: with --cdf each record carries, per channel, the cumulative
  // counts at the same bins, which must be the running sum of the histogram written beside them
  // (the GPU computes the two in different passes), end at the pixel count, and agree with the
  // percentiles in the stats (at 256 bins of an 8-bit source, one bin per code).
  const std::string clip = make_clip("cdf_natural.mp4", "-f lavfi -i testsrc2=s=96x64:r=25 -frames:v 3 -c:v libx264 -pix_fmt yuv420p");
  std::string outputs[2];
  for (int e = 0; e < 2; ++e) {
    const char* engine = e == 0 ? "gpu" : "cpu";
    const ProcessResult r = run_vhist("analyze '" + clip + "' --cdf --engine " + engine);
    ASSERT_EQ(r.status, 0) << r.err;
    outputs[e] = r.out;
    const auto records = lines(r.out);
    ASSERT_EQ(records.size(), 3u);
    for (const auto& rec : records) {
      for (const char* ch : {"r", "g", "b", "l"}) {
        const auto counts = json_array(rec, ch);
        const auto cdf = json_array_in(rec, "cdf", ch);
        ASSERT_EQ(cdf.size(), 256u) << engine << " " << ch;
        std::uint64_t running = 0;
        for (std::size_t b = 0; b < 256; ++b) {
          running += counts[b];
          ASSERT_EQ(cdf[b], running) << engine << " " << ch << " bin " << b;
        }
        EXPECT_EQ(cdf.back(), 96u * 64u);
        // Nearest rank: the median is the first code whose cumulative count reaches ceil(N/2).
        const auto first_reaching = [&](std::uint64_t rank) {
          return static_cast<std::uint64_t>(std::find_if(cdf.begin(), cdf.end(), [&](auto v) { return v >= rank; }) - cdf.begin());
        };
        const std::string stats = rec.substr(rec.find("\"" + std::string(ch) + "\":{\"min\""));
        EXPECT_NE(stats.find("\"median\":" + std::to_string(first_reaching((96 * 64 + 1) / 2)) + ","), std::string::npos)
            << engine << " " << ch << ": " << stats.substr(0, 120);
        EXPECT_NE(stats.find("\"p99\":" + std::to_string(first_reaching((99 * 96 * 64 + 99) / 100)) + ","), std::string::npos)
            << engine << " " << ch << ": " << stats.substr(0, 120);
      }
    }
  }
  EXPECT_EQ(outputs[0], outputs[1]) << "the GPU and CPU engines wrote different records";

  // Without --cdf, no "cdf" key; CSV gets cdf0..cdfN columns after c0..cN.
  const ProcessResult plain = run_vhist("analyze '" + clip + "' --frames 1");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.out.find("\"cdf\""), std::string::npos);
  const ProcessResult csv = run_vhist("analyze '" + clip + "' --frames 1 --bins 16 --cdf --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  const auto rows = lines(csv.out);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_NE(rows[0].find(",c15,cdf0,cdf1,"), std::string::npos) << rows[0];
  EXPECT_EQ(rows[0].find(",cdf16"), std::string::npos) << rows[0];
  EXPECT_EQ(rows[1].substr(rows[1].rfind(',') + 1), std::to_string(96 * 64)) << rows[1];
}

TEST(Analyze, CountsSumToThePixelsAndSizeChangesAreFollowed) {
  const std::string a = make_clip("size_a.h264", "-f lavfi -i testsrc2=s=64x48:r=25 -frames:v 4 -c:v libx264 -pix_fmt yuv420p");
  const std::string b = make_clip("size_b.h264", "-f lavfi -i testsrc2=s=96x64:r=25 -frames:v 4 -c:v libx264 -pix_fmt yuv420p");
  const fs::path both = clip_dir() / "size_change.h264";
  {
    std::ofstream out(both, std::ios::binary);
    for (const auto& part : {a, b}) out << read_file(part);
  }
  const ProcessResult r = run_vhist("analyze '" + both.string() + "' --bins 64 --engine gpu");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto records = lines(r.out);
  ASSERT_EQ(records.size(), 8u);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::uint64_t pixels = i < 4 ? 64 * 48 : 96 * 64;
    EXPECT_NE(records[i].find(i < 4 ? "\"width\":64,\"height\":48" : "\"width\":96,\"height\":64"), std::string::npos);
    for (const char* ch : {"r", "g", "b", "l"}) {
      std::uint64_t sum = 0;
      for (auto v : json_array(records[i], ch)) sum += v;
      EXPECT_EQ(sum, pixels) << "record " << i << " channel " << ch;
    }
  }
}

TEST(Analyze, StartSkipsToTheTime) {
  const std::string clip = make_clip("start.mp4", "-f lavfi -i testsrc2=s=64x48:r=10 -frames:v 30 -c:v libx264 -pix_fmt yuv420p");
  const ProcessResult r = run_vhist("analyze '" + clip + "' --start 2 --bins 16");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto records = lines(r.out);
  ASSERT_EQ(records.size(), 10u);
  EXPECT_NE(records[0].find("\"pts\":2.000000"), std::string::npos) << records[0].substr(0, 60);
}

// Runs analyze on a long clip into a file, sends `signal` once the first records reached it, and
// checks the run ended with 128 + the signal's number, saying so, with every record complete.
void expect_signal_flushes_complete_records(const std::string& signal, int status_code) {
  const std::string clip = make_clip("long.mp4", "-f lavfi -i testsrc2=s=320x240:r=25 -frames:v 1500 -c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const fs::path out = clip_dir() / ("interrupted_" + signal + ".jsonl"), err = clip_dir() / "interrupted.err",
                 status = clip_dir() / "interrupted.status";
  // The GPU engine on lavapipe takes several seconds for this clip. The signal is sent once
  // the first records reach the file (its temporary: the output is put in place at the end; the
  // 64 KiB output buffer holds about 14): by then the
  // handler is installed, however long the start took (seconds under the sanitizers). Sent
  // earlier to a background job of a non-interactive shell, SIGINT would be ignored, as that
  // shell starts the job with SIGINT ignored.
  fs::remove(out);
  const std::string cmd = "VHIST_VALIDATION=1 '" + std::string(VHIST_BINARY) + "' analyze '" + clip +
                          "' --engine gpu -o '" + out.string() + "' 2> '" + err.string() +
                          "' & pid=$!; i=0; while [ -z \"$(find '" + clip_dir().string() + "' -maxdepth 1 -name '" +
                          out.filename().string() + ".*.tmp' -size +0c)\" ] && [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; i=$((i+1)); done; "
                          "kill -" + signal + " $pid; wait $pid; echo $? > '" + status.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string code = read_file(status);
  ASSERT_NE(code, "0\n") << "the run finished before the signal arrived:\n" << read_file(err);
  EXPECT_EQ(code, std::to_string(status_code) + "\n") << signal << ": " << read_file(err);
  EXPECT_NE(read_file(err).find("interrupted (SIG" + signal + ")"), std::string::npos) << read_file(err);
  const std::string text = read_file(out);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_FALSE(header_of(text).empty()) << "no provenance header";
  const auto records = lines(text);
  ASSERT_FALSE(records.empty());
  for (const auto& rec : records) EXPECT_EQ(rec.substr(rec.size() - 2), "}}");
  EXPECT_NE(read_file(err).find(std::to_string(records.size()) + " complete records"), std::string::npos) << read_file(err);
  // Put in place with its summary, and no temporary left (issue 25).
  EXPECT_FALSE(test::summary_of(text).empty()) << "no summary";
  for (const auto& e : fs::directory_iterator(clip_dir())) EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

// Ctrl-C, SIGTERM and a hangup (a closed terminal or SSH session) all end the run the same way;
// the status is the shell's 128 + signal number.
TEST(Analyze, InterruptFlushesCompleteRecords) { expect_signal_flushes_complete_records("INT", 130); }
TEST(Analyze, TerminateFlushesCompleteRecords) { expect_signal_flushes_complete_records("TERM", 143); }
TEST(Analyze, HangupFlushesCompleteRecords) { expect_signal_flushes_complete_records("HUP", 129); }

// A reader that goes away (`| head`) ends the run quietly: no message, status 141 as for a
// process killed by SIGPIPE, and long before the clip's end.
TEST(Analyze, ClosedPipeEndsQuietly) {
  const std::string clip = make_clip("long.mp4", "-f lavfi -i testsrc2=s=320x240:r=25 -frames:v 1500 -c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const fs::path err = clip_dir() / "pipe.err", status = clip_dir() / "pipe.status", first = clip_dir() / "pipe.first";
  const std::string cmd = "( '" + std::string(VHIST_BINARY) + "' analyze '" + clip + "' --engine cpu -q 2> '" + err.string() +
                          "'; echo $? > '" + status.string() + "' ) | head -n 2 > '" + first.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(read_file(status), "141\n") << read_file(err);
  EXPECT_EQ(read_file(err), "");
  const auto got = all_lines(read_file(first));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_FALSE(header_of(read_file(first)).empty());
  EXPECT_EQ(got[1].rfind("{\"type\":\"frame\",\"frame\":0,", 0), 0u) << got[1].substr(0, 80);
}

// `-` reads the video from standard input (FFmpeg's pipe protocol): the same records as the file.
TEST(Analyze, StandardInputGivesTheFilesRecords) {
  const std::string clip = make_clip("stdin.ts", "-f lavfi -i testsrc2=s=64x48:r=10 -frames:v 12 -c:v libx264 -pix_fmt yuv420p -f mpegts");
  const ProcessResult file = run_vhist("analyze '" + clip + "' --bins 16 --engine cpu -q");
  const ProcessResult piped = run_vhist("analyze - --bins 16 --engine cpu -q < '" + clip + "'");
  ASSERT_EQ(file.status, 0) << file.err;
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(lines(piped.out), lines(file.out));
  EXPECT_EQ(lines(piped.out).size(), 12u);
  EXPECT_NE(header_of(piped.out).find("\"input\":\"-\""), std::string::npos) << header_of(piped.out);
  const ProcessResult empty = run_vhist("analyze - --bins 16 -q < /dev/null");
  EXPECT_EQ(empty.status, 2);
  EXPECT_NE(empty.err.find("standard input"), std::string::npos) << empty.err;
}

// An MP3 with cover art: its picture is analyzed as one frame (not a truncated video of the
// audio's length), exit 0, and the header says it is cover art.
TEST(Analyze, CoverArtIsOnePicture) {
  const std::string mp3 = make_clip("cover.mp3", "-f lavfi -i sine=d=3 -f lavfi -i testsrc2=s=64x64:d=0.1 -map 0 -map 1 "
                                                 "-frames:v 1 -c:a libmp3lame -c:v mjpeg -disposition:v attached_pic");
  const ProcessResult r = run_vhist("analyze '" + mp3 + "' --bins 16 --engine cpu");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("truncated"), std::string::npos) << r.err;
  const auto records = lines(r.out);
  ASSERT_EQ(records.size(), 1u);
  std::uint64_t sum = 0;
  for (std::uint64_t v : json_array(records[0], "r")) sum += v;
  EXPECT_EQ(sum, 64u * 64u);
  EXPECT_NE(header_of(r.out).find("\"attached_picture\":true,\"codec\":\"mjpeg\""), std::string::npos) << header_of(r.out);
}

// Image sequences through FFmpeg's image2 patterns: numbered (%03d) and glob; six 32x24 PNGs
// give six records of 768 pixels each. A pattern that names no file is refused plainly.
TEST(Analyze, ImageSequences) {
  const std::string pattern = make_clip("seq%03d.png", "-f lavfi -i testsrc2=s=32x24:r=5 -frames:v 6");
  const std::string glob = (fs::path(pattern).parent_path() / "seq*.png").string();
  for (const std::string& input : {pattern, glob}) {
    const ProcessResult r = run_vhist("analyze '" + input + "' --bins 16 --engine cpu -q");
    ASSERT_EQ(r.status, 0) << input << ": " << r.err;
    const auto records = lines(r.out);
    ASSERT_EQ(records.size(), 6u) << input;
    for (const auto& rec : records) {
      std::uint64_t sum = 0;
      for (std::uint64_t v : json_array(rec, "l")) sum += v;
      EXPECT_EQ(sum, 32u * 24u);
    }
    EXPECT_NE(header_of(r.out).find("\"container\":\"image2\""), std::string::npos) << header_of(r.out);
  }
  ProcessResult r = run_vhist("analyze '" + (clip_dir() / "none%03d.png").string() + "' -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no image of the sequence"), std::string::npos) << r.err;
  r = run_vhist("analyze '" + (clip_dir() / "none*.png").string() + "' -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no file matches"), std::string::npos) << r.err;
}

// Two video streams: red 32x24 (stream 0) and blue 48x32 (stream 1). --stream 1 reads the blue
// one (all 1536 pixels at R 0, B 255), the default the first; -v lists both; a stream that is
// absent or not video is refused with the list.
TEST(Analyze, StreamChoosesAVideoStream) {
  const std::string two = make_clip("two.mkv", "-f lavfi -i color=red:s=32x24:r=5:d=1 -f lavfi -i color=blue:s=48x32:r=5:d=1 "
                                               "-map 0 -map 1 -c:v ffv1 -pix_fmt gbrp");
  ProcessResult r = run_vhist("analyze '" + two + "' --stream 1 --bins 16 --engine cpu -v");
  ASSERT_EQ(r.status, 0) << r.err;
  auto records = lines(r.out);
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(json_array(records[0], "r").front(), 48u * 32u);  // red 0: bin 0
  EXPECT_EQ(json_array(records[0], "b").back(), 48u * 32u);   // blue 255: bin 15
  EXPECT_NE(header_of(r.out).find("\"stream\":1,"), std::string::npos) << header_of(r.out);
  EXPECT_NE(r.err.find("video streams 0 (ffv1 32x24), 1 (ffv1 48x32); reading stream 1"), std::string::npos) << r.err;
  r = run_vhist("analyze '" + two + "' --bins 16 --engine cpu -q");
  records = lines(r.out);
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(json_array(records[0], "r").back(), 32u * 24u);
  r = run_vhist("analyze '" + two + "' --stream 2 -q");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--stream 2: '" + two + "' has only 2 streams; its video streams: 0 (ffv1 32x24), 1 (ffv1 48x32)"),
            std::string::npos)
      << r.err;
}

// The number of the frame at `pts` in a JSON Lines output; -1 when that record has no number,
// -2 when there is no record at that time.
std::int64_t frame_at(const std::string& out, const std::string& pts) {
  for (const auto& rec : lines(out)) {
    if (rec.find("\"pts\":" + pts + ",") == std::string::npos) continue;
    const auto at = rec.find("\"frame\":");
    return at == std::string::npos ? -1 : std::stoll(rec.substr(at + 8));
  }
  return -2;
}

// Frame numbers join across runs: with a constant rate, --start gives the frame the number a
// full run gives it; with a variable rate (20 fps for a second, then 10), where the time says
// nothing exact, the number is left out rather than wrong. pts is there either way.
TEST(Analyze, FrameNumbersJoinAcrossRunsOrAreLeftOut) {
  const std::string cfr = make_clip("cfr.mp4", "-f lavfi -i testsrc2=s=64x48:r=20:d=3 -c:v libx264 -pix_fmt yuv420p");
  const std::string vfr = make_clip("vfr.mp4", "-f lavfi -i testsrc2=s=64x48:r=20:d=3 "
                                               "-vf \"select='lt(t\\,1)+not(mod(n\\,2))'\" -vsync vfr -c:v libx264 -pix_fmt yuv420p");
  const std::string vfr_mkv = make_clip("vfr.mkv", "-i '" + vfr + "' -c copy");
  // Matroska written straight from a variable-rate source declares the source's base rate (20)
  // as its DefaultDuration, which ffprobe reports as both rates: not to be believed.
  const std::string vfr_declared = make_clip("vfr_declared.mkv", "-f lavfi -i testsrc2=s=64x48:r=20:d=3 "
                                                                 "-vf \"select='lt(t\\,1)+not(mod(n\\,2))'\" -vsync vfr "
                                                                 "-c:v libx264 -pix_fmt yuv420p");
  ProcessResult full = run_vhist("analyze '" + cfr + "' --bins 16 --engine cpu -q");
  ProcessResult later = run_vhist("analyze '" + cfr + "' --bins 16 --engine cpu -q --start 1.5");
  EXPECT_EQ(frame_at(full.out, "1.500000"), 30);  // 20 fps: 1.5 s is frame 30
  EXPECT_EQ(frame_at(later.out, "1.500000"), 30);
  EXPECT_NE(header_of(later.out).find("\"frame_rate_constant\":true"), std::string::npos) << header_of(later.out);
  for (const std::string& clip : {vfr, vfr_mkv, vfr_declared}) {
    full = run_vhist("analyze '" + clip + "' --bins 16 --engine cpu -q");
    later = run_vhist("analyze '" + clip + "' --bins 16 --engine cpu -q --start 1.5");
    ASSERT_EQ(later.status, 0) << later.err;
    // 20 frames in the first second, then one every 0.1 s: 1.5 s is frame 25.
    EXPECT_EQ(frame_at(full.out, "1.500000"), 25) << clip;
    EXPECT_EQ(frame_at(later.out, "1.500000"), -1) << clip;
    EXPECT_NE(header_of(later.out).find("\"frame_rate_constant\":false"), std::string::npos) << header_of(later.out);
  }
  // A constant-rate Matroska file only declares its rate: after --start its numbers are left out
  // too (pts joins the runs).
  const std::string cfr_mkv = make_clip("cfr.mkv", "-i '" + cfr + "' -c copy");
  later = run_vhist("analyze '" + cfr_mkv + "' --bins 16 --engine cpu -q --start 1.5");
  EXPECT_EQ(frame_at(later.out, "1.500000"), -1);
}

// --start in an MPEG transport stream (no index; x264's B-frames decode before the keyframe
// shows, and the only keyframe is the first): the frames are those of a full run, undamaged.
TEST(Analyze, StartInATransportStreamGivesTheFullRunsFrames) {
  const std::string mp4 = make_clip("gop.mp4", "-f lavfi -i testsrc2=s=64x48:r=25:d=6 -c:v libx264 -pix_fmt yuv420p");
  const std::string one_key = make_clip("one_key.ts", "-i '" + mp4 + "' -c copy");
  const std::string gop = make_clip("gop.ts", "-f lavfi -i testsrc2=s=64x48:r=25:d=6 -c:v libx264 -g 25 -pix_fmt yuv420p");
  for (const std::string& ts : {one_key, gop}) {
    const ProcessResult full = run_vhist("analyze '" + ts + "' --bins 16 --engine cpu -q");
    ASSERT_EQ(full.status, 0) << full.err;
    const auto full_records = lines(full.out);
    const ProcessResult later = run_vhist("analyze '" + ts + "' --bins 16 --engine cpu -q --start 3.3 --frames 3");
    ASSERT_EQ(later.status, 0) << ts << "\n" << later.err;
    const auto records = lines(later.out);
    ASSERT_EQ(records.size(), 3u);
    for (const auto& rec : records) {
      const std::string pts = rec.substr(rec.find("\"pts\":") + 6, 8);
      const auto same = std::find_if(full_records.begin(), full_records.end(),
                                     [&](const std::string& f) { return f.find("\"pts\":" + pts) != std::string::npos; });
      ASSERT_NE(same, full_records.end()) << pts;
      EXPECT_EQ(rec.substr(rec.find("\"r\":")), same->substr(same->find("\"r\":"))) << ts << " at " << pts;
    }
    EXPECT_NE(records[0].find("\"pts\":3.3"), std::string::npos) << records[0].substr(0, 80);
  }
}

// Alpha: kept where FFmpeg can decode it (VP9's alpha through libvpx, which FFmpeg's own VP9
// decoder drops), said in the header, and not used: every pixel's colour is counted, the
// transparent left half too (documented policy).
TEST(Analyze, AlphaIsKeptSaidAndEveryPixelCounted) {
  const std::string webm = make_clip("alpha.webm", "-f lavfi -i \"testsrc2=s=64x48:r=10:d=0.3,format=yuva420p,"
                                                   "geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='if(lt(X,32),0,255)'\" "
                                                   "-c:v libvpx-vp9 -pix_fmt yuva420p");
  const std::string png = make_clip("alpha.png", "-f lavfi -i \"color=red:s=16x8,format=rgba,geq=r=255:g=0:b=0:a='if(lt(X,8),0,255)'\" "
                                                 "-frames:v 1");
  ProcessResult r = run_vhist("analyze '" + webm + "' --bins 16 --engine cpu -q");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(header_of(r.out).find("\"decoder\":\"libvpx-vp9\",\"alpha\":true"), std::string::npos) << header_of(r.out);
  r = run_vhist("analyze '" + png + "' --bins 16 --engine cpu -q");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(header_of(r.out).find("\"alpha\":true"), std::string::npos) << header_of(r.out);
  const auto records = lines(r.out);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(json_array(records[0], "r").back(), 16u * 8u);  // all red at 255, transparent or not
  r = run_vhist("analyze '" + make_clip("opaque.png", "-f lavfi -i color=red:s=16x8 -frames:v 1 -pix_fmt rgb24") +
                "' --bins 16 --engine cpu -q");
  EXPECT_NE(header_of(r.out).find("\"alpha\":false"), std::string::npos) << header_of(r.out);
}

// --- bad input: one clear line, exit status 2, no crash ----------------------------------

void expect_bad_input(const std::string& args, const std::string& message_part) {
  const ProcessResult r = run_vhist("analyze " + args + " -q");
  EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(message_part), std::string::npos) << args << "\nstderr: " << r.err;
  EXPECT_EQ(r.err.find("validation"), std::string::npos) << r.err;
}

TEST(AnalyzeBadInput, MissingDirectoryEmptyNotVideo) {
  expect_bad_input("'" + (clip_dir() / "no_such.mp4").string() + "'", "no such file");
  expect_bad_input("'" + clip_dir().string() + "'", "is a directory");
  const fs::path empty = clip_dir() / "empty.mp4";
  std::ofstream(empty).close();
  expect_bad_input("'" + empty.string() + "'", "empty");
  const fs::path text = clip_dir() / "notes.mp4";
  std::ofstream(text) << "These are not the frames you are looking for.\n";
  expect_bad_input("'" + text.string() + "'", "not a video");
}

TEST(AnalyzeBadInput, AudioOnly) {
  const std::string clip = make_clip("audio.m4a", "-f lavfi -i sine=d=1 -c:a aac");
  expect_bad_input("'" + clip + "'", "no video stream");
}

TEST(AnalyzeBadInput, UsageErrors) {
  EXPECT_EQ(run_vhist("analyze").status, 2);
  EXPECT_EQ(run_vhist("analyze x.mp4 --bins 100").status, 2);
  EXPECT_EQ(run_vhist("analyze x.mp4 --format xml").status, 2);
  EXPECT_EQ(run_vhist("analyze x.mp4 --start soon").status, 2);
  const ProcessResult help = run_vhist("analyze --help");
  EXPECT_EQ(help.status, 0);
  for (const char* option : {"--bins", "--frames", "--start", "--format", "--output", "--engine", "--device", "--quiet"}) {
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
  }
}

TEST(AnalyzeBadInput, TruncatedFile) {
  const std::string clip = make_clip("whole.mp4", "-f lavfi -i testsrc2=s=128x96:r=25,noise=alls=30:allf=t -frames:v 30 -c:v libx264 -pix_fmt yuv420p "
                                      "-movflags +faststart");  // the index first: the cut loses frames, not the index
  std::string bytes = read_file(clip);
  const fs::path cut = clip_dir() / "cut.mp4";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 6 / 10);
  const ProcessResult r = run_vhist("analyze '" + cut.string() + "' --bins 16 -q");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_FALSE(r.err.empty());
  const auto records = lines(r.out);
  EXPECT_GT(records.size(), 0u);
  EXPECT_LT(records.size(), 30u);
  EXPECT_NE(r.err.find(std::to_string(records.size()) + " records"), std::string::npos) << r.err;
}

TEST(AnalyzeBadInput, CorruptPacketsAreCountedAndDecodingGoesOn) {
  const std::string clip = make_clip("to_corrupt.h264", "-f lavfi -i testsrc2=s=128x96:r=25 -frames:v 40 -c:v libx264 -g 10 -pix_fmt yuv420p");
  std::string bytes = read_file(clip);
  for (std::size_t i = bytes.size() / 3; i < bytes.size() / 3 + 600 && i < bytes.size(); ++i) bytes[i] = static_cast<char>(0xff);
  const fs::path bad = clip_dir() / "corrupt.h264";
  std::ofstream(bad, std::ios::binary) << bytes;
  const ProcessResult r = run_vhist("analyze '" + bad.string() + "' --bins 16 -q");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("corrupt"), std::string::npos) << r.err;
  EXPECT_GT(lines(r.out).size(), 20u);  // decoding went on past the damage
}

TEST(AnalyzeBadInput, FramesLargerThanTheDevice) {
  // Wider than lavapipe's 16384 (and than most GPUs' limits); gray, lossless and tiny on disk.
  const std::string clip = make_clip("too_wide.nut", "-f lavfi -i color=c=gray:s=16400x8:r=1 -frames:v 1 -pix_fmt gray -c:v ffv1");
  const ProcessResult r = run_vhist("analyze '" + clip + "' -q");
  if (r.status == 0) GTEST_SKIP() << "this device supports frames 16400 pixels wide";
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("larger than"), std::string::npos) << r.err;
}

TEST(AnalyzeBadInput, PermissionDenied) {
  const fs::path locked = clip_dir() / "locked.mkv";
  fs::copy_file(two_colour_clip(), locked, fs::copy_options::overwrite_existing);
  fs::permissions(locked, fs::perms::none);
  std::string prefix;
  if (::geteuid() == 0) {
    // Root reads anything: run as nobody, when nobody can reach the binary and the clip's folder.
    prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    fs::permissions(clip_dir(), fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    const std::string probe = prefix + "test -x '" + std::string(VHIST_BINARY) + "' -a -e '" + locked.string() + "'";
    if (std::system(probe.c_str()) != 0) GTEST_SKIP() << "running as root and user nobody cannot reach " << VHIST_BINARY;
  }
  const fs::path err = clip_dir() / "perm_stderr.txt";
  const std::string cmd = prefix + "'" + std::string(VHIST_BINARY) + "' analyze '" + locked.string() + "' -q -o /dev/null 2> '" +
                          err.string() + "'";
  const int raw = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 2);
  EXPECT_NE(read_file(err).find("ermission denied"), std::string::npos) << read_file(err);
}

TEST(AnalyzeBadInput, UnwritableOutput) {
  const ProcessResult r = run_vhist("analyze '" + two_colour_clip() + "' -o /nonexistent-dir/out.jsonl");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}

TEST(Analyze, RecordsSayTheRotationAndDisplaySize) {
  // Issue 15: each record says how the frame is shown (the display matrix's rotation, the size
  // after the sample aspect ratio and the turn); the histograms still count the stored pixels.
  // Debian 12's ffmpeg writes a `rotate=270` tag, copied, as a turn that 90 degrees clockwise
  // undoes (test_media's RotationAgreesWithFfmpegsAutorotation checks against ffmpeg's own rule):
  // a phone clip stored 96x64 and shown 64x96.
  const std::string plain = make_clip("phone_src.mp4", "-f lavfi -i testsrc2=s=96x64:r=25 -frames:v 2 -c:v libx264 -pix_fmt yuv420p");
  const std::string phone = make_clip("phone.mp4", "-i '" + plain + "' -c copy -metadata:s:v rotate=270");
  const std::string pal = make_clip("pal_wide.mp4", "-f lavfi -i testsrc2=s=720x576:r=25 -frames:v 2 -vf setsar=64/45 "
                                                    "-c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const std::string ntsc = make_clip("ntsc_4x3.mp4", "-f lavfi -i testsrc2=s=720x480:r=25 -frames:v 2 -vf setsar=40/33 "
                                                     "-c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const std::string ntsc_wide = make_clip("ntsc_wide.mp4", "-f lavfi -i testsrc2=s=720x480:r=25 -frames:v 2 -vf setsar=16/11 "
                                                           "-c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  struct Case {
    std::string clip, head;
    std::uint64_t pixels;
  };
  // Display widths by hand: 720 * 64/45 = 1024, 720 * 40/33 = 872.7, 720 * 16/11 = 1047.3.
  const Case cases[] = {
      {phone, "\"width\":96,\"height\":64,\"bits\":8,\"bins\":256,\"rotation\":90,\"display_width\":64,\"display_height\":96,", 96 * 64},
      {pal, "\"width\":720,\"height\":576,\"bits\":8,\"bins\":256,\"rotation\":0,\"display_width\":1024,\"display_height\":576,",
       720 * 576},
      {ntsc, "\"width\":720,\"height\":480,\"bits\":8,\"bins\":256,\"rotation\":0,\"display_width\":873,\"display_height\":480,",
       720 * 480},
      {ntsc_wide, "\"width\":720,\"height\":480,\"bits\":8,\"bins\":256,\"rotation\":0,\"display_width\":1047,\"display_height\":480,",
       720 * 480},
  };
  for (const Case& c : cases) {
    const ProcessResult r = run_vhist("analyze '" + c.clip + "' --engine cpu");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto records = lines(r.out);
    ASSERT_EQ(records.size(), 2u) << c.clip;
    for (const auto& rec : records) {
      EXPECT_NE(rec.find(c.head), std::string::npos) << rec.substr(0, 160);
      const auto l = json_array(rec, "l");
      std::uint64_t sum = 0;
      for (std::uint64_t v : l) sum += v;
      EXPECT_EQ(sum, c.pixels) << c.clip;  // the stored pixels, not the display size
    }
  }
  const ProcessResult csv = run_vhist("analyze '" + phone + "' --engine cpu --format csv --frames 1 --bins 16");
  ASSERT_EQ(csv.status, 0) << csv.err;
  const auto rows = lines(csv.out);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1].rfind("0,0.000000,96,64,8,16,90,64,96,", 0), 0u) << rows[1];
}

// --- provenance (issue 16): every output starts with where its numbers came from ---------------

// The header object of a JSON Lines output (its first line), or "" when the first line is not one.

TEST(Analyze, ProvenanceHeaderSaysWhatWasTaggedAndWhatWasAssumed) {
  // Tagged BT.709 HD: every part from the stream.
  const std::string tagged = make_clip("tagged709.mp4", "-f lavfi -i testsrc2=s=128x72:r=25," + ycbcr_vf("bt709") +
                                                            " -frames:v 2 -c:v libx264 -pix_fmt yuv420p " + ycbcr_tags("bt709"));
  // Untagged: x264 writes no colour description unless asked. The conventions players use for
  // untagged video (docs/colour.md): BT.601 matrix below 720 lines, BT.709 from 720; primaries
  // of NTSC (SMPTE 170M) for 480 lines, of PAL (BT.470 BG) for 576, BT.709 for HD; BT.709's
  // transfer; limited range for Y'CbCr.
  const std::string sd = make_clip("untagged480.mp4", "-f lavfi -i testsrc2=s=640x480:r=25 -frames:v 1 -c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const std::string pal = make_clip("untagged576.mp4", "-f lavfi -i testsrc2=s=720x576:r=25 -frames:v 1 -c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const std::string hd = make_clip("untagged720.mp4", "-f lavfi -i testsrc2=s=1280x720:r=25 -frames:v 1 -c:v libx264 -preset ultrafast -pix_fmt yuv420p");
  const std::string png = make_clip("picture.png", "-f lavfi -i testsrc2=s=64x48 -frames:v 1 -pix_fmt rgb24");

  const auto header = [](const std::string& clip) {
    const ProcessResult r = run_vhist("analyze '" + clip + "' --bins 16 --engine cpu -q");
    EXPECT_EQ(r.status, 0) << r.err;
    return header_of(r.out);
  };
  std::string h = header(tagged);
  ASSERT_FALSE(h.empty());
  EXPECT_NE(h.find("\"input\":\"" + tagged + "\""), std::string::npos) << h;
  EXPECT_NE(h.find("\"codec\":\"h264\""), std::string::npos) << h;
  EXPECT_NE(h.find("\"width\":128,\"height\":72"), std::string::npos) << h;
  EXPECT_TRUE(has_tag(h, "matrix", "bt709", "stream"));
  EXPECT_TRUE(has_tag(h, "range", "limited", "stream"));
  EXPECT_TRUE(has_tag(h, "primaries", "bt709", "stream"));
  EXPECT_TRUE(has_tag(h, "transfer", "bt709", "stream"));

  h = header(sd);
  EXPECT_TRUE(has_tag(h, "matrix", "bt601", "assumed"));
  EXPECT_TRUE(has_tag(h, "range", "limited", "assumed"));
  EXPECT_TRUE(has_tag(h, "primaries", "smpte170m", "assumed"));
  EXPECT_TRUE(has_tag(h, "transfer", "bt709", "assumed"));
  EXPECT_TRUE(has_tag(header(pal), "primaries", "bt470bg", "assumed"));
  h = header(hd);
  EXPECT_TRUE(has_tag(h, "matrix", "bt709", "assumed"));
  EXPECT_TRUE(has_tag(h, "primaries", "bt709", "assumed"));

  // R'G'B' needs no matrix and is full range by its format; a picture is taken as sRGB.
  h = header(png);
  EXPECT_TRUE(has_tag(h, "matrix", "none", "n/a"));
  EXPECT_TRUE(has_tag(h, "range", "full", "format"));
  EXPECT_TRUE(has_tag(h, "transfer", "iec61966-2-1", "assumed"));
  EXPECT_TRUE(has_tag(h, "chroma_location", "none", "n/a"));

  // CSV: the same as '#' lines before the column header.
  const ProcessResult csv = run_vhist("analyze '" + sd + "' --bins 16 --engine cpu -q --format csv");
  const auto rows = all_lines(csv.out);
  ASSERT_GE(rows.size(), 8u);
  EXPECT_EQ(rows[0].rfind("# vhist analyze: ", 0), 0u) << rows[0];
  EXPECT_NE(csv.out.find("# matrix: bt601 (assumed)\n"), std::string::npos) << csv.out.substr(0, 600);
  EXPECT_NE(csv.out.find("\nframe,pts,"), std::string::npos);
}

TEST(Analyze, ProvenanceHeaderCarriesHdrMetadata) {
  // 10-bit HEVC tagged PQ / BT.2020 with SMPTE ST 2086 mastering metadata (x265's units: 0.00002
  // for chromaticities, 0.0001 cd/m2 for luminance) and a content light level of 1000 / 400.
  const std::string pq = make_clip("pq.mp4", "-f lavfi -i testsrc2=s=64x48:r=10," + ycbcr_vf("bt2020nc", "yuv420p10le") + " -frames:v 2 -c:v libx265 -pix_fmt yuv420p10le "
                                            "-x265-params 'colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:"
                                            "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)"
                                            "L(10000000,50):max-cll=1000,400:log-level=error'");
  const std::string hlg = make_clip("hlg.mp4", "-f lavfi -i testsrc2=s=64x48:r=10," + ycbcr_vf("bt2020nc", "yuv420p10le") + " -frames:v 2 -c:v libx265 -pix_fmt yuv420p10le "
                                             "-x265-params 'colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:log-level=error'");
  ProcessResult r = run_vhist("analyze '" + pq + "' --bins 16 --engine cpu -q");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string h = header_of(r.out);
  EXPECT_TRUE(has_tag(h, "matrix", "bt2020", "stream"));
  EXPECT_TRUE(has_tag(h, "primaries", "bt2020", "stream"));
  EXPECT_TRUE(has_tag(h, "transfer", "smpte2084", "stream"));
  EXPECT_NE(h.find("\"bits\":10"), std::string::npos) << h;
  // R 34000 * 0.00002 = 0.68, 16000 -> 0.32; white 15635 -> 0.3127, 16450 -> 0.329; 1000 and 0.005 cd/m2.
  EXPECT_NE(h.find("\"mastering_display\":{\"primaries\":[[0.68000,0.32000],[0.26500,0.69000],[0.15000,0.06000]],"
                   "\"white\":[0.31270,0.32900],\"min_luminance\":0.0050,\"max_luminance\":1000.0000}"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("\"content_light\":{\"max_cll\":1000,\"max_fall\":400}"), std::string::npos) << h;
  // The CSV header says the same.
  r = run_vhist("analyze '" + pq + "' --bins 16 --engine cpu -q --format csv");
  EXPECT_NE(r.out.find("# mastering display: luminance 0.0050 to 1000.0000 cd/m2; primaries (xy) R 0.68000 0.32000, "
                       "G 0.26500 0.69000, B 0.15000 0.06000; white 0.31270 0.32900\n"),
            std::string::npos)
      << r.out.substr(0, 1200);
  EXPECT_NE(r.out.find("# content light: MaxCLL 1000 cd/m2, MaxFALL 400 cd/m2\n"), std::string::npos);
  r = run_vhist("analyze '" + hlg + "' --bins 16 --engine cpu -q");
  h = header_of(r.out);
  EXPECT_TRUE(has_tag(h, "transfer", "arib-std-b67", "stream"));
  EXPECT_EQ(h.find("mastering_display"), std::string::npos) << h;
  // The person reading stderr gets the names people use; the records keep the identifiers.
  r = run_vhist("analyze '" + pq + "' --bins 16 --engine cpu -v --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("vhist analyze: colour BT.2020 limited, PQ\n"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("# transfer: smpte2084 (stream)\n"), std::string::npos) << r.out.substr(0, 800);
  r = run_vhist("analyze '" + hlg + "' --bins 16 --engine cpu -v");
  EXPECT_NE(r.err.find("vhist analyze: colour BT.2020 limited, HLG\n"), std::string::npos) << r.err;
  EXPECT_TRUE(has_tag(header_of(r.out), "transfer", "arib-std-b67", "stream"));
}

}  // namespace
}  // namespace vhist
