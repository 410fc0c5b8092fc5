#!/usr/bin/env bash
# needs_gpu.sh VHIST COMMAND...: runs COMMAND (a CTest test that needs a Vulkan device) when
# `VHIST --list-devices` finds one. Without one the test cannot run here: exit 77, which CTest
# reports as skipped (SKIP_RETURN_CODE), unless VHIST_REQUIRE_GPU=1, which makes it a failure.
set -u
[ $# -ge 2 ] || { echo "usage: $0 VHIST COMMAND..." >&2; exit 2; }
vhist=$1
shift
if ! devices=$("$vhist" --list-devices 2>&1); then
  reason=$(printf '%s\n' "$devices" | tail -1)
  if [ "${VHIST_REQUIRE_GPU:-}" = 1 ]; then
    echo "needs_gpu.sh: FAIL: no Vulkan device (VHIST_REQUIRE_GPU=1): $reason" >&2
    exit 1
  fi
  echo "needs_gpu.sh: SKIPPED: no Vulkan device: $reason"
  exit 77
fi
exec "$@"
