"""Find dice by their outlines: where a die's body stands out from the table, one rotated box per die.

The hand-made finder, beside the learned one (``finder``): it finds dice by their bodies, not their pips (a blank
face has none), so it also finds the dice the network misses, and it is what faces learned from captures were taught
on (``calibrate``). The steps:

1. Die bodies: on a copy of the frame scaled to the profile's ``work_width``, a pixel belongs to a die when it is
   lighter than the table, of another colour, or far darker (``body_darkness``: a dark die on a light table). A
   shadow is darker with the table's colour, but room light keeps it from falling that deep, so it is left out. The
   table is the empty-table frame when the profile has one, else a wide median of the frame itself less the table's
   print: what stands out as more of the frame does than all the dice could cover (``table_colours``: a plaid's or
   a mat's die-sized squares).
2. One box per die: the flat middle of each face seeds a watershed that stops at the seams between touching dice; a
   piece that is not square, or not die-sized, comes with the problem that makes its die unsure.

Its bars are named below, each with what it stands for. Most are shares of a die's side or area, so they hold at any
die size; they date from this finder's first design, on render.py's scenes, and have been checked since on the
real photos (dice-photos, byler) and the stress renderer's scenes. Where a bar has a reason in geometry, its
docstring gives it; the others are margins, said to be so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

from .profile import Profile
from .table_colours import dice_area, printed
from .topface import RotatedBox


# -- die bodies ------------------------------------------------------------------------------
def region(image: np.ndarray, profile: Profile) -> tuple[np.ndarray, tuple[int, int]]:
    if profile.roi is None:
        return image, (0, 0)
    x0, y0, x1, y1 = profile.roi
    return image[y0:y1, x0:x1], (x0, y0)


def empty_for(profile: Profile, image: np.ndarray, small: tuple[int, ...]) -> np.ndarray | None:
    empty = profile.empty
    if empty is None:
        return None
    if empty.shape != image.shape:
        empty = cv2.resize(empty, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_AREA)
    empty, _ = region(empty, profile)
    return cv2.resize(empty, (small[1], small[0]), interpolation=cv2.INTER_AREA)


def body_mask(
    small: np.ndarray, empty: np.ndarray | None, profile: Profile, die_sizes: tuple[float, float], dice: int
) -> tuple[np.ndarray, np.ndarray]:
    """Pixels that belong to a die (255), and the frame in Lab for the later steps. Without a picture of the empty
    table, a way of standing out that more of the frame shows than ``dice`` dice could cover is the table's print."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2Lab)
    if empty is not None:
        table = cv2.cvtColor(cv2.GaussianBlur(empty, (3, 3), 0), cv2.COLOR_BGR2Lab)
    else:
        die_min, die_max = die_sizes
        table = table_look(lab, die_max)
        stands_out = standing_out(lab, table, profile)
        guess = math.sqrt(die_min * die_max)  # a die's side before one is measured, as in find_dice
        return _without_print(lab, table, stands_out, profile, guess, dice_area(dice, die_max)), lab
    return standing_out(lab, table, profile), lab


LOOK_PX_PER_DIE = 6
"""The table's look is taken on a copy scaled so that the largest die is this many pixels across: a median then
costs little, and the table's own grain and print (far finer or far larger than a die) are unchanged by it."""
LOOK_DICE_WIDE = 4
"""The median's window, in sides of the largest die: four dice side by side still leave the window's middle pixel
to the table in more than half its area, so dice, even a few touching, are outvoted."""


def table_look(lab: np.ndarray, die_side: float) -> np.ndarray:
    """The table's look everywhere in an 8-bit Lab picture: a median wide enough (four sides of the largest die,
    ``die_side`` pixels) that dice, even a few touching, are outvoted."""
    h, w = lab.shape[:2]
    step = max(1, round(die_side / LOOK_PX_PER_DIE))
    tiny = cv2.resize(lab, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_AREA)
    k = min(2 * (min(tiny.shape[:2]) // 2) - 1, LOOK_DICE_WIDE * LOOK_PX_PER_DIE + 1)
    tiny = cv2.medianBlur(tiny, max(3, k))
    return cv2.resize(tiny, (w, h), interpolation=cv2.INTER_LINEAR)


def _without_print(
    lab: np.ndarray, table: np.ndarray, mask: np.ndarray, profile: Profile, die_side: float, dice_pixels: float
) -> np.ndarray:
    """The body mask less the table's print (``table_colours``): its patches that could hold a die of ``die_side``
    (the reader's guess before it has measured a die). A print's patch that could pass for a die is that large;
    narrower matches are a die's own shading or side face, or a sliver between dice, and stay."""
    print_ = die_sized(printed(lab, table, profile.body_lightness, profile.body_colour, dice_pixels), die_side)
    return cv2.bitwise_and(mask, cv2.bitwise_not(print_))


def die_sized(mask: np.ndarray, die_side: float) -> np.ndarray:
    """The parts of ``mask`` that could hold a die's face of ``die_side`` pixels at some turn."""
    # a square of side s at any turn holds an upright square of side s / sqrt(2) (at 45 degrees; more at others),
    # and an upright square opens fast (rows, then columns)
    size = max(1, round(die_side / math.sqrt(2)))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))


