"""vhist.analyze: per-frame histograms as numpy arrays, read from `vhist analyze`'s JSON Lines.

The CLI runs as a subprocess (`vhist analyze PATH ... -q`, records on its stdout); each line is
parsed as it arrives, so frames are yielded while the file is still being decoded and memory
stays that of one record. docs/user-guide.md ("Python") gives the record's fields.
"""
import json
import os
import signal
import subprocess
import tempfile

import numpy as np

from ._exe import VhistError, find_vhist, stderr_message

CHANNELS = ("r", "g", "b", "l", "y", "cb", "cr")


class Frame:
    """One frame record. `counts[channel]` is a numpy uint64 array of the bins (channels r, g,
    b, l; with domain="ycbcr" y, cb, cr), `stats[channel]` the record's statistics (min, max,
    mean, median, p1, p99, clip_low, clip_high), `cdf[channel]` the cumulative counts when
    asked for (cdf=True), `record` the whole parsed record (the arrays as lists)."""

    __slots__ = ("frame", "pts", "width", "height", "bits", "bins", "counts", "stats", "cdf",
                 "record")

    def __init__(self, record):
        self.record = record
        self.frame = record.get("frame")  # None where vhist cannot know it (see the guide)
        self.pts = record["pts"]
        self.width = record["width"]
        self.height = record["height"]
        self.bits = record["bits"]
        self.bins = record["bins"]
        self.counts = {c: np.array(record[c], dtype=np.uint64) for c in CHANNELS if c in record}
        self.stats = record.get("stats", {})
        cdf = record.get("cdf")
        self.cdf = {c: np.array(v, dtype=np.uint64) for c, v in cdf.items()} if cdf else None

    def __getitem__(self, channel):
        return self.counts[channel]

    @property
    def channels(self):
        return tuple(self.counts)

    def __repr__(self):
        return (f"Frame(frame={self.frame}, pts={self.pts}, {self.width}x{self.height}, "
                f"bins={self.bins}, channels={','.join(self.counts)})")


def analyze_args(path, bins=256, roi=None, domain="rgb", engine=None, start=None, frames=None,
                 stream=None, device=None, hwdec=None, alpha=None, cdf=False):
    """The `vhist analyze` arguments (after the executable) for these options."""
    args = ["analyze", "--bins", str(int(bins)), "--domain", domain, "-q"]
    if roi is not None:
        if not isinstance(roi, str):
            roi = ",".join(str(int(v)) for v in roi)
        args += ["--roi", roi]
    for option, value in (("--engine", engine), ("--start", start), ("--frames", frames),
                          ("--stream", stream), ("--device", device), ("--hwdec", hwdec),
                          ("--alpha", alpha)):
        if value is not None:
            args += [option, str(value)]
    if cdf:
        args.append("--cdf")
    return args + ["--", os.fspath(path)]


class Analysis:
    """An iterator of Frame objects, one per record of `vhist analyze`; a generator's
    interface (next, close, a context manager). `header` is the provenance header (read on
    first use), `summary` the summary object once the frames are done. When vhist fails, the
    frames it wrote come first and then VhistError is raised, with vhist's message and status.
    Closing it early (close(), leaving a `with` block, or dropping it) stops vhist."""

    def __init__(self, path, vhist=None, **options):
        self.path = os.fspath(path)
        self.command = [find_vhist(vhist)] + analyze_args(path, **options)
        self.header = None
        self.summary = None
        self.status = None
        self.frames_read = 0
        self._proc = None
        self._stderr = None
        self._done = False

    def _start(self):
        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.PIPE, stderr=self._stderr,
                                      bufsize=1 << 20)

    def _read_record(self):
        """The next parsed object on vhist's stdout, or None at its end."""
        if self._done:
            return None
        if self._proc is None:
            self._start()
        line = self._proc.stdout.readline()
        if not line:
            self._finish()
            return None
        try:
            return json.loads(line)
        except ValueError as error:
            self.close()
            raise VhistError(f"vhist wrote a line that is not JSON ({error}): {line[:200]!r}",
                             command=self.command) from None

    def _finish(self):
        """vhist's stdout ended: wait for it and raise its error when it failed."""
        self._done = True
        self._proc.stdout.close()
        self.status = self._proc.wait()
        self._stderr.seek(0)
        text = self._stderr.read().decode("utf-8", "replace")
        self._stderr.close()
        if self.status != 0:
            raise VhistError(stderr_message(text), self.status, self.command, text)

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            record = self._read_record()
            if record is None:
                raise StopIteration
            kind = record.get("type")
            if kind == "frame":
                self.frames_read += 1
                return Frame(record)
            if kind == "header":
                self.header = record
            elif kind == "summary":
                self.summary = record

    def read_header(self):
        """The header, starting vhist when needed (raises VhistError when vhist fails before
        writing it)."""
        while self.header is None and not self._done:
            record = self._read_record()
            if record is None:
                break
            if record.get("type") == "header":
                self.header = record
            else:
                raise VhistError(f"vhist's first record is not its header: {record.get('type')}",
                                 command=self.command)
        return self.header

    def close(self):
        """Stops vhist if it still runs (its pipe closed and SIGTERM: it ends cleanly; SIGKILL
        after 5 s)."""
        if self._proc is None or self._done:
            return
        self._done = True
        # The pipe first: vhist may be blocked writing a record, which the closed pipe ends
        # (SIGPIPE, status 141); SIGTERM for one that is decoding.
        self._proc.stdout.close()
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._stderr.close()
        self.status = self._proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing more can be done
            pass


def analyze(path, bins=256, roi=None, domain="rgb", engine=None, start=None, frames=None,
            vhist=None, **options):
    """Per-frame histograms of the video at `path`: an iterator (Analysis) of Frame objects.
    Options as `vhist analyze`'s: bins, roi ((x, y, w, h) or "x,y,w,h"), domain ("rgb" or
    "ycbcr"), engine ("auto", "gpu", "cpu"), start (seconds or "[HH:]MM:SS"), frames, and
    stream, device, hwdec, alpha, cdf. `vhist`: the executable (default: $VHIST, else PATH)."""
    return Analysis(path, vhist=vhist, bins=bins, roi=roi, domain=domain, engine=engine,
                    start=start, frames=frames, **options)
