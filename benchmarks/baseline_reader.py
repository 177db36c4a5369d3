"""The baseline the reader is measured against: the usual hobby dice reader.

Pips are found with OpenCV's SimpleBlobDetector (dark blobs, and light blobs for coloured dice),
then grouped into dice by distance (pips closer than a die's width belong together); a die's
value is the size of its group. It cannot see a blank face, and touching dice merge.
"""

from __future__ import annotations

import cv2
import numpy as np


def _detector(dark: bool, width: int) -> cv2.SimpleBlobDetector:
    p = cv2.SimpleBlobDetector_Params()
    p.blobColor = 0 if dark else 255
    p.filterByArea = True
    p.minArea = (0.004 * width) ** 2
    p.maxArea = (0.03 * width) ** 2
    p.filterByCircularity = True
    p.minCircularity = 0.6
    p.filterByConvexity = True
    p.minConvexity = 0.8
    p.filterByInertia = True
    p.minInertiaRatio = 0.4
    return cv2.SimpleBlobDetector_create(p)


def baseline_read(image: np.ndarray, expect: int | None = None) -> tuple[tuple[int, ...], bool]:
    """The values read and whether the baseline would call the reading good (the count matches)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    width = image.shape[1]
    points = [k.pt for dark in (True, False) for k in _detector(dark, width).detect(grey)]
    if not points:
        return (), expect in (None, 0)
    pts = np.array(points)
    link = 0.055 * width  # pips of one die lie within about a die's width of each other
    group = list(range(len(pts)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            if np.hypot(*(pts[i] - pts[j])) < link:
                group[root(i)] = root(j)
    sizes: dict[int, int] = {}
    for i in range(len(pts)):
        sizes[root(i)] = sizes.get(root(i), 0) + 1
    values = tuple(min(6, n) for n in sizes.values())
    return values, expect is None or len(values) == expect
