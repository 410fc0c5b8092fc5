#!/usr/bin/env bash
# The frozen check against FFmpeg's freezedetect (defaults: -60 dB, 2 s) on a corpus of 50 clips
# made from photographs Debian ships (mate-backgrounds), 320x180 at 25 fps, BT.709 by the
# project's recipe (scripts/ycbcr.sh): four pans that stop on one picture over frames 75..149
# (identical as rendered) and go on, each encoded by x264 and x265 at CRF 18, 23 and 30, x264 at
# CRF 23 with an I-frame a second (-g 25) and x264 lossless (-qp 0); and six clips that are never
# still (pans of 0.25 and 1 px a frame, a zoom, a fade and a dissolve out and back, a dark fade),
# each by x264 at CRF 18 and 30 and x265 at CRF 30. Prints one line a clip: the hold, vhist's
# frozen events and freezedetect's (first-last frame), then the totals. docs/user-guide.md
# ("Frozen pictures after re-encoding") sums up its output. About 9 minutes on 2 cores.
#   usage: scripts/frozen_corpus.sh [BUILD_DIR] [OUT_DIR]   (default build, build/frozen-corpus)
set -euo pipefail
build=${1:-build}
out=${2:-build/frozen-corpus}
vhist="$build/app/vhist"
photos=/usr/share/backgrounds/mate/nature
[ -x "$vhist" ] || { echo "frozen_corpus.sh: $vhist not found: build first" >&2; exit 2; }
[ -r "$photos/Garden.jpg" ] || { echo "frozen_corpus.sh: install mate-backgrounds" >&2; exit 2; }
. "$(dirname "$0")/ycbcr.sh"
mkdir -p "$out/stills" "$out/clips"
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
tail="$(ycbcr_vf bt709)"
# shellcheck disable=SC2207
tags=($(ycbcr_tags bt709))

# 2560x1440 stills; the clips are drawn at 1280x720 and scaled by 4, so that a pan of 1 still
# pixel a frame moves a quarter of a clip's pixel.
for n in Garden Storm LadyBird YellowFlower Aqua; do
  [ -f "$out/stills/$n.png" ] || ff -i "$photos/$n.jpg" \
    -vf "scale=2560:1440:force_original_aspect_ratio=increase:flags=lanczos,crop=2560:1440,format=rgb24" "$out/stills/$n.png"
done
still() { echo "-loop 1 -framerate 25 -i $out/stills/$1.png"; }
small="scale=320:180:flags=lanczos"
pan() { echo "format=gbrp,crop=1280:720:x='$1':y=360,$small"; }

# encode NAME FRAMES "INPUTS" GRAPH CODEC...: the graph through the recipe, encoded.
encode() {
  local name=$1 frames=$2 inputs=$3 graph=$4
  shift 4
  [ -f "$out/clips/$name.mkv" ] && return
  # shellcheck disable=SC2086  # the inputs are several words
  ff $inputs -filter_complex "$graph,$tail" -frames:v "$frames" "$@" "${tags[@]}" "$out/clips/$name.mkv"
}
x265=(-c:v libx265 -preset medium -x265-params log-level=error)
x264=(-c:v libx264 -preset medium)
for spec in Garden:4 Storm:2 LadyBird:6 YellowFlower:4; do
  n=${spec%%:*} v=${spec##*:}
  graph=$(pan "$v*(min(n\,75)+max(n-149\,0))")
  for crf in 18 23 30; do
    encode "held_${n}_x264_crf$crf" 250 "$(still "$n")" "$graph" "${x264[@]}" -crf "$crf"
    encode "held_${n}_x265_crf$crf" 250 "$(still "$n")" "$graph" "${x265[@]}" -crf "$crf"
  done
  encode "held_${n}_x264_crf23_g25" 250 "$(still "$n")" "$graph" "${x264[@]}" -crf 23 -g 25
  encode "held_${n}_x264_qp0" 250 "$(still "$n")" "$graph" "${x264[@]}" -qp 0
done
level() { echo "geq=r='r(X\,Y)*($1)':g='g(X\,Y)*($1)':b='b(X\,Y)*($1)'"; }
moving() { # name frames inputs graph
  encode "moving_$1_x264_crf18" "$2" "$3" "$4" "${x264[@]}" -crf 18
  encode "moving_$1_x264_crf30" "$2" "$3" "$4" "${x264[@]}" -crf 30
  encode "moving_$1_x265_crf30" "$2" "$3" "$4" "${x265[@]}" -crf 30
}
moving pan025 250 "$(still Garden)" "$(pan n)"
moving pan1 250 "$(still Storm)" "$(pan 4*n)"
moving zoom 250 "$(still LadyBird)" \
  "format=gbrp,zoompan=z='1+0.25*in/250':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=1:s=1280x720:fps=25,$small"
moving fade 200 "$(still YellowFlower)" "format=gbrp,$small,$(level 'abs(T-4)/4')"
moving dissolve 200 "$(still Garden) $(still Aqua)" \
  "[0:v]format=gbrp,$small[a];[1:v]format=gbrp,$small[b];[a][b]blend=all_expr='A*abs(T-4)/4+B*(1-abs(T-4)/4)'"
moving darkfade 250 "$(still Storm)" "format=gbrp,$small,$(level '0.30-0.22*T/10')"

# vhist's frozen events and freezedetect's, as first-last frames.
vhist_events() {
  "$vhist" qc -q --fail none "$1" | /usr/bin/python3 -c '
import json, sys
print(" ".join("%d-%d" % (j["first_frame"], j["last_frame"]) for j in map(json.loads, sys.stdin)
               if j.get("type") == "event" and j["check"] == "frozen") or "-")'
}
freezedetect_events() {
  ffmpeg -nostdin -hide_banner -i "$1" -vf freezedetect -f null - 2>&1 | /usr/bin/python3 -c '
import re, sys
text = sys.stdin.read()
starts = [float(t) for t in re.findall(r"freeze_start: ([0-9.]+)", text)]
ends = [float(t) for t in re.findall(r"freeze_end: ([0-9.]+)", text)]
ends += [None] * (len(starts) - len(ends))
# freeze_end is the time of the first frame after the freeze; an open freeze runs to the end.
print(" ".join("%d-%s" % (round(s * 25), "end" if e is None else round(e * 25) - 1) for s, e in zip(starts, ends)) or "-")'
}
printf '%-34s %-8s %-14s %s\n' clip hold vhist freezedetect
for clip in "$out"/clips/*.mkv; do
  name=$(basename "$clip" .mkv)
  hold=-
  case $name in held_*) hold=75-149 ;; esac
  printf '%-34s %-8s %-14s %s\n' "$name" "$hold" "$(vhist_events "$clip")" "$(freezedetect_events "$clip")"
done
