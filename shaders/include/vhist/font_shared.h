// The picture's bitmap font, shared by GLSL (overlay.glsl draws it in composite.comp and
// scope_draw.comp) and C++ (picture_overlay.cpp lays text out with it, the tests
// read it): 5x7 glyphs for every character of the text drawn over the picture (the histograms'
// and scopes' labels and titles; a test enumerates them), drawn at a scale in eighths of a pixel.
//
// Glyph g is bits 0..34 of the 64-bit value kFont[2g] | kFont[2g+1] << 32; bit y*5 + x is the
// pixel in column x (0 left) and row y (0 top). The glyph's index is its position in
// kFontChars (C++); digits are glyphs 0..9, so the GPU can draw a number it reads from a buffer.
#ifndef VHIST_FONT_SHARED_H
#define VHIST_FONT_SHARED_H

#include "vhist/shader_shared.h"

#ifdef __cplusplus
#include <cstdint>
#include <string_view>
namespace vhist::shader {
#define VHIST_FONT_ARRAY(name, n) inline constexpr std::uint32_t name[n] = {
#define VHIST_FONT_ARRAY_END }
#else
#define VHIST_FONT_ARRAY(name, n) const uint name[n] = uint[n](
#define VHIST_FONT_ARRAY_END )
#endif

VHIST_CONST kGlyphWidth = 5u;
VHIST_CONST kGlyphHeight = 7u;
VHIST_CONST kGlyphAdvance = 6u;  // one column of space between characters
VHIST_CONST kGlyphComma = 10u;
VHIST_CONST kGlyphSpace = 11u;
VHIST_CONST kGlyphCount = 56u;

// clang-format off
VHIST_FONT_ARRAY(kFont, 112)
  0xa33ae62eu, 0x3u,  /* '0' */
  0x884210c4u, 0x3u,  /* '1' */
  0xc444422eu, 0x7u,  /* '2' */
  0xa304111fu, 0x3u,  /* '3' */
  0x11f4a988u, 0x2u,  /* '4' */
  0xa3083c3fu, 0x3u,  /* '5' */
  0xa317844cu, 0x3u,  /* '6' */
  0x8422221fu, 0x0u,  /* '7' */
  0xa317462eu, 0x3u,  /* '8' */
  0x910f462eu, 0x1u,  /* '9' */
  0x88400000u, 0x0u,  /* ',' */
  0x00000000u, 0x0u,  /* ' ' */
  0x8c000000u, 0x1u,  /* '.' */
  0x02222200u, 0x0u,  /* '/' */
  0x000f8000u, 0x0u,  /* '-' */
  0xa3e83800u, 0x7u,  /* 'a' */
  0xa31cda10u, 0x7u,  /* 'd' */
  0x84238a4cu, 0x0u,  /* 'f' */
  0xa1e8c7c0u, 0x3u,  /* 'g' */
  0x88421804u, 0x3u,  /* 'i' */
  0x08421086u, 0x6u,  /* 'l' */
  0x635aac00u, 0x4u,  /* 'm' */
  0xa318b800u, 0x3u,  /* 'o' */
  0x24211c42u, 0x3u,  /* 't' */
  0xb318c400u, 0x5u,  /* 'u' */
  0x54454400u, 0x4u,  /* 'x' */
  0x83f8b800u, 0x3u,  /* 'e' */
  0xe317c62fu, 0x3u,  /* 'B' */
  0xa31e862eu, 0x7u,  /* 'G' */
  0xc2108421u, 0x7u,  /* 'L' */
  0x5257c62fu, 0x4u,  /* 'R' */
  0x6319b400u, 0x4u,  /* 'n' */
  0xe0e0f800u, 0x3u,  /* 's' */
  0x42f8bc00u, 0x0u, /* 'p' */
  0x084f9080u, 0x0u, /* '+' */
  0x08422a31u, 0x1u, /* 'Y' */
  0xa210862eu, 0x3u, /* 'C' */
  0xe318bc21u, 0x3u, /* 'b' */
  0x4219b400u, 0x0u, /* 'r' */
  0x00000084u, 0x0u, /* '\'' */
  /* The scopes' labels and titles (scope_scale.h, scope_layout.h) */
  0x32222263u, 0x6u, /* '%' */
  0x631ad771u, 0x4u, /* 'M' */
  0xa1e8c400u, 0x3u, /* 'y' */
  0x775ac631u, 0x4u, /* 'W' */
  0x14a8c631u, 0x1u, /* 'V' */
  0x4217c62fu, 0x0u, /* 'P' */
  0x0842109fu, 0x1u, /* 'T' */
  0x1518c400u, 0x1u, /* 'v' */
  0x8210b800u, 0x3u, /* 'c' */
  0x6318bc21u, 0x4u, /* 'h' */
  0x01f07c00u, 0x0u, /* '=' */
  0x08210888u, 0x2u, /* '(' */
  0x88842082u, 0x0u, /* ')' */
  0x08000080u, 0x0u, /* ':' */
  0x21e8f800u, 0x4u, /* 'q' */
  0xc4447c00u, 0x7u  /* 'z' */
VHIST_FONT_ARRAY_END;
// clang-format on

// Whether pixel (x, y) of glyph g is on (x < kGlyphWidth, y < kGlyphHeight).
VHIST_FN bool vhist_glyph_pixel(uint g, uint x, uint y) {
  const uint bit = y * kGlyphWidth + x;
  return bit < 32u ? ((kFont[2u * g] >> bit) & 1u) != 0u : ((kFont[2u * g + 1u] >> (bit - 32u)) & 1u) != 0u;
}

#ifdef __cplusplus
// The characters of the glyphs, in glyph order.
inline constexpr std::string_view kFontChars = "0123456789, ./-adfgilmotuxeBGLRnsp+YCbr'"
                                             "%MyWVPTvch=():qz";
static_assert(kFontChars.size() == kGlyphCount);
}  // namespace vhist::shader
#endif
#endif  // VHIST_FONT_SHARED_H
