"""How well a reader did on a labelled set: the figures ``fantan-table eval`` and the benchmarks report.

Labels give the values of a picture's dice but not where each die lies, so dice are matched as
multisets: a reading of ``2 3 5`` for truth ``5 2 4`` has two dice right. Where the labels say where each die lies
(rendered scenes, boxed photos), each die read is judged on the die it lies on, and its confidence with it
(``ConfidenceTally``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .dataset import LabelledBox
from .reader import Reading

MISSED = "missed"
EXTRA = "extra"


@dataclass(frozen=True)
class PlacedDie:
    """A die and where it lies in the picture: a label's, or a reading's with its confidence."""

    value: int
    center: tuple[float, float]
    side: float = 0.0
    """A labelled die's side in pixels: how near a die read must lie to be on it (a die read has none)."""
    confidence: float = 1.0
    """A die read's confidence (a labelled die's is certain)."""


def placed_dice(boxes: Sequence[LabelledBox]) -> tuple[PlacedDie, ...]:
    """A picture's labelled boxes as dice where they lie. A box is drawn upright round what shows of a die (its side
    faces too, in a slanted view): a die half hidden has a small one, so every die takes the middle box's mean
    side (a roll's dice are one size), a little more than a top face's side where dice lie turned or slanted."""
    if not boxes:
        return ()
    side = float(np.median([(x1 - x0 + y1 - y0) / 2 for (x0, y0, x1, y1), _ in boxes]))
    return tuple(PlacedDie(value, ((x0 + x1) / 2, (y0 + y1) / 2), side) for (x0, y0, x1, y1), value in boxes)


def placed_reading(reading: Reading) -> tuple[PlacedDie, ...]:
    """The dice of a reading that were given a value, where they lie and how sure."""
    return tuple(PlacedDie(d.value, d.center, confidence=d.confidence) for d in reading.dice if d.value is not None)


ON_THE_DIE = 0.5
"""A die read lies on a labelled die when its centre is within this share of the die's side of the die's centre:
the middle of its top face, where a reading's box of that die is centred, not the next die's, which lies a side or
more away. (A labelled box's side is a little larger than the top face's: ``placed_dice``.)"""


def judged(read: Sequence[PlacedDie], truth: Sequence[PlacedDie]) -> list[bool]:
    """Whether each die read is right: it lies on a labelled die (``ON_THE_DIE``; each labelled die taken once, the
    nearest reading first) that shows its value. A box on no die, or a second box on a die's side face, is wrong."""
    pairs = sorted(
        (float(np.hypot(r.center[0] - t.center[0], r.center[1] - t.center[1])), i, j)
        for i, r in enumerate(read)
        for j, t in enumerate(truth)
    )
    right = [False] * len(read)
    taken_read: set[int] = set()
    taken_truth: set[int] = set()
    for apart, i, j in pairs:
        if i in taken_read or j in taken_truth or apart > ON_THE_DIE * truth[j].side:
            continue
        taken_read.add(i)
        taken_truth.add(j)
        right[i] = read[i].value == truth[j].value
    return right


CONFIDENCE_LEVELS = (0.5, 0.9, 0.99)
"""The confidences ``eval`` and ``make bench`` check: among dice read at least this sure, at least this share must be
right."""


@dataclass(frozen=True)
class ConfidenceRow:
    level: float
    dice: int
    right: int

    @property
    def met(self) -> bool:
        """Calibrated (or more modest than that) at this level: at least ``level`` of the dice are right."""
        return self.right >= self.level * self.dice

    def __str__(self) -> str:
        if not self.dice:
            return "no dice"
        return f"{100 * self.right / self.dice:.2f}% right ({self.dice - self.right} wrong of {self.dice})"


@dataclass
class ConfidenceTally:
    """Whether the reader's confidence can be taken at its word: each die of a roll read ok (the dice a round is
    settled on) with its confidence, and whether it was right."""

    dice: list[tuple[float, bool]] = field(default_factory=list)

    def add(self, read: Sequence[PlacedDie], truth: Sequence[PlacedDie]) -> None:
        self.dice += [(die.confidence, right) for die, right in zip(read, judged(read, truth), strict=True)]

    def at_least(self, level: float) -> ConfidenceRow:
        """The dice read at least ``level`` sure."""
        chosen = [right for confidence, right in self.dice if confidence >= level]
        return ConfidenceRow(level, len(chosen), sum(chosen))


