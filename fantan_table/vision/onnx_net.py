"""An ONNX network as ``cv2.dnn`` runs it, made the same way on every supported OpenCV.

OpenCV 5 reads ONNX with a new engine by default and keeps the classic one beside it; 4.x (the Pi's 4.6 from apt)
has only the classic one. The reader's networks are asked for the classic engine wherever there is a choice: the
Pi and a laptop then run the same code on the same file, and on this project's small convolutional networks the
classic engine is also the faster (one core of the bench machine, OpenCV 5.0: the dice finder 3.6 ms a frame
against 4.4, the faces network 1.1 ms for four crops against 1.3).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np


def read_onnx(onnx: bytes) -> Any:
    """The ``cv2.dnn.Net`` of an ONNX file's bytes; ``cv2.error`` if OpenCV cannot make one."""
    buffer = np.frombuffer(onnx, np.uint8)
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)  # OpenCV 5 and newer
    if classic is None:
        return cv2.dnn.readNetFromONNX(buffer)
    return cv2.dnn.readNetFromONNX(buffer, classic)
