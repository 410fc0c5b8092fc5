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

}  // namespace vhist::viewer
