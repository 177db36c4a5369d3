"""One line of the ``make bench`` report, and how its rates are shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fantan_table.vision.evaluate import Report

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = ROOT.parent / "shared" / "data" / "dice-photos"
"""The shared real photos: white d6 at a slant (train/, and valid/ kept for measuring)."""
BYLER = ROOT.parent / "shared" / "data" / "dice-photos-byler" / "train"
"""byler's coloured dice from above: the first 150 may be trained and calibrated on, the last 50 are measured."""


@dataclass(frozen=True)
class Row:
    name: str
    ours: str
    baseline: str
    target: str = "-"
    met: Callable[[], bool] | None = None

    def verdict(self) -> str:
        if self.met is None:
            return ""
        return "met" if self.met() else "MISSED"


def percent(rate: float) -> str:
    return f"{100 * rate:.2f}%"


def wrong_when_ok(report: Report) -> str:
    """The wrong-when-ok rate with its counts and how high it could be, "0.48% (2 wrong of 414 ok; <= 1.51%)" (not
    "2 of 414", which reads as two rolls of 414 read): it rests on the few rolls read ok (``evaluate.upper_bound``)."""
    at_most = percent(report.wrong_when_ok_at_most)
    return f"{percent(report.wrong_when_ok_rate)} ({report.wrong_when_ok} wrong of {report.ok} ok; <= {at_most})"
