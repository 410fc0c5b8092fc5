#!/usr/bin/env bash
# Quick start: install the packages that building and running the viewer need (`setup.sh`, not
# the test tools: `scripts/test.sh` adds those), build without the tests, check the engine
# against the CPU reference, and run the viewer on the bundled demo clip. Without a display (no
# DISPLAY or WAYLAND_DISPLAY), it shows `vhist analyze` on the clip instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DVHIST_BUILD_TESTS=OFF
cmake --build build
./build/app/vhist --list-devices
./build/app/vhist --self-test
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "== the viewer on assets/demo.mp4 (Tab: panel, space: pause, Q: quit)"
  echo "   (to install: sudo cmake --install build, then run vhist from anywhere)"
  exec ./build/app/vhist assets/demo.mp4
fi
echo "== no display: vhist analyze assets/demo.mp4 -> build/demo.jsonl (one record per frame)"
./build/app/vhist analyze assets/demo.mp4 -v -o build/demo.jsonl
echo "== the first frame, 16 bins:"
./build/app/vhist analyze assets/demo.mp4 --frames 1 --bins 16 -q
