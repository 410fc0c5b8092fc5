#!/usr/bin/python3
"""Throughput of the Dask batch against the local one (issue 29's target: the Dask batch on one
machine at least 0.9x `vhist batch --jobs 2` with the same parallelism).

Makes CLIPS short clips, starts a Dask scheduler and WORKERS workers of one thread each on
127.0.0.1 (not timed: a cluster outlives a batch), then times alternately
`vhist batch DIR --out A --jobs WORKERS --force -q` and
`python3 -m vhist.dask_batch --scheduler ADDR DIR --out B --force`, RUNS times each, and
prints the medians, the ratio of throughputs (local time / Dask time; also with the Dask
batch's tasks alone, without Python's start and the plan) and, with --serial,
`--jobs 1` too. Every run must give the same table (the seconds column aside).

    VHIST=build/app/vhist /usr/bin/python3 scripts/bench_batch.py [--clips 20] [--runs 3] [--seconds 4] [--serial]
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PYTHON_DIR = os.path.abspath(os.path.join(ROOT, "python"))
sys.path.insert(0, PYTHON_DIR)
from vhist import find_vhist  # noqa: E402


def make_clips(folder, count, seconds, size):
    sources = ["testsrc2", "smptebars", "testsrc", "rgbtestsrc", "yuvtestsrc", "smptehdbars"]
    for i in range(count):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                        f"{sources[i % len(sources)]}=s={size}:r=25:d={seconds}",
                        "-pix_fmt", "yuv420p", "-preset", "ultrafast",
                        os.path.join(folder, f"clip{i:02}.mp4")], check=True)


def start_cluster(folder, workers):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    scheduler_file = os.path.join(folder, "scheduler.json")
    log = open(os.path.join(folder, "dask.log"), "w")
    processes = [subprocess.Popen(["/usr/bin/dask-scheduler", "--host", "127.0.0.1", "--port", "0",
                                   "--no-dashboard", "--scheduler-file", scheduler_file],
                                  env=env, stdout=log, stderr=subprocess.STDOUT)]
    deadline = time.monotonic() + 60
    while not os.path.exists(scheduler_file) or not os.path.getsize(scheduler_file):
        if time.monotonic() > deadline:
            raise SystemExit("bench_batch: the scheduler did not start (dask.log)")
        time.sleep(0.1)
    time.sleep(0.2)
    with open(scheduler_file) as file:
        address = json.load(file)["address"]
    for i in range(workers):
        processes.append(subprocess.Popen(
            ["/usr/bin/dask-worker", address, "--nworkers", "1", "--nthreads", "1", "--no-nanny",
             "--host", "127.0.0.1", "--no-dashboard", "--name", f"w{i}",
             "--local-directory", os.path.join(folder, f"w{i}")],
            env=env, stdout=log, stderr=subprocess.STDOUT))
    from distributed import Client
    with Client(address, timeout="60s") as client:
        client.wait_for_workers(workers, timeout=60)
    return address, processes


def table(out):
    with open(os.path.join(out, "summary.csv"), newline="") as file:
        rows = list(csv.reader(file))
    seconds = rows[0].index("seconds")
    return [row[:seconds] + row[seconds + 1:] for row in rows]


def timed(command, env=None):
    """The command's wall time, and for the Dask batch the time its tasks took (from the first
    submission to the last row: the elapsed seconds of its last progress line)."""
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, capture_output=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 3):
        raise SystemExit(f"bench_batch: {' '.join(command)} exited {done.returncode}: "
                         f"{done.stderr.decode()}")
    tasks = re.findall(r"(\d+)/\1 files, ([0-9.]+) s", done.stderr.decode())
    return elapsed, float(tasks[-1][1]) if tasks else None


def main():
    parser = argparse.ArgumentParser(description="Dask batch against vhist batch --jobs N")
    parser.add_argument("--clips", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--size", default="320x180")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--serial", action="store_true", help="time --jobs 1 as well")
    args = parser.parse_args()
    exe = find_vhist()
    env = {**os.environ, "PYTHONPATH": PYTHON_DIR}
    with tempfile.TemporaryDirectory(prefix="vhist-bench-batch-") as folder:
        clips = os.path.join(folder, "clips")
        os.mkdir(clips)
        make_clips(clips, args.clips, args.seconds, args.size)
        address, processes = start_cluster(folder, args.workers)
        try:
            results = {"local": [], "dask": [], "serial": [], "tasks": []}
            outs = {name: os.path.join(folder, name) for name in ("local", "dask", "serial")}
            commands = {
                "local": [exe, "batch", clips, "--out", outs["local"], "--jobs",
                          str(args.workers), "--force", "-q"],
                "dask": [sys.executable, "-m", "vhist.dask_batch", "--scheduler", address, clips,
                         "--out", outs["dask"], "--vhist", exe, "--force"],
                "serial": [exe, "batch", clips, "--out", outs["serial"], "--jobs", "1",
                           "--force", "-q"]}
            for _ in range(args.runs):
                for name in ("local", "dask") + (("serial",) if args.serial else ()):
                    elapsed, tasks = timed(commands[name], env)
                    results[name].append(elapsed)
                    if name == "dask":
                        results["tasks"].append(tasks)
            if table(outs["local"]) != table(outs["dask"]):
                raise SystemExit("bench_batch: the Dask batch's table differs from vhist batch's")
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait()
    local, dask = statistics.median(results["local"]), statistics.median(results["dask"])
    runs = lambda name: ", ".join(f"{v:.2f}" for v in results[name])  # noqa: E731
    print(f"{args.clips} clips of {args.seconds:g} s at {args.size}, {args.workers} at a time, "
          f"medians of {args.runs} alternating runs ({exe})")
    print(f"vhist batch --jobs {args.workers}: {local:.2f} s ({runs('local')})")
    print(f"vhist.dask_batch, {args.workers} workers: {dask:.2f} s ({runs('dask')})")
    print(f"Dask throughput / local throughput: {local / dask:.3f} (the whole command, Python's "
          "start and Dask's import included)")
    tasks = statistics.median(results["tasks"])
    print(f"  its tasks alone (first submission to last row): {tasks:.2f} s ({runs('tasks')}): "
          f"{local / tasks:.3f}")
    if args.serial:
        serial = statistics.median(results["serial"])
        print(f"vhist batch --jobs 1: {serial:.2f} s ({runs('serial')}); --jobs {args.workers} "
              f"speed-up {serial / local:.2f}x")


if __name__ == "__main__":
    main()
