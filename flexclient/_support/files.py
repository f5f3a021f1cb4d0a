"""Small files read and written safely: token stores and event-feed positions.

Reads never block: a path that is a FIFO, a device or a socket is refused before a byte is
read (reading a FIFO waits for a writer, for ever). Writes go through a temporary file in the
same folder, renamed over the old one, so that a reader in any process sees the old content or
the new, never a mix. A process killed mid-write leaves its temporary file behind; the next
write removes such leftovers (a token file's hold live tokens).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from pathlib import Path

# A leftover temporary file older than this is no live write's: writes take milliseconds.
STALE_SECONDS = 60.0
# The same for a caller holding the lock every client write takes: only a write outside it
# (a store's `set()` called directly) could be under way.
LOCKED_STALE_SECONDS = 5.0
_TEMP_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


class NotRegularFile(OSError):
    """A path that is a folder, a FIFO, a device or a socket; its message says which
    (`is a FIFO, not a regular file`), to follow the file's name."""


def read_regular(path: Path, limit: int) -> tuple[bytes, os.stat_result] | None:
    """The content of `path` (up to `limit` + 1 bytes) and its status, or None if there is
    no such file. `NotRegularFile` for a path that is not a regular file, another `OSError`
    for one that cannot be read."""
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise NotRegularFile(f"is {_kind_of(status.st_mode)}, not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks), status
    finally:
        os.close(fd)


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a plain file"


def make_folder(folder: Path) -> None:
    """Make `folder` and its parents as needed; `NotADirectoryError` (not mkdir's "File
    exists") when it, or a parent, is a file."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder)) from None


def write_atomic(path: Path, text: str, *, mode: int = 0o600, sweep_all: bool = False) -> None:
    """Write `text` to `path` through a temporary file in the same folder renamed over it.

    Leftovers of writes to the same path that a killed process left are removed afterwards:
    those older than `STALE_SECONDS`, or than `LOCKED_STALE_SECONDS` with `sweep_all` (for a
    caller that holds the lock every client write takes)."""
    make_folder(path.parent)
    prefix = f".{path.name}-"
    # mkstemp makes the file readable and writable by its owner only, whatever the umask.
    fd, tmp = tempfile.mkstemp(prefix=prefix, dir=path.parent)
    try:
        if mode != 0o600:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sweep(path.parent, prefix, LOCKED_STALE_SECONDS if sweep_all else STALE_SECONDS)


def _sweep(folder: Path, prefix: str, older_than: float) -> None:
    now = time.time()
    try:
        # mkstemp's names: the prefix and eight characters of its alphabet, nothing else.
        names = [
            name
            for name in os.listdir(folder)
            if name.startswith(prefix)
            and len(name) == len(prefix) + 8
            and all(c in _TEMP_CHARS for c in name[len(prefix) :])
        ]
    except OSError:
        return  # the write is done; the sweep is housekeeping
    for name in names:
        leftover = folder / name
        try:
            status = leftover.lstat()
            if stat.S_ISREG(status.st_mode) and now - status.st_mtime >= older_than:
                leftover.unlink()
        except OSError:
            continue  # removed meanwhile, or not ours to remove
