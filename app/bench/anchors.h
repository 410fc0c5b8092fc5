// vhist-bench --anchors: the CUDA anchors' figures (../shared/anchors/hist_bench.cu) read from
// their output, so that one table shows vhist's times beside them and the ratios.
//
// Two inputs: the program's stdout (cuda.txt: its summary table, rows "| 1080p | random |
// CUB MultiHistogramEven<4,4> (RGBA) | cold us | ... | hot us | ...") or its CSV (hb/results.csv:
// every variant; the best hand variant is the fastest "rgbl_" method, which includes the 4 KB
// memset). Sizes map 1080p/4K/8K to 1920x1080/3840x2160/7680x4320; the anchors' "gradient"
// frame stands for vhist's "natural".
#pragma once

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace vhist::bench {

struct AnchorFigures {
  double hand_us = 0;        // hand-written R, G, B, L kernel, best variant, with its memset
  std::string hand_variant;  // which variant that was
  double cub_us = 0;         // CUB MultiHistogramEven<4,4>
  double read_us = 0;        // the CUDA read-only kernel (the floor), per size
};

class Anchors {
 public:
  // Throws std::runtime_error when the file cannot be read or holds no figures.
  static Anchors load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read the anchors file " + path);
    Anchors a;
    std::string line;
    const bool csv = path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
    while (std::getline(in, line)) csv ? a.csv_line(line) : a.table_line(line);
    if (a.figures_.empty()) throw std::runtime_error("no anchor figures in " + path);
    return a;
  }

  // The figures for a vhist size ("3840x2160"), content ("natural") and mode ("cold", "hot").
  const AnchorFigures* find(const std::string& size, const std::string& content, const std::string& mode) const {
    const auto it = figures_.find(anchor_size(size) + "|" + anchor_content(content) + "|" + mode);
    return it == figures_.end() ? nullptr : &it->second;
  }

 private:
  static std::string anchor_size(const std::string& s) {
    if (s == "1920x1080") return "1080p";
    if (s == "3840x2160") return "4K";
    if (s == "7680x4320") return "8K";
    return s;
  }
  static std::string anchor_content(const std::string& c) { return c == "natural" ? "gradient" : c; }

  static std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, sep);) {
      const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      out.push_back(b == std::string::npos ? std::string() : cell.substr(b, e - b + 1));
    }
    return out;
  }

  // The read floor is measured on random frames only; it applies to every content of a size.
  void set_read(const std::string& size, const std::string& mode, double us) {
    for (const char* c : {"random", "gradient", "solid"}) figures_[size + "|" + c + "|" + mode].read_us = us;
  }

  // size,pattern,mode,method,median_us,...
  void csv_line(const std::string& line) {
    const auto f = split(line, ',');
    if (f.size() < 5 || f[0] == "size") return;
    const double us = std::atof(f[4].c_str());
    if (f[3] == "read_sum") return set_read(f[0], f[2], us);
    AnchorFigures& a = figures_[f[0] + "|" + f[1] + "|" + f[2]];
    if (f[3] == "cub44") a.cub_us = us;
    if (f[3].rfind("rgbl_", 0) == 0 && (a.hand_us == 0 || us < a.hand_us)) {
      a.hand_us = us;
      a.hand_variant = f[3].substr(5);
    }
  }

  // | size | content | method | cold us | cold Gpx/s | cold GB/s | hot us | ...
  void table_line(const std::string& line) {
    if (line.rfind("| ", 0) != 0) return;
    const auto f = split(line, '|');  // f[0] is the empty text before the first bar
    if (f.size() < 8 || f[4].empty() || !std::isdigit(static_cast<unsigned char>(f[4][0]))) return;
    const std::string& method = f[3];
    const std::string hand = "RGBL hand best, incl. 4KB memset: ";
    for (const auto& [mode, column] : {std::pair<const char*, int>{"cold", 4}, {"hot", 7}}) {
      const double us = std::atof(f[column].c_str());
      if (method.rfind("limit: read-only", 0) == 0) {
        set_read(f[1], mode, us);
        continue;
      }
      AnchorFigures& a = figures_[f[1] + "|" + f[2] + "|" + mode];
      if (method.rfind("CUB MultiHistogramEven<4,4>", 0) == 0) a.cub_us = us;
      if (method.rfind(hand, 0) == 0) {
        a.hand_us = us;
        a.hand_variant = method.substr(hand.size());
      }
    }
  }

  std::map<std::string, AnchorFigures> figures_;  // "1080p|random|cold"
};

}  // namespace vhist::bench
