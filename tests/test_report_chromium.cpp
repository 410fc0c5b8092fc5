// The HTML report in a real browser: Debian's chromium, headless, renders the synthetic run's
// report (report_fixture.h) to a screenshot, which must show the heatmap where the input puts
// its distinctive columns; and the page may request nothing: chromium's network log must hold
// no request made for the page (a control page with a remote image shows that such a request
// is logged and told apart). Chromium itself asks its update and account servers for things at
// start whatever the flags say; those requests are the browser's (no page initiated them),
// listed in the test's output, and contained: every proxy and host name points at a local
// listener, so nothing leaves the machine during the test. Skipped only when chromium is not
// installed (scripts/setup.sh --test installs it).
#include "report_fixture.h"

#include "vhist/media/png.h"
#include "vhist/report/html_report.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

namespace fs = std::filesystem;
using namespace vhist;

namespace {

// A TCP listener on 127.0.0.1 that counts the connections made to it.
class Listener {
 public:
  Listener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      ADD_FAILURE() << "cannot listen on 127.0.0.1";
      return;
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        const int client = ::accept(fd_, nullptr, nullptr);
        if (client < 0) continue;
        ++connections_;
        ::close(client);
      }
    });
  }
  ~Listener() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  int port() const { return port_; }
  int connections() const { return connections_; }

 private:
  int fd_ = -1, port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

std::optional<std::string> chromium_path() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (fs::exists(p)) return std::string(p);
  }
  return std::nullopt;
}

// Where the screenshots are kept for a person to look at (the build tree's tests folder).
fs::path shot_dir() {
  const fs::path dir = fs::path(VHIST_REPORT_SHOT_DIR);
  fs::create_directories(dir);
  return dir;
}

fs::path chromium_log(const fs::path& png) { return shot_dir() / (png.stem().string() + "-chromium.log"); }

