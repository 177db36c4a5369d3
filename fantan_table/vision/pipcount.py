"""Count the pips on a top face's square crop, and check the count against every mark on the face.

The count is the reader's geometric evidence (``reader`` weighs it against the learned classifier): pips darker or
lighter than the face, of a pip's size and shape, must lie as a face's pips lie (``pips``), and every other mark
that stands out on the face (``marks``, in any colour) must be dust, a glint, or nothing at all. A blank face needs
that positive evidence: nothing on it stands out. Each bar is named, with the DEV rolls it was chosen on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from .marks import Mark, Marks, find_marks
from .outlines import components8
from .pips import PIP_RADIUS, pattern_error, shifted_pattern_error
from .profile import Profile
from .quantiles import median, percentile
from .topface import MOST_PIPS

FACE_MARGIN = 0.09
"""The share of the face at each edge where no pip lies (the rounded edge is shaded)."""


MIDDLE_PIP_FACES = (1, 3, 5)
"""The faces with a pip in the middle, where a glint adds one to the face below (a 1 never reaches the second
opinion: a blank's gloss spot fools both kinds of model alike)."""


PIP_MIDPOINT = 0.5
"""A mark standing out at least this share of a face's pips is one of them, weaker is dust or a glint: the midpoint
between face and pip, where a two-way split as Otsu's falls."""


def face_marks(face: np.ndarray) -> tuple[Mark, ...]:
    """The marks on a top face's crop (BGR), strongest first, as the pip count finds them."""
    return find_marks(cv2.cvtColor(face, cv2.COLOR_BGR2Lab), FACE_MARGIN, _PIP_ZONE).found


class MarksSeen(str):
    """A die's problem where the pip count saw ``marks`` pip-like marks but could not read them as a face."""

    marks: int
    whole_face: bool
    """Whether the marks lie as the pips of a face with that many do in the die's box, not shifted nor squeezed; one
    mark only where it looks like no glint (``marks.Mark.highlight``): a glint in the middle is a blank's as often."""

    def __new__(cls, marks: int, what: str, whole_face: bool = False) -> MarksSeen:
        problem = super().__new__(cls, f"{marks} {what}")
        problem.marks = marks
        problem.whole_face = whole_face
        return problem

    def __getnewargs__(self) -> tuple[int, str, bool]:  # type: ignore[override]  # copied and pickled as made
        return self.marks, self.partition(" ")[2], self.whole_face


def count_pips(face: np.ndarray, profile: Profile) -> tuple[int | None, float, str | None]:
    """Count the pips on a square crop of a top face: (value, confidence, problem).

    Pips are looked for both darker and lighter than the face (unless the profile fixes which):
    a face is read only when one kind forms a real pattern and the other finds nothing pip-like.
    The count then stands only if every mark on the face, in any colour (``marks``), is one of its pips:
    a face is blank only when nothing on it stands out at all.
    """
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2Lab)
    return _checked_by_marks(_count_by_lightness(lab, profile), find_marks(lab, FACE_MARGIN, _PIP_ZONE), profile)


def _count_by_lightness(face_lab: np.ndarray, profile: Profile) -> tuple[int | None, float, str | None]:
    px = face_lab.shape[0]
    light = face_lab[..., 0].astype(np.int16)
    lo, hi = round(FACE_MARGIN * px), round((1 - FACE_MARGIN) * px)
    inner = light[lo:hi, lo:hi]
    body = median(inner)
    polarities = ("dark", "light") if profile.pip_polarity == "auto" else (profile.pip_polarity,)
    results = [
        _pips_of(body - inner if p == "dark" else inner - body, lo, px, profile, p == "dark") for p in polarities
    ]
    found = [r for r in results if r[0] != 0]
    if not found:
        return 0, 1.0, None  # nothing pip-like either way, by lightness
    if len(found) > 1:
        return None, 0.0, "both dark and light pip-like marks on the face"
    return found[0]


