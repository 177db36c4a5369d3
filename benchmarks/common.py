"""One line of the ``make bench`` report, and how its rates are shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fantan_table.vision.evaluate import Report


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
    """The wrong-when-ok rate with its counts, "0.48% (2 of 414)": it rests on the few rolls read ok."""
    return f"{percent(report.wrong_when_ok_rate)} ({report.wrong_when_ok} of {report.ok})"
