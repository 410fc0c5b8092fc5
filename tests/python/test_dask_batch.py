"""python3 -m vhist.dask_batch on a real Dask cluster on loopback: a `dask-scheduler` and two
`dask-worker` processes (no nanny: a killed worker is gone for good, its tasks must run on the
other). A batch of generated clips and a corrupt file; one worker is killed (SIGKILL) while its
vhist runs. The table must have exactly one row per input, the corrupt one an error row, and
the same numbers as the command line's own `vhist batch`."""
import csv
import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from conftest import PYTHON_DIR, make_clip

SCHEDULER = "/usr/bin/dask-scheduler"
WORKER = "/usr/bin/dask-worker"
# Clips long enough that one input's batch takes about a second here (2 cores, lavapipe): cuts
# (stream copies, a key frame each second) of two sources, each input a different length.
BASES = ("testsrc2", "smptebars")
# A sanitizer build's vhist runs this batch about six times slower (195 s against 33 s): there
# (VHIST_TEST_SANITIZED=1, set by tests/CMakeLists.txt) the clips are a fifth as long, so one
# input still takes about a second, long enough to be caught running; the code paths are the same.
SCALE = 0.2 if os.environ.get("VHIST_TEST_SANITIZED") == "1" else 1.0
LENGTHS = tuple(round(seconds * SCALE, 1) for seconds in (17, 22, 14, 20, 25, 15, 21))


