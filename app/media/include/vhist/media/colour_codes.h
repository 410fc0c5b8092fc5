// FFmpeg's colour codes as vhist's colour enums (source_colour.h): the one place FFmpeg's
// primaries, transfer and chroma location codes are read. Public for vhist_media_tests.
#pragma once

#include "vhist/compute/source_colour.h"

extern "C" {
#include <libavutil/pixfmt.h>
}

#include <optional>

namespace vhist::media {

// A code FFmpeg knows and vhist's enum does not (a newer FFmpeg's, or a gap in its list): other,
// which nothing treats as HDR. Unspecified and reserved codes are other too (the caller assumes a
// value for those first).
ColourPrimaries primaries_of(AVColorPrimaries code);
ColourTransfer transfer_of(AVColorTransferCharacteristic code);
// None for unspecified (or a code vhist does not know).
std::optional<ChromaSiting> siting_of(AVChromaLocation code);

}  // namespace vhist::media
