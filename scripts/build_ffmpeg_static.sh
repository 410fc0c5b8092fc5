#!/usr/bin/env bash
# Builds a minimal, static, decode-only FFmpeg 5.1 from Debian 12's own source package, for the
# headless build of vhist that runs on a GPU machine with the NVIDIA driver but no FFmpeg, no
# window system and no network (docs/user-guide.md, "Headless build for a GPU machine").
#
#   scripts/build_ffmpeg_static.sh [--prefix DIR]      (default DIR: <repo>/.deps/ffmpeg-nvdec)
#
# What it does:
#   1. adds a deb-src line for Debian 12 (bookworm, bookworm-updates, bookworm-security; the same
#      URIs as /etc/apt/sources.list.d/*) if apt has none, and installs what the build needs from
#      Debian (build-essential, dpkg-dev, nasm, pkg-config, zlib1g-dev, libffmpeg-nvenc-dev for
#      the NVDEC headers "ffnvcodec", meson and ninja-build for dav1d);
#   2. `apt-get source ffmpeg` into DIR/../ffmpeg-src (Debian's patches applied);
#   2b. `apt-get source dav1d` there too (1.0.0, Debian's patches applied) and builds it with meson
#      into DIR: static, PIC, 8- and 16-bit, assembly on, no tools, tests, examples or docs. FFmpeg
#      5.1's own av1 decoder decodes only through a hwaccel, and Debian's libdav1d-dev ships only
#      the shared library, so this is how AV1 decodes on the CPU (vhist's --hwdec no, and its
#      fallback where NVDEC does not take AV1). dav1d needs pthreads and dlsym: glibc's libc;
#   3. configures static (PIC) libraries with --disable-everything and then only what vhist reads:
#      the decoders, demuxers, parsers and NVDEC hwaccels listed below, swscale, libavdevice with
#      only the v4l2 input, the file and pipe protocols, zlib (PNG, compressed MP4/Matroska
#      headers), libdav1d (found through DIR's dav1d.pc) and nothing else external; CUDA and NVDEC
#      are loaded with dlopen at run time (ffnvcodec), so the binaries need only libc, libm and
#      libpthread on the GPU machine;
#   4. builds the `ffmpeg` and `ffprobe` programs from the same tree (null muxer, wrapped_avframe
#      encoder, filters null format hwdownload scale histogram waveform) so that on the GPU machine
#      `ffmpeg -hwaccel cuda -hwaccel_output_format cuda -i clip -f null -` decodes with the same
#      libraries as vhist;
#   5. installs into DIR and makes DIR/lib/pkgconfig/*.pc relocatable (prefix=${pcfiledir}/../..),
#      so the folder can be copied anywhere; writes DIR/READY last.
#
# Use it with: cmake -DVHIST_HEADLESS=ON -DVHIST_FFMPEG_PREFIX=DIR ... (scripts/pack_device.sh).
#
# Each prefix builds in folders of its own (DIR/../ffmpeg-src/build-static-NAME and
# build-dav1d-NAME, NAME = DIR's last component), so a second prefix builds beside a used one.
#
# Build time, measured on the 2-core development machine (nice, make -j2, 2026-11-26): 514 s (8 min
# 34 s) from the start to READY with both sources already unpacked: apt-get update, dav1d's meson
# build (about 2 min 45 s) and FFmpeg's configure and make (about 5 min 45 s). (Before dav1d:
# 4 min 30 s; the first run's downloads, FFmpeg 10 MB and dav1d 1 MB, add about a minute.)
# DIR: 15 MB of archives (libavcodec.a 7.5 MB, libdav1d.a 3.4 MB) and ffmpeg, ffprobe 8.8 MB each
# (unstripped), which need only libc and libm.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
prefix="$repo/.deps/ffmpeg-nvdec"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
    *) echo "build_ffmpeg_static.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
work="$(dirname "$prefix")/ffmpeg-src"
jobs=$(nproc)
start=$(date +%s)

sudo_=""
[[ $(id -u) -eq 0 ]] || sudo_="sudo"

