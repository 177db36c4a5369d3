"""The table's own print: looks that cover more of the frame than all the dice on it could.

The reader finds dice by how they stand out from the table's look around them (a wide median). A table of one
colour is its median; a printed mat, a plaid cloth or a checkered board is not: each patch of its print stands
out from the median as much as a die does, is as square, and, being plain, reads as a blank face. But a die is
one small thing: however many dice lie on the table, a way of standing out that more of the frame shows than all
of them could cover is the table's own, wherever it shows.

A pixel's way of standing out is its colour less the table's look around it (Lab, per channel): the room's light
falling unevenly on a plain table then changes nothing, while each colour of a print keeps its own difference.
"""

from __future__ import annotations

import cv2
import numpy as np

BIN = 8
"""Lab units per histogram bin (8-bit OpenCV Lab): a few bins make up the reader's margins."""
_BINS = 256 // BIN
_NO_DIFFERENCE = 128
"""Where a difference of 0 lies once differences are stored as 8-bit numbers."""
REACH = 0.5
"""The share of the reader's margins within which two differences count as one: a die stands out from the table
by at least the margins, so within half of them of its difference lies only the far tail of the table's own
spread (its grain, its noise), never the bulk of it."""
SIDE_FACES_SEEN = 2.0
"""How many times its top face's area a die's body may cover in the frame: a camera at a slant sees one or two
side faces as well, together no larger than the top face at the steepest view a camera over a table has."""


def dice_area(dice: int, side: float) -> float:
    """The most of the frame ``dice`` dice of the largest ``side`` (pixels) can cover, side faces included."""
    return dice * SIDE_FACES_SEEN * side * side


def printed(
    lab: np.ndarray,
    table: np.ndarray,
    lightness: float,
    colour: float,
    dice_pixels: float,
    counted: np.ndarray | None = None,
) -> np.ndarray:
    """Pixels (255) of an 8-bit Lab picture whose difference from the ``table``'s look there, within ``REACH`` of
    the margins ``lightness`` (L) and ``colour`` (a and b), more than ``dice_pixels`` pixels of the picture share:
    the table's print. With ``counted`` (a mask of the picture's size), only its pixels are counted: the table
    away from dice already found, whose own colours then do not count as print."""
    difference = cv2.addWeighted(lab, 1.0, table, -1.0, _NO_DIFFERENCE)  # saturates beyond +-127: far from any print
    bins = difference // np.uint8(BIN)
    index = (bins[..., 0].astype(np.int32) * _BINS + bins[..., 1]) * _BINS + bins[..., 2]
    # every other pixel each way: what covers more than the dice could is as common among a quarter of them
    sampled = index[::2, ::2] if counted is None else index[::2, ::2][counted[::2, ::2] > 0]
    near = 4 * np.bincount(sampled.ravel(), minlength=_BINS**3).reshape((_BINS,) * 3)
    for axis, margin in ((0, lightness), (1, colour), (2, colour)):
        near = _window_sum(near, axis, int(REACH * margin // BIN))
    common = np.where(near.ravel() > dice_pixels, np.uint8(255), np.uint8(0))
    return np.take(common, index)


def _window_sum(hist: np.ndarray, axis: int, reach: int) -> np.ndarray:
    """Each bin's count plus its neighbours' up to ``reach`` bins away along ``axis``."""
    summed = hist.copy()
    ahead, behind = np.moveaxis(summed, axis, 0), np.moveaxis(hist, axis, 0)  # views: the axis first
    # shifted copies added in place: for the one or two bins of reach a margin gives, half a running sum's cost
    for k in range(1, reach + 1):
        ahead[k:] += behind[:-k]
        ahead[:-k] += behind[k:]
    return summed
