#include "vhist/picture/light_scale.h"

#include "vhist/compute/colour_names.h"

#include <cmath>
#include <cstdio>

namespace vhist::viewer {

LightScale light_scale_of(ColourTransfer transfer) {
  switch (transfer) {
    case ColourTransfer::smpte2084: return LightScale::pq;
    case ColourTransfer::arib_std_b67: return LightScale::hlg;
    default: return LightScale::none;  // SDR, and a transfer vhist does not know (other)
  }
}

HdrDisplay hdr_display_for(LightScale source, bool tone_map, double mastering_peak) {
  HdrDisplay d;
  if (source == LightScale::none || !tone_map) return d;
  d.mapped = source;
  d.source_peak = source == LightScale::pq && mastering_peak > 0 ? static_cast<float>(mastering_peak)
                                                                  : static_cast<float>(kHlgPeak);
  d.target = static_cast<float>(kReferenceWhite);
  return d;
}

std::string hdr_display_text(LightScale source, const HdrDisplay& hdr) {
  if (source == LightScale::none) return "";
  const std::string name(spoken_colour(source == LightScale::pq ? ColourTransfer::smpte2084 : ColourTransfer::arib_std_b67));
  if (hdr.mapped == LightScale::none) return "HDR " + name + " shown as code values, not tone-mapped";
  char text[160];
  if (source == LightScale::pq) {
    std::snprintf(text, sizeof text, "HDR PQ tone-mapped to SDR: BT.2390 EETF, %g to %g cd/m2",
                  static_cast<double>(hdr.source_peak), static_cast<double>(hdr.target));
  } else {
    std::snprintf(text, sizeof text, "HDR HLG tone-mapped to SDR: %g cd/m2 display, BT.2390 EETF to %g cd/m2",
                  kHlgPeak, static_cast<double>(hdr.target));
  }
  return text;
}

namespace {

LightTick tick_at(LightScale scale, double nits, std::uint32_t bits, std::string label) {
  const double signal = scale == LightScale::pq ? pq_signal(nits) : hlg_signal(nits);
  return {static_cast<std::uint32_t>(std::lround(signal * static_cast<double>((1u << bits) - 1))), std::move(label)};
}

}  // namespace

std::array<std::uint32_t, 8> hdr_band_codes(LightScale scale, std::uint32_t bits) {
  std::array<std::uint32_t, 8> codes{};
  if (scale == LightScale::none) return codes;
  const double top = static_cast<double>((1u << bits) - 1);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const double signal = scale == LightScale::pq ? pq_signal(kHdrBandNits[i]) : hlg_signal(kHdrBandNits[i]);
    auto code = static_cast<std::uint32_t>(std::ceil(signal * top - 1e-9));
    // The signal's rounding must not put a code below the light: step up until its light reaches.
    const auto nits = [&](std::uint32_t c) {
      return scale == LightScale::pq ? pq_nits(c / top) : hlg_nits(c / top);
    };
    while (code > 0 && nits(code - 1) >= kHdrBandNits[i]) --code;
    while (code < (1u << bits) - 1 && nits(code) < kHdrBandNits[i]) ++code;
    codes[i] = code;
  }
  return codes;
}

std::vector<LightTick> light_ticks(LightScale scale, std::uint32_t bits, LightAxis axis) {
  if (scale == LightScale::none || axis == LightAxis::codes) return {};
  const bool pq = scale == LightScale::pq;
  std::vector<LightTick> ticks;
  if (axis == LightAxis::stops) {
    for (int stop = pq ? -12 : -6; stop <= (pq ? 4 : 2); stop += 2) {
      const std::string label = stop > 0 ? "+" + std::to_string(stop) : std::to_string(stop);
      ticks.push_back(tick_at(scale, kReferenceWhite * std::exp2(stop), bits, label));
    }
    ticks.back().label += " stops";
    return ticks;
  }
  ticks.push_back({0, "0"});
  const char* labels_pq[] = {"0.1", "1", "10", "100", "1000", "10000"};
  const char* labels_hlg[] = {"1", "10", "100", "1000"};
  const double first = pq ? 0.1 : 1.0;
  const std::size_t n = pq ? 6 : 4;
  for (std::size_t i = 0; i < n; ++i) {
    ticks.push_back(tick_at(scale, first * std::pow(10.0, static_cast<double>(i)), bits, pq ? labels_pq[i] : labels_hlg[i]));
  }
  ticks.back().label += " nits";
  return ticks;
}

}  // namespace vhist::viewer
