"""One line of the ``make bench`` report."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


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