def standing_out(lab: np.ndarray, table: np.ndarray, profile: Profile) -> np.ndarray:
    """Pixels (255) lighter than the table's look, or of another colour, by the profile's margins; specks
    removed and hairline gaps closed."""
    light, a, b = cv2.split(lab)
    table_light, table_a, table_b = cv2.split(table)
    lighter = cv2.subtract(light, table_light) > profile.body_lightness  # saturating: darker counts as 0
    # a dark die on a light table: darker than a shadow falls (room light fills a shadow in), and by the margin
    darker = (light.astype(np.float32) < profile.body_darkness * table_light.astype(np.float32)) & (
        cv2.subtract(table_light, light) > profile.body_lightness
    )
    colour = (
        cv2.magnitude(cv2.absdiff(a, table_a).astype(np.float32), cv2.absdiff(b, table_b).astype(np.float32))
        > profile.body_colour
    )
    mask = (lighter | darker | colour).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))


def components8(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """8-connected components with their stats. Grana's block-based labelling gives the same labels as
    OpenCV's default and takes a third of its time here, which matters on every frame the table watches."""
    return cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)


# -- one box per die -------------------------------------------------------------------------
CRUMB = 0.45
"""A blob smaller than this share of the smallest die's area (its side squared) is a crumb. A margin: two thirds of
the smallest die's side each way (0.67 squared), for a die whose shaded rim and pale face barely stand out."""
PIP_HOLE = 0.012
"""A hole in a blob up to this share of the largest die's area is a pip, filled: a pip 12 % of a side across (the
smallest pips are 9 %). A larger hole is table showing between dice; a blob whose larger pips left it ragged is
filled again whole (``find_dice``)."""
DISC_ROUNDNESS = 0.86
"""A region at least this round (``_Shape.roundness``, of itself or its hull) may be a coin: a disc scores 0.9-1, a
die's rounded square about 0.76, less at a slant. ``_DISC_SQUARENESS`` decides."""
COIN_LARGEST = 1.5
"""A disc up to this many dice's areas is a coin lying alone; a round lump of dice is larger."""
FAINT_AND_ROUND = 0.8
"""A ragged region (under the profile's ``min_solidity``) less square than this and whose hull is at least this
round is a coin that barely stands out from the table: a die's ragged outline keeps a square hull. A margin."""
LIKE_THE_OTHERS = (0.55, 1.6)
"""A die's area as shares of the dice lying alone in the frame: a die seen at a slant, its side faces showing, is
larger, and one whose rim is shaded smaller, but less than 0.55 (three quarters of a side each way) is a coin half
seen or a crumb of a tile, and more than 1.6 is a die cocked on another, or stacked."""


