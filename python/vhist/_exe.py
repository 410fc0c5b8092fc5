"""Finding the vhist executable and the error that carries its messages."""
import os
import shutil


class VhistError(Exception):
    """vhist failed: `message` is what vhist said on stderr (its last lines, without the
    progress bar), `status` its exit status (None when it never ran), `command` the argv."""

    def __init__(self, message, status=None, command=None, stderr=""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.command = command
        self.stderr = stderr

    def __str__(self):
        if self.status is None:
            return self.message
        return f"{self.message} (exit status {self.status})"


def find_vhist(vhist=None):
    """The vhist executable: `vhist` when given, else the environment variable VHIST, else
    `vhist` on PATH. Raises VhistError when it is not an executable file."""
    given = vhist or os.environ.get("VHIST") or "vhist"
    path = shutil.which(given)
    if path is None:
        where = ("the argument" if vhist else
                 "the environment variable VHIST" if os.environ.get("VHIST") else "PATH")
        raise VhistError(f"vhist executable {given!r} (from {where}) was not found or is not "
                         "executable: install vhist, or name it (vhist='/path/to/vhist' in "
                         "Python, --vhist for vhist.dask_batch, or the environment variable VHIST)")
    return os.path.abspath(path)


def stderr_message(text):
    """vhist's message from its stderr: the non-empty lines, joined (a progress bar is never
    drawn: the runs here pass -q and stderr is not a terminal)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return "\n".join(lines) if lines else "(vhist printed nothing on stderr)"