def _checked_by_marks(
    counted: tuple[int | None, float, str | None], marks: Marks, profile: Profile
) -> tuple[int | None, float, str | None]:
    """The count, if the marks on the face agree with it.

    A face counted blank must have no mark at all (a lone glint aside): pips that differ from the face mostly in
    colour are not counted by lightness but are marks, so their die is unsure, not blank (read alone, such
    marks were once a side face's pips). No other mark may be as strong as half a counted pip (the midpoint
    between face and pip, where a two-way split as Otsu's falls; weaker ones are dust) unless it is a glint that
    is no pip of the next face up, and as many marks as pips must form the face's pattern."""
    value, _, problem = counted
    if problem is not None or value is None:
        return counted
    found = marks.found
    if value == 0:
        if not found:
            return counted  # positive evidence of a plain face: nothing on it stands out
        if len(found) == 1 and found[0].highlight and not at_middle(found[0], profile):
            return counted  # a glint: one mark is a face only in the middle, and a printed one may be any colour
        seen = _without_faint_glints(found)
        whole = _in_the_layout(seen, profile) and (len(seen) > 1 or not seen[0].highlight)
        return (
            None,
            0.0,
            MarksSeen(len(seen), "mark(s) on a face where no pips stand out by lightness: not plain", whole),
        )
    if len(found) < value:
        return counted  # a pip hollowed by glare stands out less than its ring: no more marks than pips
    pips, rest = found[:value], found[value:]
    reference = median(np.array([m.strength for m in pips]))
    strong = [m for m in rest if m.strength >= PIP_MIDPOINT * reference]
    # glints that are pips of a face with more pips: one more (a 5 counted 4), or all of them (a 6 counted 4)
    if any(not m.highlight or _forms_a_face([*pips, m], profile) for m in strong) or (
        len(strong) > 1 and _forms_a_face([*pips, *strong], profile)
    ):
        return None, 0.0, f"{value} pips counted, but {len(found)} marks on the face (a faint or blurred pip?)"
    if not _forms_a_face(pips, profile):
        return None, 0.0, f"{value} pips counted, but the marks on the face do not form a {value}'s pattern"
    if value > 1 and value in MIDDLE_PIP_FACES and faint_middle(pips, profile):
        return None, 0.0, f"{value} pips counted, but the middle one, light, stands out less than the others: a glint?"
    return counted


def _without_faint_glints(found: Sequence[Mark]) -> Sequence[Mark]:
    """The marks on a face, less each glint (``Mark.highlight``) that stands out less than half as much as the
    median of its marks that are no glint: the midpoint between face and pip, where ``_checked_by_marks`` also parts
    pips from dust. With none such to weigh against (light pips on a dark die are glints to the marks), all stay.

    The marks seen decide whether the classifier may read a face alone that the count could not (``MarksSeen``).
    Wooden DEV 659574 (fresh seeds): four red pips on oak that stand out in colour, not lightness, so the count saw
    no pips, and a glint in the middle 0.49 as strong as they. The five marks lay as a 5's pips, the classifier saw a
    5 at 0.9995, and the roll of four was read ok and wrong. Through the reader with the count
    (``tools/reader_dev_ab.py``): on every default DEV set 8 unsure rolls became right and none changed otherwise;
    on wooden 656000-661999 it turned 659574 unsure, 5 unsure rolls right and 3 right rolls unsure."""
    marks = [m.strength for m in found if not m.highlight]
    if not marks:
        return found
    reference = median(np.array(marks))
    return [m for m in found if not m.highlight or m.strength >= PIP_MIDPOINT * reference]


