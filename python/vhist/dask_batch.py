"""`python3 -m vhist.dask_batch --scheduler tcp://HOST:8786 INPUT... --out DIR`: `vhist batch`
with one Dask task per input, run by a Dask distributed cluster's workers.

The plan (`vhist batch --plan`) is made here; each input not yet done becomes one task
(vhist._task.run_input: `vhist batch INPUT --out DIR --key KEY -q` on a worker) whose result is
the input's row. DIR must be the same path on every worker (a shared file system): the records
and row files are written there by the workers, the summary tables here. A worker lost mid-run
makes the scheduler run its tasks again elsewhere; rows are kept by input, so each input has
exactly one row. Exit status as `vhist batch`'s: 0, 3 (QC failed), 1 (an input errored),
2 (bad usage, no inputs, no scheduler).
"""
import argparse
import json
import os
import subprocess
import sys
import time

from . import _task, rows as tables
from ._exe import VhistError, find_vhist, stderr_message

PASS_THROUGH = ("--engine", "--hwdec", "--device", "--bins", "--threads", "--profile", "--fail")


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="python3 -m vhist.dask_batch",
        description="vhist batch over a Dask distributed cluster: one task per input file; the "
                    "output directory must be shared by every worker (same path).")
    parser.add_argument("inputs", nargs="*", metavar="INPUT",
                        help="video files or directories (searched as vhist batch does)")
    parser.add_argument("--scheduler", required=True, metavar="ADDRESS",
                        help="the Dask scheduler, e.g. tcp://host:8786")
    parser.add_argument("--out", required=True, metavar="DIR", help="output directory (shared)")
    parser.add_argument("--list", metavar="FILE", help="more inputs, one path a line ('-': stdin)")
    parser.add_argument("--ext", help="file extensions searched in directories (vhist batch's)")
    parser.add_argument("--vhist", help="the vhist executable, the same path on every worker "
                                        "(default: $VHIST, else vhist on PATH)")
    parser.add_argument("--force", action="store_true", help="analyze complete inputs again")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--timeout", type=float, default=30, metavar="SECONDS",
                        help="how long to try reaching the scheduler (default 30)")
    for option in PASS_THROUGH:
        parser.add_argument(option, help="passed to vhist batch")
    args = parser.parse_args(argv)
    if not args.inputs and not args.list:
        parser.error("no inputs: give files or directories, or --list FILE")
    return args


def vhist_options(args):
    options = []
    for option in PASS_THROUGH:
        value = getattr(args, option[2:])
        if value is not None:
            options += [option, value]
    return options


def get_plan(vhist, args):
    """vhist batch --plan's objects, one per input, in input order."""
    command = [vhist, "batch", "--plan", "--out", args.out, "-q"]
    if args.list:
        command += ["--list", args.list]
    if args.ext:
        command += ["--ext", args.ext]
    command += vhist_options(args) + ["--"] + args.inputs
    stdin = sys.stdin if args.list == "-" else subprocess.DEVNULL
    done = subprocess.run(command, stdin=stdin, capture_output=True, check=False)
    if done.returncode != 0:
        raise VhistError(stderr_message(done.stderr.decode("utf-8", "replace")),
                         done.returncode, command)
    return [json.loads(line) for line in done.stdout.decode("utf-8").splitlines() if line]


def complete_row(text, item):
    """(line, dict) for a row text; a row missing columns (made by a task that could not run
    vhist) gets the others as null and is written from its dict."""
    row = tables.parse_row(text)
    if all(c in row for c in tables.ROW_COLUMNS):
        return text, row
    return None, {**tables.error_row(item["input"], item["key"], ""), **row}


def progress(done, total, started, item, row):
    elapsed = time.monotonic() - started
    eta = elapsed / done * (total - done)
    status = row.get("status")
    verdict = f"qc {row.get('qc')}" if status == "ok" else \
        f"partial (damaged input), qc {row.get('qc')}" if status == "partial" else status
    print(f"vhist.dask_batch: {done}/{total} files, {elapsed:.1f} s, ETA {eta:.0f} s: "
          f"{item['key']}: {verdict}", file=sys.stderr, flush=True)


