# Sourced by the scripts that run in the camera VM's guest (in_vm.sh, mjpeg.sh): Mesa's shader
# cache for lavapipe there. Never the host's: lavapipe's cached code is built for the CPU that
# compiled it, and the host's crashed the emulated guest CPU once (SIGSEGV in JIT code). With
# VHIST_GUEST_SHADER_CACHE (a folder in the shared work folder; run_vivid_tests.sh keeps it in
# the build folder between runs) the guest's own is used: copied to the guest's /tmp (a tmpfs:
# Mesa maps its cache index shared, which the 9p share does not allow, so it stays empty there)
# and back by save_guest_shader_cache, trapped at EXIT here (a script with its own EXIT trap calls
# it there). Without it, none.
save_guest_shader_cache() { :; }
if [ -n "${VHIST_GUEST_SHADER_CACHE:-}" ] && mkdir -p /tmp/mesa-cache &&
    cp -a "$VHIST_GUEST_SHADER_CACHE/." /tmp/mesa-cache/; then
    export MESA_SHADER_CACHE_DIR=/tmp/mesa-cache
    unset MESA_SHADER_CACHE_DISABLE
    save_guest_shader_cache() { cp -a /tmp/mesa-cache/. "$VHIST_GUEST_SHADER_CACHE/"; }
else
    export MESA_SHADER_CACHE_DISABLE=true
fi
trap save_guest_shader_cache EXIT
