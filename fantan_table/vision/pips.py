"""Where the pips of each face sit, in face coordinates (0..1 across the top face, y down).

The renderer draws these and the reader checks pips it found against them, so a cluster of
dark marks that is not a real face (a side face's pips, dirt, a shadow) is not counted.
"""

from __future__ import annotations

import math
from itertools import permutations
from typing import Final

import numpy as np

LO, MID, HI = 0.27, 0.5, 0.73

PIP_LAYOUTS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    0: (),
    1: ((MID, MID),),
    2: ((LO, LO), (HI, HI)),
    3: ((LO, LO), (MID, MID), (HI, HI)),
    4: ((LO, LO), (HI, LO), (LO, HI), (HI, HI)),
    5: ((LO, LO), (HI, LO), (MID, MID), (LO, HI), (HI, HI)),
    6: ((LO, LO), (LO, MID), (LO, HI), (HI, LO), (HI, MID), (HI, HI)),
}

PIP_RADIUS: Final = 0.085
"""A pip's radius as a share of the face's side."""


_TURNS: Final = tuple(
    np.array([[np.cos(k * np.pi / 2), -np.sin(k * np.pi / 2)], [np.sin(k * np.pi / 2), np.cos(k * np.pi / 2)]]).T
    for k in range(4)
)
"""The four quarter turns, as matrices that turn a row of points."""
_MIRROR: Final = np.array([-1.0, 1.0])
"""Mirrors a row of points left to right (a die seen in a mirror, or its pattern's other hand)."""


def _symmetries(points: np.ndarray) -> list[np.ndarray]:
    """The pattern under the eight symmetries of the square (a die may lie turned or seen mirrored)."""
    centred = points - 0.5
    out = []
    for turn in _TURNS:
        rot = centred @ turn
        out += [rot + 0.5, rot * _MIRROR + 0.5]
    return out


_LAYOUT_SYMMETRIES: Final = {
    value: np.stack(_symmetries(np.array(layout, dtype=float))) for value, layout in PIP_LAYOUTS.items() if layout
}
"""Each face's layout under the eight symmetries of the square (8 x pips x 2), made once."""


def pattern_error(value: int, found: np.ndarray) -> float:
    """How far pips ``found`` (N x 2, face coordinates) are from the layout of ``value``.

    The largest distance from a found pip to its nearest layout pip, under the best symmetry;
    ``inf`` when the count does not match. A true face scores a few hundredths.
    """
    layouts = _LAYOUT_SYMMETRIES.get(value)
    if layouts is None or layouts.shape[1] != len(found):  # no layout (a blank, or no such face): only no pips fit
        return 0.0 if layouts is None and len(found) == 0 else float("inf")
    points = np.asarray(found, dtype=float)
    if len(points) == 1:  # the one pip of a 1 sits at the middle, which every symmetry keeps
        return math.hypot(points[0, 0] - MID, points[0, 1] - MID)
    # the found pips against each symmetry of the layout: the symmetries are a group, so this is each symmetry of the
    # found pips against the layout, without turning them for every call
    distances = np.linalg.norm(points[None, :, None, :] - layouts[:, None, :, :], axis=3)
    orders = np.argsort(distances.min(axis=2), axis=1)
    best = float("inf")
    # plain lists from here: the greedy pairing below is a handful of steps, each far cheaper than a numpy call
    for d, order in zip(distances.tolist(), orders.tolist(), strict=True):
        # each found pip to a distinct layout pip: greedy on the sorted distances suffices for <= 6 pips
        err, free = 0.0, list(range(len(points)))
        for i in order:
            j = min(free, key=d[i].__getitem__)
            free.remove(j)
            err = max(err, d[i][j])
        best = min(best, err)
    return best


def shifted_pattern_error(value: int, found: np.ndarray, least_share: float, squeeze: float) -> float:
    """Like ``pattern_error``, for a top face that fills only part of its box: a die seen at a slant shows a
    side face too, so its top face is smaller than the box and off its middle, squeezed along the view.

    The layout may be moved and shrunk along each of the box's axes (to no less than ``least_share``, and
    one axis by at most ``squeeze`` times the other), never turned or sheared: the pips must still lie in
    rows along the die's edges. ``inf`` for fewer than two pips (one pip fits anywhere) or when no allowed
    fit exists.
    """
    layout = np.array(PIP_LAYOUTS.get(value, ()), dtype=float).reshape(-1, 2)
    if len(layout) != len(found) or len(found) < 2:
        return float("inf")
    best = float("inf")
    for variant in _symmetries(layout):
        for order in _assignments(variant, np.asarray(found, dtype=float)):
            target = found[order]
            centred_layout, centred_found = variant - variant.mean(axis=0), target - target.mean(axis=0)
            spread = (centred_layout**2).sum(axis=0)
            if np.any(spread < 1e-9):  # pips in one row say nothing of the scale across it: assume the other's
                sx = sy = float((centred_layout * centred_found).sum() / max(spread.sum(), 1e-9))
            else:
                sx, sy = (centred_layout * centred_found).sum(axis=0) / spread
            if not (least_share <= min(sx, sy) and max(sx, sy) <= 1.1 and max(sx / sy, sy / sx) <= squeeze):
                continue
            fitted = centred_layout * np.array([sx, sy]) + target.mean(axis=0)
            best = min(best, float(np.linalg.norm(fitted - target, axis=1).max()))
    return best


def _assignments(layout: np.ndarray, found: np.ndarray) -> list[np.ndarray]:
    """Which found pip is which layout pip: each to its nearest once both are centred (enough for real faces)."""
    d = np.linalg.norm((layout - layout.mean(axis=0))[:, None, :] - (found - found.mean(axis=0))[None, :, :], axis=2)
    order, used = [], set()
    for i in np.argsort(d.min(axis=1)):
        j = min((j for j in range(len(found)) if j not in used), key=lambda j: d[i, j])
        used.add(j)
        order.append((i, j))
    return [np.array([j for _, j in sorted(order)])]


def similar_pattern_fit(value: int, found: np.ndarray) -> tuple[float, float]:
    """How well pips ``found`` (N x 2, any unit) form the layout of ``value`` moved, turned, mirrored and scaled
    as a whole: (the largest distance from a pip to its place, in face widths; the face's width, in ``found``'s
    unit). For a top face whose squeeze by the camera's slant has been undone, so that only its pose is
    unknown. ``(inf, nan)`` for fewer than two pips or a count that is not ``value``'s."""
    layout = np.array(PIP_LAYOUTS.get(value, ()), dtype=float).reshape(-1, 2)
    if len(layout) != len(found) or len(found) < 2:
        return float("inf"), float("nan")
    places = layout - layout.mean(axis=0)
    pips = np.asarray(found, dtype=float) - np.mean(found, axis=0)
    target = pips[:, 0] + 1j * pips[:, 1]
    orders = np.array(list(permutations(range(len(layout)))))
    best, width = float("inf"), float("nan")
    for mirrored in (places * (1.0, -1.0), places):
        assigned = (mirrored[:, 0] + 1j * mirrored[:, 1])[orders]  # every way to give each pip a place
        # the best turn and scale for each: least squares in the complex plane
        pose = (np.conj(assigned) @ target) / (np.abs(assigned) ** 2).sum(axis=1)
        size = np.abs(pose)
        misfit = np.abs(pose[:, None] * assigned - target).max(axis=1)
        errors = np.divide(misfit, size, out=np.full_like(size, np.inf), where=size > 1e-12)  # 0: no fit at all
        k = int(np.argmin(errors))
        if errors[k] < best:
            best, width = float(errors[k]), float(np.abs(pose[k]))
    return best, width
