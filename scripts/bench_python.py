#!/usr/bin/python3
"""Is reading vhist analyze's JSON Lines in Python fast enough? Frames per second of
`vhist analyze CLIP -o /dev/null` against a Python consumer of vhist.analyze(CLIP) (every
record parsed into numpy arrays), on a generated 1080p clip; medians of alternating runs.

    VHIST=build/app/vhist PYTHONPATH=python /usr/bin/python3 scripts/bench_python.py [--frames N] [--runs N] [--bins N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import vhist  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=250)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bins", type=int, default=256)
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args()
    exe = vhist.find_vhist()
    with tempfile.TemporaryDirectory() as folder:
        clip = os.path.join(folder, "clip.mp4")
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                        f"testsrc2=s={args.size}:r=25", "-frames:v", str(args.frames),
                        "-pix_fmt", "yuv420p", clip], check=True)
        cli, python = [], []
        for _ in range(args.runs):
            started = time.perf_counter()
            subprocess.run([exe, "analyze", clip, "-q", "--bins", str(args.bins), "-o", os.devnull],
                           check=True)
            cli.append(args.frames / (time.perf_counter() - started))
            started = time.perf_counter()
            count = 0
            for frame in vhist.analyze(clip, bins=args.bins):
                count += int(frame.counts["l"][0] >= 0)
            assert count == args.frames, count
            python.append(args.frames / (time.perf_counter() - started))
    cli_fps, python_fps = statistics.median(cli), statistics.median(python)
    print(f"{args.size}, {args.frames} frames, {args.bins} bins, {exe}")
    print(f"vhist analyze -o /dev/null: {cli_fps:.1f} frames/s (runs: {', '.join(f'{v:.1f}' for v in cli)})")
    print(f"vhist.analyze in Python:    {python_fps:.1f} frames/s (runs: {', '.join(f'{v:.1f}' for v in python)})")
    print(f"ratio Python / CLI: {python_fps / cli_fps:.3f}")


if __name__ == "__main__":
    main()
