#!/usr/bin/env bash
# The test command (README, .ci/run): installs the packages, builds with warnings as errors, runs
# every test (CTest) on the default Vulkan device (lavapipe on a machine without a GPU) with
# validation layers on, then the same suite built with AddressSanitizer, UndefinedBehaviorSanitizer
# and LeakSanitizer, then each fuzzer for 60 s. At the end it prints each phase's time and, for
# each CTest run, its 15 slowest tests; docs/testing.md says the budget (30 minutes on CI's
# 2-core machine) and how to keep it.
#
#   scripts/test.sh           everything (CI)
#   scripts/test.sh --quick   the developer loop: the plain build and its tests without the
#                             camera VM and what only measures time (about a third of the time)
#
# GPU tests must run: VHIST_REQUIRE_GPU=1 turns a missing device into a failure, not a skip. As
# root (CI), the camera tests must run too: VHIST_REQUIRE_CAMERA=1 turns their skip into a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=no
case "${1:-}" in
  "") ;;
  --quick) quick=yes ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

phases=()
slowest=()
report() {
  local status=$?
  echo
  echo "=== test.sh: phase times"
  printf '  %s\n' "${phases[@]}"
  for s in "${slowest[@]}"; do printf '%s\n' "$s"; done
  [ "$status" = 0 ] && echo "=== test.sh: passed" || echo "=== test.sh: FAILED (exit status $status)"
}
trap report EXIT

# phase NAME COMMAND...: runs COMMAND and keeps its wall time for the report.
phase() {
  local name=$1 t0=$SECONDS
  shift
  echo "=== test.sh: $name"
  "$@"
  phases+=("$(printf '%-34s %5d s' "$name" $((SECONDS - t0)))")
}

# run_ctest NAME BUILD_DIR JOBS [CTEST ARGS...]: the build's tests, JOBS at once, its log kept
# for the slowest 15.
run_ctest() {
  local name=$1 dir=$2 jobs=$3
  shift 3
  local log="$dir/ctest.log" status=0
  (cd "$dir" && ctest --output-on-failure -j"$jobs" "$@") 2>&1 | tee "$log" || status=$?
  slowest+=("=== test.sh: the 15 slowest tests of the $name run"
            "$(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$log" |
               sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/' |
               sort -rn | awk 'NR <= 15 { printf "  %7.1f s  %s\n", $1, $2 }')")
  # A skip is counted and said, with its reason in the log above.
  local skipped
  skipped=$(grep -cE '\*\*\*Skipped' "$log" || true)
  echo "=== test.sh: the $name run: $skipped skipped$( [ "$skipped" = 0 ] || echo ": $(grep -E '\*\*\*Skipped' "$log" | sed -E 's/.*Test +#[0-9]+: ([^ ]+) .*/\1/' | tr '\n' ' ')")"
  return $status
}

# build DIR CMAKE ARGS...: configures (warnings as errors) and builds.
build() {
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DVHIST_WERROR=ON "$@"
  cmake --build "$dir"
}

export VHIST_REQUIRE_GPU=1
# One Mesa shader cache for every test of both runs: lavapipe compiles each pipeline with LLVM
# (4.4 s of a 6.8 s viewer start here when cold), and the tests that give the viewer a cache
# folder of its own (XDG_CACHE_HOME, the timeline tests) would otherwise compile everything anew.
export MESA_SHADER_CACHE_DIR="${MESA_SHADER_CACHE_DIR:-$PWD/build-test/mesa-shader-cache}"
if [ "$(id -u)" = 0 ] && [ "$quick" = no ]; then export VHIST_REQUIRE_CAMERA=1; fi

phase "setup (apt-get)" bash scripts/setup.sh --test
# Structure limits (no function of 80 lines or more, no file over 600, in app/ render/ compute/).
phase "structure check" bash scripts/check_structure.sh
# Both test builds keep line tables only (-g1): a failure's backtrace and a sanitizer's report
# name the function, file and line, and a compile takes two thirds of full -g's time
# (test_qc_command.cpp at -O1: 5.8 s against 8.9 s).
phase "plain build" build build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
if [ "$quick" = yes ]; then
  phase "plain tests (quick)" run_ctest plain build-test 2 -LE "camera|timing"
  exit 0
fi
phase "plain tests" run_ctest plain build-test 2

# The suite built with AddressSanitizer and UndefinedBehaviorSanitizer (UB aborts), and
# LeakSanitizer on: every test process and the vhist processes they start (the options are
# inherited) report leaks at exit. tests/lsan.supp says why it suppresses nothing. exitcode=23:
# a sanitizer report cannot pass for an expected exit status 1. Not here, by label
# (tests/CMakeLists.txt): `timing`, what only measures time (the soak's dropped frames and the
# benchmarks need a full-speed build); `camera`, the camera VM (emulated, a sanitizer build's
# viewer draws too slowly there); and by name the 265 MB frame (its code paths are the small
# frames'; a label cannot be given to one discovered GoogleTest test).
# Built with clang: it compiles this Debug tree in about half GCC's time (test_qc_command.cpp:
# 5.5 s against 9.7 s), and GCC's warnings are the plain build's.
# Its tests take the plain build's clips (made by ffmpeg, named by their recipes), not new ones.
CC=clang-14 CXX=clang++-14 phase "sanitizer build" build build-asan -DCMAKE_BUILD_TYPE=Debug -DVHIST_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 -DVHIST_TEST_CLIPS_DIR="$PWD/build-test/tests/clips"
# Three at once: without the camera VMs and the `timing` tests, what is left waits for states,
# not for the clock, and a sanitizer build's tests leave part of two cores idle while they wait
# on Xvfb, lavapipe's queue and child processes. The plain run's times order them (CTest starts
# the longest first), so that a long test does not start last.
mkdir -p build-asan/Testing/Temporary
cp build-test/Testing/Temporary/CTestCostData.txt build-asan/Testing/Temporary/ 2> /dev/null || true
ASAN_OPTIONS=detect_leaks=1:exitcode=23 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" \
  UBSAN_OPTIONS=print_stacktrace=1 phase "sanitizer tests" run_ctest sanitizer build-asan 3 -LE "timing|camera" \
  -E FrameLargerThanMaxStorageBufferRange

# --- Fuzzing (issue 6): each libFuzzer target for 60 s (clang build in build-fuzz/), from the
# generated seed corpus and the committed regression inputs; a crash fails the run.
phase "fuzzers (build, 2 side by side, 60 s)" bash scripts/fuzz.sh 60
