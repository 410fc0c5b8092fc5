// Clips with known QC events at known frames, for the `vhist qc` tests: frames written here as
// raw Y'CbCr 4:2:0 and encoded losslessly by the ffmpeg command-line tool (x264 -qp 0, x265
// lossless), so that every sample decodes exactly as written and each event's frames and share
// of the picture are known before vhist reads them.
#pragma once

#include "test_clips.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vhist::test {

// One 4:2:0 frame of `bits`-bit samples (8-bit or 10-bit, stored in 16 bits).
struct Yuv420 {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint16_t> y, cb, cr;

  Yuv420(std::uint32_t w, std::uint32_t h, std::uint16_t y0, std::uint16_t c0)
      : width(w), height(h), y(std::size_t{w} * h, y0), cb(std::size_t{w / 2} * (h / 2), c0), cr(cb) {}
  // A rectangle of luma (x, y, w, h, all even) and its chroma.
  void box(std::uint32_t x, std::uint32_t yy, std::uint32_t w, std::uint32_t h, std::uint16_t luma, std::uint16_t b,
           std::uint16_t r) {
    for (std::uint32_t j = yy; j < yy + h; ++j) {
      for (std::uint32_t i = x; i < x + w; ++i) y[std::size_t{j} * width + i] = luma;
    }
    for (std::uint32_t j = yy / 2; j < (yy + h) / 2; ++j) {
      for (std::uint32_t i = x / 2; i < (x + w) / 2; ++i) {
        cb[std::size_t{j} * (width / 2) + i] = b;
        cr[std::size_t{j} * (width / 2) + i] = r;
      }
    }
  }
};

// Encodes frames make(0..count-1) with `ffmpeg ARGS` (after the raw input) into the build's
// shared clip folder (shared_file: once per build; the recipe is the command and the frames'
// bytes, so that a change of either makes a new clip).
inline std::string encode_clip(const std::string& name, std::uint32_t bits, std::uint32_t width, std::uint32_t height,
                               int count, const std::function<Yuv420(int)>& make, const std::string& args) {
  std::string raw;
  for (int n = 0; n < count; ++n) {
    const Yuv420 f = make(n);
    for (const auto* plane : {&f.y, &f.cb, &f.cr}) {
      for (const std::uint16_t v : *plane) {
        raw += static_cast<char>(v & 0xff);
        if (bits != 8) raw += static_cast<char>(v >> 8);
      }
    }
  }
  const std::string input = std::string("ffmpeg -v error -y -f rawvideo -pix_fmt ") + (bits == 8 ? "yuv420p" : "yuv420p10le") +
                            " -s " + std::to_string(width) + "x" + std::to_string(height) + " -r 25 -i - " + args + " ";
  return shared_file(name, input + raw, [&](const std::string& temp) {
    const std::string cmd = input + quote(temp);
    std::FILE* pipe = ::popen(cmd.c_str(), "w");
    if (pipe == nullptr) throw std::runtime_error("cannot run " + cmd);
    std::fwrite(raw.data(), 1, raw.size(), pipe);
    if (::pclose(pipe) != 0) throw std::runtime_error("ffmpeg failed: " + cmd);
    return true;
  });
}

