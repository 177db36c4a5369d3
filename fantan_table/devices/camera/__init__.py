"""The camera port: anything that can hand over one BGR frame of the table.

Adapters: ``PiCamera`` (picamera2, on the Pi), ``UsbCamera`` (OpenCV), ``FolderCamera``
(recorded pictures, for replaying a game night) and ``SimulatedCamera`` (the synthetic renderer,
with a cup that is shaken and lifted). A camera that is missing or fails raises ``CameraError``,
which the table catches: a bad frame must never bring the table down.
"""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from ...errors import FantanError


class CameraError(FantanError, RuntimeError):
    """The camera could not give a frame; the message says what to check."""


class Camera(Protocol):
    def capture(self) -> np.ndarray:
        """One frame, BGR, uint8, height x width x 3."""
        ...

    def close(self) -> None:
        """Let the camera go (safe to call twice)."""
        ...


def as_bgr(frame: np.ndarray, camera: str) -> np.ndarray:
    """A frame as 8-bit BGR: grey and BGRA frames (some webcams' modes) converted, anything else refused."""
    if frame.dtype == np.uint8 and frame.size:
        if frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] == 1):
            return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        if frame.ndim == 3 and frame.shape[2] == 4:
            return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
        if frame.ndim == 3 and frame.shape[2] == 3:
            return frame
    raise CameraError(
        f"{camera} gave a {frame.dtype} frame of shape {frame.shape}, not a colour picture: set it to a colour mode"
    )
