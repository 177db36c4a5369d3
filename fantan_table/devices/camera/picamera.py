"""The Raspberry Pi camera through picamera2.

picamera2 exists only on Raspberry Pi OS (apt's python3-picamera2, with libcamera), so it is
imported here, when a PiCamera is made, and nowhere else. The camera is configured once for
stills and kept running; after the automatic exposure and white balance have settled they are
locked, so that every frame of the night is lit alike (the dice reader's thresholds rely on it).
"RGB888" frames from picamera2 are BGR-ordered, as OpenCV wants.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from . import CameraError

LOCKED = ("ExposureTime", "AnalogueGain", "ColourGains")


class PiCamera:
    def __init__(
        self,
        resolution: tuple[int, int] = (1280, 960),
        settle_seconds: float = 2.0,
        module: ModuleType | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        try:
            picamera2 = module or importlib.import_module("picamera2")
        except ImportError:
            raise CameraError(
                "picamera2 is not installed: on Raspberry Pi OS run 'sudo apt install python3-picamera2' and make "
                "the venv with --system-site-packages; elsewhere use the simulated camera"
            ) from None
        try:
            self._camera: Any = picamera2.Picamera2()
            config = self._camera.create_still_configuration(main={"size": tuple(resolution), "format": "RGB888"})
            self._camera.configure(config)
            self._camera.start()
            sleep(settle_seconds)  # let exposure and white balance find the table's light
            metadata = self._camera.capture_metadata()
            settled = {key: metadata[key] for key in LOCKED if key in metadata}
            self._camera.set_controls({"AeEnable": False, "AwbEnable": False, **settled})
        except Exception as exc:  # libcamera reports a missing or busy camera in many ways
            raise CameraError(
                f"the Pi camera did not start ({exc}): check its ribbon cable and that no other program uses it"
            ) from exc
        self.locked = settled

    def capture(self) -> np.ndarray:
        try:
            frame = self._camera.capture_array("main")
        except Exception as exc:
            raise CameraError(f"the Pi camera gave no frame ({exc})") from exc
        return np.ascontiguousarray(frame[..., :3])

    def close(self) -> None:
        try:
            self._camera.stop()
            self._camera.close()
        except Exception:  # closing twice, or after a failure, is not worth a crash
            pass
