#!/usr/bin/env bash
# Makes docs/images/qc-report.png, the README's picture of `vhist qc --report`: a 13 s test made
# from the garden clip of scripts/make_footage.sh (4 s as shot, 1 s of black, 4 s lifted into
# super-white, 4 s with chroma tripled), its report rendered by headless Chromium.
#   usage: scripts/make_qc_picture.sh [BUILD_DIR] [OUT_PNG] [FOOTAGE_DIR]
#   (defaults: build, docs/images/qc-report.png, and the footage made anew in a temporary folder)
# Needs ffmpeg, chromium and the footage's photographs (scripts/setup.sh --test installs them).
set -euo pipefail
build=${1:-build}
png=${2:-docs/images/qc-report.png}
vhist="$build/app/vhist"
[ -x "$vhist" ] || { echo "make_qc_picture.sh: $vhist not found; build first" >&2; exit 2; }
command -v chromium > /dev/null || { echo "make_qc_picture.sh: chromium not found (apt-get install chromium)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
footage=${3:-$work/footage}
[ -s "$footage/garden_1080p.mp4" ] || bash "$(dirname "$0")/make_footage.sh" "$footage" 4 > /dev/null
. "$(dirname "$0")/ycbcr.sh"
garden="$footage/garden_1080p.mp4"
# The defects are made on the decoded Y'CbCr (the clip's own codes), not through R'G'B': a lift of
# Y' into super-white (Y' x 1.16 + 10) and chroma three times as far from neutral.
# shellcheck disable=SC2046
ffmpeg -nostdin -hide_banner -loglevel error -y -i "$garden" -i "$garden" -i "$garden" \
  -f lavfi -i "color=c=black:s=1920x1080:r=30:d=1,$(ycbcr_vf bt709)" -filter_complex \
  "[1:v]lutyuv=y='val*1.16+10'[lift];[2:v]lutyuv=u='128+(val-128)*3':v='128+(val-128)*3'[chroma];[0:v][3:v][lift][chroma]concat=n=4:v=1:a=0,format=yuv420p[v]" \
  -map "[v]" -c:v libx264 -preset veryfast -crf 18 $(ycbcr_tags bt709) "$work/garden_qc_test.mp4"
status=0
"$vhist" qc "$work/garden_qc_test.mp4" --report "$work/report.html" -q > "$work/events.jsonl" || status=$?
[ "$status" = 0 ] || [ "$status" = 3 ] || { echo "make_qc_picture.sh: vhist qc failed ($status)" >&2; exit 1; }
grep '"type":"event"' "$work/events.jsonl" | sed 's/.*"check":"\([^"]*\)".*"detail":"\([^"]*\)".*"start":\([0-9.]*\).*/\1 from \3 s: \2/'
mkdir -p "$(dirname "$png")"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1600 \
  --user-data-dir="$work/profile" --no-first-run --disable-background-networking --screenshot="$png.part.png" \
  "file://$work/report.html" 2> /dev/null
mv -f "$png.part.png" "$png"
ls -l "$png"