// The SDR clip: 320x200 (64,000 pixels), 25 fps, 210 frames, BT.709 limited, timecode
// 10:00:00:00 (a QuickTime tmcd track). A moving mid-grey ramp (Y' 60..159, chroma near
// neutral) breaks no check; on it:
//   frames  50-74   black (Y' 16): 2.0-3.0 s
//   frames  90-99   a 64x64 box of Y' 128 with Cb = Cr = 240: R'G'B' out of gamut on 6.4 % of
//                   the picture, Y' legal
//   frames 110-169  frozen: frame 110 repeated (2.4 s)
//   frames 180-184  a 100x100 box at white (Y' 235): 15.6 % clipped
//   frames 190-191  a 24x24 box of Y' 250 (above 246): 0.9 % of the picture, within R 103
//   frames 200-201  a 32x22 box of Y' 250: 1.1 %, beyond R 103's 1 % (and clipped at 1.1 %)
inline constexpr std::uint32_t kSdrWidth = 320, kSdrHeight = 200;
inline Yuv420 sdr_frame(int n) {
  const int t = n >= 110 && n <= 169 ? 110 : n;  // the frozen stretch shows frame 110
  Yuv420 f(kSdrWidth, kSdrHeight, 0, 128);
  for (std::uint32_t j = 0; j < kSdrHeight; ++j) {
    for (std::uint32_t i = 0; i < kSdrWidth; ++i) f.y[j * kSdrWidth + i] = static_cast<std::uint16_t>(60 + (i + 2 * t) % 100);
  }
  for (std::uint32_t j = 0; j < kSdrHeight / 2; ++j) {
    for (std::uint32_t i = 0; i < kSdrWidth / 2; ++i) {
      f.cb[j * (kSdrWidth / 2) + i] = static_cast<std::uint16_t>(118 + (j + t) % 21);
    }
  }
  if (n >= 50 && n <= 74) f = Yuv420(kSdrWidth, kSdrHeight, 16, 128);
  if (n >= 90 && n <= 99) f.box(0, 0, 64, 64, 128, 240, 240);
  if (n >= 180 && n <= 184) f.box(100, 50, 100, 100, 235, 128, 128);
  if (n >= 190 && n <= 191) f.box(200, 100, 24, 24, 250, 128, 128);
  if (n >= 200 && n <= 201) f.box(200, 100, 32, 22, 250, 128, 128);
  return f;
}

inline std::string sdr_events_clip() {
  return encode_clip("qc_sdr.mov", 8, kSdrWidth, kSdrHeight, 210, sdr_frame,
                     "-c:v libx264 -qp 0 -preset ultrafast -color_range tv -colorspace bt709 -color_primaries bt709 "
                     "-color_trc bt709 -timecode 10:00:00:00");
}

// The PQ clip: 320x200, 25 fps, 100 frames, 10-bit BT.2020 PQ, HEVC with MaxCLL 1000, MaxFALL
// 400 and a 1000 cd/m2 mastering display; a dim moving ramp (Y' 380..419, about 40-60 cd/m2),
// and frames 40-59 with a 64x64 box at Y' 800 (about 2,700 cd/m2): brighter than the metadata.
inline Yuv420 pq_frame(int n) {
  Yuv420 f(kSdrWidth, kSdrHeight, 0, 512);
  for (std::uint32_t j = 0; j < kSdrHeight; ++j) {
    for (std::uint32_t i = 0; i < kSdrWidth; ++i) f.y[j * kSdrWidth + i] = static_cast<std::uint16_t>(380 + (i + n) % 40);
  }
  if (n >= 40 && n <= 59) f.box(64, 64, 64, 64, 800, 512, 512);
  return f;
}

inline std::string pq_events_clip() {
  return encode_clip("qc_pq.mkv", 10, kSdrWidth, kSdrHeight, 100, pq_frame,
                     "-c:v libx265 -x265-params 'log-level=error:lossless=1:hdr10=1:max-cll=1000,400:"
                     "master-display=G(8500,39850)B(6550,2300)R(35400,14600)WP(15635,16450)L(10000000,50)' "
                     "-color_range tv -colorspace bt2020nc -color_primaries bt2020 -color_trc smpte2084");
}

// The HLG clip: 320x200, 25 fps, 25 frames, 10-bit BT.2020 HLG (FFV1: no light metadata); the
// PQ clip's dim ramp (Y' 380..419, about 20-31 cd/m2 on the reference display) and frames 10-14
// with a 64x64 box at Y' 900 (about 700 cd/m2).
inline Yuv420 hlg_frame(int n) {
  Yuv420 f = pq_frame(0);
  for (std::uint32_t j = 0; j < kSdrHeight; ++j) {
    for (std::uint32_t i = 0; i < kSdrWidth; ++i) f.y[j * kSdrWidth + i] = static_cast<std::uint16_t>(380 + (i + n) % 40);
  }
  if (n >= 10 && n <= 14) f.box(64, 64, 64, 64, 900, 512, 512);
  return f;
}

inline std::string hlg_clip() {
  return encode_clip("qc_hlg.mkv", 10, kSdrWidth, kSdrHeight, 25, hlg_frame,
                     "-c:v ffv1 -color_range tv -colorspace bt2020nc -color_primaries bt2020 -color_trc arib-std-b67");
}

}  // namespace vhist::test
