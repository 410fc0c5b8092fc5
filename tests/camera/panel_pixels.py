#!/usr/bin/env python3
"""panel_pixels.py SHOT.png: prints how many pixels of SHOT.png have the colour of the viewer
panel's title bar (Dear ImGui's dark style, TitleBgActive = 41,74,122, within 4 per channel).
The camera VM test uses it to tell a drawn panel from a missing one (a missing panel was the
mark of the emulator's AVX2 gather bug). Decodes with the ffmpeg tool (no Python imaging
package needed)."""
import struct
import subprocess
import sys

TITLE = (41, 74, 122)
TOLERANCE = 4


def main() -> int:
    path = sys.argv[1]
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        print(f"panel_pixels.py: {path} is not a PNG file", file=sys.stderr)
        return 2
    width, height = struct.unpack(">II", head[16:24])
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         check=True, capture_output=True).stdout
    if len(raw) != width * height * 3:
        print(f"panel_pixels.py: {path} decoded to {len(raw)} bytes, not {width}x{height} RGB", file=sys.stderr)
        return 2
    count = 0
    for i in range(0, len(raw), 3):
        if all(abs(raw[i + c] - TITLE[c]) <= TOLERANCE for c in range(3)):
            count += 1
    print(count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
