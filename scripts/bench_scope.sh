#!/usr/bin/env bash
# `vhist scope` against FFmpeg's scope filters on one frame of the same clip, whole processes,
# timed alternately (vhist, FFmpeg, vhist, FFmpeg, ...) so that both see the same machine:
#   waveform     vhist scope CLIP --at T --kind waveform -o a.png
#                ffmpeg -ss T -i CLIP -frames:v 1 -vf waveform -y b.png
#   parade       vhist scope CLIP --at T --kind parade -o a.png
#                ffmpeg -ss T -i CLIP -frames:v 1 -vf waveform=display=parade:components=7 -y b.png
#   vectorscope  vhist scope CLIP --at T --kind vectorscope -o a.png
#                ffmpeg -ss T -i CLIP -frames:v 1 -vf vectorscope -y b.png
# After one untimed run of each, RUNS pairs; the table gives the medians of wall and CPU (user +
# system) seconds and the median of the pairs' ratios vhist / FFmpeg (below 1: vhist faster).
#
# usage: scripts/bench_scope.sh [BUILD_DIR] [CLIP] [RUNS] [TIME]
#        (default build, /work/footage/garden_1080p.mp4 or scripts/make_footage.sh's, 11, 2.5)
# Extra vhist options can be given in VHIST_ARGS (e.g. VHIST_ARGS="--size 1920x256").
set -euo pipefail

build=${1:-build}
clip=${2:-/work/footage/garden_1080p.mp4}
runs=${3:-11}
at=${4:-2.5}
vhist="$build/app/vhist"
[ -x "$vhist" ] || { echo "bench_scope.sh: $vhist not found; build first" >&2; exit 1; }
[ -s "$clip" ] || { echo "bench_scope.sh: $clip not found (scripts/make_footage.sh makes footage)" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "bench_scope.sh: ffmpeg not found (apt-get install ffmpeg)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_scope.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# One run of "$@": "wall cpu" seconds (GNU time: elapsed, user + system). A failed run stops all.
one_run() {
  /usr/bin/time -o "$out/time" -f '%e %U %S' "$@" >/dev/null 2>&1 || { echo "bench_scope.sh: failed: $*" >&2; exit 1; }
  awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$out/time"
}

echo "vhist scope against FFmpeg: $(nproc) cores, $("$vhist" --version)"
"$vhist" --list-devices | sed -n '1,2p'
echo "clip: $clip, --at $at, $runs pairs after one untimed run of each"
echo
printf '| scope | vhist wall s | FFmpeg wall s | wall vhist / FFmpeg | vhist CPU s | FFmpeg CPU s | CPU vhist / FFmpeg |\n'
printf '|---|---|---|---|---|---|---|\n'
for kind in waveform parade vectorscope; do
  case $kind in
    waveform) filter=waveform ;;
    parade) filter=waveform=display=parade:components=7 ;;
    vectorscope) filter=vectorscope ;;
  esac
  # shellcheck disable=SC2086
  a=("$vhist" scope "$clip" --at "$at" --kind "$kind" -q -o "$out/a.png" ${VHIST_ARGS:-})
  b=(ffmpeg -nostdin -hide_banner -loglevel error -ss "$at" -i "$clip" -frames:v 1 -vf "$filter" -y "$out/b.png")
  one_run "${a[@]}" >/dev/null
  one_run "${b[@]}" >/dev/null
  : >"$out/pairs"
  for _ in $(seq "$runs"); do
    read -r aw ac < <(one_run "${a[@]}")
    read -r bw bc < <(one_run "${b[@]}")
    echo "$aw $bw $ac $bc" >>"$out/pairs"
  done
  col() { awk -v c="$1" '{print $c}' "$out/pairs" | median; }
  ratio() { awk -v a="$1" -v b="$2" '{printf "%.4f\n", $a / $b}' "$out/pairs" | median; }
  printf '| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |\n' "$kind" "$(col 1)" "$(col 2)" "$(ratio 1 2)" \
    "$(col 3)" "$(col 4)" "$(ratio 3 4)"
done
