"""From the dice to the open number: the one rule that turns a roll into a tile, defined once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import DiceError
from .layout import TILES

MAX_SHAKEN = 8
"""The most dice a table shakes (the reader's ``expect`` goes no higher)."""


def open_number(dice: Iterable[int]) -> int:
    """The dice total divided by four leaves 0, 1, 2 or 3: that tile is open."""
    return sum(dice) % len(TILES)


@dataclass(frozen=True)
class DiceInUse:
    """The dice the table plays with: the faces each can show, and how many are shaken (``None``: any number
    up to :data:`MAX_SHAKEN`). Dice typed by hand must be these, or the open number is a typing slip's."""

    faces: tuple[int, ...]
    count: int | None = None

    def check(self, values: Sequence[int]) -> None:
        """Refuse, saying what to type, values that cannot be a roll of these dice."""
        wanted = f"{self.count} dice" if self.count is not None else f"1 to {MAX_SHAKEN} dice"
        if self.count is not None and len(values) != self.count or not 1 <= len(values) <= MAX_SHAKEN:
            raise DiceError(f"a roll at this table is {wanted}: give one face for each (got {len(values)})")
        odd = [v for v in values if type(v) is not int or v not in self.faces]
        if odd:
            faces = " ".join(map(str, self.faces))
            raise DiceError(f"{odd[0]!r} is not a face of these dice: each shows one of {faces}")


ANY_DICE = DiceInUse(faces=tuple(range(7)))
"""Dice the table was told nothing of: 1 to :data:`MAX_SHAKEN`, each blank (0) to six."""
