#!/usr/bin/env bash
# Makes the fuzzers' seed corpus with the ffmpeg tool: tiny clips (16x16, a few frames) in
# several codecs and containers, and a few settings and command-line texts.
#   fuzz/make_seeds.sh OUTDIR      -> OUTDIR/media/*, OUTDIR/cli/*
set -euo pipefail
out=${1:?usage: make_seeds.sh OUTDIR}
mkdir -p "$out/media" "$out/cli"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
src=(-f lavfi -i testsrc2=size=16x16:rate=5:duration=0.6)
ff "${src[@]}" -c:v libx264 -pix_fmt yuv420p "$out/media/h264.mp4"
ff "${src[@]}" -c:v libx264 -pix_fmt yuv420p -f h264 "$out/media/h264.264"
ff "${src[@]}" -c:v libx264 -pix_fmt yuv444p10le "$out/media/h264_444p10.mkv"
ff "${src[@]}" -c:v libx265 -pix_fmt yuv420p -x265-params log-level=none "$out/media/hevc.mp4" 2>/dev/null ||
  ff "${src[@]}" -c:v hevc -pix_fmt yuv420p "$out/media/hevc.mp4" || true
ff "${src[@]}" -c:v libvpx-vp9 -pix_fmt yuv420p "$out/media/vp9.webm" || true
ff "${src[@]}" -c:v libvpx -pix_fmt yuv420p "$out/media/vp8.ivf" || true
ff "${src[@]}" -c:v libaom-av1 -cpu-used 8 "$out/media/av1.mkv" 2>/dev/null || true
ff "${src[@]}" -c:v mpeg4 "$out/media/mpeg4.avi"
ff "${src[@]}" -c:v mpeg2video "$out/media/mpeg2.ts"
ff "${src[@]}" -c:v mjpeg -pix_fmt yuvj422p "$out/media/mjpeg.mov"
ff "${src[@]}" -c:v ffv1 -pix_fmt gray16le "$out/media/ffv1_gray16.mkv"
ff "${src[@]}" -c:v rawvideo -pix_fmt nv12 "$out/media/raw_nv12.nut"
ff "${src[@]}" -pix_fmt yuv420p "$out/media/clip.y4m"
ff "${src[@]}" -frames:v 1 -c:v png -pix_fmt rgb24 "$out/media/frame.png"
ff "${src[@]}" -c:v gif "$out/media/anim.gif"
ff "${src[@]}" -c:v prores_ks -pix_fmt yuv422p10le "$out/media/prores.mov"
# Command-line texts: the first byte picks the parser (fuzz_cli.cpp), the rest is its input.
printf '\0001920x1080' >"$out/cli/size"
printf '\001250' >"$out/cli/uint"
printf '\0021:02:03.5' >"$out/cli/time"
printf '\00329.97' >"$out/cli/rate"
printf '\0040.5' >"$out/cli/fraction"
printf '\005r,g,,b' >"$out/cli/list"
printf '\006%s\n' 'channel_r = false' 'scale = log' 'bins = 64' 'layout = stacked' 'palette = mono' \
  'cdf_l = over' 'opacity = 0.5' 'speed = 2' 'window_width = 800' 'recent = "/tmp/a b.mp4"' >"$out/cli/settings"
echo "make_seeds.sh: $(ls "$out/media" | wc -l) media and $(ls "$out/cli" | wc -l) text seeds in $out"
