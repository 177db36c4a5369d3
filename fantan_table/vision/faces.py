"""Learned faces: dice whose faces are not pips (real piecepack dice: a blank null, the suit's symbol as
ace, numerals 2-5), told apart by comparing each top face with faces shown to the camera during
calibration.

A face is reduced to an *ink map*: how far each pixel's colour lies from the face's own body colour
(Lab distance, on a small square crop, the rim left out). That is the same under any light level
and any suit colour, and a blank face has none. A die's box gives its face upright up to a quarter
turn, so each learned face is kept in its four quarter turns and a face is matched against all of
them (normalised correlation). The answer keeps the reader's discipline: ``unsure`` unless the best
match is good and clearly better than the best match of any other value.

"Clearly better" is measured against how alike the two values' faces are: a 3 and a 5 share most of
their ink, so a glint that hides the 5's upright stroke brings the two matches close, while a 1 and a
2 barely overlap and must differ by much more. A face is read when its match stands at least
``MIN_SHARE`` of the way from halfway between the two faces towards the best one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .marks import colour_distance
from .quantiles import column_medians, percentile

INK_PX = 32
"""Faces are compared as ink maps of this many pixels square."""
SHIFT = 1
"""A face is also compared moved by up to this many pixels each way: a die's box is never exactly centred."""
RIM = 0.12
"""Leave this share of the face's width at each edge out: rounded edges and shadows, not the face's mark."""
MIN_MATCH = 0.75
"""The least correlation with a learned face for a reading."""
FORMAT = 1
"""The saved model's format. Bump it when ``ink_map`` or the templates change: a model learned before then
would match faces wrongly, so loading it stops and asks for calibrating again."""
MIN_SHARE = 0.3
"""How far a face's matches must lean towards its best value, as a share of the way from halfway between
the best two values' faces to a clean face of the best (see ``FaceModel.classify``)."""


def ink_map(face: np.ndarray) -> np.ndarray:
    """How far each pixel of an upright square face crop (BGR) is from the face's body colour, rim left out."""
    small = cv2.resize(face, (INK_PX, INK_PX), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    rim = round(RIM * INK_PX)
    inner = lab[rim : INK_PX - rim, rim : INK_PX - rim]
    body = column_medians(inner.reshape(-1, 3))
    return colour_distance(inner, body)


def _unit(ink: np.ndarray) -> np.ndarray:
    centred = ink - ink.mean()
    norm = float(np.linalg.norm(centred))
    return centred / norm if norm > 0 else centred


@dataclass(frozen=True)
class FaceModel:
    templates: np.ndarray
    """(faces x 4 quarter turns x pixels): each learned face's ink map, centred and of unit length."""
    values: np.ndarray
    """The value each learned face stands for."""
    names: tuple[str, ...]
    """Which die and face each was learned from, e.g. "suns 1", for reports."""
    blank_ink: float
    """A face whose strongest ink is below this is blank (the null, 0)."""
    likeness: dict[tuple[int, int], float] = field(init=False, repr=False, compare=False)
    """(a, b) -> how well a learned face of a typically matches b's faces; derived from the templates."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "likeness", _likeness(self.templates, self.values))

    @classmethod
    def learn(cls, faces: Sequence[np.ndarray], values: Sequence[int], names: Sequence[str]) -> FaceModel:
        """Learn from upright crops of faces with their values; blank faces (0) set the ink threshold."""
        inks = [ink_map(f) for f in faces]
        strength = np.array([_strength(ink) for ink in inks])
        values_array = np.asarray(values, np.int64)
        blank, marked = strength[values_array == 0], strength[values_array != 0]
        if not len(blank) or not len(marked):
            raise ValueError("learning faces needs the blank face (0) and the marked ones: show the camera both")
        blank_ink = float((blank.max() + marked.min()) / 2)
        keep = values_array != 0
        turns = [[_unit(np.rot90(ink, k)).ravel() for k in range(4)] for ink, k_ in zip(inks, keep, strict=True) if k_]
        return cls(
            np.asarray(turns, np.float32).reshape(-1, 4, (INK_PX - 2 * round(RIM * INK_PX)) ** 2),
            values_array[keep],
            tuple(n for n, k in zip(names, keep, strict=True) if k),
            blank_ink,
        )

    def classify(self, face: np.ndarray) -> tuple[int | None, float, str | None]:
        """(value, confidence, problem) for an upright square crop of a top face."""
        ink = ink_map(face)
        if _strength(ink) < self.blank_ink:
            return 0, 1.0, None
        scores = (self.templates @ _shifted(ink).T).max(axis=(1, 2))
        best = int(np.argmax(scores))
        value = int(self.values[best])
        if scores[best] < MIN_MATCH:
            return None, float(scores[best]), f"the face matches no learned face well ({scores[best]:.2f})"
        other = self.values != value
        if not other.any():
            return value, 1.0, None
        others = scores[other]
        rival = int(self.values[other][int(np.argmax(others))])
        # a clean face of `value` matches itself (1) and `rival` about as well as the two are alike
        share = float(scores[best] - others.max()) / max(1e-6, 1 - self.likeness[value, rival])
        if share < MIN_SHARE:
            return None, round(share, 3), f"the face looks like {value} and {rival} alike"
        return value, round(min(1.0, share / (2 * MIN_SHARE)), 3), None

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            format=FORMAT,
            templates=self.templates,
            values=self.values,
            names=np.array(self.names),
            blank_ink=self.blank_ink,
        )

    @classmethod
    def load(cls, path: Path) -> FaceModel:
        with np.load(path, allow_pickle=False) as data:
            made = int(data["format"]) if "format" in data else 0
            if made != FORMAT:
                raise ValueError(
                    f"it was learned by another version of fantan-table (format {made}, this one reads {FORMAT}): "
                    "learn the faces again with `fantan-table calibrate --faces DIR`"
                )
            return cls(
                data["templates"], data["values"], tuple(str(n) for n in data["names"]), float(data["blank_ink"])
            )


def _shifted(ink: np.ndarray) -> np.ndarray:
    """The ink map moved by up to ``SHIFT`` pixels each way (edges repeated), each centred and of unit length."""
    side = ink.shape[0]
    padded = np.pad(ink, SHIFT, mode="edge")
    return np.array(
        [
            _unit(padded[SHIFT + dy : SHIFT + dy + side, SHIFT + dx : SHIFT + dx + side]).ravel()
            for dy in range(-SHIFT, SHIFT + 1)
            for dx in range(-SHIFT, SHIFT + 1)
        ],
        np.float32,
    )


def _likeness(templates: np.ndarray, values: np.ndarray) -> dict[tuple[int, int], float]:
    """(a, b) -> the median, over a's learned faces, of each one's best match (any quarter turn) among b's."""
    upright = templates[:, 0, :]
    best = np.einsum("ip,jkp->ijk", upright, templates).max(axis=2)
    kinds = [int(v) for v in np.unique(values)]
    return {
        (a, b): float(np.median(best[np.ix_(values == a, values == b)].max(axis=1)))
        for a in kinds
        for b in kinds
        if a != b
    }


def _strength(ink: np.ndarray) -> float:
    """How strongly a face is marked: its strongest ink, past stray specks of noise."""
    return percentile(ink, 97)
