// Deterministic synthetic frames for tests and the benchmark. No Vulkan.
#pragma once

#include "vhist/compute/histogram_types.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace vhist {

enum class Content {
  natural,  // smooth gradients with a little noise, like a defocused photo
  random,   // uniform random bytes (every component, alpha too)
  solid,    // one colour everywhere
  checker,  // a per-pixel checkerboard of two colours
};
inline constexpr Content kAllContents[] = {Content::natural, Content::random, Content::solid, Content::checker};

std::string_view content_name(Content c);
// Parses a content name; returns false for an unknown one.
bool parse_content(std::string_view name, Content& out);

// A frame of `format` filled with `content`, byte_size() bytes (rgba16: little-endian fields).
// The same (format, content, seed) always gives the same bytes.
std::vector<std::byte> make_frame(const FrameFormat& format, Content content, std::uint32_t seed = 1);

}  // namespace vhist
