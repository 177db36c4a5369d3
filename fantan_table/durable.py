"""Files that survive a power cut: written beside, flushed to disk, then renamed over the old one.

Shared by the journal's frames (table) and labelled sets being captured (vision), neither of which may
import the other.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_durably(path: Path, data: bytes) -> None:
    """After this returns the file holds ``data``; if the power goes before, it is the old file or none."""
    part = path.with_name(path.name + ".part")
    with part.open("wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
