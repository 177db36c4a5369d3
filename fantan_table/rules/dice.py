"""From the dice to the open number: the one rule that turns a roll into a tile, defined once."""

from __future__ import annotations

from collections.abc import Iterable

from .layout import TILES


def open_number(dice: Iterable[int]) -> int:
    """The dice total divided by four leaves 0, 1, 2 or 3: that tile is open."""
    return sum(dice) % len(TILES)
