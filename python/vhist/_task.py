"""The task a Dask worker runs for one input: `vhist batch INPUT --out DIR --key KEY -q`.

Only the standard library: vhist.dask_batch ships this module to the workers by value, so a
worker needs the vhist executable and a Python with Dask, not this package.
"""
import json
import os
import shutil
import socket
import subprocess


def _error_row(input_path, key, message):
    # The columns that say what happened; vhist.rows fills in the others with null.
    return json.dumps({"type": "row", "input": input_path, "key": key, "status": "error",
                       "error": message}, ensure_ascii=False, separators=(",", ":"))


def row_from(stdout, row_path):
    """The row vhist batch --key printed (the last row line on its stdout; an input that could
    not be analyzed has no row file), else its row file, else None."""
    for line in reversed(stdout.decode("utf-8", "replace").splitlines()):
        if line.startswith('{"type":"row"'):
            return line.strip()
    try:
        with open(row_path, encoding="utf-8") as file:
            return file.read().strip() or None
    except OSError:
        return None


def cores_share(host_threads):
    """This machine's cores over the Dask threads on it (all its workers': `host_threads`, host
    -> threads, from the scheduler when the batch started; else this worker's own), as
    `vhist batch --jobs N` gives each file cores / N, so that the files run at once share the
    cores instead of each taking them all."""
    cores = len(os.sched_getaffinity(0))
    try:
        from distributed import get_worker
        worker = get_worker()
        host = worker.address.rsplit(":", 1)[0].split("://", 1)[-1]
        threads = host_threads.get(host) or worker.state.nthreads
    except (ImportError, ValueError, AttributeError):
        threads = 1
    return max(1, cores // max(1, threads))


def run_input(vhist, input_path, out_dir, key, options, host_threads=None):
    """Runs vhist batch for one input on this machine and returns its row line (a failed input
    is a row with "status":"error", never an exception). Without --threads in `options`, vhist
    gets this machine's share of cores (cores_share). vhist gets SIGTERM if this worker dies,
    so a lost worker leaves no analysis running."""
    options = list(options)
    if "--threads" not in options:
        options += ["--threads", str(cores_share(host_threads or {}))]
    command = [vhist, "batch", input_path, "--out", out_dir, "--key", key, "-q"] + options
    setpriv = shutil.which("setpriv")
    if setpriv:  # util-linux: the child is signalled when its parent (this worker) dies
        command = [setpriv, "--pdeathsig", "TERM", "--"] + command
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                              check=False)
    except OSError as error:
        return _error_row(input_path, key, f"cannot run {vhist!r} on {socket.gethostname()}: "
                                           f"{error.strerror}")
    row = row_from(done.stdout, os.path.join(out_dir, key + ".row.json"))
    if row is None:
        said = " ".join(done.stderr.decode("utf-8", "replace").split())
        return _error_row(input_path, key,
                          f"vhist batch exited with status {done.returncode} on "
                          f"{socket.gethostname()} and gave no row: {said or 'no message'}")
    return row