// Renders `page` with every proxy and host name pointed at `listener`, its network log written
// to `net_log`; returns chromium's status.
int render(const std::string& chromium, const fs::path& page, const fs::path& png, const fs::path& net_log,
           const Listener& listener) {
  const fs::path profile = shot_dir() / ("profile-" + png.stem().string());  // one per test: ctest -j
  fs::remove_all(profile);
  const std::string port = std::to_string(listener.port());
  const std::string cmd =
      "timeout 60 " + chromium + " --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1600" +
      " --user-data-dir='" + profile.string() + "' --no-first-run --disable-background-networking" +
      " --disable-component-update --disable-sync --disable-default-apps --disable-breakpad" +
      " --disable-features=OptimizationHints,MediaRouter,Translate --no-pings" +
      " --proxy-server=127.0.0.1:" + port + " --proxy-bypass-list='<-loopback>'" +
      " --host-resolver-rules='MAP * 127.0.0.1:" + port + "' --log-net-log='" + net_log.string() + "'" +
      " --screenshot='" + png.string() + "' 'file://" +
      page.string() + "' >'" + (shot_dir() / "chromium.log").string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The network requests in a chromium network log, split into those made for a page (their
// initiator is the page's origin, "null" for a file) and the browser's own ("not an origin").
struct Requests {
  std::vector<std::string> page, browser;
};
Requests requests_in(const fs::path& net_log) {
  Requests out;
  std::ifstream in(net_log);
  const nlohmann::json log = nlohmann::json::parse(in, nullptr, false);
  if (log.is_discarded() || !log.contains("events")) {
    ADD_FAILURE() << "cannot read chromium's network log " << net_log;
    return out;
  }
  const int start_job = log["constants"]["logEventTypes"].value("URL_REQUEST_START_JOB", -1);
  EXPECT_GE(start_job, 0) << "the network log names no URL_REQUEST_START_JOB";
  for (const nlohmann::json& e : log["events"]) {
    if (e.value("type", -2) != start_job || !e.contains("params") || !e["params"].contains("url")) continue;
    const nlohmann::json& p = e["params"];
    const std::string url = p["url"];
    if (url.rfind("file:", 0) == 0 || url.rfind("data:", 0) == 0) continue;
    const bool browsers = p.value("initiator", "") == "not an origin" &&
                          p.value("network_isolation_key", "").find("file:") == std::string::npos;
    (browsers ? out.browser : out.page).push_back(url);
  }
  return out;
}

struct Rgb {
  int r, g, b;
};
bool near(const std::array<std::uint8_t, 4>& p, Rgb c, int tolerance) {
  return std::abs(p[0] - c.r) <= tolerance && std::abs(p[1] - c.g) <= tolerance && std::abs(p[2] - c.b) <= tolerance;
}

constexpr Rgb kEmpty{0x00, 0x00, 0x04};  // inferno(0): no pixel at that level
constexpr Rgb kAll{0xfc, 0xff, 0xa4};    // inferno(1): every pixel of the column at that level

// The heatmap's rectangle in the screenshot: the rows and columns mostly of its empty colour
// (the legend's small swatch of it is left out by the counts).
struct Box {
  std::uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
};
Box empty_box(const media::RgbaImage& shot) {
  std::vector<std::uint32_t> per_row(shot.height), per_column(shot.width);
  for (std::uint32_t y = 0; y < shot.height; ++y) {
    for (std::uint32_t x = 0; x < shot.width; ++x) {
      if (near(shot.at(x, y), kEmpty, 2)) ++per_row[y], ++per_column[x];
    }
  }
  Box b;
  for (std::uint32_t y = 0; y < shot.height; ++y) {
    if (per_row[y] >= shot.width / 4) b.y0 = std::min(b.y0, y), b.y1 = std::max(b.y1, y);
  }
  for (std::uint32_t x = 0; x < shot.width; ++x) {
    if (per_column[x] >= 60) b.x0 = std::min(b.x0, x), b.x1 = std::max(b.x1, x);
  }
  return b;
}

// Whether the screenshot has colour `c` within `rows` of row y at column x.
bool has_near(const media::RgbaImage& shot, std::uint32_t x, double y, int rows, Rgb c) {
  for (int d = -rows; d <= rows; ++d) {
    const auto row = static_cast<std::int64_t>(std::lround(y)) + d;
    if (row >= 0 && row < shot.height && near(shot.at(x, static_cast<std::uint32_t>(row)), c, 3)) return true;
  }
  return false;
}

TEST(ReportChromium, RendersTheHeatmapOffline) {
  const auto chromium = chromium_path();
  if (!chromium) GTEST_SKIP() << "chromium is not installed (scripts/setup.sh --test installs it)";
  const auto timeline = test::fixture_timeline();
  const fs::path page = shot_dir() / "report.html", png = shot_dir() / "report.png";
  const fs::path net_log = shot_dir() / "report-netlog.json";
  std::ofstream(page) << report::html_report(test::fixture_input(*timeline));
  fs::remove(png);
  Listener listener;
  ASSERT_EQ(render(*chromium, page, png, net_log, listener), 0) << "see " << chromium_log(png);
  const Requests requests = requests_in(net_log);
  EXPECT_TRUE(requests.page.empty()) << "the report requested " << requests.page.front();
  for (const std::string& url : requests.browser) std::printf("chromium's own request (contained): %.80s\n", url.c_str());
  std::printf("connections to the local listener: %d\n", listener.connections());
  const media::RgbaImage shot = media::read_png(png.string());
  ASSERT_EQ(shot.width, 1280u);

  // The heatmap: 250 columns over the box's width, 256 levels over its height (bottom = 0).
  const Box box = empty_box(shot);
  ASSERT_LT(box.x0, box.x1);
  const double w = box.x1 + 1.0 - box.x0, h = box.y1 + 1.0 - box.y0;
  std::printf("heatmap at x %u..%u, y %u..%u in %s\n", box.x0, box.x1, box.y0, box.y1, png.c_str());
  EXPECT_GT(w, 900);  // the plot spans most of the page's width
  EXPECT_GT(h, 200);
  ASSERT_LT(box.y1 + 1, shot.height) << "the heatmap runs off the screenshot";
  const auto x_of = [&](double column) { return static_cast<std::uint32_t>(box.x0 + w * (column + 0.5) / 250.0); };
  const auto y_of = [&](int level) { return box.y0 + h * (255.5 - level) / 256.0; };
  // Frames 150-174: every pixel at level 200; frames 50-74: at level 16.
  for (const auto& [column, level] : {std::pair{155, 200}, {162, 200}, {170, 200}, {55, 16}, {70, 16}}) {
    EXPECT_TRUE(has_near(shot, x_of(column), y_of(level), 2, kAll)) << "column " << column << " level " << level;
    for (const int other : {level + 20, level + 40, level == 200 ? 128 : 100}) {
      EXPECT_TRUE(near(shot.at(x_of(column), static_cast<std::uint32_t>(std::lround(y_of(other)))), kEmpty, 2))
          << "column " << column << " level " << other;
    }
  }
  // Frames 100-124: levels 64 and 192 at the colour of half the pixels; frame 130's one pixel
  // in a thousand at level 250.
  const auto half = test::inferno(test::heat_position(0.5)), thousandth = test::inferno(test::heat_position(1e-3));
  for (const int level : {64, 192}) {
    EXPECT_TRUE(has_near(shot, x_of(112), y_of(level), 2, {half[0], half[1], half[2]})) << "level " << level;
  }
  EXPECT_TRUE(has_near(shot, x_of(130), y_of(250), 2, {thousandth[0], thousandth[1], thousandth[2]}));
}

TEST(ReportChromium, APageRequestIsSeen) {
  // The control: a page that loads a remote image shows it as the page's request (and it
  // reaches the local listener, not the network), so an empty list above means that the report
  // requested nothing.
  const auto chromium = chromium_path();
  if (!chromium) GTEST_SKIP() << "chromium is not installed (scripts/setup.sh --test installs it)";
  const fs::path page = shot_dir() / "control.html", png = shot_dir() / "control.png";
  const fs::path net_log = shot_dir() / "control-netlog.json";
  std::ofstream(page) << "<!DOCTYPE html><html><body><img src=\"http://example.com/x.png\"></body></html>\n";
  Listener listener;
  ASSERT_EQ(render(*chromium, page, png, net_log, listener), 0) << "see " << chromium_log(png);
  const Requests requests = requests_in(net_log);
  ASSERT_EQ(requests.page.size(), 1u);
  EXPECT_EQ(requests.page.front(), "http://example.com/x.png");
  EXPECT_GT(listener.connections(), 0);
}

}  // namespace
