"""Where the pips of each face sit, in face coordinates (0..1 across the top face, y down).

The renderer draws these and the reader checks pips it found against them, so a cluster of
dark marks that is not a real face (a side face's pips, dirt, a shadow) is not counted.
"""

from __future__ import annotations

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


def _symmetries(points: np.ndarray) -> list[np.ndarray]:
    """The pattern under the eight symmetries of the square (a die may lie turned or seen mirrored)."""
    centred = points - 0.5
    out = []
    for k in range(4):
        c, s = np.cos(k * np.pi / 2), np.sin(k * np.pi / 2)
        rot = centred @ np.array([[c, -s], [s, c]]).T
        out += [rot + 0.5, rot * np.array([-1.0, 1.0]) + 0.5]
    return out


def pattern_error(value: int, found: np.ndarray) -> float:
    """How far pips ``found`` (N x 2, face coordinates) are from the layout of ``value``.

    The largest distance from a found pip to its nearest layout pip, under the best symmetry;
    ``inf`` when the count does not match. A true face scores a few hundredths.
    """
    layout = np.array(PIP_LAYOUTS.get(value, ()), dtype=float).reshape(-1, 2)
    if len(layout) != len(found):
        return float("inf")
    if len(found) == 0:
        return 0.0
    best = float("inf")
    for variant in _symmetries(np.asarray(found, dtype=float)):
        d = np.linalg.norm(variant[:, None, :] - layout[None, :, :], axis=2)
        # each found pip to a distinct layout pip: greedy on the sorted distances suffices for <= 6 pips
        err, used = 0.0, set()
        for i in np.argsort(d.min(axis=1)):
            j = min((j for j in range(len(layout)) if j not in used), key=lambda j: d[i, j])
            used.add(j)
            err = max(err, float(d[i, j]))
        best = min(best, err)
    return best
