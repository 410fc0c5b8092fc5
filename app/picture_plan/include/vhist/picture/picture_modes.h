// The modes of the picture the frame renderer draws (scale, layout, palette, cumulative curves).
// They belong to the picture code; the viewer's settings store them too, so this header has no
// dependencies and settings.h includes it. Names and parsing: viewer/settings.h.
#pragma once

namespace vhist::viewer {

// How bar heights are scaled: to the tallest bin (auto), logarithmically, or to a fixed maximum.
enum class ScaleMode { automatic, logarithmic, fixed };    // "auto", "log", "fixed"
// Channels side by side, drawn over each other, or one above the other.
enum class Layout { split, overlay, stacked };             // "split", "overlay", "stacked"
enum class Palette { classic, colorblind, mono };          // "classic", "colorblind", "mono"
// A channel's cumulative histogram: not drawn, drawn as a curve over the histogram, or drawn as
// an area instead of the histogram.
enum class CdfMode { off, over, instead };                 // "off", "over", "instead"
// The histogram axis of an HDR source labelled in light: PQ (SMPTE ST 2084) or HLG (BT.2100).
enum class LightScale { none, pq, hlg };
// How a PQ or HLG source's histogram axis is labelled: in cd/m2, in stops from HDR reference
// white (203 cd/m2, BT.2408), or in code values as for SDR.
enum class LightAxis { nits, stops, codes };  // "nits", "stops", "codes"
// What the histograms count: R', G', B' and luma after conversion, or the Y'CbCr planes as
// decoded (Y' drawn as luma, Cb as blue, Cr as red: source_measures.h's slots).
enum class Domain { rgb, ycbcr };  // "rgb", "ycbcr"
// Zebras over the video: off, over the high threshold, under the low one, or both; drawn as
// moving diagonal stripes or a solid colour.
enum class ZebraMode { off, high, low, both };  // "off", "high", "low", "both"
enum class ZebraStyle { stripes, solid };       // "stripes", "solid"
// How the video sits in the picture's area (video_fit.h): the whole picture (letterboxed or
// pillarboxed), filling the area (cropped), one frame pixel per screen pixel (pannable), or
// cover when that hides little of the picture and fit otherwise.
enum class FitMode { automatic, fit, cover, actual };  // "auto", "fit", "cover", "1:1"
// Where the scopes go (scope_layout.h): a column right of the video, a row under it (both take
// their room from the video and the histograms), or over the video like the histograms.
enum class ScopePlace { beside, under, over };  // "beside", "under", "over"
// The waveform scope: luma (Y') alone, or R', G' and B' over each other in their colours.
enum class WaveformView { luma, rgb };  // "luma", "rgb"
// The parade: R', G', B' side by side, or the stored Y', Cb, Cr planes side by side.
enum class ParadeView { rgb, ycbcr };  // "rgb", "ycbcr"
// The vectorscope's zoom: x1 (every code fills the square), x2, x5 (kVectorscopeZooms).
enum class ScopeZoom { x1, x2, x5 };  // "1", "2", "5"
// How a scope's counts become brightness: logarithmic (faint traces show) or linear.
enum class ScopeMapping { log, linear };  // "log", "linear"
// A scope's traces in their channel's colour (R', G', B'; Y' white; Cb blue, Cr red), or white.
enum class ScopeColour { channels, mono };  // "channels", "mono"

}  // namespace vhist::viewer
