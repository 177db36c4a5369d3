"""Read a die's top face among the faces a camera at a slant sees, by the shape of its pips.

A camera looking at the table from the side of it sees one or two side faces of every die as well, with
their pips: the die's outline is no square, and its box holds the pips of several faces. But every pip is
a round disc, and the camera squeezes each face by how far it is turned away from it. The top face, turned
towards a camera above the table, shows the roundest pips; the side faces, seen nearly edge-on, show flat
ones, as long as the camera is at least 45 degrees above the table (lower down, a side face turned to the
camera is rounder than the top: ``side_faces`` is not for such a camera). So the top face's pips are the
roundest, all of one size. Their own shape says how the face is squeezed: undoing that turns the face back
into a square, where the pips must form a face's pattern at the spacing that their size implies.

Doubt stays doubt: when no clear gap in roundness parts the top face's pips from the others, the die is
``unsure``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from .pips import PIP_RADIUS, similar_pattern_fit
from .profile import Profile
from .quantiles import percentile

ROUND = 0.6
"""A top face's pip is at least this round (short axis over long)."""
ROUNDER_BY = 0.15
"""The top face's pips are rounder than every other pip on the die by at least this much."""
SAME_SIZE = 0.6
"""The pips of one face are one size: a round mark smaller than this share of the largest leaves the top face in
doubt (glare on a pip, a speck of shadow)."""
PIP_SIZED = (0.08, 1.5)
"""Marks counted as pips of any face: areas from this share to that of a standard pip on a face as wide as the
die's box (the box holds the side faces too, so the top face is smaller than it)."""
RIVAL_SIZE = 0.3
"""Marks smaller than this share of the largest round pip are specks, not pips of any face."""
NO_ROUND_PIPS = "no round pips on any face"

RotatedBox = tuple[tuple[float, float], tuple[float, float], float]
"""A die's rotated box in frame pixels, ``((cx, cy), (w, h), angle)`` as OpenCV's rotated rectangles."""


@dataclass(frozen=True)
class Mark:
    """A dark (or light) spot on a die: a pip of some face, seen squeezed into an ellipse."""

    center: np.ndarray
    """(x, y) in frame pixels."""
    area: int
    spread: np.ndarray
    """The 2 x 2 covariance of its pixels' positions: its ellipse."""
    cut: bool
    """Cut by the edge of the die's box: not a whole pip."""

    @cached_property  # asked several times of every mark while the faces are told apart
    def roundness(self) -> float:
        """Short axis over long: 1 for a pip seen square on, less the more its face is turned away."""
        low, high = np.linalg.eigvalsh(self.spread)
        return math.sqrt(max(low, 0.0) / high)


def read_top_face(frame: np.ndarray, box: RotatedBox, profile: Profile) -> tuple[int | None, float, str | None]:
    """(value, confidence, problem) of the die in ``box`` (frame pixels), from the round pips of its top face."""
    polarities = (True, False) if profile.pip_polarity == "auto" else (profile.pip_polarity == "dark",)
    readings = [_read(marks_on_die(frame, box, profile, dark), box, profile) for dark in polarities]
    seen = [r for r in readings if r is not None]
    if not seen:
        return None, 0.0, NO_ROUND_PIPS
    if len(seen) > 1:
        return None, 0.0, "both dark and light round marks on the die"
    return seen[0]


BODY_PERCENTILE = 75
"""A die's body is lighter than this share of its box's pixels when its pips are dark (darker, at 100 less this,
when they are light): pips and the shadow beside it take up less than a quarter of the box."""
MARKS_PEAK = 99.5
"""The strongest marks' contrast is taken at this percentile of the box: inside the pips, past a few hot pixels."""
MARKS_CUT = 0.5
"""Marks are cut at this share of the strongest marks' contrast: a pip keeps its shape, the shading of a side face
falls away."""
FEWEST_PIXELS = 4
"""A mark of fewer pixels has no shape to measure (its roundness, its squeeze): noise."""
MOST_PIPS = 6
"""The most pips a face has."""