BOUND_CONFIDENCE = 0.95
"""How sure ``upper_bound`` is: a rate above its bound would give as few failures as were seen in at most one run in
twenty. "0 wrong of 64" proves far less than "0 wrong of 1,000", and the bound says how much less (4.6 % against
0.3 %)."""
_BISECTIONS = 60
"""Halvings of the interval the bound is sought in: 2**-60 of a rate, far below any figure shown."""


def upper_bound(failures: int, trials: int, confidence: float = BOUND_CONFIDENCE) -> float:
    """The highest failure rate that still gives as few as ``failures`` in ``trials`` with probability ``1 -
    confidence``: the exact one-sided (Clopper-Pearson) upper bound on the rate. 1.0 with no trials, or when every
    trial failed."""
    if not 0 <= failures <= trials:
        raise ValueError(f"{failures} failures in {trials} trials")
    if not 0 < confidence < 1:
        raise ValueError(f"a bound {confidence} sure: give a confidence between 0 and 1")
    if failures == trials:
        return 1.0
    if failures == 0:  # the chance of no failure at all is (1 - p)**n; expm1 keeps its digits for many trials
        return -math.expm1(math.log1p(-confidence) / trials)
    low, high = failures / trials, 1.0  # as few failures grows less likely as the rate rises: bisect
    for _ in range(_BISECTIONS):
        middle = (low + high) / 2
        if _at_most(failures, trials, middle) > 1.0 - confidence:
            low = middle
        else:
            high = middle
    return high


def _at_most(failures: int, trials: int, rate: float) -> float:
    """The chance of at most ``failures`` in ``trials`` at ``rate`` (0 < rate < 1), summed in logs: the terms of a
    thousand trials underflow a float multiplied out."""
    log_rate, log_rest = math.log(rate), math.log1p(-rate)
    whole = math.lgamma(trials + 1)
    return sum(
        math.exp(whole - math.lgamma(k + 1) - math.lgamma(trials - k + 1) + k * log_rate + (trials - k) * log_rest)
        for k in range(failures + 1)
    )


@dataclass(frozen=True)
class Outcome:
    """One picture: what was in it, what was read, whether the reader was sure, and how long it took."""

    truth: tuple[int, ...]
    read: tuple[int, ...]
    ok: bool
    ms: float
    dice_found: int
    name: str = ""
    placed_read: tuple[PlacedDie, ...] = ()
    """Each die read with a value, where it lies and how sure: judged where ``placed_truth`` is given."""
    placed_truth: tuple[PlacedDie, ...] | None = None
    """Where the picture's dice lie, if its labels say so (``boxes.json``, a renderer's truth)."""

    @property
    def right(self) -> bool:
        return self.ok and Counter(self.read) == Counter(self.truth)


