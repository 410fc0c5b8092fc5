#!/usr/bin/env bash
# Makes assets/demo.mp4, the bundled demo clip, from FFmpeg's built-in sources (no footage
# from elsewhere): 9 s at 1280x720, 30 fps, H.264 yuv420p, BT.709 limited range, tagged as such.
#   0-3 s  testsrc2: moving colour pattern with a gradient and text
#   3-6 s  SMPTE HD colour bars, fading to black over the last second (clipping, then shadows)
#   6-9 s  a Mandelbrot zoom: saturated, high-contrast detail
set -euo pipefail
cd "$(dirname "$0")"
. ../scripts/ycbcr.sh  # the one R'G'B'-to-Y'CbCr recipe: BT.709's matrix, as the clip is tagged
# Each source draws R'G'B' (format=gbrp in its own graph), so the one conversion is the recipe's.
# shellcheck disable=SC2046
ffmpeg -nostdin -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=s=1280x720:r=30:d=3,format=gbrp" \
  -f lavfi -i "smptehdbars=s=1280x720:r=30:d=3,fade=t=out:st=2:d=1,format=gbrp" \
  -f lavfi -i "mandelbrot=s=1280x720:r=30:end_scale=0.02,trim=duration=3,format=gbrp" \
  -filter_complex "[0:v][1:v][2:v]concat=n=3:v=1:a=0,$(ycbcr_vf bt709 yuv420p)[v]" -map "[v]" \
  -c:v libx264 -preset slow -crf 24 -pix_fmt yuv420p $(ycbcr_tags bt709) \
  -movflags +faststart demo.mp4.part.mp4
mv -f demo.mp4.part.mp4 demo.mp4
ls -l demo.mp4
