#!/usr/bin/env bash
# Installs everything vhist needs to build and test on Debian 12, from Debian's packages only.
# Runs as root, or through sudo when available. Safe to run again.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ pkg-config glslang-tools
  # libraries
  libvulkan-dev libglfw3-dev libimgui-dev
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libavdevice-dev
  # tests: GoogleTest, a CPU Vulkan driver (lavapipe), validation layers, a virtual display,
  # the ffmpeg tool that makes the test clips
  libgtest-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools xvfb xauth ffmpeg
  # camera tests: a throw-away VM whose kernel's vivid driver is a real V4L2 camera
  # (../shared/tools/vivid-run.sh)
  qemu-system-x86 busybox-static cpio kmod v4l-utils
  # benchmarks: wall and memory figures
  time bc
)

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then as_root=(sudo); else
    echo "setup.sh: run as root (or install sudo) to install: ${packages[*]}" >&2
    exit 1
  fi
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all packages present"
  exit 0
fi
echo "setup.sh: installing ${missing[*]}"
"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
