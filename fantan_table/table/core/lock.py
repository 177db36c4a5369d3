"""One process at a time writes a state directory: an exclusive lock, held for the process's life.

Two tables writing one journal would interleave their rounds into a night that can no longer be
replayed. The lock is ``flock`` on a file in the state directory, so the kernel frees it when the
process ends, however it ends (a ``kill -9`` or a power cut leaves no stale lock behind). The file
names the holder (pid, command line, since when) so a refused second process can say who it is.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from ...errors import FantanError

LOCK_FILE = "lock"
HOLDER_BYTES = 4096
"""More than the holder's note (pid, command line, time) ever takes."""


class StateLocked(FantanError, RuntimeError):
    """Another process holds the state directory; the message names it and what to do."""


class StateLock:
    """Held from :meth:`acquire` until :meth:`release` or the process's end."""

    def __init__(self, state_dir: Path) -> None:
        self.path = state_dir / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> StateLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise StateLocked(
                f"{self.path.parent} is in use by {holder}; stop that one first (two tables on one journal "
                "would mix their nights), or give this one another state directory"
            ) from None
        except OSError:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        note = {"pid": os.getpid(), "command": " ".join(sys.argv), "since": datetime.now(UTC).isoformat()}
        os.write(fd, json.dumps(note).encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file frees the lock
            self._fd = None

    def __enter__(self) -> StateLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(fd: int) -> str:
    """Who holds the lock, in words, from what the holder wrote (it may not have written yet)."""
    try:
        seen = json.loads(os.pread(fd, HOLDER_BYTES, 0) or b"{}")
        return f"process {seen['pid']} ({seen['command']}, since {seen['since'][:19].replace('T', ' ')} UTC)"
    except (ValueError, KeyError, TypeError, OSError):
        return "another process (just starting)"
