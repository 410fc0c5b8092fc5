#!/usr/bin/env bash
# Installs what vhist needs on Debian 12, from Debian's packages only. Runs as root, or through
# sudo when available. Safe to run again.
#
#   setup.sh          building and running the viewer (scripts/quickstart.sh)
#   setup.sh --test   that plus the test tools: GoogleTest, validation layers, a virtual display,
#                     the camera VM, clang for the fuzzers, ... (scripts/test.sh, CI)
set -euo pipefail

with_tests=no
case "${1:-}" in
  "") ;;
  --test) with_tests=yes ;;
  *) echo "usage: setup.sh [--test]" >&2; exit 2 ;;
esac

packages=(
  # build
  cmake ninja-build g++ pkg-config glslang-tools
  # libraries
  libvulkan-dev libglfw3-dev libimgui-dev
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libavdevice-dev zlib1g-dev
  # command lines (CLI11, header-only) and PNG files (stb_image, stb_image_write)
  libcli11-dev libstb-dev
  # reading analyze's JSON Lines records back (the viewer's --reference; header-only)
  nlohmann-json3-dev
  # frame checksums of the CPU engine (XXH3; compute/src/cpu_checksum.cpp)
  libxxhash-dev
  nettle-dev  # SHA-256 of each QC input (its provenance)
  # NVDEC hardware decoding (--hwdec): the CUDA driver API's declarations and its dlopen loader
  # (headers only; libcuda is opened at run time where an NVIDIA driver is installed)
  libffmpeg-nvenc-dev
  # a Vulkan driver for machines without a GPU driver of their own (lavapipe, on the CPU)
  mesa-vulkan-drivers
)
test_packages=(
  # tests: GoogleTest, validation layers, vulkaninfo, a virtual display, the ffmpeg tool that
  # makes the test clips
  libgtest-dev vulkan-validationlayers vulkan-tools xvfb xauth ffmpeg
  # the install test: the desktop file's validator and the man page's formatter
  desktop-file-utils groff-base
  xdotool  # viewer tests: keys and clicks sent to the window under Xvfb
  chromium  # the QC report's test: headless Chromium renders the HTML report to a screenshot
  mate-backgrounds  # real photographs for the range corpus (tests/test_range_corpus.cpp)
  # camera tests: a throw-away VM whose kernel's vivid driver is a real V4L2 camera
  # (tests/camera/vm_run.sh)
  qemu-system-x86 busybox-static cpio kmod v4l-utils
  # MJPEG camera tests: vm_run.sh -l builds v4l2loopback for the guest's kernel (with that
  # kernel's headers, installed below)
  make gcc
  # structure check (scripts/check_structure.sh): function extents
  universal-ctags
  # benchmarks: wall and memory figures; the load beside the tests of scripts/stress.sh
  time bc stress-ng
  # fuzzing (scripts/fuzz.sh): clang and its libFuzzer/sanitizer runtimes
  clang-14 libclang-rt-14-dev
  # the Python package's tests (tests/python): numpy, pytest, a real Dask scheduler and workers
  # (dask-scheduler, dask-worker), psutil for the processes they start and kill
  python3-numpy python3-pytest python3-dask python3-distributed python3-psutil
)
if [ "$with_tests" = yes ]; then packages+=("${test_packages[@]}"); fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then as_root=(sudo); else
    echo "setup.sh: run as root (or install sudo) to install: ${packages[*]}" >&2
    exit 1
  fi
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
updated=no
update() {
  [ "$updated" = no ] || return 0
  "${as_root[@]}" apt-get update
  updated=yes
}

# The headers of the kernel that tests/camera/vm_run.sh boots, resolved as it does: its
# VHIST_CAMERA_VM_KERNEL_PKG, else the kernel cached in its VHIST_CAMERA_VM_CACHE (default
# ~/.cache/vhist-camera-vm), else the one linux-image-amd64 depends on.
guest_kernel_headers() {
  local cache=${VHIST_CAMERA_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vhist-camera-vm}
  local pkg=${VHIST_CAMERA_VM_KERNEL_PKG:-}
  if [ -z "$pkg" ] && [ -s "$cache/ready" ]; then pkg=$(cut -d' ' -f1 "$cache/ready"); fi
  if [ -z "$pkg" ]; then
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
  fi
  [ -z "$pkg" ] || echo "linux-headers-${pkg#linux-image-}"
}

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  update
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ "$with_tests" = no ]; then
  [ ${#missing[@]} -gt 0 ] || echo "setup.sh: all packages present (add --test for the test tools)"
  exit 0
fi

# Optional: without these headers the MJPEG camera tests skip (with a message saying so).
headers=$(guest_kernel_headers)
if [ -z "$headers" ]; then
  update
  headers=$(guest_kernel_headers)
fi
if [ -z "$headers" ]; then
  echo "setup.sh: cannot resolve linux-image-amd64 to a kernel version; the MJPEG camera tests will skip" >&2
elif ! installed "$headers"; then
  echo "setup.sh: installing $headers (the camera VM's kernel headers, for v4l2loopback)"
  update
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$headers" ||
    echo "setup.sh: could not install $headers; the MJPEG camera tests will skip" >&2
elif [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all packages present"
fi
