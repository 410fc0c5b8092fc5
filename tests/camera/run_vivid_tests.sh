#!/bin/bash
# run_vivid_tests.sh BUILD_DIR [vivid|mjpeg|all]: runs BUILD_DIR/tests/vhist_camera_tests inside
# throw-away VMs that have the kernel's vivid driver (vm_run.sh, next to this script; its cache of
# the guest kernel is ${XDG_CACHE_HOME:-~/.cache}/vhist-camera-vm, or VHIST_CAMERA_VM_CACHE):
# `vivid`, one boot with one camera for the single-camera scenarios (and the viewer, in_vm.sh) and
# one with two cameras; `mjpeg`, one with an MJPEG camera made with v4l2loopback (mjpeg.sh); `all`
# (the default), both. CTest runs the two parts as two tests, so that each one's skip shows.
#
# Exit status: 0 when the tests pass, 1 when one fails, 77 (CTest's SKIP_RETURN_CODE, with a line
# "camera tests SKIPPED: <reason>") when the VM cannot run here (missing packages, not root, a
# checkout or build under /tmp), unless VHIST_REQUIRE_CAMERA is set, which turns that into a
# failure. The MJPEG part skips the same way when v4l2loopback cannot be built for the guest's
# kernel (it needs that kernel's linux-headers package, make and gcc; scripts/setup.sh --test
# installs them); with `all`, a skipped MJPEG part after a vivid part that ran gives 77 too.
set -u -o pipefail
skip_status=77

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runner="$here/vm_run.sh"