@dataclass
class Report:
    scenes: int = 0
    dice: int = 0
    dice_right: int = 0
    exact: int = 0
    ok: int = 0
    wrong_when_ok: int = 0
    count_errors: int = 0
    times_ms: list[float] = field(default_factory=list)
    confusion: Counter[tuple[int, int | str]] = field(default_factory=Counter)
    """(true value, read value or "missed") -> count; an "extra" read die is (-1, value)."""
    wrong_names: list[str] = field(default_factory=list)
    placed: int = 0
    """Pictures whose dice's places were known."""
    placed_ok: int = 0
    """Of those, the pictures read ok: their dice make ``confidence``."""
    confidence: ConfidenceTally = field(default_factory=ConfidenceTally)

    def add(self, o: Outcome) -> None:
        self.scenes += 1
        self.dice += len(o.truth)
        truth, read = Counter(o.truth), Counter(o.read)
        both = truth & read
        self.dice_right += sum(both.values())
        self.ok += o.ok
        self.exact += o.right
        if o.ok and not o.right:
            self.wrong_when_ok += 1
            self.wrong_names.append(o.name)
        self.count_errors += o.dice_found != len(o.truth)
        self.times_ms.append(o.ms)
        if o.placed_truth is not None:
            self.placed += 1
            if o.ok:
                self.placed_ok += 1
                self.confidence.add(o.placed_read, o.placed_truth)
        for value, n in both.items():
            self.confusion[(value, value)] += n
        left_truth = sorted((truth - both).elements())
        left_read = sorted((read - both).elements())
        for t, r in zip(left_truth, left_read, strict=False):
            self.confusion[(t, r)] += 1
        for t in left_truth[len(left_read) :]:
            self.confusion[(t, MISSED)] += 1
        for r in left_read[len(left_truth) :]:
            self.confusion[(-1, r)] += 1

    @property
    def per_die_accuracy(self) -> float:
        return self.dice_right / self.dice if self.dice else 0.0

    @property
    def exact_scene_rate(self) -> float:
        return self.exact / self.scenes if self.scenes else 0.0

    @property
    def coverage(self) -> float:
        return self.ok / self.scenes if self.scenes else 0.0

    @property
    def wrong_when_ok_rate(self) -> float:
        return self.wrong_when_ok / self.ok if self.ok else 0.0

    @property
    def wrong_when_ok_at_most(self) -> float:
        """How high the wrong-when-ok rate could be, given so few rolls read ok (``upper_bound``)."""
        return upper_bound(self.wrong_when_ok, self.ok)

    def wrong_when_ok_evidence(self, ok: str = "read ok") -> str:
        """The counts behind the wrong-when-ok rate, and how high the real rate could be with so few: "0 wrong of 64
        read ok; the real rate could be as high as 4.57% at 95% confidence" (not "0 of 64 read ok", which reads as
        none read). ``ok``: what the caller calls a roll read ok."""
        if not self.ok:
            return f"nothing {ok}"
        return (
            f"{self.wrong_when_ok} wrong of {self.ok} {ok}; the real rate could be as high as "
            f"{self.wrong_when_ok_at_most:.2%} at {BOUND_CONFIDENCE:.0%} confidence"
        )

    @property
    def ms_mean(self) -> float:
        return float(np.mean(self.times_ms)) if self.times_ms else 0.0

    @property
    def ms_p95(self) -> float:
        return float(np.percentile(self.times_ms, 95)) if self.times_ms else 0.0

    def as_json(self) -> dict[str, object]:
        return {
            "scenes": self.scenes,
            "dice": self.dice,
            "per_die_accuracy": round(self.per_die_accuracy, 6),
            "exact_scene_rate": round(self.exact_scene_rate, 6),
            "coverage": round(self.coverage, 6),
            "wrong_when_ok_rate": round(self.wrong_when_ok_rate, 6),
            "wrong_when_ok": self.wrong_when_ok,
            "wrong_when_ok_at_most": round(self.wrong_when_ok_at_most, 6),
            "at_most_confidence": BOUND_CONFIDENCE,
            "count_errors": self.count_errors,
            "ms_mean": round(self.ms_mean, 2),
            "ms_p95": round(self.ms_p95, 2),
            "confusion": [
                {"truth": "extra" if t == -1 else t, "read": r, "count": n}
                for (t, r), n in sorted(self.confusion.items(), key=str)
            ],
            "wrong_when_ok_images": self.wrong_names,
            "confidence": {
                "pictures_read_ok": self.placed_ok,
                "rows": [
                    {"at_least": row.level, "dice": row.dice, "right": row.right, "met": row.met}
                    for row in self.confidence_rows()
                ],
            }
            if self.placed
            else None,
        }

    def confidence_rows(self) -> list[ConfidenceRow]:
        """Among the dice of pictures read ok, those read at least each of ``CONFIDENCE_LEVELS`` sure."""
        return [self.confidence.at_least(level) for level in CONFIDENCE_LEVELS]

    def confusion_table(self) -> str:
        """Rows: true value; columns: value read, then missed. A last row counts dice read that were not there."""
        values = sorted(
            {t for t, _ in self.confusion if t != -1} | {r for _, r in self.confusion if isinstance(r, int)}
        )
        head = "true\\read " + "".join(f"{v:>6}" for v in values) + f"{MISSED:>8}"
        lines = [head]
        for t in [*values, -1]:
            cells = "".join(f"{self.confusion.get((t, v), 0) or '.':>6}" for v in values)
            missed = self.confusion.get((t, MISSED), 0) if t != -1 else ""
            lines.append(f"{(EXTRA if t == -1 else t):>9} {cells}{missed or '.':>8}")
        return "\n".join(lines)


def summarise(outcomes: Iterable[Outcome]) -> Report:
    report = Report()
    for o in outcomes:
        report.add(o)
    return report
