#!/usr/bin/env bash
# vhist batch as a Slurm job array: one array task per input of a plan, then one job that
# gathers the summary table. The output folder must be on a file system every node sees.
#
#   # 1. the plan, one JSON object per input (on the login node; analyzes nothing)
#   vhist batch --plan /archive/tapes --out /shared/vhist-out > /shared/vhist-out/plan.jsonl
#   # 2. the array: task i analyzes the plan's line i (at most 64 at once here)
#   n=$(wc -l < /shared/vhist-out/plan.jsonl)
#   jid=$(sbatch --parsable --array=1-"$n"%64 scripts/slurm_batch.sh /shared/vhist-out/plan.jsonl /shared/vhist-out)
#   # 3. the table, once every task has ended: inputs with a row are skipped, so this only
#   #    gathers the rows (and analyzes any input whose task died before writing its row)
#   sbatch --dependency=afterany:"$jid" --wrap "vhist batch /archive/tapes --out /shared/vhist-out -q"
#
# Arguments: PLAN OUT [vhist batch options: --engine, --hwdec, --device, --bins, --profile].
# VHIST_LINES_PER_TASK=K (exported into the job: sbatch --export=ALL,VHIST_LINES_PER_TASK=K)
# makes task i take lines (i-1)*K+1 .. i*K, for plans longer than the cluster's MaxArraySize
# (then --array=1-$(( (n + K - 1) / K ))). VHIST: the executable (default: vhist on PATH).
# A task's status is 0 when each of its inputs has its row or could not be analyzed (vhist
# batch's error row, printed to the task's log; such an input has no row file, so the final
# vhist batch tries it once more and puts its error row in the table), else 1.
#SBATCH --job-name=vhist-batch
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
#SBATCH --output=vhist-batch-%A_%a.log
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: slurm_batch.sh PLAN OUT [vhist batch options]" >&2; exit 2; }
plan=$1
out=$2
shift 2
vhist=${VHIST:-vhist}
: "${SLURM_ARRAY_TASK_ID:?slurm_batch.sh runs as a Slurm array task (sbatch --array=1-N)}"
per_task=${VHIST_LINES_PER_TASK:-1}
first=$(( (SLURM_ARRAY_TASK_ID - 1) * per_task + 1 ))
last=$(( first + per_task - 1 ))
status=0
# This task's plan lines as input, key and row, NUL-separated (a name may hold any character but
# NUL); a plan line that cannot be read fails the task.
items=$(mktemp)
trap 'rm -f "$items"' EXIT
sed -n "${first},${last}p" "$plan" | python3 -c '
import json, sys
for line in sys.stdin:
    item = json.loads(line)
    sys.stdout.write("".join(item[k] + "\0" for k in ("input", "key", "row")))' > "$items" ||
  { echo "slurm_batch.sh: cannot read lines $first-$last of the plan '$plan'" >&2; exit 1; }
while IFS= read -r -d '' input && IFS= read -r -d '' key && IFS= read -r -d '' row; do
  # Without --force an input whose row exists is skipped: a requeued task redoes nothing.
  printed=$("$vhist" batch "$input" --out "$out" --key "$key" -q "$@") || true
  [ -s "$row" ] && continue
  if grep -q '^{"type":"row".*"status":"error"' <<<"$printed"; then
    # No row file for an input that cannot be analyzed (vhist batch tries it again next time):
    # the final vhist batch does, and puts its error row in the table.
    echo "slurm_batch.sh: could not analyze '$input': $printed" >&2
  else
    echo "slurm_batch.sh: no row for '$input' (key '$key'): vhist batch failed before writing it" >&2
    status=1
  fi
done < "$items"
exit "$status"
