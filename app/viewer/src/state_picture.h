// This run's picture state beside the settings: the 1:1 fit's pan and note (viewer_fit.cpp),
// the reference histogram (viewer_reference.cpp), and what the loop must do again (viewer.cpp).
// Main thread only.
#pragma once

#include "vhist/compute/histogram_types.h"
#include "vhist/viewer/settings.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace vhist::viewer {

struct PictureView {
  // With fit 1:1, how far a middle-button drag has moved the video (framebuffer pixels, held
  // within the picture's overflow); what the fit hides, in words (empty: nothing); the fit key
  // was pressed (say the new mode on the OSD).
  std::array<float, 2> pan{};
  std::string fit_note;
  bool announce_fit = false;
  bool rehistogram = false;                         // the bins changed: count the frame shown again
  EqualizeMode equalize_drawn = EqualizeMode::off;  // as of the last tick
};

// The reference histogram (R, G, B, L at its bins): kept from a frame (K) or read from an analyze
// record (--reference), with where it came from.
struct Reference {
  std::shared_ptr<const Histogram> histogram;
  std::uint32_t bits = 8;
  std::string source;
};

struct ReferenceState {
  std::optional<Reference> kept;
  bool keep_requested = false;  // K: keep the next UI frame's histograms
};

}  // namespace vhist::viewer
