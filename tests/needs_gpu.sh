#!/usr/bin/env bash
# needs_gpu.sh VHIST COMMAND...: runs COMMAND (a CTest test that needs a Vulkan device) when
# `VHIST --list-devices` finds one. Without one the test cannot run here: exit 77, which CTest
# reports as skipped (SKIP_RETURN_CODE). With VHIST_REQUIRE_GPU=1 it runs COMMAND without a
# probe, so that a missing device fails the test.
set -u
[ $# -ge 2 ] || { echo "usage: $0 VHIST COMMAND..." >&2; exit 2; }
vhist=$1
shift
# Required (scripts/test.sh, CI): no probe; the test itself fails when there is no device.
[ "${VHIST_REQUIRE_GPU:-}" = 1 ] && exec "$@"
if ! devices=$("$vhist" --list-devices 2>&1); then
  reason=$(printf '%s\n' "$devices" | tail -1)
  echo "needs_gpu.sh: SKIPPED: no Vulkan device: $reason"
  exit 77
fi
exec "$@"
