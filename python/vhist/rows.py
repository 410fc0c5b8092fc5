"""The summary table of `vhist batch`: its columns, reading row files, writing the tables.

A row is one JSON object on one line (`DIR/<key>.row.json`, docs/user-guide.md's "Batch").
The tables written here are the CLI's: summary.jsonl holds each row file's line as vhist wrote
it, summary.csv the same columns in the same order with each number as written in the JSON and
an empty cell for null.
"""
import csv
import io
import json
import os
import tempfile

STATS = ("mean", "p1", "p50", "p99", "clip_low", "clip_high")
ROW_COLUMNS = (
    ["type", "input", "key", "status", "error", "container", "codec", "width", "height", "bits",
     "pixel_format", "range", "matrix", "primaries", "transfer", "frame_rate", "duration",
     "frames", "lost_frames"]
    + [f"{c}_{s}" for c in "rgbl" for s in STATS]
    + ["light", "max_cll", "max_fall", "qc", "qc_events", "qc_failing", "engine", "vhist", "seconds",
       "size", "modified", "sha256", "streams", "run", "command", "profile"])


class Number(float):
    """A JSON number that remembers how vhist wrote it, so that the CSV cell is that text."""

    def __new__(cls, text):
        value = super().__new__(cls, text)
        value.text = text
        return value


def parse_row(text):
    """A row line as a dict (floats as Number, so their text is kept)."""
    row = json.loads(text, parse_float=Number)
    if not isinstance(row, dict) or row.get("type") != "row":
        raise ValueError(f"not a summary row: {text[:200]!r}")
    return row


def read_row(path):
    """The row of a row file: (its line, its dict)."""
    with open(path, encoding="utf-8") as file:
        text = file.read().strip()
    return text, parse_row(text)


def error_row(input_path, key, message, columns=ROW_COLUMNS):
    """A row for an input that gave no row file (vhist could not run, or the task failed)."""
    row = dict.fromkeys(columns)
    row.update(type="row", input=input_path, key=key, status="error", error=message)
    return row


def row_line(row):
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, Number):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def write_atomic(path, text):
    """Writes text to path through a temporary file in its folder, synced, then renamed."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_tables(out_dir, rows, columns=ROW_COLUMNS):
    """DIR/summary.csv and DIR/summary.jsonl from rows: a list of (line or None, dict) in the
    table's order; a row without a line (made here) is written from its dict."""
    csv_text = io.StringIO()
    writer = csv.writer(csv_text, lineterminator="\n")
    writer.writerow(columns)
    lines = []
    for line, row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
        lines.append(line if line is not None else row_line(row))
    write_atomic(os.path.join(out_dir, "summary.csv"), csv_text.getvalue())
    write_atomic(os.path.join(out_dir, "summary.jsonl"), "".join(l + "\n" for l in lines))


def exit_status(rows):
    """The CLI's status for these rows: 1 when one errored, else 3 when one failed QC, else 0.
    A damaged input's row ("partial": judged as far as it decodes) fails its decode_error check."""
    dicts = [row for _, row in rows]
    if any(row.get("status") not in ("ok", "partial") for row in dicts):
        return 1
    if any(row.get("qc") == "fail" for row in dicts):
        return 3
    return 0
