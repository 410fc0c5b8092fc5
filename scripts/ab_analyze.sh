#!/usr/bin/env bash
# Two commands timed in turns on one clip, for a machine shared with other work: A B A B ...,
# one untimed run of each, then PAIRS timed pairs, each a whole process under /usr/bin/time
# (wall seconds, CPU seconds = user + system). Prints each pair and the medians of the ratios
# A/B pair by pair, for wall and CPU time, with the load average before and after.
#
# usage: scripts/ab_analyze.sh CLIP PAIRS A B
#   A, B: a vhist binary (run as `BIN analyze CLIP -q -o /dev/null`), or `ffmpeg-histogram`
#   (`ffmpeg -i CLIP -vf histogram -f null -`) or `ffmpeg-decode` (`ffmpeg -i CLIP -f null -`).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 CLIP PAIRS A B" >&2; exit 1; }
clip=$1 pairs=$2 a=$3 b=$4
[ -x /usr/bin/time ] || { echo "ab_analyze.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }

times=$(mktemp)
trap 'rm -f "$times"' EXIT
run() {  # prints "wall cpu" of one run of command $1 on the clip
  local cmd
  case $1 in
    ffmpeg-histogram) cmd=(ffmpeg -nostdin -hide_banner -loglevel error -i "$clip" -vf histogram -f null -) ;;
    ffmpeg-decode) cmd=(ffmpeg -nostdin -hide_banner -loglevel error -i "$clip" -f null -) ;;
    *) cmd=("$1" analyze "$clip" -q -o /dev/null) ;;
  esac
  /usr/bin/time -o "$times" -f '%e %U %S' "${cmd[@]}" >/dev/null 2>&1 || { echo "ab_analyze.sh: failed: ${cmd[*]}" >&2; exit 1; }
  awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$times"
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo "clip $clip; A = $a; B = $b; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
run "$a" >/dev/null
run "$b" >/dev/null
rows=()
for i in $(seq "$pairs"); do
  read -r wa ca < <(run "$a")
  read -r wb cb < <(run "$b")
  rows+=("$wa $ca $wb $cb")
  echo "pair $i: A wall $wa cpu $ca  B wall $wb cpu $cb"
done
wall=$(printf '%s\n' "${rows[@]}" | awk '{print $1 / $3}' | median)
cpu=$(printf '%s\n' "${rows[@]}" | awk '{print $2 / $4}' | median)
printf 'median A/B: wall %.3f, cpu %.3f (%s pairs); load average after: %s\n' "$wall" "$cpu" "$pairs" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
