#!/usr/bin/env bash
# Installs the packages, builds with warnings as errors, and runs every test (CTest) on the
# default Vulkan device (lavapipe on a machine without a GPU) with validation layers on.
# GPU tests must run: VHIST_REQUIRE_GPU=1 turns a missing device into a failure, not a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVHIST_WERROR=ON
cmake --build build-test
cd build-test
VHIST_REQUIRE_GPU=1 ctest --output-on-failure -j2
