"""Which way each die's side faces show, and whether one camera could see every die so.

A camera sees a die's side faces on the side of its top face that is nearer the point of the table straight below
the camera (the nadir). In one picture, then, the die-coloured faces just beyond each top face all point towards
one place: the nadir, in the frame for a camera above the table, or far beyond it for one at a slant (and then
nearly one direction). A box whose die goes on beyond it the other way is not a top face. At a steep slant the top
face looks flatter than the side face turned to the camera, and the finder may box that side face: dice-photos
train two_29 (a white 2 boxed on its front face, a 4, read ok and wrong with ``SECOND_OPINION_SURE`` at 0.98).

Only dice well apart from the others are weighed (``ALONE``): a neighbour's side face beyond a box would count as
the die's own. And only dice whose far sides border the table (``FAR_SIDE``): a box whose every side looks like the
die is on a table of its colour, where this measure means nothing.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Final

import cv2
import numpy as np

from .quantiles import column_medians
from .topface import RotatedBox

BEYOND: Final = 0.35
"""How far beyond each side of the box, in sides, to look for the die: a side face at a slant of 20-60 degrees shows
0.35-1.7 times as deep as the top face (tan of the slant), so this much of it is in view at every slant worth
weighing; less of a slant shows too little side face to box."""
ALONG: Final = 0.8
"""The share of each side of the box the strip beyond it spans: the middle, clear of the corners where two side
faces and the table meet."""
LOOK_PX: Final = 24
"""About this many pixels along a die's side are looked at (of a larger die, every second, third ... pixel): its
strips then hold about 8 by 19 pixels, enough for a share, and a large die costs no more than this. A smaller die
is looked at pixel by pixel."""
IN_FRAME: Final = 0.5
"""The share of a strip that must lie in the frame: of a die at the frame's edge, what lies beyond it is unknown,
and a strip cut short would count as table. Such a die is not weighed."""
INSIDE: Final = 0.8
"""The share of the box whose colours are the face's: its middle, clear of the box's own edge."""
LIGHTNESS_WEIGHT: Final = 0.5
"""Lightness counts half as much as colour when telling die from table: a side face is the die's colour in
another light (often darker), while the table differs in colour as much as in light. A cast shadow is the table's
colour in less light, and a dark one on a pale grey table can still look more like a dark green die than like the
table: on stress DEV 610641 a green die's shadow and an orange die's side face leaned apart (the one right roll of
1,494 on 610000-612499 this check turned unsure)."""
FAR_SIDE: Final = 0.3
"""The die-like share below which the two least die-like strips must both lie: a cube shows at most two side faces,
so at least two sides of its top face border the table. A box with more die-like sides is among things of its
colour (a patterned table, a neighbour), where the strips cannot tell a side face."""
LEAST_LEAN: Final = 0.5
"""The length of a die's lean (the sum of the sides' outward directions, each weighted by its die-like share) that
it needs to count: half a side face's worth."""
ALONE: Final = 2.0
"""Dice weighed lie more than this many sides from every other die found: touching dice show each other's side faces
beyond their boxes. On DEV, weighing dice in clusters too vetoed 9 of 1,387 right rolls of wooden dice."""
CONE_DEG: Final = 70.0
"""How far, in degrees, a die's lean may turn from the line to the nadir: a die turned to the camera shows two side
faces, and the sum of their directions lies up to 45 degrees off that line; a rough strip adds to that. Chosen on
DEV rolls read ok with the count, with a first version of this measure: 70 degrees vetoed 1 of 1,494 right stress
rolls (610000-612499) and none of 1,387 right wooden (650000-653509), 365 stress (600000-600599) or 217 dice-photos
train rolls; 50 degrees vetoed 3. In two_29 the side face's lean and another die's lie 169 degrees apart."""
_REACH: Final = 4.0
"""The nadir is looked for within this many frame sizes of the frame (and beyond it, as a direction alone)."""
_GRID: Final = 81
"""Places tried for the nadir along each axis of that reach."""
_DIRECTIONS: Final = 180
"""Directions tried for a nadir far beyond the frame."""
_TURNS: Final = np.linspace(0, 2 * math.pi, _DIRECTIONS, endpoint=False)
_DIRECTIONS_TRIED: Final = np.stack([np.cos(_TURNS), np.sin(_TURNS)], axis=1)
_DIRECTIONS_TRIED.flags.writeable = False
_SIDES_ALONG: Final = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
"""How many of its sides out along a die's lean more places are tried (``_near_the_dice``)."""
_TABLE_SAMPLE: Final = 5_000
"""About how many of the frame's pixels, evenly spread, the table's colour is the median of."""


