#!/bin/bash
# vm_run.sh: runs one command in a disposable QEMU virtual machine whose kernel's `vivid` driver
# provides a real V4L2 camera at /dev/video0 (the camera tests, run_vivid_tests.sh, use it).
#
# The guest boots a stock Debian kernel (its linux-image package, fetched with apt-get download
# into a cache, never installed) with a busybox initramfs, and borrows the host's userland: the
# host's / is shared read-only over virtio-9p under a tmpfs overlay, so host-built programs run
# there unchanged and nothing reaches the host except in HOSTDIR, shared read-write at the same
# path. The command runs there as root; its output is printed once the VM has powered off.
#
#   vm_run.sh [options] HOSTDIR [--] CMD [ARGS...]  one CMD word is a bash snippet, more are exec'd
#   vm_run.sh [-l PARAMS] --prepare                 only fill the cache (kernel, initramfs, module)
#   -p PARAMS   vivid's module parameters (default: one webcam-type capture node, /dev/video0;
#               "" gives vivid's own defaults, "none" leaves vivid out)
#   -l PARAMS   also load v4l2loopback with PARAMS (e.g. "video_nr=10 exclusive_caps=1"), built
#               once from Debian's v4l2loopback-dkms source (needs make, gcc and the host
#               package linux-headers-<guest kernel version>)
#   -t SECS     the VM's hang ceiling: it is ended when the guest has shown no sign of life (its
#               console, HOSTDIR's files, the command's output) for SECS (default 300); a
#               guest that keeps working is never cut short   -e VAR=VAL  environment for the command
#   -m SIZE     guest memory (default 1024M)   -c N  vCPUs (default: the host's, at most 4)
#   -v          copy the guest's console to stderr while it runs
# Exit status: the command's; 124 when the guest hung (no sign of life for -t SECS); 125 when the VM or its setup failed.
# Environment: VHIST_CAMERA_VM_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/vhist-camera-vm);
#   VHIST_CAMERA_VM_KERNEL_PKG, the kernel package (default: the cached one, else what
#   linux-image-amd64 depends on; scripts/setup.sh resolves it alike); VHIST_CAMERA_VM_CPU, the
#   emulated CPU model (default max,-avx2: see accelerator); VHIST_CAMERA_VM_ACCEL=tcg|kvm.
# Host packages: qemu-system-x86 busybox-static cpio kmod (scripts/setup.sh --test installs them).
set -u -o pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

cache=${VHIST_CAMERA_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vhist-camera-vm}
vivid_params="n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0"
loopback_params="" timeout_s=300 memory=1024M cpus="" verbose=0 prepare_only=0
guest_env=() rest=() accel=() qemu=()

say() { echo "vm_run.sh: $*" >&2; }
fail() { say "$*"; exit 125; }
usage() { sed -n '2,/^set -u/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

parse_args() {
    while [ $# -gt 0 ]; do
        case $1 in
            -p|-l|-t|-e|-m|-c) [ $# -ge 2 ] || fail "option $1 needs a value" ;;&
            -p) vivid_params=$2; shift 2 ;;
            -l) loopback_params=$2; shift 2 ;;
            -t) timeout_s=$2; shift 2 ;;
            -e) [[ $2 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || fail "-e wants VAR=VALUE, not $2"
                guest_env+=("$2"); shift 2 ;;
            -m) memory=$2; shift 2 ;;
            -c) cpus=$2; shift 2 ;;
            -v) verbose=1; shift ;;
            --prepare) prepare_only=1; shift ;;
            -h|--help) usage; exit 0 ;;
            --) shift; break ;;
            -*) fail "unknown option $1 (-h for help)" ;;
            *) break ;;
        esac
    done
    rest=("$@")
}

static_busybox() {
    local b
    for b in /bin/busybox /usr/bin/busybox; do
        if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then echo "$b"; return 0; fi
    done
    return 1
}

