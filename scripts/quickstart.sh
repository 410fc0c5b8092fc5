#!/usr/bin/env bash
# Quick start: install the packages, build, and run vhist's main job as it stands today: the
# histogram engine's self-test and a short benchmark on the default Vulkan device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
./build/app/vhist --list-devices
./build/app/vhist --self-test
./build/app/vhist-bench --quick
