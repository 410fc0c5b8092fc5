#!/bin/bash
# stall_limit.sh SECONDS PATH... -- COMMAND [ARGS...]: runs COMMAND and returns its exit status,
# unless nothing under the PATHs (files or folders: a viewer's state file, a VM's shared folder
# and console) has changed for SECONDS while it ran: then COMMAND is sent TERM (KILL 10 s later),
# a line on standard error says so, and the status is 124, as timeout(1)'s.
#
# The hang ceiling of the slow tests (the camera VMs): a run that makes progress is never cut
# short however loaded the machine is (a viewer drawing 1 fps writes its state every second),
# and one that stops is ended SECONDS after its last sign of life, not after a guessed total.
# It only bounds a hang; it decides nothing about a test that keeps going.
set -u -o pipefail

usage() { echo "usage: stall_limit.sh SECONDS PATH... -- COMMAND [ARGS...]" >&2; exit 2; }
[ $# -ge 4 ] || usage
limit=$1
shift
[[ "$limit" =~ ^[1-9][0-9]*$ ]] || usage
paths=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do paths+=("$1"); shift; done
[ $# -ge 2 ] && [ ${#paths[@]} -ge 1 ] || usage
shift

"$@" &
child=$!
trap 'kill -TERM "$child" 2> /dev/null' TERM INT

# Anything under the paths modified at or after epoch second $1?
changed_since() { [ -n "$(find "${paths[@]}" -newermt "@$1" -print -quit 2> /dev/null)" ]; }

last=$(date +%s)
while kill -0 "$child" 2> /dev/null; do
    sleep 2
    now=$(date +%s)
    if changed_since "$((now - 3))"; then
        last=$now
    elif [ $((now - last)) -ge "$limit" ]; then
        echo "stall_limit.sh: nothing under ${paths[*]} changed for $limit s: ending $1 (a hang)" >&2
        kill -TERM "$child" 2> /dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$child" 2> /dev/null || break; sleep 1; done
        kill -KILL "$child" 2> /dev/null
        wait "$child" 2> /dev/null
        exit 124
    fi
done
wait "$child"
