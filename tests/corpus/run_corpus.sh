#!/usr/bin/env bash
# The malformed-input corpus test: makes the corpus (make_corpus.sh) and runs
# `vhist analyze FILE --engine cpu -q` on every input, 10 s each. Passes when every run ends with
# status 0 (decoded) or 2 (a clear error: one stderr line "vhist analyze: ..." naming the file),
# none crashes, times out or exits 1, and nothing connects to the listener the network
# playlists point at. Prints a table of the outcomes.
# With REPLAY (fuzz/'s fuzz_media_replay), every input is also opened from memory and decoded
# by the fuzzer's entry point, with LeakSanitizer on in a sanitizer build (vhist itself runs with
# leak detection as the caller set it: lavapipe's JIT code leaks blocks LSan cannot attribute).
#   tests/corpus/run_corpus.sh VHIST LISTEN_PROBE WORKDIR [REPLAY]
set -uo pipefail
vhist=${1:?usage: run_corpus.sh VHIST LISTEN_PROBE WORKDIR} probe=${2:?} work=${3:?}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
connections="$work/connections.log"
: >"$connections"
coproc PROBE { exec "$probe" "$connections"; }
probe_pid=$PROBE_PID
trap 'kill "$probe_pid" 2>/dev/null' EXIT
read -r port <&"${PROBE[0]}" || { echo "run_corpus.sh: the listener did not start" >&2; exit 1; }

CORPUS_REMOTE="http://127.0.0.1:$port" bash "$here/make_corpus.sh" "$work/corpus" || exit 1

failures=0 total=0
declare -A by_status=()
printf '%-34s %-6s %s\n' FILE STATUS "MESSAGE (stderr)"
for f in "$work"/corpus/*; do
  name=${f##*/}
  total=$((total + 1))
  err="$work/$name.err"
  timeout -k 5 10 "$vhist" analyze "$f" --engine cpu -q -o /dev/null 2>"$err"
  status=$?
  lines=$(wc -l <"$err")
  message=$(head -c 300 "$err" | head -1)
  problem=""
  case $status in
    0) ;;
    2)
      if [ "$lines" -ne 1 ]; then problem="status 2 with $lines stderr lines"
      elif [[ $message != "vhist analyze:"* ]]; then problem="message does not start with 'vhist analyze:'"
      elif [[ $message != *"$f"* ]]; then problem="message does not name the file"
      fi
      ;;
    124 | 137) problem="timed out (10 s)" ;;
    *) if [ "$status" -gt 128 ]; then problem="killed by signal $((status - 128))"; else problem="status $status"; fi ;;
  esac
  by_status[$status]=$((${by_status[$status]:-0} + 1))
  printf '%-34s %-6s %s\n' "$name" "$status" "${message/"$work\/corpus\/"/}"
  if [ -n "$problem" ]; then
    failures=$((failures + 1))
    echo "  FAIL: $problem; stderr:"
    sed 's/^/    /' "$err" | head -40
  fi
done
summary=""
for s in "${!by_status[@]}"; do summary+=" status $s: ${by_status[$s]};"; done
echo "run_corpus.sh: $total inputs;$summary $failures failures"
if [ -s "$connections" ]; then
  echo "run_corpus.sh: FAIL: $(wc -l <"$connections") network connections to the listener" >&2
  failures=$((failures + 1))
fi
if [ -n "${4:-}" ]; then
  echo "run_corpus.sh: the corpus through $4 (from memory)"
  if ! ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1 timeout -k 5 600 "$4" "$work/corpus" >"$work/replay.log" 2>&1; then
    echo "run_corpus.sh: FAIL: $4 on the corpus:" >&2
    tail -40 "$work/replay.log" >&2
    failures=$((failures + 1))
  else
    tail -1 "$work/replay.log"
  fi
fi
[ "$total" -ge 30 ] || { echo "run_corpus.sh: FAIL: only $total inputs (30 or more expected)" >&2; exit 1; }
[ "$failures" -eq 0 ]