def marks_on_die(frame: np.ndarray, box: RotatedBox, profile: Profile, dark: bool) -> list[Mark]:
    """The marks darker (or lighter) than the die's body inside its box, at full resolution."""
    corners = cv2.boxPoints(box)
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    region = frame[y0:y1, x0:x1]
    if region.size == 0:
        return []
    inside = np.zeros(region.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners - (x0, y0)).astype(np.int32), 1)
    if not inside.any():
        return []
    light = cv2.cvtColor(region, cv2.COLOR_BGR2Lab)[..., 0].astype(np.int16)
    # the body is the die's bulk: lighter than most of its box when its pips are dark, darker when light
    body = percentile(light[inside > 0], BODY_PERCENTILE if dark else 100 - BODY_PERCENTILE)
    contrast = body - light if dark else light - body
    peak = percentile(contrast[inside > 0], MARKS_PEAK)
    spots = ((contrast > max(profile.pip_contrast, MARKS_CUT * peak)) & (inside > 0)).astype(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(spots, connectivity=8)
    edge = (inside > 0) & ~cv2.erode(inside, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT).astype(bool)
    cut = np.zeros(count, bool)
    cut[np.unique(labels[edge])] = True
    marks = []
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < FEWEST_PIXELS:
            continue
        ys, xs = np.nonzero(labels == i)
        spread = np.cov(np.vstack([xs, ys])) + np.eye(2) / 12  # a pixel is a square, not a point
        marks.append(Mark(centroids[i] + (x0, y0), int(stats[i, cv2.CC_STAT_AREA]), spread, bool(cut[i])))
    return marks


def _read(marks: list[Mark], box: RotatedBox, profile: Profile) -> tuple[int | None, float, str | None] | None:
    """The reading from one kind of mark, or ``None`` when no round pip of that kind is on the die."""
    (_, _), (w, h), _ = box
    side = math.sqrt(w * h)
    standard = math.pi * (PIP_RADIUS * side) ** 2
    pips = [m for m in marks if not m.cut and PIP_SIZED[0] * standard <= m.area <= PIP_SIZED[1] * standard]
    largest = max((m.area for m in pips if m.roundness >= ROUND), default=0)
    if not largest:
        return None
    # the top face's pips are the round ones, clearly rounder than any other face's
    pips = [m for m in pips if m.area >= RIVAL_SIZE * largest]
    top = [m for m in pips if m.roundness >= ROUND]
    others = [m for m in pips if m.roundness < ROUND]
    if others and min(m.roundness for m in top) - max(m.roundness for m in others) < ROUNDER_BY:
        return None, 0.0, "no clear top face: pips of other faces are nearly as round as its own"
    # one face's pips are seen under one squeeze, so they are about as round as each other: a gap among the round
    # marks is two faces (a side face's flat pips blurred together into rounder marks)
    roundness = sorted((m.roundness for m in top), reverse=True)
    if any(a - b >= ROUNDER_BY for a, b in zip(roundness, roundness[1:], strict=False)):
        return None, 0.0, "round marks squeezed unlike each other: pips of two faces"
    if min(m.area for m in top) < SAME_SIZE * largest:
        return None, 0.0, "round marks of different sizes on the top face: glare, a shadow, or blur?"
    if _between(top, others):
        return None, 0.0, "the roundest pips lie between other faces' pips: not on top of the die"
    if len(top) > MOST_PIPS:
        return None, 0.0, f"{len(top)} round pips: more than a face has"
    radius = math.sqrt(np.mean([m.area for m in top]) / math.pi)  # the squeeze undone keeps areas
    low, high = (math.sqrt(a) * PIP_RADIUS for a in profile.pip_area)
    if len(top) == 1:
        # one pip gives no spacing to check: its size against the die's box is all there is (the top face fills
        # as little as the profile's least share of the box)
        if not low * profile.top_face[0] <= radius / side <= high:
            return None, 0.0, "one round pip, not of a pip's size for this die"
        return 1, 0.5, None
    error, face = similar_pattern_fit(len(top), np.array([_unsqueeze(top) @ m.center for m in top]))
    if error > profile.pattern_tolerance:
        return None, 0.0, f"{len(top)} round pips that do not form a face's pattern"
    if not low <= radius / face <= high:
        return None, 0.0, f"{len(top)} round pips spaced unlike a face's for their size"
    return len(top), round(1.0 - 0.5 * error / profile.pattern_tolerance, 3), None


def _between(top: list[Mark], others: list[Mark]) -> bool:
    """Whether other pips lie beyond the top face as well as before it. The side faces a camera sees hang from
    the top face's near edges: all their pips lie on the camera's side of the top face's middle, none beyond."""
    if not others:
        return False
    middle = np.mean([m.center for m in top], axis=0)
    towards = np.mean([m.center for m in others], axis=0) - middle  # the camera's side, where the side faces are
    length = float(np.linalg.norm(towards))
    if length < 1e-6:
        return True  # other pips all round the round ones
    reach = np.array([(m.center - middle) @ towards / length for m in others])
    margin = 2 * math.sqrt(max(float(np.linalg.eigvalsh(m.spread)[1]) for m in top))  # a pip's long radius
    return bool(np.any(reach < -margin))


def _unsqueeze(pips: list[Mark]) -> np.ndarray:
    """The linear map that makes the pips' mean ellipse a circle of the same area: the face's squeeze undone."""
    values, vectors = np.linalg.eigh(sum(m.spread for m in pips) / len(pips))
    return vectors @ np.diag(1 / np.sqrt(values)) @ vectors.T * math.sqrt(math.sqrt(values[0] * values[1]))
