// app/report: the HTML report as text and its heatmap as pixels, on the synthetic run of
// report_fixture.h. The expected colours are computed here from the documented rule
// (html_report.h) and the published inferno palette, not taken from the report's code.
#include "report_fixture.h"

#include "vhist/media/png.h"
#include "vhist/report/html_report.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using namespace vhist;

namespace {

// RFC 4648 base64, decoded; stops at the first character that is not base64.
std::string unbase64(std::string_view text) {
  std::string out;
  std::uint32_t bits = 0;
  int have = 0;
  for (const char ch : text) {
    int v;
    if (ch >= 'A' && ch <= 'Z') v = ch - 'A';
    else if (ch >= 'a' && ch <= 'z') v = ch - 'a' + 26;
    else if (ch >= '0' && ch <= '9') v = ch - '0' + 52;
    else if (ch == '+') v = 62;
    else if (ch == '/') v = 63;
    else break;
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    have += 6;
    if (have >= 8) {
      have -= 8;
      out += static_cast<char>((bits >> have) & 0xff);
    }
  }
  return out;
}

// The heatmap's PNG: the data: URI of the element with id="heatmap", decoded and read back.
media::RgbaImage heatmap_of(const std::string& html) {
  const auto at = html.find("id=\"heatmap\"");
  EXPECT_NE(at, std::string::npos);
  const std::string prefix = "href=\"data:image/png;base64,";
  const auto uri = html.find(prefix, at);
  EXPECT_NE(uri, std::string::npos);
  const auto begin = uri + prefix.size();
  const std::string png = unbase64(std::string_view(html).substr(begin, html.find('"', begin) - begin));
  const fs::path path = fs::temp_directory_path() / ("vhist_heatmap_" + std::to_string(::getpid()) + ".png");
  std::ofstream(path, std::ios::binary) << png;
  media::RgbaImage image = media::read_png(path.string());
  fs::remove(path);
  return image;
}

using test::inferno;

void expect_colour(const media::RgbaImage& image, std::uint32_t x, std::uint32_t row, std::array<int, 3> want,
                   int tolerance = 0) {
  const auto p = image.at(x, row);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(p[i], want[i], tolerance) << "column " << x << " row " << row << " channel " << i;
  }
}

constexpr std::array<int, 3> kEmpty{0x00, 0x00, 0x04};
constexpr std::array<int, 3> kAll{0xfc, 0xff, 0xa4};

// The row of the image that shows 8-bit level `level` (bottom = 0).
std::uint32_t row_of(int level) { return static_cast<std::uint32_t>(255 - level); }

class HtmlReport : public ::testing::Test {
 protected:
  std::unique_ptr<qc::Timeline> timeline = test::fixture_timeline();
  report::ReportInput input = test::fixture_input(*timeline);
};

TEST_F(HtmlReport, LoadsNothingFromAnywhere) {
  const std::string html = report::html_report(input);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  // Every src and href is a data: URI or a fragment of the page itself; url() only fragments.
  const std::regex attribute(R"((?:src|href)\s*=\s*"([^"]*)\")");
  int seen = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), attribute); it != std::sregex_iterator(); ++it) {
    const std::string value = (*it)[1];
    EXPECT_TRUE(value.rfind("data:image/png;base64,", 0) == 0 || value.rfind("#", 0) == 0) << value.substr(0, 60);
    ++seen;
  }
  EXPECT_EQ(seen, 3);  // the heatmap and two thumbnails
  const std::regex url(R"(url\(([^)]*)\))");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[1].str().rfind("#", 0), 0u) << (*it)[0];
  }
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'; img-src data:;"), std::string::npos);
}

