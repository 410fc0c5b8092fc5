#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build-fuzz/), makes the seed corpus, and runs each
# target for SECONDS (default 60), printing its executions and any crash. Crashing inputs are
# left in build-fuzz/crashes/TARGET/; copy each into fuzz/regressions/{media,cli}/ (the
# fuzz_*_regressions tests replay them) once fixed. Exit status 1 when a target crashed.
#   scripts/fuzz.sh [SECONDS]        BUILD=DIR builds elsewhere; JOBS=N compile jobs (default: nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${BUILD:-build-fuzz}
# Line tables only (-g1): a crash report still names function, file and line.
CC=${CC:-clang-14} CXX=${CXX:-clang++-14} cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DVHIST_FUZZ=ON -DVHIST_BUILD_TESTS=OFF -DVHIST_BUILD_BENCH=OFF
cmake --build "$build" --parallel "${JOBS:-$(nproc)}" --target fuzz_media fuzz_cli
bash fuzz/make_seeds.sh "$build/seeds" >/dev/null
# fuzz TARGET: runs one target for SECONDS; its log is build-fuzz/TARGET.log.
fuzz() {
  local target=$1 kind=${1#fuzz_}
  local corpus="$build/corpus/$1" crashes="$build/crashes/$1"
  mkdir -p "$corpus" "$crashes"
  # Leaks are checked; the media target's decode thread makes -fork unnecessary. rss_limit: a
  # decoder asked to allocate a huge frame fails libFuzzer's malloc limit, not the machine.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/fuzz/$target" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 -malloc_limit_mb=2048 \
    -max_len=$([ "$kind" = media ] && echo 65536 || echo 4096) -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$corpus" "$build/seeds/$kind" "fuzz/regressions/$kind" >"$build/$target.log" 2>&1
}

# Each libFuzzer process is one thread: the two targets run side by side, one per core.
targets=(fuzz_media fuzz_cli)
pids=()
for target in "${targets[@]}"; do
  echo "fuzz.sh: $target for ${seconds} s"
  fuzz "$target" &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  target=${targets[$i]}
  log="$build/$target.log" crashes="$build/crashes/$target"
  rc=0
  wait "${pids[$i]}" || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o "cov: [0-9]*" "$log" | tail -1 || true)
  echo "fuzz.sh: $target: ${execs:-?} executions in ${seconds} s, ${cov:-cov ?}, exit $rc"
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "fuzz.sh: $target CRASHED; the input is in $crashes/:" >&2
    ls -l "$crashes" >&2
    grep -E "^==[0-9]+==ERROR|SUMMARY|runtime error|property failed|deadly signal|timeout" "$log" | head -20 >&2
  fi
done
exit $status