part=${2:-all}
[ $# -ge 1 ] && [ $# -le 2 ] && [[ "$part" =~ ^(vivid|mjpeg|all)$ ]] ||
    { echo "usage: $0 BUILD_DIR [vivid|mjpeg|all]" >&2; exit 2; }

cannot_run() {
    if [ -n "${VHIST_REQUIRE_CAMERA:-}" ]; then
        echo "camera tests FAILED: $1 (VHIST_REQUIRE_CAMERA is set)" >&2
        exit 1
    fi
    echo "camera tests SKIPPED: $1"
    exit $skip_status
}

missing=()
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
command -v cpio >/dev/null || missing+=(cpio)
command -v depmod >/dev/null || missing+=(kmod)
command -v v4l2-ctl >/dev/null || missing+=(v4l-utils)
static_busybox=no
for b in /bin/busybox /usr/bin/busybox; do
    if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then static_busybox=yes; fi
done
[ "$static_busybox" = yes ] || missing+=(busybox-static)
if [ ${#missing[@]} -gt 0 ]; then
    cannot_run "the VM needs these packages: ${missing[*]} (apt-get install -y --no-install-recommends ${missing[*]})"
fi
[ "$(id -u)" = 0 ] || cannot_run "the camera VM (vm_run.sh) must run as root"

build=$(cd "$1" 2>/dev/null && pwd -P) || { echo "camera tests FAILED: no build directory $1" >&2; exit 1; }
# The guest mounts a tmpfs of its own over /tmp (vm_run.sh), so a checkout or a build there is
# out of its sight: said as such rather than failing on a file the guest cannot see.
for path in "$build" "$here"; do
    case "$path/" in
        /tmp/*) cannot_run "$path is under /tmp, which the camera VM's guest covers with a tmpfs of its own: run them from a checkout and build outside /tmp" ;;
    esac
done
tests="$build/tests/vhist_camera_tests"
[ -x "$tests" ] || { echo "camera tests FAILED: $tests is not built (ninja -C $1 vhist_camera_tests)" >&2; exit 1; }

# The guest's writable directory (its working directory).
work=$(mktemp -d "$build/camera-vm.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

run_boot() {
    local name=$1; shift
    local t0 t1 rc
    t0=$(date +%s.%N)
    "$@"
    rc=$?
    t1=$(date +%s.%N)
    echo "camera tests: $name: exit status $rc, $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s (VM boot included)"
    return $rc
}

# The emulator, in the log, so a change of it is visible. QEMU before 8.2.7 (and 9.0) decodes
# AVX2 gathers with index register xmm4/ymm4 wrongly (QEMU issue 2474); lavapipe's JIT emits
# them, so with AVX2 in the guest CPU any program drawing through lavapipe there reads garbage
# or crashes (the viewer's SIGSEGV and its missing panel in guest screenshots, once). vm_run.sh
# runs the guest without AVX2; in_vm.sh prints the guest's CPU and fails if it has AVX2 under
# such a QEMU (VHIST_QEMU_BAD_AVX2 carries the version in).
qemu_version=$(qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([0-9][0-9.]*\).*/\1/p')
guest_env=()
accel=tcg  # as vm_run.sh decides: KVM only where it is hardware-assisted (the bug is TCG's)
if [ -r /dev/kvm ] && [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then accel=kvm; fi
accel=${VHIST_CAMERA_VM_ACCEL:-$accel}
echo "camera tests: QEMU ${qemu_version:-unknown} ($accel), guest CPU model ${VHIST_CAMERA_VM_CPU:-max,-avx2 (vm_run.sh default)}"
if [ "$accel" = tcg ] && [ -n "$qemu_version" ] && awk -v v="$qemu_version" 'BEGIN {
    split(v, p, "."); n = p[1] * 10000 + p[2] * 100 + p[3]; exit !(n < 80207 || (n >= 90000 && n < 90100)) }'; then
    guest_env=(-e "VHIST_QEMU_BAD_AVX2=$qemu_version")
fi

# The guest's own Mesa shader cache (guest_shader_cache.sh), kept in the build folder between
# runs, one per emulated CPU and QEMU: lavapipe compiles each shader with LLVM, which under
# emulation is most of a viewer's start in the guest. Copied in before the boots and back after
# them (the camera tests hold one lock, so no two runs race).
shader_cache="$build/camera-vm-shaders/$(echo "$accel ${VHIST_CAMERA_VM_CPU:-max,-avx2} QEMU ${qemu_version:-unknown}" | tr -c 'A-Za-z0-9.,+\n-' _)"
mkdir -p "$work/mesa-cache"
[ ! -d "$shader_cache" ] || cp -a "$shader_cache/." "$work/mesa-cache/"
guest_env+=(-e "VHIST_GUEST_SHADER_CACHE=$work/mesa-cache")
save_shader_cache() {
    mkdir -p "$(dirname "$shader_cache")" && rm -rf "$shader_cache.new" &&
        cp -a "$work/mesa-cache" "$shader_cache.new" && rm -rf "$shader_cache" && mv "$shader_cache.new" "$shader_cache"
}
trap 'save_shader_cache; rm -rf "$work"' EXIT

status=0
if [ "$part" != mjpeg ]; then
    run_boot "one camera" bash "$runner" "${guest_env[@]}" "$work" bash "$here/in_vm.sh" "$tests" "$build" \
        "$work" --gtest_filter='-TwoCameras.*:MjpegCamera.*' || status=1
    run_boot "two cameras" bash "$runner" "${guest_env[@]}" -p "n_devs=2 node_types=0x1,0x1" "$work" "$tests" \
        --gtest_filter='TwoCameras.*' || status=1
fi
[ "$part" = vivid ] && exit $status

# MJPEG: a v4l2loopback node fed by a producer in the guest. Building the module (once, cached by
# vm_run.sh) needs the guest kernel's headers; without them this part is skipped.
loopback="devices=2 video_nr=10,11 card_label=vhist-mjpeg,vhist-colours exclusive_caps=1,1"
mjpeg_skip() {
    if [ -n "${VHIST_REQUIRE_CAMERA:-}" ]; then
        echo "camera tests: MJPEG camera FAILED: $1 (VHIST_REQUIRE_CAMERA is set)" >&2
        status=1
    else
        echo "camera tests: MJPEG camera SKIPPED: $1"
        [ "$status" = 0 ] && status=$skip_status  # a failure of the vivid part stays a failure
    fi
}
if ! command -v ffmpeg >/dev/null; then
    mjpeg_skip "the MJPEG clips need the ffmpeg tool (apt-get install -y --no-install-recommends ffmpeg)"
elif ! bash "$runner" --prepare -l "$loopback" > "$work/loopback.log" 2>&1; then
    mjpeg_skip "v4l2loopback cannot be built for the guest kernel: $(grep -v '^vm_run.sh: preparing' "$work/loopback.log" | tail -2 | tr '\n' ' ')"
elif ! bash "$here/mjpeg.sh" clips "$work"; then
    echo "camera tests: MJPEG camera FAILED: could not encode the MJPEG clips" >&2
    status=1
else
    run_boot "MJPEG camera" bash "$runner" "${guest_env[@]}" -p none -l "$loopback" "$work" \
        bash "$here/mjpeg.sh" in-vm "$tests" "$build" "$work" /dev/video10 /dev/video11 || status=1
fi
exit $status
