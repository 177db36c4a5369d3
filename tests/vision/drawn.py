"""A flat die face drawn from above, with round pips in their places: the smallest picture a count is tried on."""

from __future__ import annotations

import cv2
import numpy as np

from fantan_table.vision.pips import PIP_LAYOUTS

SUBPIXEL_BITS = 4
"""cv2.circle's ``shift``: centres and radii in sixteenths of a pixel, so a small face's pips sit where they should."""


def pipped_face(px: int, body, pip, value: int, pip_share: float) -> np.ndarray:
    """A ``px`` square of colour ``body`` (BGR) with ``value`` pips of colour ``pip``, each ``pip_share`` of a side
    across, anti-aliased as a camera's blur would soften them."""
    face = np.full((px, px, 3), body, np.uint8)
    unit = 1 << SUBPIXEL_BITS
    radius = round(pip_share * px * unit / 2)
    for u, v in PIP_LAYOUTS[value]:
        cv2.circle(face, (round(u * px * unit), round(v * px * unit)), radius, pip, -1, cv2.LINE_AA, SUBPIXEL_BITS)
    return face
