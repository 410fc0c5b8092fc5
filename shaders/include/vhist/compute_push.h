// The push-constant blocks of the compute passes of the histogram engine, the convert pass and
// the benchmark's read floor, declared once for GLSL and C++ (interface_shared.h says how).
// A shader defines VHIST_SHADER_<its name> before including this header.
#ifndef VHIST_COMPUTE_PUSH_H
#define VHIST_COMPUTE_PUSH_H

#include "vhist/interface_shared.h"

#ifdef __cplusplus
namespace vhist::shader {
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_hist_fast)
VHIST_PUSH_BLOCK(FastPush) {
  VHIST_ADDRESS(FrameBlocks, frame_blocks);  // the frame, as 16-byte blocks
  VHIST_ADDRESS(FrameWords, frame_words);    // the same address, as words
  VHIST_ADDRESS(Histogram, histogram);       // output: written whole (fused), else zeroed beforehand
  VHIST_ADDRESS(Scale, scale);               // fused: the scale block the last workgroup writes
  VHIST_ADDRESS(Histogram, accum);           // fused: running sums, then the workgroup counter;
                                             // zero before and after every dispatch
  VHIST_UINT(pixel_count);
  VHIST_UINT(unused);
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_hist_chunk)
VHIST_PUSH_BLOCK(ChunkPush) {
  VHIST_ADDRESS(FrameWords, frame);
  VHIST_ADDRESS(Chunks, chunks);  // slot (y * chunks_across + x) for workgroup (x, y)
  VHIST_UINT(width);              // pixels per row
  VHIST_UINT(first_row);          // row of workgroup y == 0 (the frame is processed in bands of rows)
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_hist_chunk_reduce)
VHIST_PUSH_BLOCK(ReducePush) {
  VHIST_ADDRESS(Chunks, chunks);
  VHIST_ADDRESS(Histogram, histogram);
  VHIST_UINT(stride);       // chunks between the two members of a pair; 0: accumulate
  VHIST_UINT(chunk_count);  // chunks in this band
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_hist_scale)
VHIST_PUSH_BLOCK(ScalePush) {
  VHIST_ADDRESS(Histogram, histogram);
  VHIST_ADDRESS(Scale, scale);
  VHIST_UINT(pixel_count);
  VHIST_UINT(skip_ends);  // 1: bins 0 and bins - 1 left out of the maximum
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_hist_cdf)
VHIST_PUSH_BLOCK(CdfPush) {
  VHIST_ADDRESS(Counts, histogram);  // kLevels records
  VHIST_ADDRESS(Levels, cdf);        // kLevels records: inclusive cumulative counts
  VHIST_ADDRESS(Levels, table);      // kLevels records: equalized codes
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_equalize)
VHIST_PUSH_BLOCK(EqualizePush) {
  VHIST_ADDRESS(FrameBlocks, frame);  // the same frame, read as 16-byte blocks and as words
  VHIST_ADDRESS(OutBlocks, equalized);
  VHIST_ADDRESS(uvec2, table);
  VHIST_UINT(pixel_count);
  VHIST_UINT(mode);  // kEqualizeLuma or kEqualizeChannels
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_read_floor)
VHIST_PUSH_BLOCK(FloorPush) {
  VHIST_ADDRESS(FrameBlocks, frame);
  VHIST_ADDRESS(Histogram, sink);
  VHIST_UINT(block_count);
  VHIST_UINT(sentinel);
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_convert)
// colour_shared.h defines the packing of comp and format and the coefficients.
VHIST_PUSH_BLOCK(ConvertPush) {
  VHIST_ADDRESSES(uvec2, plane, 3);  // device address of each plane (4-byte aligned)
  VHIST_ADDRESS(uvec2, dst);         // device address of the output frame
  VHIST_ADDRESS(MeasureWords, measures);  // with kSpecGamut: the measures buffer (measures_shared.h)
  VHIST_UINT(width);
  VHIST_UINT(height);
  VHIST_UINTS(stride, 3);  // bytes between rows of each plane
  VHIST_UINTS(comp, 3);    // per component: plane | offset << 4 | step << 8 | shift << 16
  VHIST_UINT(format);      // bits | sample_bytes << 8 | model << 12 | sx << 16 | sy << 20
  VHIST_INT(cy);
  VHIST_INT(crv);
  VHIST_INT(cgu);
  VHIST_INT(cgv);
  VHIST_INT(cbu);
  VHIST_INT(yoff);
  VHIST_INT(coff8);
  VHIST_INT(shift);
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_planes) || defined(VHIST_SHADER_checksum) || defined(VHIST_SHADER_cells)
// The plane, checksum and cells passes read the planes as the convert pass does (plane, stride,
// comp and format packed as in ConvertPush) and write what they count into one buffer, `result`:
// one block for all three, so their layouts cannot drift apart. Each shader reads `result` as its
// own buffer reference: the plane pass as Counts (kPlaneCountsWords words, zeroed beforehand), the
// checksum and cells passes as MeasureWords (the measures buffer, measures_shared.h).
VHIST_PUSH_BLOCK(PlaneReadPush) {
  VHIST_ADDRESSES(uvec2, plane, 3);
  VHIST_ADDRESS(uvec2, result);
  VHIST_UINT(width);
  VHIST_UINT(height);
  VHIST_UINTS(stride, 3);
  VHIST_UINTS(comp, 3);
  VHIST_UINT(format);
  VHIST_UINT(unused);
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_max_rgb)
VHIST_PUSH_BLOCK(MaxRgbPush) {
  VHIST_ADDRESS(FrameWords, frame);  // the converted frame (rgba8 or rgba16)
  VHIST_ADDRESS(Counts, counts);     // the levels' counts, zeroed beforehand
  VHIST_ADDRESS(HlgTables, tables);  // with kSpecHlg: hlg_light_tables(bits) (else unread)
  VHIST_UINT(pixel_count);
  VHIST_UINT(unused);
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_hist_match)
VHIST_PUSH_BLOCK(MatchPush) {
  VHIST_ADDRESS(Levels, live);       // kLevels records: the frame's inclusive cumulative counts
  VHIST_ADDRESS(Levels, reference);  // reference_levels records: the reference's
  VHIST_ADDRESS(Levels, table);      // kLevels records: the matched codes
  VHIST_UINT(reference_levels);      // a power of two, at most kLevels
  VHIST_UINT(unused);
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_rect_copy)
VHIST_PUSH_BLOCK(RectCopyPush) {
  VHIST_ADDRESS(InWords, from);  // the whole frame
  VHIST_ADDRESS(OutWords, to);   // the rectangle's rows, packed
  VHIST_UINT(stride_words);      // words per row of the whole frame
  VHIST_UINT(x0_words);          // the rectangle's first word in a row
  VHIST_UINT(width_words);       // words per row of the rectangle
  VHIST_UINT(y0);                // its first row
} VHIST_PC;
#endif

