"""A USB webcam through OpenCV: the cheap camera for a table without a Pi camera module."""

from __future__ import annotations

import cv2
import numpy as np

from . import CameraError, as_bgr


class UsbCamera:
    def __init__(
        self, index: int = 0, resolution: tuple[int, int] = (1280, 960), capture: type = cv2.VideoCapture
    ) -> None:
        self._video = capture(index)
        if not self._video.isOpened():
            raise CameraError(f"no USB camera at index {index}: is it plugged in, and is the user in the video group?")
        self._video.set(cv2.CAP_PROP_FRAME_WIDTH, resolution[0])
        self._video.set(cv2.CAP_PROP_FRAME_HEIGHT, resolution[1])
        self.index = index

    def capture(self) -> np.ndarray:
        try:
            ok, frame = self._video.read()
        except cv2.error as exc:  # a backend that fails mid-stream raises instead of returning False
            raise CameraError(f"the USB camera at index {self.index} failed ({exc}): check its cable") from None
        if not ok or frame is None:
            raise CameraError(f"the USB camera at index {self.index} gave no frame: check its cable")
        return as_bgr(np.asarray(frame), f"the USB camera at index {self.index}")

    def close(self) -> None:
        self._video.release()
