#!/usr/bin/env bash
# Packs what the GPU machine needs to run `vhist analyze` and the benchmark headless: a machine
# with the NVIDIA driver (libcuda, libnvcuvid) and a Vulkan loader but no FFmpeg, no window
# system and no network, where at most 64 MiB may be carried (docs/user-guide.md, "Headless
# build for a GPU machine").
#
#   scripts/pack_device.sh [OUTDIR]        (default OUTDIR: <repo>/.nvdec)
#
# 1. Configures and builds the headless static build in build-device/: -DVHIST_HEADLESS=ON (no
#    viewer, GLFW or ImGui), -DVHIST_FFMPEG_PREFIX=the static FFmpeg of
#    scripts/build_ffmpeg_static.sh (FFMPEG_PREFIX, else <repo>/.deps/ffmpeg-nvdec, else
#    /work/.deps/ffmpeg-nvdec; a warning when it has no libdav1d, AV1's CPU decoder),
#    -DVHIST_STATIC_CXX_RUNTIME=ON; shaders are compiled in, so the binaries need no data files.
# 2. Copies into OUTDIR/bin, stripped: vhist, vhist-bench, and that FFmpeg's ffmpeg program (same
#    libraries as vhist: `ffmpeg -hwaccel cuda -hwaccel_output_format cuda -i CLIP -f null -`).
# 3. Makes test clips in OUTDIR/clips with the system's ffmpeg (libx264, libx265, libvpx-vp9):
#    a moving test pattern with light temporal noise, H.264, HEVC 8-bit, HEVC 10-bit and VP9 at
#    1080p (120 frames) and 2160p (60 frames), and HEVC 10-bit at 4320p (15 frames), 30 fps.
#    Clips already there are kept.
# 4. Prints the sizes; fails if the whole exceeds 60 MiB.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/.nvdec}
build="$repo/build-device"
prefix=${FFMPEG_PREFIX:-}
if [[ -z "$prefix" ]]; then
  for p in "$repo/.deps/ffmpeg-nvdec" /work/.deps/ffmpeg-nvdec; do
    if [[ -f "$p/READY" ]]; then prefix=$p; break; fi
  done
fi
if [[ -z "$prefix" || ! -f "$prefix/lib/pkgconfig/libavcodec.pc" ]]; then
  echo "pack_device.sh: no static FFmpeg found (looked for READY in <repo>/.deps/ffmpeg-nvdec and" \
       "/work/.deps/ffmpeg-nvdec, or set FFMPEG_PREFIX): run scripts/build_ffmpeg_static.sh first" >&2
  exit 2
fi
# AV1 decodes on the CPU only through libdav1d (FFmpeg 5.1's own av1 needs a hwaccel, and the
# H100's and H200's NVDEC has no AV1): a prefix built before dav1d was added packs, but says so.
if ! grep -q -- '-ldav1d' "$prefix/lib/pkgconfig/libavcodec.pc"; then
  echo "pack_device.sh: warning: $prefix has no libdav1d: AV1 will not decode where NVDEC refuses it" \
       "(rebuild it with scripts/build_ffmpeg_static.sh --prefix $prefix)" >&2
fi
command -v ffmpeg > /dev/null || { echo "pack_device.sh: the system's ffmpeg makes the clips: apt-get install ffmpeg" >&2; exit 2; }

# --- 1. The headless static build.
mkdir -p "$build"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVHIST_WERROR=ON "${launcher[@]}" \
  -DVHIST_HEADLESS=ON -DVHIST_FFMPEG_PREFIX="$prefix" -DVHIST_STATIC_CXX_RUNTIME=ON \
  -DVHIST_BUILD_TESTS=OFF -DVHIST_MAN_PAGE=OFF > "$build/configure.log" 2>&1 \
  || { tail -n 30 "$build/configure.log" >&2; exit 1; }
nice cmake --build "$build" --target vhist vhist-bench