TEST_F(HtmlReport, EscapesUntrustedText) {
  input.title = "<script>alert(1)</script>\"'&\u202eevil";
  input.provenance.push_back({"tag <b>", "<img src=x onerror=alert(2)>"});
  input.events[0].detail = "</td><script>alert(3)</script>";
  input.events[0].start_timecode = "<i>00:00</i>";
  input.notes.push_back("<iframe src=\"//example.com\"></iframe>");
  const std::string html = report::html_report(input);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_EQ(html.find("<iframe"), std::string::npos);
  EXPECT_EQ(html.find("<i>00:00"), std::string::npos);
  EXPECT_EQ(html.find("\u202e"), std::string::npos) << "a bidirectional override must show as an escape";
  EXPECT_NE(html.find("<h1>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;\\u202eevil</h1>"), std::string::npos);
  EXPECT_NE(html.find("<th>tag &lt;b&gt;</th><td>&lt;img src=x onerror=alert(2)&gt;</td>"), std::string::npos);
  EXPECT_NE(html.find("&lt;/td&gt;&lt;script&gt;alert(3)&lt;/script&gt;"), std::string::npos);
}

TEST_F(HtmlReport, HasTheEventRows) {
  const std::string html = report::html_report(input);
  // One row per event, failing ones marked, each with its timecodes and frames.
  std::size_t rows = 0;
  for (auto at = html.find("<tr class=\"fails\">"); at != std::string::npos; at = html.find("<tr class=\"fails\">", at + 1)) ++rows;
  EXPECT_EQ(rows, 1u);
  rows = 0;
  for (auto at = html.find("<tr class=\"warns\">"); at != std::string::npos; at = html.find("<tr class=\"warns\">", at + 1)) ++rows;
  EXPECT_EQ(rows, 3u);
  // The black event: frames 50-74 at 25 fps = 2.000 s to 3.000 s, its last frame's timecode 00:00:02:24.
  EXPECT_NE(html.find("00:00:02:00<small>frame 50</small>"), std::string::npos);
  EXPECT_NE(html.find("00:00:02:24<small>frame 74</small>"), std::string::npos);
  EXPECT_NE(html.find("1.000 s<small>25 frames</small>"), std::string::npos);
  EXPECT_NE(html.find("EBU R 103 luma<small>r103_luma</small>"), std::string::npos);
  EXPECT_NE(html.find("18.00\u202f%<small>frame 175</small>"), std::string::npos);
  EXPECT_NE(html.find("30.00\u202f%</td>"), std::string::npos);  // 75 of 250 frames
  EXPECT_NE(html.find("alt=\"frame 50\" src=\"data:image/png;base64,"), std::string::npos);
  EXPECT_NE(html.find("alt=\"frame 175\" src=\"data:image/png;base64,"), std::string::npos);
  EXPECT_NE(html.find("id=\"verdict\"><span class=\"word\">FAIL</span><small>1 event fails the run; 3 warnings"),
            std::string::npos);
  EXPECT_NE(html.find("<th>codec</th><td>h264 (High), 8-bit 4:2:0, 1920\u00d71080</td>"), std::string::npos);
  EXPECT_NE(html.find("light: not checked (the stream declares no HDR metadata)"), std::string::npos);
}

TEST_F(HtmlReport, RefusesAThumbnailThatIsNotAPng) {
  input.thumbnails[1] = "<svg onload=alert(1)>";
  const std::string html = report::html_report(input);
  EXPECT_EQ(html.find("alt=\"frame 175\""), std::string::npos);
  EXPECT_EQ(html.find("onload"), std::string::npos);
  EXPECT_EQ(html.find("PHN2Zy"), std::string::npos);  // base64 of "<svg "
}

TEST_F(HtmlReport, ThumbnailsAreBase64OfTheirBytes) {
  // Every length modulo 3 (padding "==", "=", none); the expected text is Python's
  // base64.b64encode of the same bytes.
  const std::string signature = "\x89PNG\r\n\x1a\n";
  input.thumbnails = {signature + "f", signature + "fo", signature + "foo", signature + "foob"};
  const std::string html = report::html_report(input);
  for (const char* want : {"iVBORw0KGgpm\"", "iVBORw0KGgpmbw==\"", "iVBORw0KGgpmb28=\"", "iVBORw0KGgpmb29i\""}) {
    EXPECT_NE(html.find(std::string("src=\"data:image/png;base64,") + want), std::string::npos) << want;
  }
}

