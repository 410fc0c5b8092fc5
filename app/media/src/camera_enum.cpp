#include "camera_v4l2.h"

#include "vhist/util/unique_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace vhist::media {
namespace {

void add_rate(std::vector<double>& rates, const v4l2_fract& interval) {
  if (interval.numerator == 0 || interval.denominator == 0) return;
  rates.push_back(static_cast<double>(interval.denominator) / interval.numerator);
}

// Sizes for one format: the discrete ones, or for a range its two ends and the common sizes
// that lie on its grid.
std::vector<std::pair<std::uint32_t, std::uint32_t>> frame_sizes(int fd, std::uint32_t fourcc) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sizes;
  for (std::uint32_t i = 0; i < 256; ++i) {
    v4l2_frmsizeenum e{};
    e.index = i;
    e.pixel_format = fourcc;
    if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &e) < 0) break;
    if (e.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
      sizes.emplace_back(e.discrete.width, e.discrete.height);
      continue;
    }
    const v4l2_frmsize_stepwise& s = e.stepwise;
    const std::uint32_t sw = std::max<std::uint32_t>(1, s.step_width), sh = std::max<std::uint32_t>(1, s.step_height);
    auto fits = [&](std::uint32_t w, std::uint32_t h) {
      return w >= s.min_width && w <= s.max_width && h >= s.min_height && h <= s.max_height &&
             (w - s.min_width) % sw == 0 && (h - s.min_height) % sh == 0;
    };
    sizes.emplace_back(s.min_width, s.min_height);
    static constexpr std::pair<std::uint32_t, std::uint32_t> kCommon[] = {
        {160, 120},  {320, 180},  {320, 240},  {640, 360},   {640, 480},   {800, 600},
        {1024, 768}, {1280, 720}, {1920, 1080}, {2560, 1440}, {3840, 2160},
    };
    for (const auto& [w, h] : kCommon) {
      if (fits(w, h)) sizes.emplace_back(w, h);
    }
    sizes.emplace_back(s.max_width, s.max_height);
    break;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> unique;
  for (const auto& s : sizes) {
    if (s.first && s.second && std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(s);
  }
  return unique;
}

// The /dev/videoN nodes, in numeric order.
std::vector<std::string> video_nodes() {
  std::vector<std::pair<long, std::string>> found;
  if (DIR* dir = ::opendir("/dev")) {
    while (const dirent* e = ::readdir(dir)) {
      const std::string name = e->d_name;
      if (name.size() <= 5 || name.compare(0, 5, "video") != 0) continue;
      const std::string digits = name.substr(5);
      if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
      found.emplace_back(std::strtol(digits.c_str(), nullptr, 10), "/dev/" + name);
    }
    ::closedir(dir);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> paths;
  for (auto& f : found) paths.push_back(std::move(f.second));
  return paths;
}

}  // namespace

std::vector<double> frame_rates(int fd, std::uint32_t fourcc, std::uint32_t w, std::uint32_t h) {
  std::vector<double> rates;
  for (std::uint32_t i = 0; i < 64; ++i) {
    v4l2_frmivalenum e{};
    e.index = i;
    e.pixel_format = fourcc;
    e.width = w;
    e.height = h;
    if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &e) < 0) break;
    if (e.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      add_rate(rates, e.discrete);
      continue;
    }
    // Stepwise or continuous: the slowest and the fastest rate (the longest and the shortest
    // interval).
    add_rate(rates, e.stepwise.max);
    add_rate(rates, e.stepwise.min);
    break;
  }
  std::sort(rates.begin(), rates.end());
  rates.erase(std::unique(rates.begin(), rates.end(), [](double a, double b) { return std::abs(a - b) < 1e-6 * b; }),
              rates.end());
  return rates;
}

void enumerate_modes(int fd, CameraInfo& info) {
  for (std::uint32_t i = 0; i < 256; ++i) {
    v4l2_fmtdesc d{};
    d.index = i;
    d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd, VIDIOC_ENUM_FMT, &d) < 0) break;
    const std::string fourcc = fourcc_text(d.pixelformat);
    const std::string description = cstr(d.description, sizeof d.description);
    auto sizes = frame_sizes(fd, d.pixelformat);
    if (sizes.empty()) {
      // No size enumeration: the current size, when it is this format's.
      v4l2_format f{};
      f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
      if (xioctl(fd, VIDIOC_G_FMT, &f) == 0 && f.fmt.pix.pixelformat == d.pixelformat) {
        sizes.emplace_back(f.fmt.pix.width, f.fmt.pix.height);
      }
    }
    for (const auto& [w, h] : sizes) {
      CameraMode m;
      m.pixel_format = fourcc;
      m.description = description;
      m.width = w;
      m.height = h;
      m.frame_rates = frame_rates(fd, d.pixelformat, w, h);
      info.modes.push_back(std::move(m));
    }
  }
}

std::string cameras_hint(const std::string& except) {
  const CameraListing listing = list_cameras();
  std::string s;
  for (const CameraInfo& c : listing.cameras) {
    if (c.path == except) continue;
    s += (s.empty() ? "" : ", ") + c.path + " \"" + c.name + "\"";
  }
  if (s.empty()) return listing.errors.empty() ? "; no camera was found" : "; " + listing.errors.front();
  return "; cameras here: " + s;
}

CameraListing list_cameras() {
  CameraListing listing;
  for (const std::string& path : video_nodes()) {
    const util::UniqueFd fd(::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
    if (!fd) {
      const int err = errno;
      if (err == ENOENT) continue;  // went away meanwhile
      listing.errors.push_back(path + ": " + open_problem(err));
      continue;
    }
    v4l2_capability cap{};
    if (xioctl(fd.get(), VIDIOC_QUERYCAP, &cap) < 0) {
      const int err = errno;
      if (err != ENOTTY && err != EINVAL) listing.errors.push_back(path + ": " + open_problem(err));
      continue;
    }
    // Single-planar capture with streaming I/O (what FFmpeg's v4l2 input reads); metadata,
    // output-only and multi-planar nodes are left out.
    const std::uint32_t caps = device_caps(cap);
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING)) continue;
    CameraInfo info;
    info.path = path;
    info.name = cstr(cap.card, sizeof cap.card);
    info.bus = cstr(cap.bus_info, sizeof cap.bus_info);
    info.driver = cstr(cap.driver, sizeof cap.driver);
    enumerate_modes(fd.get(), info);
    listing.cameras.push_back(std::move(info));
  }
  return listing;
}

bool is_camera_path(const std::string& path) {
  auto under_dev_video = [](const std::string& p) { return p.rfind("/dev/video", 0) == 0; };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    // A missing /dev/videoN is still meant as a camera: opening it says "no such camera".
    if (!under_dev_video(path)) return false;
    const std::string rest = path.substr(10);
    return !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
  }
  if (!S_ISCHR(st.st_mode)) return false;
  char resolved[PATH_MAX];
  if (!::realpath(path.c_str(), resolved)) return false;
  return under_dev_video(resolved);
}

}  // namespace vhist::media
