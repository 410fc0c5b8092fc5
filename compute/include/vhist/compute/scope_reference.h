// The scopes' CPU reference: the waveform and vectorscope counts of scope_counts.h computed
// pixel by pixel, single-threaded, from the decoded planes (converted with reference_convert()
// where R'G'B' is needed). Written from the definitions in docs/architecture.md without the
// passes' shared header (scope_shared.h), so that the GPU passes and the CPU engine are checked
// against an independent statement of them.
#pragma once

#include "vhist/compute/scope_counts.h"

namespace vhist {

// Throw std::invalid_argument when check_waveform() / check_vectorscope() fails.
WaveformCounts reference_waveform(const VideoFormat& format, const VideoPlanes& planes, const WaveformRequest& request);
VectorscopeCounts reference_vectorscope(const VideoFormat& format, const VideoPlanes& planes,
                                        const VectorscopeRequest& request);

}  // namespace vhist