def worker_vhist(args):
    """The executable the workers run: a bare name (vhist) is looked up on each worker's PATH;
    a path is made absolute here (the same path on every machine)."""
    given = args.vhist or os.environ.get("VHIST") or "vhist"
    return os.path.abspath(given) if "/" in given else given


def run_tasks(client, vhist, args, todo):
    """Submits one task per plan item of todo (`vhist`: the workers' executable) and gathers
    their rows: {input: (line, row)}."""
    from distributed import as_completed
    from distributed.protocol.pickle import cloudpickle
    cloudpickle.register_pickle_by_value(_task)  # the workers need no vhist package

    options = vhist_options(args) + (["--force"] if args.force else [])
    host_threads = {}
    for worker in client.scheduler_info()["workers"].values():
        host_threads[worker["host"]] = host_threads.get(worker["host"], 0) + worker["nthreads"]
    futures = {}
    for item in todo:
        future = client.submit(_task.run_input, vhist, item["input"], args.out, item["key"],
                               options, host_threads, pure=False,
                               key=f"vhist-batch-{item['key']}-{os.urandom(4).hex()}")
        futures[future] = item
    results = {}
    started = time.monotonic()
    for future in as_completed(futures):
        item = futures[future]
        try:
            line, row = complete_row(future.result(), item)
        except Exception as error:  # the task itself failed: KilledWorker, a lost scheduler
            why = f"the Dask task failed: {type(error).__name__}: {error}"
            line, row = None, tables.error_row(item["input"], item["key"], why)
        if item["input"] in results:  # as_completed yields each future once; keep the first
            continue
        results[item["input"]] = (line, row)
        if not args.quiet:
            progress(len(results), len(todo), started, item, row)
    return results


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        vhist = find_vhist(args.vhist)
        args.out = os.path.abspath(args.out)
        plan = get_plan(vhist, args)
        os.makedirs(args.out, exist_ok=True)
    except VhistError as error:
        print(f"vhist.dask_batch: {error}", file=sys.stderr)
        return 2 if error.status in (None, 2) else error.status
    if not plan:
        print("vhist.dask_batch: no inputs found", file=sys.stderr)
        return 2
    found = {}
    todo = []
    for item in plan:
        if item["done"] and not args.force:
            try:
                found[item["input"]] = tables.read_row(item["row"])
                continue
            except (OSError, ValueError):
                pass  # an unreadable row: analyze it again
        todo.append(item)
    if not args.quiet:
        print(f"vhist.dask_batch: {len(plan)} inputs, {len(plan) - len(todo)} already done, "
              f"{len(todo)} to analyze on {args.scheduler}", file=sys.stderr, flush=True)
    if todo:
        from distributed import Client
        try:
            client = Client(args.scheduler, timeout=args.timeout)
        except (OSError, TimeoutError, ValueError) as error:
            print(f"vhist.dask_batch: cannot reach the Dask scheduler {args.scheduler}: {error} "
                  "(is dask-scheduler running there, and the port open?)", file=sys.stderr)
            return 2
        with client:
            try:
                found.update(run_tasks(client, worker_vhist(args), args, todo))
            except KeyboardInterrupt:
                print(f"vhist.dask_batch: interrupted; the inputs done so far are in {args.out}: "
                      "run the same command again to go on from there", file=sys.stderr)
                return 130
    table = [found[item["input"]] for item in plan]
    try:
        tables.write_tables(args.out, table)
    except OSError as error:
        print(f"vhist.dask_batch: cannot write the summary tables in {args.out}: "
              f"{error.strerror} ({error.filename or args.out}); the rows are in the row files",
              file=sys.stderr)
        return 1
    return tables.exit_status(table)


if __name__ == "__main__":
    sys.exit(main())
