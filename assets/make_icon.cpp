// Makes vhist's icon at build time, in both forms from one description: the scalable SVG and a
// 256x256 PNG (drawn here with 4x4 supersampling, written through vhist_media's PNG writer), so
// the PNG needs no SVG rasterizer and the two cannot differ.
// The drawing: a video frame (a sky, hills) with red, green and blue histogram bars and an axis
// over its lower half, as the viewer draws them.
//   vhist_make_icon OUT.svg OUT.png
#include "vhist/media/png.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Colour {
  double r, g, b, a;
};
// A shape in the icon's 64x64 units: a rectangle (rounded by `radius`), or a polygon when
// `points` is not empty. A gradient, when `bottom.a` > 0, runs from `fill` at the top to `bottom`.
struct Shape {
  double x = 0, y = 0, w = 0, h = 0, radius = 0;
  Colour fill{}, bottom{0, 0, 0, 0};
  std::vector<std::pair<double, double>> points;
};

std::vector<Shape> icon_shapes() {
  std::vector<Shape> s;
  s.push_back({.x = 3, .y = 9, .w = 58, .h = 46, .radius = 4, .fill = {0.114, 0.122, 0.141, 1}});
  s.push_back({.x = 6, .y = 12, .w = 52, .h = 40, .radius = 1.5, .fill = {0.227, 0.431, 0.647, 1},
               .bottom = {0.612, 0.765, 0.902, 1}});
  s.push_back({.fill = {0.184, 0.365, 0.227, 1},
               .points = {{6, 40}, {20, 28}, {30, 36}, {42, 24}, {58, 38}, {58, 52}, {6, 52}}});
  s.push_back({.x = 6, .y = 32, .w = 52, .h = 20, .fill = {0, 0, 0, 0.55}});
  const Colour red{1, 0.251, 0.251, 0.85}, green{0.251, 0.878, 0.251, 0.85}, blue{0.251, 0.502, 1, 0.85};
  const double heights[] = {6, 12, 16, 10, 18, 14, 8, 11, 5};
  const Colour colours[] = {red, green, blue};
  for (int i = 0; i < 9; ++i) {
    s.push_back({.x = 8.0 + 5 * i, .y = 52 - heights[i], .w = 4, .h = heights[i], .fill = colours[i % 3]});
  }
  s.push_back({.x = 7, .y = 51.2, .w = 50, .h = 0.8, .fill = {0.941, 0.941, 0.941, 1}});
  return s;
}

std::string hex(const Colour& c) {
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", static_cast<int>(std::lround(c.r * 255)),
                static_cast<int>(std::lround(c.g * 255)), static_cast<int>(std::lround(c.b * 255)));
  return text;
}

std::string svg(const std::vector<Shape>& shapes) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- vhist's icon; made by assets/make_icon.cpp -->\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"256\" height=\"256\" viewBox=\"0 0 64 64\">\n";
  int gradients = 0;
  char buf[512];
  for (const Shape& s : shapes) {
    std::string fill = hex(s.fill);
    if (s.bottom.a > 0) {
      const std::string id = "g" + std::to_string(gradients++);
      out += "  <linearGradient id=\"" + id + "\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\"><stop offset=\"0\" stop-color=\"" +
             hex(s.fill) + "\"/><stop offset=\"1\" stop-color=\"" + hex(s.bottom) + "\"/></linearGradient>\n";
      fill = "url(#" + id + ")";
    }
    std::snprintf(buf, sizeof buf, "fill=\"%s\" fill-opacity=\"%.2f\"", fill.c_str(), s.fill.a);
    if (!s.points.empty()) {
      std::string d;
      for (const auto& [px, py] : s.points) {
        char point[64];
        std::snprintf(point, sizeof point, "%s%g %g", d.empty() ? "M" : " L", px, py);
        d += point;
      }
      out += "  <path d=\"" + d + " Z\" " + buf + "/>\n";
    } else {
      char rect[256];
      std::snprintf(rect, sizeof rect, "  <rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"%g\" ", s.x, s.y, s.w, s.h,
                    s.radius);
      out += std::string(rect) + buf + "/>\n";
    }
  }
  return out + "</svg>\n";
}

bool inside(const Shape& s, double x, double y) {
  if (!s.points.empty()) {  // even-odd crossing test
    bool in = false;
    for (std::size_t i = 0, j = s.points.size() - 1; i < s.points.size(); j = i++) {
      const auto [xi, yi] = s.points[i];
      const auto [xj, yj] = s.points[j];
      if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) in = !in;
    }
    return in;
  }
  if (x < s.x || y < s.y || x > s.x + s.w || y > s.y + s.h) return false;
  const double cx = std::clamp(x, s.x + s.radius, s.x + s.w - s.radius);
  const double cy = std::clamp(y, s.y + s.radius, s.y + s.h - s.radius);
  return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= s.radius * s.radius;
}

// One sample: the shapes blended in order over a transparent background (premultiplied).
Colour sample(const std::vector<Shape>& shapes, double x, double y) {
  Colour out{0, 0, 0, 0};
  for (const Shape& s : shapes) {
    if (!inside(s, x, y)) continue;
    Colour c = s.fill;
    if (s.bottom.a > 0) {
      const double t = std::clamp((y - s.y) / s.h, 0.0, 1.0);
      c = {c.r + (s.bottom.r - c.r) * t, c.g + (s.bottom.g - c.g) * t, c.b + (s.bottom.b - c.b) * t, c.a};
    }
    out = {c.r * c.a + out.r * (1 - c.a), c.g * c.a + out.g * (1 - c.a), c.b * c.a + out.b * (1 - c.a),
           c.a + out.a * (1 - c.a)};
  }
  return out;
}

vhist::media::RgbaImage raster(const std::vector<Shape>& shapes, std::uint32_t size) {
  constexpr int kSub = 4;
  vhist::media::RgbaImage image{size, size, std::vector<std::uint8_t>(std::size_t{size} * size * 4)};
  const double unit = 64.0 / size;
  for (std::uint32_t py = 0; py < size; ++py) {
    for (std::uint32_t px = 0; px < size; ++px) {
      Colour sum{0, 0, 0, 0};
      for (int sy = 0; sy < kSub; ++sy) {
        for (int sx = 0; sx < kSub; ++sx) {
          const Colour c = sample(shapes, (px + (sx + 0.5) / kSub) * unit, (py + (sy + 0.5) / kSub) * unit);
          sum = {sum.r + c.r, sum.g + c.g, sum.b + c.b, sum.a + c.a};
        }
      }
      std::uint8_t* p = &image.pixels[(std::size_t{py} * size + px) * 4];
      const double a = sum.a / (kSub * kSub);
      const auto channel = [&](double premultiplied) {
        return static_cast<std::uint8_t>(std::lround(a > 0 ? std::clamp(premultiplied / sum.a, 0.0, 1.0) * 255 : 0));
      };
      p[0] = channel(sum.r), p[1] = channel(sum.g), p[2] = channel(sum.b);
      p[3] = static_cast<std::uint8_t>(std::lround(a * 255));
    }
  }
  return image;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: vhist_make_icon OUT.svg OUT.png\n");
    return 2;
  }
  const std::vector<Shape> shapes = icon_shapes();
  std::ofstream(argv[1], std::ios::trunc) << svg(shapes);
  const std::string error = vhist::media::write_png(argv[2], raster(shapes, 256));
  if (!error.empty()) {
    std::fprintf(stderr, "vhist_make_icon: %s\n", error.c_str());
    return 1;
  }
  return 0;
}
