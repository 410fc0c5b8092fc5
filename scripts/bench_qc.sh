#!/usr/bin/env bash
# The speed of `vhist qc` against FFmpeg's signalstats on the same file (issue 28's target: at
# least 0.9x its speed): whole processes, taken in turns (FFmpeg, vhist, FFmpeg, vhist, ...),
# the ratio computed pair by pair and the median quoted.
#   signalstats  ffmpeg -i CLIP -vf signalstats -f null -
#   vhist        vhist qc CLIP -q -o /dev/null --fail none   (engine chosen automatically)
# Clips: the bench clips of bench_analyze.sh (made here if missing), or the files given.
# The last column is what the input's SHA-256 (read beside the decoder) costs: vhist qc's time
# over its time with VHIST_BENCH_NO_DIGEST=1 (a benchmark hook that reads no digest), in turns.
#
# usage: scripts/bench_qc.sh [BUILD_DIR] [RUNS] [CLIP ...]    (default build, 7)
# Extra vhist options can be given in VHIST_ARGS (e.g. VHIST_ARGS="--engine gpu").
set -euo pipefail

build=${1:-build}
runs=${2:-7}
shift $(( $# < 2 ? $# : 2 ))
vhist="$build/app/vhist"
[ -x "$vhist" ] || { echo "bench_qc.sh: $vhist not found; build first" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "bench_qc.sh: ffmpeg not found (apt-get install ffmpeg)" >&2; exit 1; }

clips=("$@")
if [ ${#clips[@]} -eq 0 ]; then
  dir="$build/bench-clips"
  mkdir -p "$dir"
  . "$(dirname "$0")/ycbcr.sh"  # made with BT.709's matrix and tagged so
  for spec in "h264-1080p.mp4|-f lavfi -i testsrc2=s=1920x1080:r=30,noise=alls=6:allf=t,$(ycbcr_vf bt709 yuv420p) -frames:v 120 -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p $(ycbcr_tags bt709)" \
              "hevc10-1080p.mp4|-f lavfi -i testsrc2=s=1920x1080:r=30,noise=alls=6:allf=t,$(ycbcr_vf bt709 yuv420p10le) -frames:v 120 -c:v libx265 -preset ultrafast -crf 20 -pix_fmt yuv420p10le $(ycbcr_tags bt709) -x265-params log-level=error"; do
    IFS='|' read -r name args <<<"$spec"
    # shellcheck disable=SC2086
    [ -s "$dir/$name" ] || ffmpeg -nostdin -hide_banner -loglevel error -y $args "$dir/$name"
    clips+=("$dir/$name")
  done
fi

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
seconds() {
  local t0 t1
  t0=$(now)
  "$@" >/dev/null 2>&1 || { echo "bench_qc.sh: failed: $*" >&2; exit 1; }
  t1=$(now)
  echo "$t1 - $t0" | bc -l
}

echo "vhist qc against ffmpeg signalstats: $(nproc) cores, $("$vhist" --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| clip | frames | signalstats s (median) | vhist qc s (median) | speed vhist / signalstats (median of pairs) | qc / qc without SHA-256 (median of pairs) |\n'
printf '|---|---|---|---|---|---|\n'
for clip in "${clips[@]}"; do
  frames=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$clip")
  seconds ffmpeg -nostdin -hide_banner -loglevel error -i "$clip" -vf signalstats -f null - >/dev/null  # warm-up
  : >/tmp/bench_qc.$$
  for _ in $(seq "$runs"); do
    a=$(seconds ffmpeg -nostdin -hide_banner -loglevel error -i "$clip" -vf signalstats -f null -)
    # shellcheck disable=SC2086
    b=$(seconds "$vhist" qc "$clip" -q -o /dev/null --fail none ${VHIST_ARGS:-})
    # shellcheck disable=SC2086
    c=$(VHIST_BENCH_NO_DIGEST=1 seconds "$vhist" qc "$clip" -q -o /dev/null --fail none ${VHIST_ARGS:-})
    echo "$a $b $c" >>/tmp/bench_qc.$$
  done
  ta=$(cut -d' ' -f1 /tmp/bench_qc.$$ | median)
  tb=$(cut -d' ' -f2 /tmp/bench_qc.$$ | median)
  ratio=$(awk '{print $1 / $2}' /tmp/bench_qc.$$ | median)
  digest=$(awk '{print $2 / $3}' /tmp/bench_qc.$$ | median)
  rm -f /tmp/bench_qc.$$
  printf '| %s | %s | %.3f | %.3f | %.2fx | %.3f |\n' "$(basename "$clip")" "$frames" "$ta" "$tb" "$ratio" "$digest"
done
