"""Fixtures of the Python package's tests: the vhist executable under test (the environment
variable VHIST, which CTest sets to the build's binary) and clips made by the ffmpeg tool."""
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "..", "python")
if os.path.abspath(PYTHON_DIR) not in map(os.path.abspath, sys.path):
    sys.path.insert(0, os.path.abspath(PYTHON_DIR))


@pytest.fixture(scope="session")
def vhist_exe():
    exe = os.environ.get("VHIST") or shutil.which("vhist")
    if not exe:
        pytest.fail("set VHIST to the vhist executable under test")
    return os.path.abspath(exe)


def make_clip(path, size="160x90", seconds=2, rate=25, source="testsrc2", extra=()):
    """A clip from ffmpeg's lavfi sources (H.264, yuv420p, index first)."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi",
                    "-i", f"{source}=s={size}:r={rate}:d={seconds}", "-pix_fmt", "yuv420p",
                    "-movflags", "+faststart", *extra, str(path)], check=True)
    return str(path)


@pytest.fixture(scope="session")
def clips(tmp_path_factory):
    """Session clips: a 2 s 160x90 clip, a long one (for stopping early), a truncated one and
    a file of random bytes."""
    folder = tmp_path_factory.mktemp("clips")
    short = make_clip(folder / "short.mp4")
    long = make_clip(folder / "long.mp4", seconds=120, rate=25)
    with open(short, "rb") as file:
        data = file.read()
    truncated = folder / "truncated.mp4"
    truncated.write_bytes(data[: len(data) * 6 // 10])
    garbage = folder / "garbage.mp4"
    garbage.write_bytes(bytes((i * 7919 + 13) % 251 for i in range(20000)))
    return {"short": short, "long": long, "truncated": str(truncated), "garbage": str(garbage)}
