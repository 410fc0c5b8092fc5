#!/usr/bin/env bash
# Frames per second of `vhist analyze` against FFmpeg in the same run, on clips made here:
#   decode  ffmpeg -i CLIP -f null -                 (decoding only: the ceiling)
#   hist    ffmpeg -i CLIP -vf histogram -f null -   (FFmpeg's histogram filter)
#   vhist   vhist analyze CLIP -o /dev/null          (engine chosen automatically)
# Each command runs RUNS times; the table gives the median wall time's fps, the ratios of
# vhist to both FFmpeg figures, and vhist's peak resident memory (from /usr/bin/time).
#
# usage: scripts/bench_analyze.sh [BUILD_DIR] [RUNS]    (default build, 5)
# Extra vhist options can be given in VHIST_ARGS (e.g. VHIST_ARGS="--engine gpu").
set -euo pipefail

build=${1:-build}
runs=${2:-5}
vhist="$build/app/vhist"
clips="$build/bench-clips"
[ -x "$vhist" ] || { echo "bench_analyze.sh: $vhist not found; build first" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "bench_analyze.sh: ffmpeg not found (apt-get install ffmpeg)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_analyze.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
mkdir -p "$clips"

# name | frames | ffmpeg arguments. Moving test pattern with temporal noise, so that the decoder
# has real work (about the bitrate of camera footage at these settings).
. "$(dirname "$0")/ycbcr.sh"  # the clips are made with BT.709's matrix and tagged so
clip_specs=(
  "h264-1080p.mp4|120|-f lavfi -i testsrc2=s=1920x1080:r=30,noise=alls=6:allf=t,$(ycbcr_vf bt709 yuv420p) -frames:v 120 -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p $(ycbcr_tags bt709)"
  "h264-2160p.mp4|60|-f lavfi -i testsrc2=s=3840x2160:r=30,noise=alls=6:allf=t,$(ycbcr_vf bt709 yuv420p) -frames:v 60 -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p $(ycbcr_tags bt709)"
  "hevc10-1080p.mp4|120|-f lavfi -i testsrc2=s=1920x1080:r=30,noise=alls=6:allf=t,$(ycbcr_vf bt709 yuv420p10le) -frames:v 120 -c:v libx265 -preset ultrafast -crf 20 -pix_fmt yuv420p10le $(ycbcr_tags bt709) -x265-params log-level=error"
)

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# Median wall seconds of RUNS runs of "$@".
time_runs() {
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(now)
    "$@" >/dev/null 2>&1 || { echo "bench_analyze.sh: failed: $*" >&2; exit 1; }
    t1=$(now)
    echo "$t1 - $t0" | bc -l
  done | median
}

echo "vhist analyze benchmark: $(nproc) cores, $("$vhist" --version)"
"$vhist" --list-devices | sed -n '1,4p'
echo
printf '| clip | frames | decode fps | histogram fps | vhist fps | vhist / decode | vhist / histogram | vhist peak RSS |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for spec in "${clip_specs[@]}"; do
  IFS='|' read -r name frames args <<<"$spec"
  clip="$clips/$name"
  if [ ! -s "$clip" ]; then
    # shellcheck disable=SC2086
    ffmpeg -nostdin -hide_banner -loglevel error -y $args "$clip"
  fi
  t_decode=$(time_runs ffmpeg -nostdin -hide_banner -loglevel error -i "$clip" -f null -)
  t_hist=$(time_runs ffmpeg -nostdin -hide_banner -loglevel error -i "$clip" -vf histogram -f null -)
  # shellcheck disable=SC2086
  t_vhist=$(time_runs "$vhist" analyze "$clip" -q -o /dev/null ${VHIST_ARGS:-})
  # shellcheck disable=SC2086
  rss_kb=$( { /usr/bin/time -f '%M' "$vhist" analyze "$clip" -q -o /dev/null ${VHIST_ARGS:-} >/dev/null; } 2>&1 | tail -1)
  fps() { echo "$frames / $1" | bc -l; }
  f_decode=$(fps "$t_decode")
  f_hist=$(fps "$t_hist")
  f_vhist=$(fps "$t_vhist")
  printf '| %s | %s | %.1f | %.1f | %.1f | %.2f | %.2f | %.0f MiB |\n' "$name" "$frames" "$f_decode" "$f_hist" \
    "$f_vhist" "$(echo "$f_vhist / $f_decode" | bc -l)" "$(echo "$f_vhist / $f_hist" | bc -l)" \
    "$(echo "$rss_kb / 1024" | bc -l)"
done
echo
echo "median of $runs runs each; engine: $("$vhist" analyze "$clips/h264-1080p.mp4" -v --frames 1 -o /dev/null ${VHIST_ARGS:-} 2>&1 | head -1)"
