"""Files that survive a power cut: written beside, flushed to disk, then renamed over the old one.

Shared by the journal's frames (table) and labelled sets being captured (vision), neither of which may
import the other.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_durably(path: Path, data: bytes) -> None:
    """After this returns the file holds ``data``; if the power goes before, it is the old file or none."""
    part = _flushed_beside(path, data)
    os.replace(part, path)
    _sync_folder(path.parent)


def write_new_durably(path: Path, data: bytes) -> None:
    """Like :func:`write_durably`, for a file that must not exist yet: an existing one raises ``FileExistsError``.

    The data is flushed beside, then linked to its name (a link never replaces a file), so nothing
    already kept is ever written over.
    """
    part = _flushed_beside(path, data)
    try:
        os.link(part, path)
    finally:
        part.unlink()
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make a file's new name itself survive a power cut."""
    directory = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _flushed_beside(path: Path, data: bytes) -> Path:
    """``data`` on disk under a ``.part`` name beside ``path``."""
    part = path.with_name(path.name + ".part")
    with part.open("wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    return part
