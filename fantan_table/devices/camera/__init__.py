"""The camera port: anything that can hand over one BGR frame of the table.

Adapters: ``PiCamera`` (picamera2, on the Pi), ``UsbCamera`` (OpenCV), ``FolderCamera``
(recorded pictures, for replaying a game night) and ``SimulatedCamera`` (the synthetic renderer,
with a cup that is shaken and lifted). A camera that is missing or fails raises ``CameraError``,
which the table catches: a bad frame must never bring the table down.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


class CameraError(RuntimeError):
    """The camera could not give a frame; the message says what to check."""


class Camera(Protocol):
    def capture(self) -> np.ndarray:
        """One frame, BGR, uint8, height x width x 3."""
        ...

    def close(self) -> None:
        """Let the camera go (safe to call twice)."""
        ...
