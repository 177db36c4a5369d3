"""The display in words on a terminal, for a laptop with no panel: each new screen printed in a box."""

from __future__ import annotations

import sys
from typing import TextIO

from .screens import Screen, text_lines

INNER = 24


class TerminalDisplay:
    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stdout
        self._last: Screen | None = None

    def show(self, screen: Screen) -> None:
        if screen == self._last:
            return
        self._last = screen
        rows = [line[:INNER].ljust(INNER) for line in text_lines(screen)] or [" " * INNER]
        box = ["+" + "-" * (INNER + 2) + "+", *(f"| {row} |" for row in rows), "+" + "-" * (INNER + 2) + "+"]
        print("\n".join(box), file=self._stream, flush=True)

    def close(self) -> None:
        self._last = None