def disagreeing(image: np.ndarray, boxes: Sequence[RotatedBox]) -> tuple[int, ...]:
    """The dice (their indices in ``boxes``) whose side faces no one camera could show as they show, or ``()``.

    ``image`` is the BGR frame the boxes are in. Names the first pair of dice that disagree, else every die
    weighed when only three or more together do.
    """
    finite = [i for i, box in enumerate(boxes) if all(map(math.isfinite, (*box[0], *box[1], box[2])))]
    alone = [i for i in finite if all(i == j or _sides_apart(boxes[i], boxes[j]) > ALONE for j in finite)]
    if len(alone) < 2:
        return ()
    step = max(1, round(math.sqrt(image.shape[0] * image.shape[1] / _TABLE_SAMPLE)))
    sample = cv2.cvtColor(np.ascontiguousarray(image[::step, ::step]), cv2.COLOR_BGR2Lab)
    table = column_medians(sample.reshape(-1, 3)).astype(np.float32)
    leans: dict[int, np.ndarray] = {}
    for i in alone:
        lean = _lean(image, boxes[i], table)
        if lean is not None:
            leans[i] = lean
    return leaning_apart(image.shape, boxes, leans)


def leaning_apart(shape: tuple[int, ...], boxes: Sequence[RotatedBox], leans: dict[int, np.ndarray]) -> tuple[int, ...]:
    """The dice (indices in ``boxes``) whose ``leans`` (unit vectors: the way each die's side faces show) no one
    camera could give them all, or ``()``: no nadir, in or around a frame of ``shape`` or far beyond it, lies within
    ``CONE_DEG`` of every lean. Names the first pair that disagree, else every die with a lean when only three or
    more together do."""
    weighed = sorted(leans)
    if len(weighed) < 2:
        return ()
    near = _near_the_dice([boxes[i] for i in weighed], [leans[i] for i in weighed])
    places = np.vstack([_nadirs(*shape[:2]), near])
    # for each die weighed: which places and which far directions lie within CONE_DEG of its lean
    within = {i: _within(boxes[i][0], leans[i], places, _DIRECTIONS_TRIED) for i in weighed}
    for a, b in ((a, b) for n, a in enumerate(weighed) for b in weighed[n + 1 :]):
        if not _any_common([within[a], within[b]]):
            return (a, b)
    if len(weighed) > 2 and not _any_common(list(within.values())):
        return tuple(weighed)
    return ()


def _sides_apart(box: RotatedBox, other: RotatedBox) -> float:
    """How many of ``box``'s sides lie between the two boxes' centres."""
    (x, y), (w, h), _ = box
    return math.hypot(other[0][0] - x, other[0][1] - y) / max((w + h) / 2, 1e-9)