def stop(processes):
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_for(what, condition, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


class Cluster:
    def __init__(self, address, workers, logs):
        self.address = address
        self.workers = workers  # name -> Popen
        self.logs = logs


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two workers (w1, w2), one thread each, on 127.0.0.1; all stopped after
    the test, also when it fails. The workers get no PYTHONPATH: they import nothing of vhist
    (the task is shipped by value)."""
    for exe in (SCHEDULER, WORKER):
        if not os.access(exe, os.X_OK):
            pytest.fail(f"{exe} is missing: install python3-distributed (scripts/setup.sh --test)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["DASK_DISTRIBUTED__WORKER__DAEMON"] = "False"
    processes = []
    logs = tmp_path / "dask-logs"
    logs.mkdir()
    try:
        scheduler_file = tmp_path / "scheduler.json"
        processes.append(subprocess.Popen(
            [SCHEDULER, "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(scheduler_file)], env=env, stdin=subprocess.DEVNULL,
            stdout=open(logs / "scheduler.log", "w"), stderr=subprocess.STDOUT))
        wait_for("the scheduler's address", scheduler_file.exists)
        address = wait_for("the scheduler file", lambda: json.loads(
            scheduler_file.read_text() or "{}").get("address"))
        workers = {}
        for name in ("w1", "w2"):
            workers[name] = subprocess.Popen(
                [WORKER, address, "--nworkers", "1", "--nthreads", "1", "--no-nanny",
                 "--name", name, "--host", "127.0.0.1", "--no-dashboard",
                 "--local-directory", str(tmp_path / f"dask-{name}")], env=env,
                stdin=subprocess.DEVNULL, stdout=open(logs / f"{name}.log", "w"),
                stderr=subprocess.STDOUT)
            processes.append(workers[name])
        yield Cluster(address, workers, logs)
    finally:
        stop(processes)


@pytest.fixture
def batch_inputs(tmp_path):
    """A folder of seven clips (640x360, 14 to 25 s, or a fifth of that: SCALE) and a corrupt file."""
    folder = tmp_path / "clips"
    folder.mkdir()
    bases = [make_clip(tmp_path / f"{source}.mp4", size="640x360", seconds=max(LENGTHS),
                       source=source, extra=("-preset", "ultrafast", "-g", "25"))
             for source in BASES]
    for i, seconds in enumerate(LENGTHS):
        subprocess.run(["ffmpeg", "-v", "error", "-i", bases[i % len(bases)], "-t", str(seconds),
                        "-c", "copy", str(folder / f"clip{i}.mp4")], check=True)
    (folder / "corrupt.mp4").write_bytes(bytes((i * 7919 + 13) % 251 for i in range(40000)))
    return folder


def vhist_children(process):
    try:
        return [p for p in psutil.Process(process.pid).children(recursive=True)
                if "vhist" in " ".join(p.cmdline()[:1]) or "batch" in p.cmdline()]
    except psutil.NoSuchProcess:
        return []


def kill_worker_while_it_runs_vhist(cluster, name):
    """Waits until worker `name` runs a task's vhist, then kills the worker with SIGKILL;
    returns vhist's processes there (which must end: they were the lost worker's) and their
    command lines."""
    worker = cluster.workers[name]
    running = []
    while not running:  # a vhist that has run a while, not one ending between two tasks
        wait_for(f"{name} to run vhist", lambda: vhist_children(worker), timeout=90)
        time.sleep(0.3)
        running = vhist_children(worker)
    commands = [p.cmdline() for p in running]
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=10)
    assert running, f"{name}'s vhist ended before the kill"
    return running, commands


def read_table(out):
    with open(out / "summary.jsonl", encoding="utf-8") as file:
        rows = [json.loads(line) for line in file]
    with open(out / "summary.csv", encoding="utf-8", newline="") as file:
        table = list(csv.reader(file))
    return rows, table


def test_dask_batch_survives_a_lost_worker(vhist_exe, cluster, batch_inputs, tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.path.abspath(PYTHON_DIR)}
    started = time.monotonic()
    batch = subprocess.Popen(
        [sys.executable, "-m", "vhist.dask_batch", "--scheduler", cluster.address,
         str(batch_inputs), "--out", str(out), "--vhist", vhist_exe], env=env,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        orphans, commands = kill_worker_while_it_runs_vhist(cluster, "w1")
        stdout, stderr = batch.communicate(timeout=150)
    finally:
        stop([batch])
    seconds = time.monotonic() - started
    stderr = stderr.decode()
    # The lost worker's vhist was stopped with it (no analysis left running on the dead worker).
    gone, alive = psutil.wait_procs(orphans, timeout=10)
    alive = [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not alive, f"the killed worker's vhist still runs: {alive}"
    assert batch.returncode == 1, stderr  # the corrupt file is an error row
    assert "8/8 files" in stderr, stderr

    plan = [json.loads(line) for line in subprocess.run(
        [vhist_exe, "batch", "--plan", str(batch_inputs), "--out", str(out)],
        check=True, capture_output=True).stdout.decode().splitlines()]
    rows, table = read_table(out)
    # Every input is complete but the corrupt one (an error is tried again by the next run).
    assert [item["key"] for item in plan if not item["done"]] == ["corrupt.mp4"]
    assert [row["input"] for row in rows] == [item["input"] for item in plan]
    assert len({row["input"] for row in rows}) == 8 and len(table) == 1 + 8
    errors = [row for row in rows if row["status"] != "ok"]
    assert [row["key"] for row in errors] == ["corrupt.mp4"]
    assert "not a video" in errors[0]["error"]
    # The input whose analysis was killed with its worker was analyzed again, elsewhere.
    killed = {plan_item["input"] for plan_item in plan
              for command in commands if plan_item["input"] in command}
    assert len(killed) == 1, commands
    # Each vhist got its share of the cores: two one-thread workers on this machine.
    share = str(max(1, len(os.sched_getaffinity(0)) // 2))
    assert any(c[c.index("--threads") + 1] == share for c in commands if "--threads" in c), commands
    assert sum(row["input"] in killed for row in rows) == 1

    # The same numbers as the command line's own batch of the same folder.
    local = tmp_path / "local"
    done = subprocess.run([vhist_exe, "batch", str(batch_inputs), "--out", str(local), "-q",
                           "--jobs", "2"], capture_output=True)
    assert done.returncode == 1, done.stderr.decode()
    local_rows, local_table = read_table(local)
    assert table[0] == local_table[0]  # the CLI's columns, in its order
    # What differs by design: the wall time, when and where it ran, and the command (the outputs'
    # paths).
    volatile = ("seconds", "run", "command")
    columns = [table[0].index(name) for name in volatile]
    for ours, theirs in zip(table[1:], local_table[1:]):
        assert [c for i, c in enumerate(ours) if i not in columns] == \
               [c for i, c in enumerate(theirs) if i not in columns]
    for ours, theirs in zip(rows, local_rows):
        assert list(ours) == list(theirs)
        assert {k: v for k, v in ours.items() if k not in volatile} == \
               {k: v for k, v in theirs.items() if k not in volatile}
    print(f"dask batch with a lost worker: {seconds:.1f} s\n{stderr}")

    # Run again: everything is done, nothing is submitted, the same table is written.
    before = (out / "summary.jsonl").read_bytes()
    again = subprocess.run([sys.executable, "-m", "vhist.dask_batch", "--scheduler",
                            cluster.address, str(batch_inputs), "--out", str(out),
                            "--vhist", vhist_exe], env=env, capture_output=True, timeout=60)
    assert again.returncode == 1
    assert "7 already done, 1 to analyze" in again.stderr.decode()
    after = (out / "summary.jsonl").read_bytes().splitlines()
    assert after[:-1] == before.splitlines()[:-1] and b'"status":"error"' in after[-1]

    # The good inputs alone (a --list of them, all done): no error, so the status is 3 when one
    # of them failed its QC checks (the SMPTE bars pass R 103, testsrc2's saturated colours not).
    good = tmp_path / "good.txt"
    good.write_text("".join(row["input"] + "\n" for row in rows if row["status"] == "ok"))
    verdicts = {row["qc"] for row in rows if row["status"] == "ok"}
    assert verdicts == {"pass", "fail"}
    listed = subprocess.run([sys.executable, "-m", "vhist.dask_batch", "--scheduler",
                             cluster.address, "--list", str(good), "--out", str(out),
                             "--vhist", vhist_exe, "-q"], env=env, capture_output=True, timeout=60)
    assert listed.returncode == 3, listed.stderr.decode()
    assert len((out / "summary.jsonl").read_text().splitlines()) == 7


def test_dask_batch_usage_errors(vhist_exe, clips, tmp_path):
    env = {**os.environ, "PYTHONPATH": os.path.abspath(PYTHON_DIR)}

    def run(*args):
        done = subprocess.run([sys.executable, "-m", "vhist.dask_batch", *args], env=env,
                              capture_output=True, timeout=60)
        return done.returncode, done.stderr.decode()

    out = str(tmp_path / "out")
    status, said = run("--scheduler", "tcp://127.0.0.1:9", "--out", out)
    assert status == 2 and "no inputs" in said
    status, said = run("--scheduler", "tcp://127.0.0.1:9", clips["short"], "--out", out,
                       "--vhist", vhist_exe, "--bins", "3")
    assert status == 2 and "--bins needs a power of two" in said and not os.path.exists(out)
    # Nothing listens on port 9 (discard): the scheduler cannot be reached.
    status, said = run("--scheduler", "tcp://127.0.0.1:9", clips["short"], "--out", out,
                       "--vhist", vhist_exe, "--timeout", "2")
    assert status == 2 and "cannot reach the Dask scheduler tcp://127.0.0.1:9" in said, said
