#!/usr/bin/python3
"""vhist from Python, notebook style: each `# %%` cell runs on its own in Jupyter (jupytext),
VS Code or Spyder; `python3 docs/examples/notebook.py CLIP` runs them all.

Needs the vhist package (installed with vhist, or PYTHONPATH=python in a build tree) and vhist
itself on PATH (or VHIST=/path/to/vhist)."""
# %% A clip's per-frame luma histograms as one array
import sys

import numpy as np

import vhist

clip = sys.argv[1] if len(sys.argv) > 1 else "clip.mp4"
frames = list(vhist.analyze(clip, bins=64))
luma = np.stack([f.counts["l"] for f in frames])  # uint64, frames x 64 bins
pts = np.array([f.pts for f in frames])
share = luma / luma.sum(axis=1, keepdims=True)  # each row sums to 1
print(f"{len(frames)} frames of {frames[0].width}x{frames[0].height}, luma array {luma.shape}")

# %% Where is it dark? The share of pixels in the lowest quarter of the luma range, per frame
dark = share[:, :16].sum(axis=1)
darkest = int(dark.argmax())
print(f"darkest frame: {frames[darkest].frame} at {pts[darkest]:.2f} s, {dark[darkest]:.1%} in the lowest quarter")

# %% Frames where more than 1% of the pixels clip to white in any of R', G', B'
clipped = [f.pts for f in frames if max(f.stats[c]["clip_high"] for c in "rgb") > 0.01]
print(f"{len(clipped)} frames clip to white (first at {clipped[0]:.2f} s)" if clipped
      else "no frame clips to white")

# %% The planes as decoded, for the first second (25 frames)
with vhist.analyze(clip, domain="ycbcr", frames=25) as run:
    header = run.read_header()
    y_means = [f.stats["y"]["mean"] for f in run]
print(f"{header['codec']}, range {header['range']['value']}: mean Y' {min(y_means):.1f} to "
      f"{max(y_means):.1f}; {run.summary['frames']} frames")

# %% A region (x, y, width, height of the stored picture) from 1 s on
region = [f.counts["l"] for f in vhist.analyze(clip, roi=(0, 0, 32, 16), start=1.0)]
print(f"region: {len(region)} frames of {int(region[0].sum())} pixels")

# %% The file's row in the summary table (provenance, exposure, QC verdict)
row = vhist.summary(clip)
print(f"{row['duration']} s, mean luma {row['l_mean']:.1f}, p1/p99 {row['l_p1']}/{row['l_p99']}, "
      f"QC {row['qc']} {row['qc_failing']}")

# %% Errors carry vhist's own message and exit status
try:
    vhist.summary(clip + ".missing")
except vhist.VhistError as error:
    print(f"status {error.status}: {error.message}")
