"""A camera that plays back pictures from a folder, in name order: a recorded game night, replayed."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from . import CameraError

PICTURES = (".png", ".jpg", ".jpeg", ".bmp")
FORMATS = {"JPEG": (b"\xff\xd8", b"\xff\xd9"), "PNG": (b"\x89PNG", b"IEND\xaeB`\x82")}
"""How a JPEG and a PNG file start, and how a whole one ends (end-of-image marker, IEND chunk). OpenCV 4.6 decodes
a picture cut short (a copy interrupted, a card pulled out) without complaint, grey where the rest should be; a
die cut in half by that grey must not be read as a whole one."""


class FolderCamera:
    def __init__(self, folder: str | Path, loop: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"no folder {self.folder} to play pictures from")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in PICTURES)
        if not self.files:
            raise CameraError(f"{self.folder} holds no pictures ({', '.join(PICTURES)})")
        self.loop = loop
        self._next = 0

    def capture(self) -> np.ndarray:
        if self._next >= len(self.files):
            if not self.loop:
                raise CameraError(f"all {len(self.files)} pictures in {self.folder} have been played")
            self._next = 0
        path = self.files[self._next]
        self._next += 1
        return read_picture(path)

    def close(self) -> None:
        self._next = len(self.files)


def read_picture(path: Path) -> np.ndarray:
    """A whole picture file as an 8-bit BGR frame; anything else is a ``CameraError`` saying what is wrong."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CameraError(f"{path} could not be read ({exc.strerror or exc})") from None
    for kind, (start, end) in FORMATS.items():
        if data.startswith(start) and not data.rstrip(b"\x00").endswith(end):
            raise CameraError(f"{path} is cut short (an incomplete {kind} file): copy it again")
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if frame is None:
        raise CameraError(f"{path} is not a picture OpenCV can read")
    return frame
