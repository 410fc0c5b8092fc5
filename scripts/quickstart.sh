#!/usr/bin/env bash
# Quick start: install the packages, build, and run vhist's main job as it stands today:
# per-frame histograms of the bundled demo clip (`vhist analyze`), the engine's self-test
# against the CPU reference and a short benchmark, on the default Vulkan device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
./build/app/vhist --list-devices
./build/app/vhist --self-test
./build/app/vhist-bench --quick
echo
echo "== vhist analyze assets/demo.mp4 -> build/demo.jsonl (one record per frame)"
./build/app/vhist analyze assets/demo.mp4 -v -o build/demo.jsonl
echo "== the first frame, 16 bins:"
./build/app/vhist analyze assets/demo.mp4 --frames 1 --bins 16 -q
