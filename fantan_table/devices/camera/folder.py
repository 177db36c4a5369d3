"""A camera that plays back pictures from a folder, in name order: a recorded game night, replayed."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from . import CameraError

PICTURES = (".png", ".jpg", ".jpeg", ".bmp")


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
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"{path} is not a picture OpenCV can read")
        return frame

    def close(self) -> None:
        self._next = len(self.files)
