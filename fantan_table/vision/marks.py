"""Every mark on a die's top face, at any polarity and in any colour: the evidence a face is plain, or is not.

The pip counter looks for marks darker or lighter than the face. That misses pips that differ from the body
mostly in colour (white pips on a yellow or green die), and a face where it finds nothing is not thereby
blank. Here a mark is anything that differs from the face's own body colour (the distance in CIE Lab, so
lightness and chroma both count) in a spot of a pip's size, measured against the face's own noise. A face is
plain only when nothing stands out at all; the caller decides what the marks found mean.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .pips import PIP_RADIUS
from .quantiles import column_medians, median

JUST_NOTICEABLE = 2.3
"""A colour difference (CIE Lab Delta E) a person can just see side by side under ideal light."""
FAINTEST_MARK = 3 * JUST_NOTICEABLE
"""The least difference that is a mark whatever the camera's noise: what one sees at a glance through a camera's
uneven light and JPEG is a few just-noticeable steps; the renderer's plain faces reach 1.2 of them at most."""
NOISE_PEAK = 5.0
"""How many of the face's noise deviations a mark must stand above. Among the few hundred pip-sized spots of a
face, noise alone reaches about sqrt(2 ln 300) = 3.4 deviations; 5 leaves room for JPEG's blocks."""
PIP_SCALE = 0.3
"""The spot a mark is measured in (a Gaussian's sigma), as a share of a standard pip's radius: small enough that
the smallest pips (9 % of a side across, 0.55 of a standard pip's radius) still hold 80 % of its weight."""
SURROUND_SCALE = 2.0
"""The surround a mark is compared with, in standard pip radii: wider than the largest pips (20 % of a side
across, 1.2 radii), so a pip does not hide itself, and narrower than a face, so shading across it cancels."""


@dataclass(frozen=True)
class Mark:
    u: float
    """Across the face, 0 to 1."""
    v: float
    """Down the face, 0 to 1."""
    strength: float
    """How much the mark differs from the face around it (Delta E, spot against surround)."""
    highlight: bool
    """Lighter than the face and no more colourful: what a glint (the light's own reflection) looks like."""
    lighter: bool
    """Lighter than the face, whatever its colour: a glint is, and so are white pips, never black ones."""


@dataclass(frozen=True)
class Marks:
    found: tuple[Mark, ...]
    """Every spot in ``zone`` that stands out from the face, strongest first."""
    level: float
    """The least strength that stands out on this face: its noise, or a just-noticeable difference."""


def find_marks(face_lab: np.ndarray, margin: float, zone: float) -> Marks:
    """Marks on a square crop of a top face in OpenCV's 8-bit Lab (the pip count converts its crop once for both).
    ``margin``: the share at each edge that is the die's rounded rim (left out of the body's colour); ``zone``: how
    near an edge a mark's centre may lie (corners show table)."""
    px = face_lab.shape[0]
    lab = face_lab.astype(np.float32)
    lab[..., 0] *= 100 / 255  # OpenCV's 8-bit L runs 0..255; CIE's runs 0..100 like a and b's units
    lo, hi = round(margin * px), round((1 - margin) * px)
    inner = lab[lo:hi, lo:hi].reshape(-1, 3)
    # pips cover under a sixth of a face, but crowded on a small blurred face their soft rims pull the median
    # towards them: the half of the face nearest that first guess is body alone, and its median is the body's
    near = colour_distance(inner, column_medians(inner))
    body = column_medians(inner[near <= median(near)])
    distance = np.zeros(face_lab.shape[:2], np.float32)
    # the rim and any table: as the body
    distance[lo:hi, lo:hi] = colour_distance(inner, body).reshape(hi - lo, hi - lo)
    radius = PIP_RADIUS * px
    spot = cv2.GaussianBlur(distance, (0, 0), PIP_SCALE * radius, borderType=cv2.BORDER_REPLICATE)
    surround = cv2.GaussianBlur(distance, (0, 0), SURROUND_SCALE * radius, borderType=cv2.BORDER_REPLICATE)
    response = spot - surround
    # one peak per mark: the highest point within a standard pip's radius
    size = 2 * round(radius) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    highest = cv2.dilate(response, disc)
    a, b = round(zone * px), round((1 - zone) * px)
    level = max(NOISE_PEAK * _face_noise(response[a:b, a:b], disc), FAINTEST_MARK)
    peaks = np.zeros(response.shape, bool)
    peaks[a:b, a:b] = (response[a:b, a:b] >= highest[a:b, a:b]) & (response[a:b, a:b] > level)
    ys, xs = np.nonzero(peaks)
    seen = cv2.GaussianBlur(lab, (0, 0), PIP_SCALE * radius, borderType=cv2.BORDER_REPLICATE)
    found = sorted(
        (
            Mark(
                (x + 0.5) / px,
                (y + 0.5) / px,
                float(response[y, x]),
                _highlight(seen[y, x], body),
                bool(seen[y, x][0] > body[0]),
            )
            for y, x in zip(ys, xs, strict=True)
        ),
        key=lambda m: -m.strength,
    )
    return Marks(tuple(_one_per_spot(found, radius / px)), level)


def colour_distance(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Each pixel's Euclidean distance from ``colour``, summed channel by channel (as np.linalg.norm sums, at half
    its cost)."""
    away = lab - colour
    return np.asarray(np.sqrt(away[..., 0] ** 2 + away[..., 1] ** 2 + away[..., 2] ** 2))


def _highlight(colour: np.ndarray, body: np.ndarray) -> bool:
    """Lighter than the body and no more colourful, within a just-noticeable step (a grey die's chroma is noise).
    Chroma: the distance of a and b from grey (128 in OpenCV's 8-bit Lab)."""
    return bool(colour[0] > body[0] and _chroma(colour) <= _chroma(body) + JUST_NOTICEABLE)


def _chroma(colour: np.ndarray) -> float:
    return float(np.hypot(colour[1] - 128, colour[2] - 128))


def _face_noise(response: np.ndarray, disc: np.ndarray) -> float:
    """The spread of ``response`` on the face away from its marks: a robust standard deviation (1.4826 MADs)
    of what is left once everything above half the strongest response, and a pip's radius round it, is set
    aside (the surround's dip round a pip would count as noise otherwise)."""
    marked = (response > 0.5 * float(response.max())).astype(np.uint8)
    rest = response[cv2.dilate(marked, disc) == 0]
    if rest.size < np.count_nonzero(disc):  # marks all over: not a pip's worth of face left to measure apart
        rest = response.ravel()
    return 1.4826 * median(np.abs(rest - median(rest)))


def _one_per_spot(found: list[Mark], radius: float) -> list[Mark]:
    """A flat-topped mark has several equal highest pixels: keep the strongest within a pip's radius of another."""
    kept: list[Mark] = []
    for mark in found:
        if all(np.hypot(mark.u - k.u, mark.v - k.v) > radius for k in kept):
            kept.append(mark)
    return kept