def find_dice(
    lab: np.ndarray, mask: np.ndarray, die_min: float, die_max: float, profile: Profile, cut: bool = False
) -> list[tuple[RotatedBox, str | None]]:
    """One rotated box per die, with any problem seen in its shape. Dice touching each other are told apart
    by the seam between them. With ``cut``, what may be a die cut by the frame's edge (``_cut_die``) is one too,
    with the problem ``CUT_BY_EDGE``."""
    h, w = mask.shape
    count, labels, stats, _ = components8(mask)
    blobs: list[tuple[int, int, np.ndarray]] = []
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if area >= CRUMB * die_min**2:
            blobs.append((x, y, _fill_pip_holes(labels[y : y + bh, x : x + bw] == i, PIP_HOLE * die_max**2)))
    blob_shapes = [_Shape.of(blob, (x, y)) for x, y, blob in blobs]
    for k, shape in enumerate(blob_shapes):
        if shape.solidity < profile.min_solidity:
            blobs[k], blob_shapes[k] = _against_table_around(lab, mask, blobs[k], shape, die_max, profile)
    # the size of a die here, from the dice lying alone; the profile's middle size if every die touches another
    alone = _lone_die_areas(blob_shapes, die_min, die_max)
    side = math.sqrt(float(np.median(alone))) if alone else math.sqrt(die_min * die_max)
    regions: list[tuple[_Shape, bool, int]] = []  # (shape, whether it is a whole blob, its run along the edge)
    for (x, y, blob), blob_shape in zip(blobs, blob_shapes, strict=True):
        bh, bw = blob.shape
        y0, y1, x0, x1 = max(y - 1, 0), min(y + bh + 1, h), max(x - 1, 0), min(x + bw + 1, w)
        patch = lab[y0:y1, x0:x1]
        edges = _colour_gradient(patch)[y - y0 : y - y0 + bh, x - x0 : x - x0 + bw]
        crop = np.ascontiguousarray(patch[y - y0 : y - y0 + bh, x - x0 : x - x0 + bw])
        parts = _separate(crop, edges, blob, side, profile.min_squareness, measured=bool(alone))
        contact = _edge_contact(blob, x, y, w, h)  # the whole blob's: a tile's end cut apart is no grazing die
        for part in parts:
            if part is blob:  # not split: measured already
                shape = blob_shape
                if shape.solidity < profile.min_solidity:  # big pips are holes bigger than a small die's:
                    shape = _Shape.of(_fill_pip_holes(blob, blob.size), (x, y))  # only its outline can be ragged
            elif len(parts) > 1:
                shape = _Shape.of(_trim(part, side), (x, y))
            else:
                shape = _Shape.of(part, (x, y))
            regions.append((shape, len(parts) == 1, contact))
    # a die's size again, now from the dice cut apart too: every die may have touched another
    cut_apart = _lone_die_areas([shape for shape, _, contact in regions if not contact], die_min, die_max)
    cut_apart = cut_apart or _lone_die_areas([shape for shape, _, _ in regions], die_min, die_max)
    side = math.sqrt(float(np.median(cut_apart))) if cut_apart else side
    # a blob reaching the frame's edge is a tile, a hand or a sleeve reaching in; the dice against it are kept,
    # and so is a die only grazing the edge; a die cut deeper is not read (a count, or ``cut``, leaves it unsure)
    kept = [
        (shape, whole) for shape, whole, contact in regions if not contact or _clearly_a_die(shape, side, w, h, contact)
    ]
    singles = _lone_die_areas([shape for shape, _ in kept], die_min, die_max)
    one_die = float(np.median(singles)) if singles else None
    found: list[tuple[RotatedBox, str | None]] = []
    for shape, whole in kept:
        if (
            whole
            and max(shape.roundness, shape.hull_roundness) > DISC_ROUNDNESS
            and shape.hull_squareness < _DISC_SQUARENESS
            and shape.area <= COIN_LARGEST * (one_die or die_max**2)
        ):
            continue  # a die-sized disc on its own: a coin (a die scores ~0.76; a round lump of dice is larger)
        ragged = shape.solidity < profile.min_solidity
        if whole and ragged and shape.squareness < FAINT_AND_ROUND and shape.hull_roundness > FAINT_AND_ROUND:
            continue  # faint, ragged, and round rather than square: a coin barely standing out from the table
        if whole and len(singles) >= 2 and one_die and shape.area < LIKE_THE_OTHERS[0] * one_die:
            continue  # much smaller than the dice lying alone: a coin half seen, a crumb of a tile
        if whole and _not_dice_sized(shape, one_die or side**2):
            continue  # a phone, a pen, a laptop's corner
        problem = _shape_problem(shape, one_die, die_min, die_max, profile)
        if whole and ragged:  # a die's outline is crisp; a ragged one barely stands out
            problem = RAGGED
        found.append((shape.rect, problem))
    if cut:  # a blob reaching the edge that could be a die partly out of view (not part of a larger one: a cup's rim)
        found += [
            (shape.rect, CUT_BY_EDGE)
            for shape, whole, contact in regions
            if contact and whole and _cut_die(shape, side, w, h, contact)
        ]
    return found


AROUND_PAD = 0.3
"""How far around a ragged blob, in sides of the largest die, the table is looked at again: room for the ring
(``AROUND_REACH``) and for the parts of the die that were not found."""
AROUND_GAP = 0.05
"""The ring of table a ragged blob is found again against starts this far (in sides of the largest die) outside
its hull, past the die's faint rim, which is neither table nor die."""
AROUND_REACH = 0.15
"""And reaches this far: near enough that the table's shade has not changed."""
AROUND_ENOUGH = 0.5
"""The ring must hold at least this share of the hull's area of table (not other dice) to measure the table by."""
AROUND_TAKES_IN = 0.9
"""What is found again must take in at least this share of the blob found before: the die, not a piece of it."""
AROUND_MORE = 1.1
"""And be at least this many times its area: a crisp blob (dice touching) comes out the same, and stays."""