MIDDLE_PIP_SHARE = 0.7
"""A 3's or a 5's middle pip, where it is lighter than the face, must stand out at least this share of its other
pips' median strength: a glint between the light pips of a 2 or a 4 counts as a middle pip, but it stands out less
than they do. Stress DEV 611984: two white pips on a black die and a grey glint between them (0.61 as strong),
counted 3, the classifier agreeing, read ok and wrong.

Through the reader with the count (``tools/reader_dev_ab.py``): at 0.7 every default DEV set kept every right roll;
at 0.8 the fresh seeds (stress 610000-611999, wooden 654000-657999) turned 611984 unsure, 2 unsure rolls right (the
count's doubt let the classifier read those dice alone) and lost no right roll; at 0.7 a die's reading changes only
where it changes at 0.8. (Those trials held dark middle pips to it too: keeping to light ones changes fewer dice
still.)"""


def faint_middle(pips: Sequence[Mark], profile: Profile) -> bool:
    """Whether one of ``pips`` lies in the middle, lighter than the face as a glint is, and stands out less than
    ``MIDDLE_PIP_SHARE`` of the others. (A black pip that glare hollows stands out less too, but no glint is
    dark.)"""
    middle = [m for m in pips if at_middle(m, profile)]
    others = [m.strength for m in pips if m not in middle]
    return len(middle) == 1 and middle[0].lighter and middle[0].strength < MIDDLE_PIP_SHARE * median(np.array(others))


def at_middle(mark: Mark, profile: Profile) -> bool:
    """Where a one's pip would be."""
    return _in_the_layout([mark], profile)


def _in_the_layout(marks: Sequence[Mark], profile: Profile) -> bool:
    """Whether the marks (one or more) lie as a face with as many pips lays them out in its box (not shifted nor
    squeezed)."""
    return bool(marks) and pattern_error(len(marks), _places(marks)) <= profile.pattern_tolerance


def _forms_a_face(marks: Sequence[Mark], profile: Profile) -> bool:
    """As the pip counter's pattern check: the face's layout in its box, or shifted and squeezed in it as a die
    seen at a slant shows it (then fitting twice as closely)."""
    return _in_the_layout(marks, profile) or (
        shifted_pattern_error(len(marks), _places(marks), *profile.top_face) <= 0.5 * profile.pattern_tolerance
    )


def _places(marks: Sequence[Mark]) -> np.ndarray:
    """The marks' places as an N x 2 array, as ``pattern_error`` takes them."""
    return np.array([(m.u, m.v) for m in marks], dtype=float).reshape(-1, 2)


PIP_LONGEST = 2.2
"""A pip's box is at most this many times as long as it is wide: a round pip's is 1, and glare across it or the
camera's blur along one way stretches it; two pips joined are longer."""


def _pip_shaped(area: float, bw: int, bh: int, low: float, high: float) -> bool:
    """A mark of a pip's area (``low`` to ``high``) in a box no longer than a pip's, glare and blur allowed."""
    return low <= area <= high and max(bw, bh) <= PIP_LONGEST * min(bw, bh)


def _pips_joined_by_glare(mark: np.ndarray, px: int, low: float, high: float) -> list[tuple[int, np.ndarray]] | None:
    """Light pips that a glint's glow (as light as they are) joins into one mark: opened with a disc half a pip
    wide, the glow's narrow bridges fall away. Only if every piece left is a pip are they pips; else ``None``."""
    size = 2 * round(0.5 * PIP_RADIUS * px) + 1
    opened = cv2.morphologyEx(
        mark.astype(np.uint8), cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    )
    count, _, stats, centroids = components8(opened)
    pieces = []
    for j in range(1, count):
        _, _, bw, bh, area = stats[j]
        if not _pip_shaped(area, bw, bh, low, high):
            return None
        pieces.append((int(area), centroids[j]))
    return pieces if len(pieces) >= 2 else None


SMALL_DARK_MARKS = (
    "dark marks smaller than this profile's pips: calibrate on these dice (fantan-table calibrate), or set [pips] area"
    " lower"
)
"""Why a die with dark marks too small for this profile's pips is unsure (never dismissed as glare: glare is only
ever lighter than a face). Calibration measures the pips' size from the table's own rolls; the built-in profile's
guess fits most dice, not all."""


_PIP_ZONE = 0.16
"""Pip centres lie at least this far (in face widths) from every edge of the face; real ones at about 0.27."""


