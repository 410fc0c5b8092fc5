#!/usr/bin/env bash
# `vhist batch`'s speed (issue 29's targets), whole processes timed in turns, medians:
#  1. throughput: 20 short clips with --jobs 2 against --jobs 1 (target: at least 1.7x);
#  2. per-file overhead: 20 tiny clips (one 64x36 frame each) through `vhist batch --jobs 1`,
#     per file, less one `vhist qc` of such a clip doing the same work on its own (records,
#     events and row: what each batch child does) (target: under 50 ms).
# The batches run with --force (every file analysed each time) into a scratch directory.
#
# usage: scripts/bench_batch_cli.sh [BUILD_DIR] [RUNS]    (default build, 5)
set -euo pipefail

build=${1:-build}
runs=${2:-5}
vhist="$build/app/vhist"
[ -x "$vhist" ] || { echo "bench_batch_cli.sh: $vhist not found; build first" >&2; exit 1; }
dir="$build/bench-batch"
mkdir -p "$dir/short" "$dir/tiny"
for k in $(seq -w 1 20); do
  [ -s "$dir/short/clip$k.mp4" ] || ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi \
    -i "testsrc2=s=640x360:r=25,noise=alls=4:allf=t" -frames:v 50 -c:v libx264 -preset veryfast -pix_fmt yuv420p \
    "$dir/short/clip$k.mp4"
  [ -s "$dir/tiny/clip$k.mp4" ] || ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi \
    -i "testsrc2=s=64x36:r=25" -frames:v 1 -c:v libx264 -pix_fmt yuv420p "$dir/tiny/clip$k.mp4"
done

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
seconds() {  # a batch exits 3 when a clip fails QC: that is a finished run too
  local t0 t1 rc=0
  t0=$(now)
  "$@" >/dev/null 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "bench_batch_cli.sh: failed ($rc): $*" >&2; exit 1; }
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f\n", b - a}'
}

one=() two=() ratio=() batch=() single=()
for _ in $(seq 1 "$runs"); do
  a=$(seconds "$vhist" batch "$dir/short" --out "$dir/out1" --jobs 1 --force -q)
  b=$(seconds "$vhist" batch "$dir/short" --out "$dir/out2" --jobs 2 --force -q)
  one+=("$a") two+=("$b") ratio+=("$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')")
  t=$(seconds "$vhist" batch "$dir/tiny" --out "$dir/out3" --jobs 1 --force -q)
  batch+=("$(awk -v t="$t" 'BEGIN {print t / 20}')")
  s=$(seconds "$vhist" qc "$dir/tiny/clip01.mp4" -q --records "$dir/one.jsonl" --row "$dir/one.row.json" -o "$dir/one.qc.jsonl")
  single+=("$s")
done
m() { printf '%s\n' "$@" | median; }
echo "20 clips 640x360 x 50 frames: --jobs 1 $(m "${one[@]}") s, --jobs 2 $(m "${two[@]}") s; throughput ratio (median of pairs) $(m "${ratio[@]}")x (target 1.7x)"
per=$(m "${batch[@]}") alone=$(m "${single[@]}")
echo "tiny clips: $(awk -v p="$per" 'BEGIN {printf "%.1f", p * 1000}') ms per file in a batch, $(awk -v p="$alone" 'BEGIN {printf "%.1f", p * 1000}') ms for vhist qc alone; overhead $(awk -v p="$per" -v a="$alone" 'BEGIN {printf "%.1f", (p - a) * 1000}') ms per file (target under 50 ms)"
echo "load average during the runs: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