TEST_F(HtmlReport, HeatmapColumnsAreTheHistograms) {
  const media::RgbaImage image = heatmap_of(report::html_report(input));
  ASSERT_EQ(image.width, 250u);  // one column per frame
  ASSERT_EQ(image.height, 256u);
  // Frame 160: every pixel at level 200: that row is the map's top, every other row empty.
  for (int level = 0; level < 256; ++level) expect_colour(image, 160, row_of(level), level == 200 ? kAll : kEmpty);
  // Frame 60: black, every pixel at level 16.
  for (int level = 0; level < 256; ++level) expect_colour(image, 60, row_of(level), level == 16 ? kAll : kEmpty);
  // Frame 110: half at 64, half at 192: share 0.5 on the log scale.
  const auto half = inferno(test::heat_position(0.5));
  for (int level = 0; level < 256; ++level) {
    expect_colour(image, 110, row_of(level), level == 64 || level == 192 ? half : kEmpty, 1);
  }
  // Frame 130: 999 pixels over 120 levels from 68 (8 or 9 each), one pixel at 250 (1e-3).
  expect_colour(image, 130, row_of(250), inferno(test::heat_position(1e-3)), 1);
  const auto at = test::fixture_levels(130);
  expect_colour(image, 130, row_of(100), inferno(test::heat_position(at[100] / 1000.0)), 1);
  expect_colour(image, 130, row_of(67), kEmpty);
  expect_colour(image, 130, row_of(188), kEmpty);
}

TEST_F(HtmlReport, HeatmapOfGroupedFrames) {
  // 4100 frames: the timeline groups them (3 a column); each image column is one timeline
  // column, and a column whose frames sit at two levels shows both at the share each holds.
  qc::Timeline t(4100);
  for (std::int64_t f = 0; f < 4100; ++f) {
    std::array<std::uint32_t, qc::kTimelineLevels * 4> h{};
    const int level = f % 2 ? 180 : 40;
    for (std::size_t ch = 0; ch < 4; ++ch) h[level * 4 + ch] = 1000;
    qc::QcFrame q;
    q.frame = f, q.pts = f / 25.0;
    t.add(q, h);
  }
  input.timeline = &t;
  input.events.clear();
  input.thumbnails.clear();
  const media::RgbaImage image = heatmap_of(report::html_report(input));
  ASSERT_EQ(image.width, t.columns().size());
  ASSERT_LE(image.width, qc::kMaxColumns);
  const qc::TimelineColumn& c = t.columns()[7];
  const double odd = static_cast<double>(c.counts[180 * 4 + 3]) / (c.frames * 1000.0);
  ASSERT_GT(odd, 0.0);
  ASSERT_LT(odd, 1.0);
  expect_colour(image, 7, row_of(180), inferno(test::heat_position(odd)), 1);
  expect_colour(image, 7, row_of(40), inferno(test::heat_position(1 - odd)), 1);
  expect_colour(image, 7, row_of(100), kEmpty);
}

