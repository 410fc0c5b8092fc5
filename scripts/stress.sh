#!/usr/bin/env bash
# The tests that wait on the viewer and the camera, run again and again on a loaded machine
# (issue 39): they must wait for states, not for a machine that happens to be idle.
#   scripts/stress.sh [RUNS] [LABELS]    defaults: 20 runs of the labels "window|camera"
# Runs `stress-ng --cpu N` (N: the number of cores; Debian's stress-ng) beside
# `ctest -L LABELS --repeat until-fail:RUNS -j2` in build-test/ (built first by scripts/test.sh
# or cmake), so each test runs RUNS times in a row and the first failure ends it. Prints each
# run's result and the total; exit status: ctest's.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20} labels=${2:-window|camera}
command -v stress-ng > /dev/null ||
  { echo "stress.sh: needs stress-ng (scripts/setup.sh --test installs it, or apt-get install -y --no-install-recommends stress-ng)" >&2; exit 2; }
[ -f build-test/CTestTestfile.cmake ] || { echo "stress.sh: build-test/ is not built (scripts/test.sh --quick)" >&2; exit 2; }
# The environment scripts/test.sh gives the suite: GPU tests must run, the shared Mesa shader
# cache, and (as root) camera tests that must not skip.
export VHIST_REQUIRE_GPU=1
export MESA_SHADER_CACHE_DIR="${MESA_SHADER_CACHE_DIR:-$PWD/build-test/mesa-shader-cache}"
if [ "$(id -u)" = 0 ]; then export VHIST_REQUIRE_CAMERA=1; fi
stress-ng --cpu "$(nproc)" --quiet &
load=$!
trap 'kill $load 2> /dev/null; wait $load 2> /dev/null || true' EXIT
t0=$SECONDS
status=0
(cd build-test && ctest -L "$labels" --repeat until-fail:"$runs" -j2 --output-on-failure) 2>&1 | tee build-test/stress.log || status=$?
echo "stress.sh: $runs runs of -L '$labels' under stress-ng --cpu $(nproc): exit status $status, $((SECONDS - t0)) s"
exit $status
