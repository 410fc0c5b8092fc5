// VHIST_BAND_CLONES, the attribute of the band's entry points (cpu_band_*.cpp).
#pragma once

// The band's entry points are compiled three times, for AVX-512 (x86-64-v4), AVX2 and baseline
// x86-64, and chosen at load time (GCC's target_clones): the row loops vectorize 8 pixels wide with
// AVX2, 16 with AVX-512, whose 32 vector registers also keep the conversion's constants and
// partial sums out of memory (with AVX2's 16 they spill to the stack). AVX-512 took a 1080p
// frame's histograms from 6.4 to 5.1 ms on one core of an AMD EPYC (Zen 4). The gamut counts'
// loops are entry points of their own: flattened into the others they made them large enough
// that their loops without them ran 25 % slower (1080p, one core).
// (Not under ThreadSanitizer, which instruments the clones' resolvers: they run while the
// program is being loaded, before it is set up, and crash there. Nor under AddressSanitizer: the
// three clones are one source, which the sanitizer build checks once, in a third of the
// compile time.)
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__) && \
    !defined(__SANITIZE_ADDRESS__)
#define VHIST_BAND_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default"), flatten))
#else
#define VHIST_BAND_CLONES
#endif