TEST_F(HtmlReport, TwoHourFileStaysSmall) {
  // 180,000 frames (2 h at 25 fps) of 80-second scenes, PQ, two black stretches, and 1,000
  // clipped events: the curves are per column and the event table lists 200 events per check.
  // The report is kept in build/tests/report_shots/report_2h.html for a person to look at.
  qc::Timeline t(180000);
  std::array<std::uint32_t, qc::kTimelineLevels * 4> h{};
  for (std::int64_t f = 0; f < 180000; ++f) {
    test::LevelCounts levels{};
    const std::int64_t scene = f / 2000;
    if ((f >= 45000 && f < 45050) || (f >= 90000 && f < 90100)) {
      levels[16] = test::kFixturePixels;
    } else {
      const auto centre = static_cast<std::uint32_t>(60 + (scene * 53) % 140 + (f % 2000) / 100);
      for (std::uint32_t i = 0; i < test::kFixturePixels; ++i) {
        const bool clipped = scene % 7 == 3 && i >= test::kFixturePixels - 30;  // 3 % at 255 in these scenes
        ++levels[clipped ? 255 : centre - 40 + i * 80 / test::kFixturePixels];
      }
    }
    for (std::size_t l = 0; l < 256; ++l) {
      for (std::size_t ch = 0; ch < 4; ++ch) h[l * 4 + ch] = levels[l];
    }
    qc::QcFrame q = test::fixture_frame(f, levels);
    q.pq = true, q.max_cll = 4 * q.y_max + 40, q.fall = 1.5f * q.y_mean;
    t.add(q, h);
  }
  input.timeline = &t;
  input.events.clear();
  input.thumbnails.clear();
  for (std::int64_t k = 0; k < 1000; ++k) {
    input.events.push_back(test::fixture_event(qc::Check::clipped, k * 180, k * 180 + 3, 2.0, "%", false));
  }
  const auto start = std::chrono::steady_clock::now();
  const std::string html = report::html_report(input);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("2-hour report: %zu bytes in %.2f s\n", html.size(), seconds);
  EXPECT_LT(html.size(), 3u << 20);
  EXPECT_LT(seconds, 10.0);
  EXPECT_NE(html.find("and 800 more Clipped events"), std::string::npos);
  fs::create_directories(VHIST_REPORT_SHOT_DIR);
  std::ofstream(fs::path(VHIST_REPORT_SHOT_DIR) / "report_2h.html") << html;
  EXPECT_EQ(heatmap_of(html).width, t.columns().size());
  EXPECT_GT(t.columns().size(), qc::kMaxColumns / 2);
}

TEST_F(HtmlReport, LightPanelOnlyForPq) {
  EXPECT_EQ(report::html_report(input).find("id=\"light-plot\""), std::string::npos);
  qc::Timeline t(10);
  for (std::int64_t f = 0; f < 10; ++f) {
    qc::QcFrame q;
    q.frame = f, q.pts = f / 25.0, q.pq = true, q.max_cll = 1200, q.fall = 300;
    t.add(q, {});
  }
  input.timeline = &t;
  EXPECT_NE(report::html_report(input).find("id=\"light-plot\""), std::string::npos);
  EXPECT_NE(report::html_report(input).find("<h3>Light (PQ)</h3>"), std::string::npos);
}

// HLG frames' light (on BT.2100's reference display) gets the panel too, titled so.
TEST_F(HtmlReport, LightPanelForHlgSaysTheReferenceDisplay) {
  qc::Timeline t(10);
  for (std::int64_t f = 0; f < 10; ++f) {
    qc::QcFrame q;
    q.frame = f, q.pts = f / 25.0, q.hlg = true, q.max_cll = 700, q.fall = 150;
    t.add(q, {});
  }
  input.timeline = &t;
  const std::string html = report::html_report(input);
  EXPECT_NE(html.find("id=\"light-plot\""), std::string::npos);
  EXPECT_NE(html.find("<h3>Light (HLG, on BT.2100\u2019s 1000 cd/m\u00b2 reference display, system gamma 1.2)</h3>"),
            std::string::npos);
  EXPECT_EQ(html.find("Light (PQ)"), std::string::npos);
}

TEST_F(HtmlReport, NoTimeline) {
  input.timeline = nullptr;
  const std::string html = report::html_report(input);
  EXPECT_NE(html.find("No frame was scanned"), std::string::npos);
  EXPECT_EQ(html.find("id=\"heatmap\""), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

}  // namespace
