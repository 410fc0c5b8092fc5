"""vhist.summary: one file's summary row, from `vhist batch PATH --out TMPDIR --key NAME`."""
import os
import subprocess
import tempfile

from ._exe import VhistError, find_vhist, stderr_message
from ._task import row_from
from .rows import Number, parse_row

OPTIONS = ("engine", "hwdec", "device", "bins", "threads", "profile", "fail")


def summary(path, vhist=None, **options):
    """The summary row of the video at `path` (a dict in the table's column order: provenance,
    per-channel statistics, MaxCLL/MaxFALL, the QC verdict). Options: engine, hwdec, device,
    bins, threads, profile, fail, as `vhist batch`'s. A file vhist cannot analyze raises
    VhistError with the row's error; a file that fails QC is a row with "qc": "fail"; a damaged
    file, judged as far as it decodes, a row with "status": "partial" and its first decode error
    in "error"."""
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise TypeError(f"summary() got unknown options: {', '.join(sorted(unknown))}")
    path = os.fspath(path)
    key = os.path.basename(path.rstrip("/")) or "input"
    with tempfile.TemporaryDirectory(prefix="vhist-summary-") as out:
        command = [find_vhist(vhist), "batch", "--out", out, "--key", key, "-q"]
        for name, value in options.items():
            if value is not None:
                command += [f"--{name}", str(value)]
        command += ["--", path]
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                              check=False)
        said = done.stderr.decode("utf-8", "replace")
        line = row_from(done.stdout, os.path.join(out, key + ".row.json"))
        if line is None:
            raise VhistError(stderr_message(said), done.returncode, command, said)
        row = parse_row(line)
    if row.get("status") not in ("ok", "partial"):
        raise VhistError(row.get("error") or stderr_message(said), done.returncode, command, said)
    return {name: (float(value) if isinstance(value, Number) else value)
            for name, value in row.items()}