def _against_table_around(
    lab: np.ndarray,
    mask: np.ndarray,
    blob: tuple[int, int, np.ndarray],
    shape: _Shape,
    die_max: float,
    profile: Profile,
) -> tuple[tuple[int, int, np.ndarray], _Shape]:
    """A ragged blob found again against the table right around it, and kept if its outline is then crisper.

    The table's look is a median over several dice's widths; where the table's shade changes within that (a
    darker plank, the frame's corner), a pale die barely stands out from it, and only parts of the die are
    found. Against the table just around the die, all of it stands out."""
    x, y, part = blob
    h, w = mask.shape
    bh, bw = part.shape
    pad = max(3, round(AROUND_PAD * die_max))
    x0, y0, x1, y1 = max(x - pad, 0), max(y - pad, 0), min(x + bw + pad, w), min(y + bh + pad, h)
    near = np.zeros((y1 - y0, x1 - x0), np.uint8)
    near[y - y0 : y - y0 + bh, x - x0 : x - x0 + bw] = part
    outline = np.zeros_like(near)  # the blob's hull: the parts of the die between its pieces are no table
    cv2.fillConvexPoly(outline, cv2.convexHull(_points(part, (x - x0, y - y0))).astype(np.int32), 1)
    gap = max(2, round(AROUND_GAP * die_max))  # nor is the die's faint rim
    reach = max(gap + 2, round(AROUND_REACH * die_max))
    ring = _grown(outline, reach) > _grown(outline, gap)
    ring &= mask[y0:y1, x0:x1] == 0  # nor any other die
    if np.count_nonzero(ring) < AROUND_ENOUGH * np.count_nonzero(outline):
        return blob, shape  # hemmed in by other dice: too little table to measure
    patch = lab[y0:y1, x0:x1]
    table = np.empty_like(patch)
    table[:] = np.median(patch[ring], axis=0)
    n, labels, stats, _ = components8(standing_out(patch, table, profile))
    overlap = np.bincount(labels[near.astype(bool)], minlength=n)
    overlap[0] = 0
    best = int(np.argmax(overlap))
    bx, by, bbw, bbh, _ = stats[best]
    if overlap[best] < AROUND_TAKES_IN * np.count_nonzero(part):
        return blob, shape  # found again, it must take in what was found before, not a piece of it
    if bx == 0 or by == 0 or bx + bbw >= x1 - x0 or by + bbh >= y1 - y0:
        return blob, shape  # it runs on into the table: no outline of a die here
    again = (x0 + bx, y0 + by, _fill_pip_holes(labels[by : by + bbh, bx : bx + bbw] == best, PIP_HOLE * die_max**2))
    again_shape = _Shape.of(again[2], again[:2])
    more_of_it = again_shape.area >= AROUND_MORE * shape.area
    return (again, again_shape) if more_of_it and again_shape.solidity > shape.solidity else (blob, shape)


def _grown(mask: np.ndarray, by: int) -> np.ndarray:
    return cv2.dilate(mask, np.ones((2 * by + 1, 2 * by + 1), np.uint8))


SQUARE = 0.85
"""A region at least this square (``_Shape.squareness``) is one die seen from above: a die's rounded corners
leave about 0.9 of its box; two dice side by side, or one cocked, far less."""
LARGEST_ALONE = 1.25
"""A die lying alone is at most this many times the largest die's area: its side faces at a slant add to it."""


def _lone_die_areas(shapes: list[_Shape], die_min: float, die_max: float) -> list[int]:
    """The areas of the shapes that look like one die lying alone: square, and of a die's size."""
    return [s.area for s in shapes if s.squareness > SQUARE and die_min**2 <= s.area <= LARGEST_ALONE * die_max**2]


