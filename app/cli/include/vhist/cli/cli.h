// The command-line value parsers shared by vhist and vhist-bench (fuzzed: fuzz/fuzz_cli.cpp).
// Plain C++: no Vulkan, FFmpeg or window.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vhist::cli {

// "1920x1080" -> {1920, 1080}; nullopt for anything else (zero sizes included).
std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_size(std::string_view text);

// A positive integer in [min, max]; nullopt when not a number or out of range.
std::optional<std::uint32_t> parse_uint(std::string_view text, std::uint32_t min, std::uint32_t max);

// Seconds from "12.5", "1:02.5" or "1:01:02.5" ([HH:]MM:SS[.fff]); nullopt when malformed or
// negative, when a field before the last is not a whole number, or when a field after a colon
// (minutes, seconds) is 60 or more: "1:99" and "1:60:00" are refused, "90:00" is 5400 s.
std::optional<double> parse_time(std::string_view text);

// A frame rate in frames per second, above 0 and at most 1000 ("30", "12.5"); nullopt otherwise.
std::optional<double> parse_rate(std::string_view text);

// A number from 0 to 1 inclusive ("0.5", "1"); nullopt otherwise (NaN and "0.5x" included).
std::optional<double> parse_fraction(std::string_view text);

// "X,Y,W,H" (a rectangle of pixels: four whole numbers from 0 to 65535, W and H at least 1) ->
// {X, Y, W, H}; nullopt for anything else.
std::optional<std::array<std::uint32_t, 4>> parse_rect(std::string_view text);
// What parse_rect accepts, in words, for an option's error message (analyze and scope --roi).
inline constexpr const char* kRectExpected =
    "X,Y,W,H: four whole numbers from 0 to 65535 (no frame is larger), W and H at least 1";

// "a,b,c" -> {"a", "b", "c"}; empty items are dropped.
std::vector<std::string> split_list(std::string_view text);

}  // namespace vhist::cli