#if defined(__cplusplus) || defined(VHIST_SHADER_present_pass)
VHIST_PUSH_BLOCK(PresentPush) {
  VHIST_ADDRESS(PictureWords, picture);  // the composite's picture, rows packed
  VHIST_UINT(width);                     // pixels (words) per row
  VHIST_UINT(height);
  VHIST_UINT(bgra);                      // 1: words hold B, G, R, A (a B8G8R8A8 image)
  VHIST_UINT(unused);
} VHIST_PC;
#endif

#ifdef __cplusplus
// The sizes the pipelines' push ranges are made with. ConvertPush's last field ends at 108
// bytes; C++ pads the struct to 112 (8-byte alignment), which the range need not cover.
static_assert(sizeof(FastPush) == 48 && sizeof(ChunkPush) == 24 && sizeof(ReducePush) == 24 &&
              sizeof(ScalePush) == 24 && sizeof(CdfPush) == 24 && sizeof(EqualizePush) == 32 &&
              sizeof(FloorPush) == 24 && sizeof(PlaneReadPush) == 72 && sizeof(MaxRgbPush) == 32 &&
              sizeof(MatchPush) == 32 && sizeof(RectCopyPush) == 32 && sizeof(PresentPush) == 24);
}  // namespace vhist::shader
#endif
#endif  // VHIST_COMPUTE_PUSH_H
