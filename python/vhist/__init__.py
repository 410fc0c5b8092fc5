"""vhist from Python: per-frame histograms as numpy arrays and a file's summary row, through the
installed `vhist` command line (docs/user-guide.md, "Python").

    import vhist
    for frame in vhist.analyze("clip.mp4", bins=64):
        print(frame.frame, frame.pts, frame.counts["l"].argmax(), frame.stats["l"]["mean"])
    row = vhist.summary("clip.mp4")

The executable: the vhist= argument, else the environment variable VHIST, else vhist on PATH.
"""
from ._exe import VhistError, find_vhist
from .rows import ROW_COLUMNS
from .summary import summary

__all__ = ["Analysis", "Frame", "ROW_COLUMNS", "VhistError", "analyze", "find_vhist", "summary"]


def __getattr__(name):
    # numpy is imported with the analysis only: `python3 -m vhist.dask_batch` needs none.
    if name in ("Analysis", "Frame", "analyze"):
        from . import analysis
        return getattr(analysis, name)
    raise AttributeError(f"module 'vhist' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