check_host_tools() {
    local missing=() t
    for t in qemu-system-x86_64:qemu-system-x86 cpio:cpio depmod:kmod flock:util-linux; do
        command -v "${t%%:*}" >/dev/null || missing+=("${t#*:}")
    done
    static_busybox >/dev/null || missing+=(busybox-static)
    [ ${#missing[@]} -eq 0 ] ||
        fail "missing host packages: ${missing[*]} (apt-get install -y --no-install-recommends ${missing[*]})"
}

# The kernel package to boot: the one asked for, else the cached one, else Debian's current one.
kernel_package() {
    local pkg=${VHIST_CAMERA_VM_KERNEL_PKG:-}
    if [ -z "$pkg" ] && [ -s "$cache/ready" ]; then pkg=$(cut -d' ' -f1 "$cache/ready"); fi
    [ -n "$pkg" ] || pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
        awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
    [ -n "$pkg" ] || fail "cannot tell which kernel linux-image-amd64 is (run apt-get update)"
    echo "$pkg"
}

# Unpacks the package into $cache/kernel, with a modules.dep; writes $cache/vmlinuz and kver.
unpack_kernel() {
    local pkg=$1 k=$cache/kernel kver debs
    debs=("$cache/$pkg"_*.deb)
    if [ ! -f "${debs[0]}" ]; then
        (cd "$cache" && apt-get download "$pkg") > "$cache/download.log" 2>&1 ||
            fail "apt-get download $pkg failed: $(tail -n 2 "$cache/download.log")"
        debs=("$cache/$pkg"_*.deb)
    fi
    rm -rf "$k"
    dpkg-deb -x "${debs[0]}" "$k" || fail "dpkg-deb could not unpack ${debs[0]}"
    kver=$(find "$k/lib/modules" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | head -n 1)
    [ -f "$k/boot/vmlinuz-${kver:-none}" ] || fail "no kernel and modules in ${debs[0]}"
    depmod -b "$k" "$kver" || fail "depmod failed on $kver"
    cp "$k/boot/vmlinuz-$kver" "$cache/vmlinuz" && echo "$kver" > "$cache/kver"
}

# The initramfs: busybox, the guest's /init and the modules the guest needs, with their deps.
build_initramfs() {
    local k=$cache/kernel ir=$cache/initramfs kver m f
    kver=$(cat "$cache/kver")
    rm -rf "$ir" && mkdir -p "$ir"/{bin,dev,proc,sys,ctl,lower,upper,newroot} "$ir/lib/modules/$kver"
    cp "$(static_busybox)" "$ir/bin/busybox"
    for m in virtio_pci virtio_rng 9pnet_virtio 9p overlay vivid; do
        modprobe -d "$k" -S "$kver" --show-depends "$m"
    done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r f; do
        mkdir -p "$(dirname "$ir${f#"$k"}")" && cp "$f" "$ir${f#"$k"}"
    done || fail "could not collect the guest's kernel modules"
    cp "$k/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$ir/lib/modules/$kver/"
    depmod -b "$ir" "$kver" || fail "depmod failed on the initramfs"
    guest_init > "$ir/init" && chmod 755 "$ir/init"
    (cd "$ir" && find . | cpio -o -H newc --quiet | gzip -1) > "$cache/initramfs.gz" ||
        fail "could not pack the initramfs"
    rm -rf "$k" "$ir"
}

# $cache/ready holds "PACKAGE INIT_HASH": a new kernel or a changed /init rebuilds the cache.
prepare_kernel() {
    local pkg stamp
    pkg=$(kernel_package) || exit 125
    stamp="$pkg $(guest_init | md5sum | cut -c1-12)"
    [ "$(cat "$cache/ready" 2>/dev/null)" = "$stamp" ] && [ -s "$cache/initramfs.gz" ] && return 0
    say "preparing $cache with $pkg"
    rm -f "$cache/ready"
    unpack_kernel "$pkg"
    build_initramfs
    echo "$stamp" > "$cache/ready"
}

# v4l2loopback.ko for the guest's kernel, built on the host against that kernel's headers.
prepare_loopback() {
    local kver d srcs t
    kver=$(cat "$cache/kver")
    [ -f "$cache/v4l2loopback-$kver.ko" ] && return 0
    [ -f "/lib/modules/$kver/build/Makefile" ] ||
        fail "-l needs the guest kernel's headers: apt-get install -y --no-install-recommends linux-headers-$kver"
    for t in make gcc; do command -v $t >/dev/null || fail "-l needs make and gcc"; done
    say "preparing v4l2loopback for $kver"
    d=$cache/v4l2loopback-build
    rm -rf "$d" && mkdir -p "$d"
    (cd "$d" && apt-get download v4l2loopback-dkms) > "$d/download.log" 2>&1 ||
        fail "apt-get download v4l2loopback-dkms failed: $(tail -n 2 "$d/download.log")"
    dpkg-deb -x "$d"/v4l2loopback-dkms_*.deb "$d/pkg" || fail "could not unpack v4l2loopback-dkms"
    srcs=("$d"/pkg/usr/src/v4l2loopback-*)
    make -C "/lib/modules/$kver/build" M="${srcs[0]}" modules > "$d/build.log" 2>&1 ||
        fail "building v4l2loopback failed: $(tail -n 2 "$d/build.log") (log: $d/build.log)"
    cp "${srcs[0]}/v4l2loopback.ko" "$cache/v4l2loopback-$kver.ko" && rm -rf "$d"
}

# Prepares under a lock, so that runs started together prepare once; the lock is let go before
# the VM starts, so they then boot side by side.
prepare_cache() {
    mkdir -p "$cache" || fail "cannot create $cache"
    exec 9> "$cache/lock"
    flock 9 || fail "cannot lock $cache/lock"
    prepare_kernel
    [ -z "$loopback_params" ] || prepare_loopback
    exec 9>&-
}

# The guest's /init, a busybox sh script. It reads its settings from the control share (ctl):
# GUEST_DIR, GUEST_VIVID, GUEST_LOOPBACK; it leaves the command's output and status there.
guest_init() {
    cat <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
echo 1 > /proc/sys/kernel/printk
abort() { echo "guest: $*"; echo "$*" > /ctl/error; echo 125 > /ctl/rc; sync; poweroff -f; }
settle() { n=0; until "$@"; do n=$((n + 1)); [ $n -le 500 ] || return 1; usleep 20000; done; }  # up to 10 s
for m in virtio_pci 9pnet_virtio 9p overlay; do modprobe $m || abort "cannot load $m"; done
modprobe virtio_rng
p9=trans=virtio,version=9p2000.L,msize=512000
# The 9p devices turn up a little after virtio_pci has loaded.
settle mount -t 9p -o $p9,cache=mmap ctl /ctl 2>/dev/null || abort "no control share"
. /ctl/vars
mount -t 9p -o $p9,ro,cache=loose hostroot /lower || abort "cannot mount the host's /"
mount -t tmpfs -o mode=755 tmpfs /upper && mkdir /upper/data /upper/work
R=/newroot
if ! mount -t overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work overlay $R; then
  echo "guest: no overlay on 9p; a read-only root with tmpfs on the places written to"
  R=/lower
  for d in root var/tmp var/lib var/cache; do [ -d $R/$d ] && mount -t tmpfs tmpfs $R/$d; done
fi
for fs in proc:proc sysfs:sys devtmpfs:dev devpts:dev/pts tmpfs:dev/shm tmpfs:tmp tmpfs:run; do
  mkdir -p $R/${fs#*:}; mount -t ${fs%%:*} ${fs%%:*} $R/${fs#*:}
done
mkdir -p $R/run/vm-ctl && mount --bind /ctl $R/run/vm-ctl
mount --bind /lib/modules $R/lib/modules   # so that modprobe works in the guest's root
mkdir -p "$R$GUEST_DIR" && mount -t 9p -o $p9,cache=none work "$R$GUEST_DIR" ||
  abort "cannot mount $GUEST_DIR"
if [ "$GUEST_VIVID" != none ]; then
  modprobe vivid $GUEST_VIVID || abort "cannot load vivid $GUEST_VIVID"
  settle [ -e /dev/video0 ] || abort "vivid made no /dev/video0"
fi
if [ -n "$GUEST_LOOPBACK" ]; then
  modprobe videodev && insmod /ctl/v4l2loopback.ko $GUEST_LOOPBACK ||
    abort "cannot load v4l2loopback $GUEST_LOOPBACK"
fi
echo "guest: ready at $(cut -d' ' -f1 /proc/uptime) s with" /dev/video*
chroot $R /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  HOME=/root TERM=dumb LANG=C.UTF-8 /bin/bash /run/vm-ctl/cmd </dev/null >/ctl/stdout 2>/ctl/stderr
echo $? > /ctl/rc
echo "guest: the command exited with $(cat /ctl/rc) at $(cut -d' ' -f1 /proc/uptime) s"
sync; poweroff -f
EOF
}

# The control share: the guest's settings (vars), the command as a bash script (cmd), the module.
write_control() {
    local e
    printf 'GUEST_DIR=%q\nGUEST_VIVID=%q\nGUEST_LOOPBACK=%q\n' "$hostdir" "$vivid_params" \
        "$loopback_params" > "$ctl/vars"
    {
        printf 'cd %q || exit 125\n' "$hostdir"
        for e in "${guest_env[@]}"; do printf 'export %q=%q\n' "${e%%=*}" "${e#*=}"; done
        if [ $# -eq 1 ]; then printf '%s\n' "$1"; else printf 'exec'; printf ' %q' "$@"; echo; fi
    } > "$ctl/cmd"
    : > "$ctl/stdout" && : > "$ctl/stderr"
    [ -z "$loopback_params" ] || cp "$cache/v4l2loopback-$(cat "$cache/kver").ko" "$ctl/v4l2loopback.ko"
}

# KVM only where /dev/kvm is hardware-assisted (kvm_intel, kvm_amd): with kvm_pvm (nested, no
# VT-x or AMD-V) a stock Debian kernel hangs at boot, so there QEMU emulates the CPU (TCG), as
# "max" minus AVX2: QEMU before 8.2.7 (Debian 12 has 7.2) mis-decodes AVX2 gathers whose index
# register is xmm4/ymm4 (QEMU issue 2474, "target/i386: Fix VSIB decode"); lavapipe's LLVM JIT
# emits them, so programs drawing through lavapipe in the guest would crash or misread at random.
accelerator() {
    local choice=${VHIST_CAMERA_VM_ACCEL:-tcg}
    if [ -z "${VHIST_CAMERA_VM_ACCEL:-}" ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
        { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then choice=kvm; fi
    case $choice in
        kvm) accel=(-accel kvm -cpu host) ;;
        tcg) accel=(-accel "tcg,thread=multi,tb-size=256" -cpu "${VHIST_CAMERA_VM_CPU:-max,-avx2}") ;;
        *) fail "VHIST_CAMERA_VM_ACCEL is tcg or kvm, not $choice" ;;
    esac
}

# share TAG DIR OPTIONS: a 9p share of DIR for the guest (a comma in DIR is doubled for QEMU).
share() {
    qemu+=(-fsdev "local,id=$1,path=${2//,/,,},$3" -device "virtio-9p-pci,fsdev=$1,mount_tag=$1")
}

boot_vm() {
    local status
    [ -n "$cpus" ] || { cpus=$(nproc); [ "$cpus" -le 4 ] || cpus=4; }
    accelerator
    qemu=(qemu-system-x86_64 "${accel[@]}" -m "$memory" -smp "$cpus" -nodefaults -no-user-config
        -no-reboot -display none -serial stdio -monitor none -device virtio-rng-pci
        -kernel "$cache/vmlinuz" -initrd "$cache/initramfs.gz"
        -append "console=ttyS0 panic=-1 quiet loglevel=1 rdinit=/init")
    share hostroot / security_model=none,readonly=on,multidevs=remap
    share work "$hostdir" security_model=passthrough,multidevs=remap
    share ctl "$ctl" security_model=passthrough
    : > "$ctl/console"
    bash "$here/../stall_limit.sh" "$timeout_s" "$ctl" "$hostdir" -- "${qemu[@]}" </dev/null 2>&1 |
        if [ "$verbose" = 1 ]; then tee "$ctl/console" >&2; else cat > "$ctl/console"; fi
    status=${PIPESTATUS[0]}
    cat "$ctl/stdout"; cat "$ctl/stderr" >&2
    finish "$status"
}

console_tail() { say "the guest's console ended with:"; tail -n "$1" "$ctl/console" | tr -d '\r' >&2; }

# Exits with the command's status, or 124 (time limit) or 125 (no status from the guest).
finish() {
    if [ "$1" = 124 ] || [ "$1" = 137 ]; then
        say "the guest showed no sign of life for $timeout_s s (a hang)"; console_tail 20; exit 124
    fi
    [ -s "$ctl/rc" ] || { say "the guest reported no exit status (QEMU exited with $1)"; console_tail 30; exit 125; }
    [ ! -s "$ctl/error" ] || { say "the guest's setup failed: $(cat "$ctl/error")"; console_tail 30; }
    exit "$(cat "$ctl/rc")"
}

parse_args "$@"
set -- "${rest[@]}"
if [ "$prepare_only" = 0 ]; then
    [ $# -ge 2 ] || fail "usage: vm_run.sh [options] HOSTDIR [--] CMD [ARGS...] (-h for help)"
    hostdir=$(cd "$1" 2>/dev/null && pwd -P) || fail "HOSTDIR $1 is not a directory"
    shift; [ "$1" != -- ] || shift
    [ $# -ge 1 ] || fail "no command given"
fi
[ "$(id -u)" = 0 ] || fail "must run as root (QEMU shares the host's / with the guest)"
check_host_tools
prepare_cache
[ "$prepare_only" = 0 ] || exit 0
ctl=$(mktemp -d -t vm_run.XXXXXX) || fail "mktemp failed"
trap 'rm -rf "$ctl"' EXIT
write_control "$@"
boot_vm