MARKS_PEAK = 99.5
"""The strongest marks' contrast on a face is taken at this percentile of its pixels: even a 1's one pip covers more
than the 0.5 % above it (0.6-3 % of the face, at 9-20 % of a side across), so it lies inside the pips, and a few
hot pixels do not set it."""


MARKS_CUT = 0.6
"""Marks are cut at this share of the strongest marks' contrast: solid pips keep their size, soft glare shrinks, and
a glow bridging two pips falls below the cut."""


SMALL_DARK_MARK = 0.2
"""A dark mark from this share of a standard pip's area up to the profile's least is a pip too small for the
profile, not dust (``SMALL_DARK_MARKS``)."""


OFF_PATTERN = 0.25
"""A pip-like mark nearer the face's edge than its pips' zone, and this far from both edges it is near (in face
widths), lies where no face has a pip (corners aside, where the table shows): the box must be off."""


PIPS_ALIKE = 0.5
"""A face's pips are all one size: a candidate under this share of the largest is glare, not a pip."""


def _pips_of(
    contrast: np.ndarray, offset: int, px: int, profile: Profile, dark: bool
) -> tuple[int | None, float, str | None]:
    standard = math.pi * (PIP_RADIUS * px) ** 2
    peak = percentile(contrast, MARKS_PEAK)
    marks = (contrast > max(profile.pip_contrast, MARKS_CUT * peak)).astype(np.uint8)
    count, labels, stats, centroids = components8(marks)
    low, high = profile.pip_area[0] * standard, profile.pip_area[1] * standard
    candidates = []
    small_dark_mark = False
    for i in range(1, count):
        _, _, bw, bh, counted = stats[i]
        # a dark pip with glare on it is a crescent or a ring: measure it by the disc its box holds
        area = max(int(counted), round(math.pi / 4 * bw * bh)) if dark else int(counted)
        u, v = (centroids[i] + offset) / px
        pip_shaped = _pip_shaped(area, bw, bh, low, high)
        if min(u, v, 1 - u, 1 - v) >= _PIP_ZONE:
            if area > high:
                joined = None if dark else _pips_joined_by_glare(labels == i, px, low, high)
                if joined is None:
                    return None, 0.0, "a mark too large for a pip on the face (glare, a shadow, or a cocked die?)"
                candidates += joined
            elif pip_shaped:
                candidates.append((area, centroids[i]))
            elif dark and SMALL_DARK_MARK * standard <= area < low:
                small_dark_mark = True
        elif pip_shaped and max(min(u, 1 - u), min(v, 1 - v)) > OFF_PATTERN:
            # a pip where no face has one (corners aside, where the table shows): the box must be off
            return (
                None,
                0.0,
                "a pip-like mark near the die's edge, where no face has one: the die's outline may be wrong",
            )
    biggest = max((a for a, _ in candidates), default=0)
    pips = [c for a, c in candidates if a >= PIPS_ALIKE * biggest]
    if small_dark_mark and not pips:
        # glare is only ever lighter than a face, so a dark mark is never dismissed as glare
        return None, 0.0, SMALL_DARK_MARKS
    if len(pips) > MOST_PIPS:
        return None, 0.0, f"{len(pips)} pip-like marks: more than a face has"
    if not pips:
        return 0, 1.0, None
    found = (np.array(pips, dtype=float).reshape(-1, 2) + offset) / px
    error = pattern_error(len(pips), found)
    if error <= profile.pattern_tolerance:
        return len(pips), round(1.0 - 0.5 * error / profile.pattern_tolerance, 3), None
    # a die seen at a slant: its top face fills only part of the box; the pips must then fit twice as closely
    if shifted_pattern_error(len(pips), found, *profile.top_face) <= 0.5 * profile.pattern_tolerance:
        return len(pips), 0.5, None
    return None, 0.0, MarksSeen(len(pips), "pips that do not form a face's pattern")
