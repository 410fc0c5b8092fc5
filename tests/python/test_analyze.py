"""vhist.analyze against `vhist analyze`'s own JSON Lines, on real decoded clips."""
import json
import os
import re
import subprocess
import time

import numpy as np
import psutil
import pytest

import vhist


def cli_records(vhist_exe, path, *options):
    """The CLI's records, parsed here with the json module: (header, frames, summary)."""
    out = subprocess.run([vhist_exe, "analyze", path, "-q", *options], check=True,
                         capture_output=True).stdout.decode()
    objects = [json.loads(line) for line in out.splitlines()]
    assert objects[0]["type"] == "header" and objects[-1]["type"] == "summary"
    return objects[0], objects[1:-1], objects[-1]


def test_counts_equal_cli_json(vhist_exe, clips):
    header, records, summary = cli_records(vhist_exe, clips["short"], "--bins", "64")
    analysis = vhist.analyze(clips["short"], bins=64, vhist=vhist_exe)
    frames = list(analysis)
    assert len(frames) == len(records) == 50
    for frame, record in zip(frames, records):
        assert (frame.frame, frame.pts, frame.width, frame.height) == \
               (record["frame"], record["pts"], 160, 90)
        assert frame.channels == ("r", "g", "b", "l")
        for channel in "rgbl":
            counts = frame.counts[channel]
            assert counts.dtype == np.uint64 and counts.shape == (64,)
            assert counts.tolist() == record[channel]
            assert int(counts.sum()) == 160 * 90
            assert frame.stats[channel] == record["stats"][channel]
        assert frame["l"] is frame.counts["l"]
    assert [f.frame for f in frames] == list(range(50))
    assert analysis.header == header and analysis.summary == summary
    assert analysis.summary["frames"] == 50 and analysis.status == 0


def test_ycbcr_roi_cdf_start_frames(vhist_exe, clips):
    frames = list(vhist.analyze(clips["short"], domain="ycbcr", bins=256, vhist=vhist_exe))
    assert frames[0].channels == ("y", "cb", "cr")
    assert int(frames[0]["y"].sum()) == 160 * 90 and int(frames[0]["cb"].sum()) == 80 * 45

    region = list(vhist.analyze(clips["short"], roi=(10, 20, 32, 16), cdf=True, frames=3,
                                vhist=vhist_exe))
    assert len(region) == 3
    for frame in region:
        assert frame.record["counted"] == 32 * 16
        for channel in "rgbl":
            assert int(frame[channel].sum()) == 32 * 16
            assert np.array_equal(frame.cdf[channel], np.cumsum(frame[channel]))

    later = list(vhist.analyze(clips["short"], start=1.0, frames=5, vhist=vhist_exe))
    assert [f.frame for f in later] == [25, 26, 27, 28, 29]
    assert later[0].pts == pytest.approx(1.0)
    # The same frames as in a run from the start.
    whole = {f.frame: f for f in vhist.analyze(clips["short"], vhist=vhist_exe)}
    for frame in later:
        assert all(np.array_equal(frame[c], whole[frame.frame][c]) for c in "rgbl")


def test_missing_file_raises_vhist_message(vhist_exe, tmp_path):
    missing = str(tmp_path / "no-such.mp4")
    analysis = vhist.analyze(missing, vhist=vhist_exe)
    with pytest.raises(vhist.VhistError) as caught:
        next(analysis)
    error = caught.value
    assert error.status == 2
    assert "cannot open" in error.message and missing in error.message
    assert error.message.startswith("vhist analyze:")


def test_garbage_file_raises_vhist_message(vhist_exe, clips):
    frames = []
    with pytest.raises(vhist.VhistError) as caught:
        for frame in vhist.analyze(clips["garbage"], vhist=vhist_exe):
            frames.append(frame)
    assert frames == []
    assert caught.value.status == 2 and "not a video file" in caught.value.message


def test_truncated_file_yields_its_frames_then_raises(vhist_exe, clips):
    analysis = vhist.analyze(clips["truncated"], vhist=vhist_exe)
    frames = []
    with pytest.raises(vhist.VhistError) as caught:
        for frame in analysis:
            frames.append(frame)
    written = re.search(r"(\d+) records written", caught.value.message)
    assert written, caught.value.message
    assert 0 < len(frames) == int(written.group(1)) < 50
    assert caught.value.status == 2
    assert analysis.summary is not None and analysis.summary["frames"] == len(frames)


def test_closing_early_stops_vhist(vhist_exe, clips):
    analysis = vhist.analyze(clips["long"], vhist=vhist_exe)
    first = [next(analysis) for _ in range(3)]
    assert [f.frame for f in first] == [0, 1, 2]
    pid = analysis._proc.pid
    assert psutil.pid_exists(pid)
    started = time.monotonic()
    analysis.close()
    assert time.monotonic() - started < 5
    assert analysis.status in (141, 143)  # vhist's own end on a closed pipe or SIGTERM: reaped
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    with pytest.raises(StopIteration):
        next(analysis)

    # Leaving a with block (a break out of the loop) stops it too.
    with vhist.analyze(clips["long"], vhist=vhist_exe) as analysis:
        for frame in analysis:
            if frame.frame == 1:
                break
        pid = analysis._proc.pid
    assert analysis.status is not None and analysis.frames_read == 2


def test_executable_from_argument_environment_or_path(vhist_exe, clips, monkeypatch, tmp_path):
    with pytest.raises(vhist.VhistError, match="was not found"):
        vhist.analyze(clips["short"], vhist=str(tmp_path / "no-vhist"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("VHIST", raising=False)
    with pytest.raises(vhist.VhistError, match="PATH"):
        vhist.analyze(clips["short"])
    monkeypatch.setenv("VHIST", vhist_exe)
    assert len(list(vhist.analyze(clips["short"], frames=2))) == 2
    os.symlink(vhist_exe, tmp_path / "vhist")
    monkeypatch.delenv("VHIST")
    assert len(list(vhist.analyze(clips["short"], frames=2))) == 2