def _lean(image: np.ndarray, box: RotatedBox, table: np.ndarray) -> np.ndarray | None:
    """The way the die goes on beyond its box (a unit vector), or None where it does not clearly go one way."""
    (cx, cy), (w, h), angle = box
    side = (w + h) / 2
    turn = math.radians(angle)
    u = np.array([math.cos(turn), math.sin(turn)])  # along the box's width
    v = np.array([-math.sin(turn), math.cos(turn)])  # along its height
    reach = math.ceil((max(w, h) / 2 + BEYOND * side) * math.sqrt(2)) + 1
    x0, y0 = max(0, math.floor(cx) - reach), max(0, math.floor(cy) - reach)
    x1, y1 = min(image.shape[1], math.floor(cx) + reach + 1), min(image.shape[0], math.floor(cy) + reach + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    step = max(1, int(side // LOOK_PX))  # every step-th pixel each way
    lab = cv2.cvtColor(np.ascontiguousarray(image[y0:y1:step, x0:x1:step]), cv2.COLOR_BGR2Lab).astype(np.float32)
    rows, cols = np.mgrid[0 : lab.shape[0], 0 : lab.shape[1]]
    xs, ys = x0 + cols * step, y0 + rows * step
    along_u = (xs - cx) * u[0] + (ys - cy) * u[1]
    along_v = (xs - cx) * v[0] + (ys - cy) * v[1]
    inside = (np.abs(along_u) < w * INSIDE / 2) & (np.abs(along_v) < h * INSIDE / 2)
    if not inside.any():
        return None
    face = column_medians(lab[inside]).astype(np.float32)
    weights = np.array([LIGHTNESS_WEIGHT, 1.0, 1.0], np.float32) ** 2
    die_like = ((lab - face) ** 2 @ weights) < ((lab - table) ** 2 @ weights)
    shares = []
    for outward, out, across, half, span in (
        (u, along_u, along_v, w / 2, h),
        (-u, -along_u, along_v, w / 2, h),
        (v, along_v, along_u, h / 2, w),
        (-v, -along_v, along_u, h / 2, w),
    ):
        strip = (out > half) & (out < half + BEYOND * side) & (np.abs(across) < span * ALONG / 2)
        if not strip.any() or strip.sum() < IN_FRAME * (BEYOND * side) * (span * ALONG) / step**2:
            return None  # the frame's edge cuts the strip off: what lies beyond it is not known
        shares.append((outward, float(die_like[strip].mean())))
    if sorted(share for _, share in shares)[1] >= FAR_SIDE:
        return None
    lean = sum((outward * share for outward, share in shares), np.zeros(2))
    length = float(np.linalg.norm(lean))
    return lean / length if length >= LEAST_LEAN else None


@functools.lru_cache(maxsize=4)
def _nadirs(height: int, width: int) -> np.ndarray:
    """The places tried for the nadir in and around a frame of this size: a grid over ``_REACH`` frames each way."""
    xs = np.linspace(-_REACH * width, (1 + _REACH) * width, _GRID)
    ys = np.linspace(-_REACH * height, (1 + _REACH) * height, _GRID)
    places = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    places.flags.writeable = False  # shared by every frame of this size
    return places


def _near_the_dice(boxes: Sequence[RotatedBox], leans: Sequence[np.ndarray]) -> np.ndarray:
    """More places to try, where the grid is too coarse: midway between every two dice (dice leaning at each other
    from either side of the nadir), and out along each die's lean (a nadir near one die)."""
    centres = np.array([box[0] for box in boxes], np.float64)
    middles = [(a + b) / 2 for n, a in enumerate(centres) for b in centres[n + 1 :]]
    along = [
        centre + lean * max(box[1]) * sides
        for centre, box, lean in zip(centres, boxes, leans, strict=True)
        for sides in _SIDES_ALONG
    ]
    return np.array(middles + along, np.float64).reshape(-1, 2)


def _within(
    centre: tuple[float, float], lean: np.ndarray, places: np.ndarray, directions: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Which places, and which far directions, lie within ``CONE_DEG`` of the lean of the die at ``centre``."""
    least = math.cos(math.radians(CONE_DEG))
    towards = places - np.asarray(centre)
    near = towards @ lean > least * np.linalg.norm(towards, axis=1)
    return near, directions @ lean > least


def _any_common(withins: Sequence[tuple[np.ndarray, np.ndarray]]) -> bool:
    """Whether one place or one far direction lies within every die's cone: one camera could see them all."""
    near = np.logical_and.reduce([n for n, _ in withins])
    far = np.logical_and.reduce([f for _, f in withins])
    return bool(near.any() or far.any())