# --- 1. deb-src and the build's packages (Debian 12 only).
if ! grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "== adding a deb-src source (bookworm) to /etc/apt/sources.list.d/vhist-deb-src.sources"
  uris=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -m1 -v security | awk '{print $2}')
  sec=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -m1 security | awk '{print $2}')
  $sudo_ tee /etc/apt/sources.list.d/vhist-deb-src.sources > /dev/null <<EOF
Types: deb-src
URIs: ${uris:-http://deb.debian.org/debian}
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: ${sec:-http://deb.debian.org/debian-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
fi
echo "== installing the build's packages"
$sudo_ apt-get update -qq
$sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  build-essential dpkg-dev nasm pkg-config zlib1g-dev libffmpeg-nvenc-dev meson ninja-build

# --- 2. The source package.
mkdir -p "$work"
src=$(find "$work" -maxdepth 1 -type d -name 'ffmpeg-5.1*' | sort | tail -n1)
if [[ -z "$src" ]]; then
  echo "== apt-get source ffmpeg into $work"
  (cd "$work" && apt-get source -qq ffmpeg)
  src=$(find "$work" -maxdepth 1 -type d -name 'ffmpeg-5.1*' | sort | tail -n1)
fi
[[ -n "$src" && -x "$src/configure" ]] || { echo "build_ffmpeg_static.sh: no FFmpeg 5.1 source in $work" >&2; exit 1; }
echo "== source: $src"

# --- 2b. dav1d, static: FFmpeg 5.1's own av1 decoder decodes only through a hwaccel, so AV1 on the
# CPU needs libdav1d, and Debian's libdav1d-dev ships only the shared library. Debian's source
# package (its patches applied), built with meson into the same prefix: static, PIC, 8- and
# 16-bit, assembly on, no tools, tests or examples. Its only needs are pthreads and dlsym (libc).
dav1d_src=$(find "$work" -maxdepth 1 -type d -name 'dav1d-*' | sort | tail -n1)
if [[ -z "$dav1d_src" ]]; then
  echo "== apt-get source dav1d into $work"
  (cd "$work" && apt-get source -qq dav1d)
  dav1d_src=$(find "$work" -maxdepth 1 -type d -name 'dav1d-*' | sort | tail -n1)
fi
[[ -n "$dav1d_src" && -f "$dav1d_src/meson.build" ]] || { echo "build_ffmpeg_static.sh: no dav1d source in $work" >&2; exit 1; }
dav1d_build="$work/build-dav1d-$(basename "$prefix")"
echo "== dav1d: $dav1d_src (in $dav1d_build)"
rm -rf "$dav1d_build"
meson setup "$dav1d_build" "$dav1d_src" --prefix="$prefix" --libdir=lib --buildtype=release \
  --default-library=static -Db_staticpic=true -Denable_tools=false -Denable_tests=false \
  -Denable_examples=false -Denable_docs=false > "$work/dav1d-configure.log" 2>&1 \
  || { tail -n 30 "$work/dav1d-configure.log" >&2; exit 1; }
nice ninja -C "$dav1d_build" -j"$jobs" install > "$work/dav1d-build.log" 2>&1 \
  || { tail -n 30 "$work/dav1d-build.log" >&2; exit 1; }
[[ -f "$prefix/lib/libdav1d.a" && ! -e "$prefix/lib/libdav1d.so" ]] || { echo "build_ffmpeg_static.sh: no static libdav1d in $prefix/lib" >&2; exit 1; }
# FFmpeg's configure finds it through pkg-config (the prefix's .pc first, with --static).
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

# --- 3. Configure: everything off, then what vhist (and the decode-only ffmpeg run) needs.
list() { local IFS=,; echo "$*"; }
decoders=(h264 hevc vp9 vp8 av1 libdav1d mpeg2video mpeg1video mpeg4 mjpeg prores ffv1 png rawvideo
          aac mp3float pcm_s16le)  # audio: so the ffmpeg program can open clips that have sound
demuxers=(mov matroska avi mpegts image2 image2pipe png_pipe rawvideo concat yuv4mpegpipe h264 hevc ivf
          mjpeg m4v mpegvideo)
parsers=(h264 hevc vp9 vp8 av1 mpegvideo mpeg4video mjpeg png aac mpegaudio)
bsfs=(vp9_superframe_split av1_frame_split h264_mp4toannexb hevc_mp4toannexb)
hwaccels=(h264_nvdec hevc_nvdec vp9_nvdec vp8_nvdec mpeg2_nvdec mpeg1_nvdec mpeg4_nvdec av1_nvdec mjpeg_nvdec)
filters=(null format hwdownload scale histogram waveform aresample anull aformat)
build="$work/build-static-$(basename "$prefix")"  # one per prefix: two prefixes may build at once
mkdir -p "$build" "$prefix/lib"
# zlib statically: its archive in the prefix's lib/, which holds only archives, so both the
# programs here (-L below) and vhist (the .pc files' -L${libdir} -lz) link it, not libz.so.
cp -f "$(gcc -print-file-name=libz.a)" "$prefix/lib/libz.a"
cd "$build"
echo "== configure (in $build)"
"$src/configure" --prefix="$prefix" \
  --enable-static --disable-shared --enable-pic \
  --disable-everything --disable-autodetect --disable-network --disable-doc --disable-debug \
  --disable-programs --enable-ffmpeg --enable-ffprobe \
  --disable-postproc --enable-swscale --enable-swresample --enable-avdevice --enable-avfilter \
  --enable-zlib --enable-ffnvcodec --enable-nvdec --enable-cuda --enable-libdav1d \
  --enable-decoder="$(list "${decoders[@]}")" \
  --enable-demuxer="$(list "${demuxers[@]}")" \
  --enable-parser="$(list "${parsers[@]}")" \
  --enable-bsf="$(list "${bsfs[@]}")" \
  --enable-hwaccel="$(list "${hwaccels[@]}")" \
  --enable-protocol=file,pipe \
  --enable-indev=v4l2 \
  --enable-muxer=null \
  --enable-encoder=wrapped_avframe,pcm_s16le \
  --enable-filter="$(list "${filters[@]}")" \
  --extra-ldflags="-L$prefix/lib" --extra-version=vhist-static > configure.log || { tail -n 30 ffbuild/config.log >&2; exit 1; }
grep -qx '#define CONFIG_NVDEC 1' config.h || { echo "build_ffmpeg_static.sh: configure did not enable NVDEC" >&2; exit 1; }
grep -qx '#define CONFIG_LIBDAV1D_DECODER 1' config_components.h || { echo "build_ffmpeg_static.sh: configure did not enable libdav1d" >&2; exit 1; }

# --- 4. Build and install.
echo "== make -j$jobs"
nice make -j"$jobs" > make.log 2>&1 || { tail -n 40 make.log >&2; exit 1; }
rm -f "$prefix/READY"
make install > install.log 2>&1 || { tail -n 20 install.log >&2; exit 1; }

# --- 5. Relocatable .pc files (the folder may be copied elsewhere), then READY.
# (dav1d.pc too; any other mention of the absolute prefix, e.g. -L in libavcodec.pc, becomes ${prefix}.)
sed -i -e "s|^prefix=.*|prefix=\${pcfiledir}/../..|" -e "s|^libdir=.*|libdir=\${prefix}/lib|" \
  -e "s|^includedir=.*|includedir=\${prefix}/include|" -e "/^prefix=/!s|$prefix/|\${prefix}/|g" \
  "$prefix"/lib/pkgconfig/*.pc
elapsed=$(( $(date +%s) - start ))
{
  echo "$("$prefix/bin/ffmpeg" -hide_banner -version | head -n1)"
  echo "source: $src"
  echo "built in ${elapsed} s on $(nproc) cores, $(date -u +%FT%TZ)"
} > "$prefix/READY"
echo "== done in ${elapsed} s: $prefix"
du -sh "$prefix/lib" "$prefix/bin"/* | sed 's/^/   /'