def _points(mask: np.ndarray, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    return np.column_stack([xs + origin[0], ys + origin[1]]).astype(np.float32)


@dataclass(frozen=True)
class _Shape:
    """A region's outline measures, taken once from its convex hull (the same as from every pixel, and cheap)."""

    area: int
    rect: RotatedBox
    hull_area: float
    radius: float
    """Of the smallest enclosing circle."""

    @classmethod
    def of(cls, mask: np.ndarray, origin: tuple[int, int] = (0, 0)) -> _Shape:
        area = int(np.count_nonzero(mask))
        if area < 3:
            return cls(area, ((0.0, 0.0), (0.0, 0.0), 0.0), 1.0, 1.0)
        # outside the array is not the region: a region filling its array (its own bounding box) has a rim too,
        # which OpenCV's default border (taking outside as inside for erosion) would leave empty
        kernel = np.ones((3, 3), np.uint8)
        inner = cv2.erode(mask.astype(np.uint8), kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)
        hull = cv2.convexHull(_points(mask & ~inner.astype(bool), origin))  # the rim's hull is the whole's
        _, radius = cv2.minEnclosingCircle(hull)
        return cls(area, _as_box(cv2.minAreaRect(hull)), max(cv2.contourArea(hull), 1.0), max(radius, 0.5))

    @property
    def squareness(self) -> float:
        """1 for a filled square; less for anything longer, rounder or hollower."""
        return self._square_fill(self.area)

    @property
    def hull_squareness(self) -> float:
        """Squareness of the outline's hull: free of the half pixel by which a pixel count exceeds its outline."""
        return self._square_fill(self.hull_area)

    def _square_fill(self, area: float) -> float:
        (rw, rh) = self.rect[1]
        if min(rw, rh) < 1:
            return 0.0
        return area / (rw * rh) * min(rw, rh) / max(rw, rh)

    @property
    def roundness(self) -> float:
        """Area over the enclosing circle's: ~0.9-1 for a disc, ~0.76 for a die's rounded square, less at a slant."""
        return self.area / (math.pi * self.radius**2)

    @property
    def hull_roundness(self) -> float:
        """Roundness of the outline's hull: a coin that barely stands out from the table is ragged, its hull round."""
        return self.hull_area / (math.pi * self.radius**2)

    @property
    def solidity(self) -> float:
        """Area over the convex hull's (pixel counts run a little over 1): a die is solid, a faint blob is ragged."""
        return self.area / self.hull_area


def _edge_contact(part: np.ndarray, x: int, y: int, w: int, h: int) -> int:
    """How far a region at ``(x, y)`` runs along the frame's edge, in pixels (0 where it does not reach it)."""
    ph, pw = part.shape
    runs = [0]
    if y <= 1:
        runs.append(int(np.count_nonzero(part[: 2 - y].any(axis=0))))
    if y + ph >= h - 1:
        runs.append(int(np.count_nonzero(part[h - 2 - y :].any(axis=0))))
    if x <= 1:
        runs.append(int(np.count_nonzero(part[:, : 2 - x].any(axis=1))))
    if x + pw >= w - 1:
        runs.append(int(np.count_nonzero(part[:, w - 2 - x :].any(axis=1))))
    return max(runs)


GRAZING = 0.6
"""A die whose outline runs along the frame's edge for at most this share of its side only grazes it (a corner or
its rim over the edge), and is read."""
GRAZING_SQUARE = 0.75
"""Such a die, its corner cut off, need only be this square (``SQUARE`` less the corner)."""
WHOLE_DIE = (0.7, 1.4)
"""A die near the frame's edge is read only if its area is within these shares of a die's here: whole, give or
take its shaded rim and its side faces."""


def _clearly_a_die(shape: _Shape, side: float, w: int, h: int, contact: int) -> bool:
    """Die-sized, square, and either clear of the frame's edge (a die beside something that reaches into the
    picture) or only grazing it: a corner or the rim of a die over the edge, along at most ``GRAZING`` of its width.
    Pips sit a quarter of a side in from a face's edge, so such a cut takes at most part of a corner pip; what
    is left of it breaks the face's pattern, and the die is unsure rather than wrong (the tests cut drawn dice
    at every depth)."""
    (cx, cy), (rw, rh), _ = shape.rect
    reach = math.hypot(rw, rh) / 2
    inside = reach + 1 < cx < w - reach - 2 and reach + 1 < cy < h - reach - 2
    grazing = contact <= GRAZING * math.sqrt(shape.area) and shape.squareness > GRAZING_SQUARE
    least, most = WHOLE_DIE
    return (inside and shape.squareness > SQUARE or grazing) and least * side**2 <= shape.area <= most * side**2


CUT_DIE_AREA = (0.3, 1.5)
"""What reaches the frame's edge may be a die partly out of view if it covers from the first to the second share of a
die's area (``side`` squared): less than 0.3 is a corner too small to tell from a crumb, and a die seen at a slant
shows some of its side faces beside its top face."""
CUT_DIE_LONGEST = 1.5
"""Nor is it longer than this many sides, along the frame's edge or across it: a die's diagonal is sqrt(2) sides,
and a side face at a slant adds a little. A hand, a sleeve or a tile reaching in is longer."""
CUT_BY_EDGE = "cut by the frame's edge: roll the dice into view, or say how many"


def _cut_die(shape: _Shape, side: float, w: int, h: int, contact: int) -> bool:
    """Whether an outline reaching the edge of a ``w`` x ``h`` frame along ``contact`` pixels may be a die partly
    out of view (``CUT_DIE_AREA``, ``CUT_DIE_LONGEST``), not one only grazing the edge (``_clearly_a_die``: read).

    Asked with no count, where the outlines read first (``_found_by_shapes``): the roll is not whole without that
    die. The network's reading has its own check (``_unless_missed``), as the network scores few cut dice at all.
    dice-photos train (DEV) dice_37, three 1s, one of them half out of the frame at the bottom, read ok as two 1s
    with the committed profile and with one calibrated on train; the network scored the cut die 0.10.

    Read with no count on DEV, this turned dice_37 unsure and 1 of 209 right train rolls with the committed profile
    (none of 213 with the calibrated one). With the outlines read first on stress scenes (600000-600399), 9 of 54
    right rolls became unsure, with side faces 2 of 5; on wooden ones (650000-650399) 6 of 29, with side faces 1 of
    3 and 1 wrong roll unsure; on render.py 100000-100199 none. Half of those hold a die the renderer drew more than
    half out of the frame and does not count (the reader is right to doubt it); the rest a coin, paper or a cup at
    the frame's edge. Still missed: a die with less than 0.4 of it in view (past its shaded rim, less than
    ``CUT_DIE_AREA``'s least is left), and one touching another die (its outline is part of theirs)."""
    if _clearly_a_die(shape, side, w, h, contact):
        return False
    least, most = CUT_DIE_AREA
    longest = CUT_DIE_LONGEST * side
    return least * side**2 <= shape.area <= most * side**2 and contact <= longest and max(shape.rect[1]) <= longest


THREE_IN_A_ROW = 3.3
"""Longer than this many times its width is longer and thinner than three dice in a row (3, and a little for
their rims): a pen, a ruler, a tile's edge."""
MORE_THAN_ONE = 1.2
"""Such a thin thing counts only if larger than this many dice's areas: a die seen at a slant is longer too."""
MORE_THAN_FIVE = 6
"""A region larger than this many dice's areas is bigger than five dice together: a phone, a laptop's corner."""


def _not_dice_sized(shape: _Shape, one_die: float) -> bool:
    """Certainly not dice: bigger than five dice together, or longer and thinner than three in a row.

    Anything less certain is kept (and flagged by its shape), so that dice that could not be told
    apart are never dropped from a reading."""
    (rw, rh) = shape.rect[1]
    long_and_thin = max(rw, rh) > THREE_IN_A_ROW * max(min(rw, rh), 1.0) and shape.area > MORE_THAN_ONE * one_die
    return long_and_thin or shape.area > MORE_THAN_FIVE * one_die


def _fill_pip_holes(blob: np.ndarray, largest: float) -> np.ndarray:
    """Pips can be holes in a die's body (dark pips on a dark table): fill holes up to a pip's size,
    but not the gap enclosed by a ring of dice."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((~blob).astype(np.uint8), connectivity=4)
    h, w = blob.shape
    x, y, bw, bh, area = (stats[:, k] for k in range(5))
    inside = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h) & (area <= largest)
    inside[0] = False
    return blob | inside[labels]


def _colour_gradient(lab: np.ndarray) -> np.ndarray:
    """Edge strength in lightness or colour: a red die against a green one is an edge even at equal brightness."""
    dx = cv2.Sobel(lab, cv2.CV_16S, 1, 0)
    dy = cv2.Sobel(lab, cv2.CV_16S, 0, 1)
    return np.abs(dx).max(axis=2).astype(np.float32) + np.abs(dy).max(axis=2)


RIM = 0.06
"""A die's rim, in sides, peeled off its blob before its faces are split: a pip near the edge would otherwise touch
the rim's edges and look open-ended, like a seam."""
HOLE_IN_A_FACE = 0.25
"""A hole in the peeled blob under this share of a die's area is a mark the body mask left out (a dark numeral, a
suit symbol), part of its face: a face's mark covers less than a quarter of it. A larger hole is table between
dice."""
ENCLOSED_EDGES = 0.4
"""Edges enclosed by flat face, and under this share of a die's area, are a face's marks (pips and their rims); a
seam between dice runs out to the blob's outline and is not enclosed."""
SEED_DEPTH = 0.2
"""With its marks filled in, a face is flat up to its outline and the seams; its middle, the watershed's seed, is
what lies at least this many sides from them: the middle three fifths of a face each way, well apart from any
other die's."""
SEED_AREA = 0.04
"""A seed smaller than this share of a die's area is a scrap of flat face between marks, not a face's middle."""


def _separate(
    patch: np.ndarray,
    gradient: np.ndarray,
    blob: np.ndarray,
    side: float,
    min_squareness: float,
    measured: bool = True,
) -> list[np.ndarray]:
    """Split a blob into dice: the middle of each face seeds a watershed that stops at the seams.

    A face's middle is flat (few edges) and far from any edge. Pips are edges too, but each lies
    inside flat face, so every edge region enclosed by flat face is filled first; a seam between
    two dice runs out to the blob's outline, so it stays and keeps their middles apart. Where no seam
    shows, a part the size of several dice is cut by size; only when the size of a die is ``measured``
    (from dice lying alone, or cut out here), never from the profile's guess.
    """
    # peel off the rim first: a pip near a die's edge would otherwise touch the rim's edges and look open-ended
    rim = max(2, round(RIM * side))
    peeled = cv2.erode(blob.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=rim)
    # a mark the body mask left out (a dark numeral, a suit symbol) is a hole smaller than a face: it is part
    # of its face; a larger hole is table showing between dice, and stays out
    n, holes, stats, _ = cv2.connectedComponentsWithStats(1 - peeled, connectivity=4)
    small = stats[:, cv2.CC_STAT_AREA] < HOLE_IN_A_FACE * side**2
    small[np.unique(np.concatenate([holes[0], holes[-1], holes[:, 0], holes[:, -1]]))] = False  # the table around
    inner = peeled.astype(bool) | small[holes]
    flat = (inner & (gradient < _SEAM_GRADIENT)).astype(np.uint8)
    edges = (inner & ~flat.astype(bool)).astype(np.uint8)
    n, labels, stats, _ = components8(edges)
    outline = inner & ~cv2.erode(inner.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    open_ended = np.unique(labels[outline])
    enclosed = stats[:, cv2.CC_STAT_AREA] < ENCLOSED_EDGES * side**2
    enclosed[0] = False
    enclosed[open_ended] = False
    flat[enclosed[labels]] = 1
    flat[_enclosed_marks(patch, inner, outline, side)] = 1
    depth = cv2.distanceTransform(flat, cv2.DIST_L2, 5)
    middles = (depth >= SEED_DEPTH * side).astype(np.uint8)
    n, seeds, stats, _ = cv2.connectedComponentsWithStats(middles, connectivity=4)
    keep = [j for j in range(1, n) if stats[j, cv2.CC_STAT_AREA] >= SEED_AREA * side**2]
    if len(keep) <= 1:
        return _split_by_size(patch, blob, side**2) if measured else [blob]
    # no marker for the table: a die that found no seed is taken in by a neighbour, which is then not square
    # (and so unsure), rather than vanishing from the reading
    markers = np.zeros(blob.shape, np.int32)
    for label, j in enumerate(keep, start=1):
        markers[seeds == j] = label
    cv2.watershed(patch, markers)
    parts = [_largest_piece(blob & (markers == label)) for label in range(1, len(keep) + 1)]
    parts = _merge_halves([p for p in parts if np.count_nonzero(p)], min_squareness)
    shapes = [_Shape.of(p) for p in parts]
    squares = [s.area for s in shapes if s.squareness > SQUARE]  # dice cut out cleanly: the size of one here
    if not squares and not measured:
        return parts  # no die's size known here to count dice by
    one_die = float(np.median(squares)) if squares else side**2
    return [piece for part in parts for piece in _split_by_size(patch, part, one_die)]


TWO_DICE_LONG = 1.7
"""A part is cut by size only if it is at least this many dice's areas, and this many sides long: two dice side by
side are two sides long, less their rounded corners and shaded rims; one die at a slant, its sides showing, is
not."""
MOST_PRESSED = 4
"""At most this many dice pressed together are cut apart by size: more is a heap, unsure."""
NOT_ONE_SQUARE = 0.8
"""A part at least this square is one die (``SQUARE`` less a slant's side faces), never cut by size."""
SIZE_SEED = 0.15
"""The seeds of a cut by size are discs of this many sides across each die's cluster centre: inside the die
whatever its turn."""


def _split_by_size(patch: np.ndarray, part: np.ndarray, one_die: float) -> list[np.ndarray]:
    """Dice pressed so close that no seam shows between them (dark dice side by side): a part the size of
    several dice, and not one square, is cut among that many from seeds where its pixels cluster (k-means),
    then along the strongest edges between them. What comes out must still be square and of a die's size,
    or it is unsure."""
    area = np.count_nonzero(part)
    dice = round(area / one_die)
    shape = _Shape.of(part)
    # two dice side by side are twice a die long; one die seen at a slant, its sides showing, is not
    long_enough = max(shape.rect[1]) >= TWO_DICE_LONG * math.sqrt(one_die)
    too_few = area < TWO_DICE_LONG * one_die
    if not 2 <= dice <= MOST_PRESSED or too_few or not long_enough or shape.squareness > NOT_ONE_SQUARE:
        return [part]
    markers = np.zeros(part.shape, np.int32)
    for label, (cx, cy) in enumerate(_cluster_centres(_points(part), dice), start=1):
        cv2.circle(markers, (round(cx), round(cy)), max(1, round(SIZE_SEED * math.sqrt(one_die))), label, -1)
    markers[~part] = 0
    cv2.watershed(patch, markers)
    pieces = [_largest_piece(part & (markers == label)) for label in range(1, dice + 1)]
    return [p for p in pieces if np.count_nonzero(p)] or [part]


def _cluster_centres(points: np.ndarray, k: int, rounds: int = 20) -> np.ndarray:
    """k-means started from far-apart points, so the same picture always gives the same centres
    (OpenCV's kmeans seeds from a global random generator)."""
    centres = [points[np.argmax(np.linalg.norm(points - points.mean(axis=0), axis=1))]]
    while len(centres) < k:
        nearest = np.min([np.linalg.norm(points - c, axis=1) for c in centres], axis=0)
        centres.append(points[np.argmax(nearest)])
    found = np.array(centres)
    for _ in range(rounds):
        owner = np.argmin(np.linalg.norm(points[:, None, :] - found[None, :, :], axis=2), axis=1)
        moved = np.array([points[owner == j].mean(axis=0) if np.any(owner == j) else found[j] for j in range(k)])
        if np.allclose(moved, found, atol=0.25):
            break
        found = moved
    return found


def _largest_piece(mask: np.ndarray) -> np.ndarray:
    """The biggest connected piece of a mask: crumbs of a watershed label elsewhere would stretch the die's box."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    if n <= 2:
        return mask
    return labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))


HAT_SIZE = 0.2
"""The black-hat and top-hat's disc is this many sides across (at least): larger than the largest pip (20 % of a
side), so every pip stands out from it whole."""
HAT_CONTRAST = 40
"""A mark stands out from the face around it by at least this much lightness (OpenCV's 8-bit L, 0-255). A margin,
well above a face's shading and the camera's noise and well below a pip's contrast."""
PIP_AREA = 0.3
"""A mark under this share of a die's area is a pip (or a numeral, a suit symbol); a larger one is a shadow or a
seam."""


def _enclosed_marks(patch: np.ndarray, inner: np.ndarray, outline: np.ndarray, side: float) -> np.ndarray:
    """Pips, with the edges round them: marks darker or lighter than the face around them, each enclosed by face.

    Black-hat and top-hat at a scale above a pip's find them whatever the face's colour; a seam between
    dice is dark too, but it runs out to the blob's outline, so it is not enclosed and stays a seam.
    """
    light = np.ascontiguousarray(patch[..., 0])
    size = 2 * round(HAT_SIZE * side) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    found = np.zeros(inner.shape, np.uint8)
    for hat in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):  # dark pips, then light ones; never mixed, as the
        marks = ((cv2.morphologyEx(light, hat, disc) > HAT_CONTRAST) & inner).astype(np.uint8)  # face between pips
        n, labels, stats, _ = components8(marks)  # is a mark of the other kind
        pips = stats[:, cv2.CC_STAT_AREA] < PIP_AREA * side**2
        pips[0] = False
        pips[np.unique(labels[outline])] = False
        found |= pips[labels].astype(np.uint8)
    return cv2.dilate(found, np.ones((3, 3), np.uint8), iterations=2).astype(bool) & inner


SLIVER = 0.12
"""Slivers narrower than twice this many sides are shaved off a die cut from a blob (an opening by a disc of this
radius): a strip of its neighbour, a corner of shadow. It rounds the die's own corners about as much as dice are
rounded already."""


def _trim(part: np.ndarray, side: float) -> np.ndarray:
    """Shave slivers off a die cut from a blob (a strip of its neighbour, a corner of shadow) before fitting its box."""
    size = max(3, 2 * round(SLIVER * side) + 1)
    opened = cv2.morphologyEx(
        part.astype(np.uint8), cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    )
    return _largest_piece(opened.astype(bool)) if np.count_nonzero(opened) else part


def _merge_halves(parts: list[np.ndarray], min_squareness: float) -> list[np.ndarray]:
    """Join neighbouring parts that are two pieces of one die: neither is square, together they are square
    enough for a die (``min_squareness``; a die seen at a slant, its outline notched by a side face's pips,
    is split along the row of its top face's pips and is less square than one seen from above)."""
    square = [_Shape.of(p).squareness for p in parts]
    merged = True
    while merged and len(parts) > 1:
        merged = False
        for i, j in combinations(range(len(parts)), 2):
            if max(square[i], square[j]) >= NOT_ONE_SQUARE:
                continue
            union = parts[i] | parts[j]
            union_square = _Shape.of(union).squareness
            if union_square > min_squareness:
                keep = [k for k in range(len(parts)) if k not in (i, j)]
                parts, square = [parts[k] for k in keep] + [union], [square[k] for k in keep] + [union_square]
                merged = True
                break
    return parts


_DISC_SQUARENESS = 0.86
"""Below this (hull) squareness a round region is a disc: a disc fills pi/4 (0.79) of its bounding square (coins
drawn by the renderer measure 0.78-0.83), a die with corners rounded by up to a third of its side (a piecepack die,
as round as a coin by ``roundness``) 0.9 or more."""


_SEAM_GRADIENT = 70.0
"""Sobel magnitude above which a pixel is an edge (a seam between dice, a pip's rim), not a flat face."""


RAGGED = "low contrast with the table: its outline is ragged"
NOT_SQUARE = "not square from above: cocked, stacked, or dice touching that could not be told apart"


PROFILE_SIZES = (0.8, 1.15)
"""A die's side may lie this far below the profile's least die size and above its largest (its rim shaded, its
side faces at a slant) before it is "not the size of a die in this profile"."""


def _shape_problem(
    shape: _Shape, one_die: float | None, die_min: float, die_max: float, profile: Profile
) -> str | None:
    (rw, rh) = shape.rect[1]
    if max(rw, rh) > profile.max_aspect * min(rw, rh) or shape.squareness < profile.min_squareness:
        return NOT_SQUARE
    if one_die and not LIKE_THE_OTHERS[0] * one_die <= shape.area <= LIKE_THE_OTHERS[1] * one_die:
        return "a different size from the other dice: cocked or stacked?"
    if not die_min * PROFILE_SIZES[0] <= math.sqrt(shape.area) <= die_max * PROFILE_SIZES[1]:
        return "not the size of a die in this profile"
    return None


_QUARTER_TURN = 90.0


def _as_box(rect: tuple[Sequence[float], Sequence[float], float]) -> RotatedBox:
    """OpenCV's rotated rectangle with its angle in [-90, 0), as OpenCV 5 gives it. OpenCV 4.6 (the Pi's) names
    the same box with an angle in [0, 90], a quarter turn apart, which turns the face crop and can change a
    borderline reading; in one convention the reader reads alike on both."""
    (cx, cy), (w, h), angle = rect
    if angle == _QUARTER_TURN:  # an upright box: 5.x names it -90 with the same sides
        angle = -_QUARTER_TURN
    elif angle >= 0:
        w, h, angle = h, w, angle - _QUARTER_TURN
    return ((float(cx), float(cy)), (float(w), float(h)), float(angle))


def shift(box: RotatedBox, origin: tuple[int, int]) -> RotatedBox:
    (cx, cy), size, angle = box
    return ((cx + origin[0], cy + origin[1]), size, angle)