# --- 2. The binaries, stripped.
mkdir -p "$out/bin" "$out/clips"
for f in "$build/app/vhist" "$build/app/vhist-bench" "$prefix/bin/ffmpeg"; do
  strip -o "$out/bin/$(basename "$f").tmp" "$f"
  mv -f "$out/bin/$(basename "$f").tmp" "$out/bin/$(basename "$f")"
done
# Only the C library and the Vulkan loader (carried in .gl on the GPU machine); CUDA and NVDEC
# are opened with dlopen when asked for.
for f in "$out"/bin/*; do
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  echo "$(basename "$f") needs: $needed"
  if echo "$needed" | grep -qvE '^((libc|libm|libdl|libpthread|libvulkan|ld-linux-x86-64)\.so\.[0-9.]+ )*$'; then
    echo "pack_device.sh: $f needs a library the GPU machine does not have" >&2
    exit 1
  fi
done

# --- 3. Clips: name | frames | size | encoder arguments.
# Light noise and CRF 25 (x264), 28 (x265), 40 (VP9) keep the nine clips near 25 MiB (bench_analyze.sh's heavier noise at
# CRF 20 made 40 MB of 10 s at 1080p alone); for longer runs, loop a clip (`ffmpeg -stream_loop N`,
# or a concat list naming it N times for vhist analyze).
noise="noise=alls=2:allf=t"
. "$(dirname "$0")/ycbcr.sh"  # BT.709's matrix, as the clips are tagged
x265="-c:v libx265 -preset ultrafast -crf 28 -x265-params log-level=error"
specs=(
  "h264_1080p.mp4|120|1920x1080|-c:v libx264 -preset veryfast -crf 25 -pix_fmt yuv420p"
  "h264_2160p.mp4|60|3840x2160|-c:v libx264 -preset veryfast -crf 25 -pix_fmt yuv420p"
  "hevc8_1080p.mkv|120|1920x1080|$x265 -pix_fmt yuv420p"
  "hevc8_2160p.mkv|60|3840x2160|$x265 -pix_fmt yuv420p"
  "hevc10_1080p.mkv|120|1920x1080|$x265 -pix_fmt yuv420p10le"
  "hevc10_2160p.mkv|60|3840x2160|$x265 -pix_fmt yuv420p10le"
  "hevc10_4320p.mkv|15|7680x4320|$x265 -pix_fmt yuv420p10le"
  "vp9_1080p.webm|120|1920x1080|-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -row-mt 1 -crf 40 -b:v 0 -pix_fmt yuv420p"
  "vp9_2160p.webm|60|3840x2160|-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -row-mt 1 -crf 40 -b:v 0 -pix_fmt yuv420p"
)
for spec in "${specs[@]}"; do
  IFS='|' read -r name frames size args <<< "$spec"
  [[ -s "$out/clips/$name" ]] && continue
  echo "making clips/$name ($size, $frames frames)"
  # shellcheck disable=SC2086
  fmt=$(sed -n 's/.*-pix_fmt \([^ ]*\).*/\1/p' <<< "$args")
  # shellcheck disable=SC2046  # the recipe's tags are several words (scripts/ycbcr.sh)
  nice ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "testsrc2=s=$size:r=30,$noise,$(ycbcr_vf bt709 "$fmt")" \
    -frames:v "$frames" $args $(ycbcr_tags bt709) \
    "$out/clips/$name.part.${name##*.}"
  mv -f "$out/clips/$name.part.${name##*.}" "$out/clips/$name"
done

# --- 4. Sizes.
du -b "$out"/bin/* "$out"/clips/* | awk '{printf "%8.2f MiB  %s\n", $1 / 1048576, $2}'
total=$(du -sb "$out" | cut -f1)
printf 'total: %.2f MiB in %s\n' "$(echo "$total / 1048576" | bc -l)" "$out"
if (( total > 60 * 1048576 )); then
  echo "pack_device.sh: $out is over 60 MiB (the GPU machine takes at most 64 MiB)" >&2
  exit 1
fi
