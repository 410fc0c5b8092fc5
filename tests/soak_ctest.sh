#!/usr/bin/env bash
# CTest's short soak: scripts/soak.sh with the given arguments, run once; its status is the
# test's (no second run: the drops it counts are those after the warm-up, see soak.sh).
#   soak_ctest.sh SOAK_ARGS...   (with --build DIR, the build's vhist is checked first)
# It cannot run without a display server to start (Xvfb) or a Vulkan device: then it exits
# 77, which CTest reports as skipped (SKIP_RETURN_CODE), unless VHIST_REQUIRE_GPU=1, which turns
# that into a failure.
set -u -o pipefail
soak="$(cd "$(dirname "$0")/.." && pwd)/scripts/soak.sh"
cannot_run() {
  if [ "${VHIST_REQUIRE_GPU:-}" = 1 ]; then
    echo "soak_ctest.sh: FAIL: $1 (VHIST_REQUIRE_GPU=1)" >&2
    exit 1
  fi
  echo "soak_ctest.sh: SKIPPED: $1"
  exit 77
}
build=build
for ((i = 1; i < $#; ++i)); do [ "${!i}" = --build ] && { j=$((i + 1)); build=${!j}; }; done
command -v Xvfb > /dev/null || cannot_run "Xvfb is not installed (apt-get install xvfb)"
if [ -x "$build/app/vhist" ] && ! devices=$("$build/app/vhist" --list-devices 2>&1); then
  cannot_run "no Vulkan device: $(echo "$devices" | tail -1)"
fi
exec bash "$soak" "$@"
