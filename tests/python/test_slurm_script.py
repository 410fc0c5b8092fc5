"""scripts/slurm_batch.sh as Slurm would run it (one process per array index, with
SLURM_ARRAY_TASK_ID), then the final vhist batch: the table equals a plain vhist batch's and the
final run analyzes nothing again."""
import json
import os
import shutil
import subprocess

from conftest import HERE, make_clip

SCRIPT = os.path.join(HERE, "..", "..", "scripts", "slurm_batch.sh")


def test_slurm_array_then_final_batch(vhist_exe, clips, tmp_path):
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(clips["short"], folder / "a.mp4")
    make_clip(folder / "sub" / "b b.mp4", size="64x48", seconds=1, source="smptebars")
    shutil.copy(clips["garbage"], folder / "bad.mp4")
    out = tmp_path / "out"
    out.mkdir()
    plan_text = subprocess.run([vhist_exe, "batch", "--plan", str(folder), "--out", str(out)],
                               check=True, capture_output=True).stdout.decode()
    (out / "plan.jsonl").write_text(plan_text)
    plan = [json.loads(line) for line in plan_text.splitlines()]
    assert sorted(item["key"] for item in plan) == ["a.mp4", "bad.mp4", "sub/b b.mp4"]

    env = {**os.environ, "VHIST": vhist_exe}
    for index in range(1, len(plan) + 1):
        task = subprocess.run(["bash", SCRIPT, str(out / "plan.jsonl"), str(out), "--bins", "64"],
                              env={**env, "SLURM_ARRAY_TASK_ID": str(index)}, capture_output=True)
        assert task.returncode == 0, task.stderr.decode()
        if plan[index - 1]["key"] == "bad.mp4":
            assert "could not analyze" in task.stderr.decode()
    # Every good input is done; the final batch only gathers their rows.
    assert {item["key"]: os.path.exists(item["row"]) for item in plan} == \
           {"a.mp4": True, "bad.mp4": False, "sub/b b.mp4": True}
    records = {item["key"]: os.stat(item["records"]).st_mtime_ns for item in plan
               if item["key"] != "bad.mp4"}
    final = subprocess.run([vhist_exe, "batch", str(folder), "--out", str(out), "-q",
                            "--bins", "64"], capture_output=True)
    assert final.returncode == 1, final.stderr.decode()
    assert records == {item["key"]: os.stat(item["records"]).st_mtime_ns for item in plan
                       if item["key"] != "bad.mp4"}

    plain = tmp_path / "plain"
    done = subprocess.run([vhist_exe, "batch", str(folder), "--out", str(plain), "-q",
                           "--bins", "64"], capture_output=True)
    assert done.returncode == 1

    def rows(path):
        # Without what differs by design: wall time, when and where, the command's paths.
        return [{k: v for k, v in json.loads(line).items() if k not in ("seconds", "run", "command")}
                for line in (path / "summary.jsonl").read_text().splitlines()]
    assert rows(out) == rows(plain) and len(rows(out)) == 3

    # Outside an array (no SLURM_ARRAY_TASK_ID) the script refuses to run.
    alone = subprocess.run(["bash", SCRIPT, str(out / "plan.jsonl"), str(out)], env=env,
                           capture_output=True)
    assert alone.returncode != 0 and b"SLURM_ARRAY_TASK_ID" in alone.stderr


def test_slurm_lines_per_task(vhist_exe, clips, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("1.mp4", "2.mp4", "3.mp4"):
        shutil.copy(clips["short"], folder / name)
    out = tmp_path / "out"
    out.mkdir()
    plan_text = subprocess.run([vhist_exe, "batch", "--plan", str(folder), "--out", str(out)],
                               check=True, capture_output=True).stdout.decode()
    (out / "plan.jsonl").write_text(plan_text)
    env = {**os.environ, "VHIST": vhist_exe, "VHIST_LINES_PER_TASK": "2"}
    done = []
    for index in (1, 2):  # lines 1-2, then line 3 (4 is past the end)
        task = subprocess.run(["bash", SCRIPT, str(out / "plan.jsonl"), str(out)],
                              env={**env, "SLURM_ARRAY_TASK_ID": str(index)}, capture_output=True)
        assert task.returncode == 0, task.stderr.decode()
        done.append(sorted(p.name for p in out.glob("*.row.json")))
    assert done == [["1.mp4.row.json", "2.mp4.row.json"],
                    ["1.mp4.row.json", "2.mp4.row.json", "3.mp4.row.json"]]
