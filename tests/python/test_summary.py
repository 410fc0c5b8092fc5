"""vhist.summary against `vhist batch`'s own table, and against the per-frame records."""
import csv
import json
import subprocess

import pytest

import vhist


def test_summary_is_the_batch_row(vhist_exe, clips, tmp_path):
    row = vhist.summary(clips["short"], vhist=vhist_exe)
    out = tmp_path / "batch"
    subprocess.run([vhist_exe, "batch", clips["short"], "--out", str(out), "-q"],
                   capture_output=True, check=False)
    (cli_row,) = [json.loads(line) for line in (out / "summary.jsonl").read_text().splitlines()]
    with open(out / "summary.csv", newline="") as file:
        columns = next(csv.reader(file))
    assert list(row) == columns == vhist.ROW_COLUMNS
    assert row["key"] == "short.mp4" and row["status"] == "ok" and row["error"] == ""
    volatile = ("seconds", "run", "command")  # wall time, when and where, the outputs' paths
    assert {k: v for k, v in row.items() if k not in volatile} == \
           {k: v for k, v in cli_row.items() if k not in volatile}
    # Its statistics over the file agree with the frames' own (every frame the same size).
    frames = list(vhist.analyze(clips["short"], vhist=vhist_exe))
    assert (row["frames"], row["width"], row["height"]) == (len(frames), 160, 90)
    for channel in "rgbl":
        means = [f.stats[channel]["mean"] for f in frames]
        assert row[f"{channel}_mean"] == pytest.approx(sum(means) / len(means), abs=1e-3)
        highs = [f.stats[channel]["clip_high"] for f in frames]
        assert row[f"{channel}_clip_high"] == pytest.approx(sum(highs) / len(highs), abs=1e-6)
    assert row["qc"] in ("pass", "fail") and isinstance(row["qc_events"], int)


def test_summary_errors_carry_the_row_error(vhist_exe, clips, tmp_path):
    with pytest.raises(vhist.VhistError) as caught:
        vhist.summary(clips["garbage"], vhist=vhist_exe)
    assert "is not a video file" in caught.value.message and caught.value.status == 1
    missing = str(tmp_path / "gone.mp4")
    with pytest.raises(vhist.VhistError) as caught:
        vhist.summary(missing, vhist=vhist_exe)
    assert missing in caught.value.message
    with pytest.raises(TypeError, match="no_such"):
        vhist.summary(clips["short"], vhist=vhist_exe, no_such=1)


def test_the_guides_notebook_runs(vhist_exe, clips):
    """docs/examples/notebook.py, the user guide's example, on a real clip."""
    import os
    import sys
    from conftest import HERE, PYTHON_DIR
    notebook = os.path.join(HERE, "..", "..", "docs", "examples", "notebook.py")
    done = subprocess.run([sys.executable, notebook, clips["short"]], capture_output=True,
                          env={**os.environ, "VHIST": vhist_exe,
                               "PYTHONPATH": os.path.abspath(PYTHON_DIR)}, timeout=120)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "50 frames of 160x90, luma array (50, 64)" in out
    assert "h264, range limited: mean Y'" in out and "; 25 frames" in out
    assert "region: 25 frames of 512 pixels" in out
    assert "2.0 s, mean luma" in out
    assert "status 1: " in out and "missing" in out
