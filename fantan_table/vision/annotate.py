"""A picture of a reading for a person to check: each die outlined and labelled, the verdict on top."""

from __future__ import annotations

import cv2
import numpy as np

from .reader import Reading, Status

_GREEN, _AMBER, _RED = (60, 200, 60), (0, 190, 255), (40, 40, 230)


def annotate(image: np.ndarray, reading: Reading) -> np.ndarray:
    out = image.copy()
    scale = max(1.0, out.shape[1] / 640)
    for die in reading.dice:
        colour = _GREEN if die.problem is None else _AMBER
        corners = cv2.boxPoints(die.box).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, max(1, round(2 * scale)), cv2.LINE_AA)
        label = "?" if die.value is None else str(die.value)
        x, y = corners[:, 0].min(), corners[:, 1].min()
        _label(out, label, (int(x), int(max(y - 4 * scale, 12 * scale))), colour, 0.7 * scale)
    if reading.status is Status.OK:
        banner, colour = f"OK  total {reading.total}  open {reading.open_number}", _GREEN
    else:
        banner, colour = (
            f"{reading.status.value.upper()}  {reading.message}",
            _RED if reading.status is Status.ERROR else _AMBER,
        )
    _label(out, banner[:110], (int(8 * scale), int(24 * scale)), colour, 0.6 * scale)
    return out


def _label(image: np.ndarray, text: str, origin: tuple[int, int], colour: tuple[int, int, int], size: float) -> None:
    """``text`` on a black box, readable on any picture. (A thick black outline under the text, as before, no
    longer lines up on OpenCV 5, whose letters advance further at a greater thickness.)"""
    thickness = max(1, round(2 * size))
    (w, h), baseline = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, thickness)
    x, y = origin
    pad = thickness + 1
    cv2.rectangle(image, (x - pad, y - h - pad), (x + w + pad, y + baseline + pad), (0, 0, 0), -1)
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, size, colour, thickness, cv2.LINE_AA)
