"""The Chinese domino set: 21 kinds of tile, 11 of them twice (Civil) and 10 once (Military), 32 tiles a set.

A tile is the pair of dice faces on it, ``high`` then ``low``, each 1 to 6 (Chinese dominoes have no blank).
Two tiles of one kind are identical: nothing in the rules tells them apart, so a hand is a multiset of kinds.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .errors import TileError

LOWEST_FACE, HIGHEST_FACE = 1, 6
"""The faces on a Chinese domino's halves: those of a pipped die, with no blank."""


class Suit(enum.Enum):
    CIVIL = "civil"
    """The 11 kinds each set holds twice."""
    MILITARY = "military"
    """The 10 kinds each set holds once."""


@dataclass(frozen=True, order=True)
class Tile:
    """One domino, written ``high-low`` (``6-2``); it orders by its high half, then its low one."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not LOWEST_FACE <= self.low <= self.high <= HIGHEST_FACE:
            raise TileError(
                f"a Chinese domino has two halves of {LOWEST_FACE} to {HIGHEST_FACE} pips, the higher first "
                f"(got {self.high}-{self.low})"
            )

    @property
    def pips(self) -> int:
        return self.high + self.low

    @property
    def suit(self) -> Suit:
        return Suit.CIVIL if self in CIVIL else Suit.MILITARY

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"


KINDS: Final = tuple(Tile(high, low) for high in range(HIGHEST_FACE, 0, -1) for low in range(high, 0, -1))
"""The 21 kinds, every pair of faces 1-6 once: 6-6, 6-5, ... 1-1."""

CIVIL: Final = frozenset(
    Tile(*faces) for faces in ((6, 6), (1, 1), (4, 4), (3, 1), (5, 5), (3, 3), (2, 2), (6, 5), (6, 4), (6, 1), (5, 1))
)
"""The Civil suit: the standard set's 11 duplicated kinds (heaven 6-6, earth 1-1, man 4-4, goose 3-1, ...)."""

MILITARY: Final = frozenset(KINDS) - CIVIL
"""The Military suit: the 10 kinds each set holds once (6-3 5-4, 6-2 5-3, 5-2 4-3, 4-1 3-2, 4-2 2-1)."""

COPIES_PER_SET: Final = {Suit.CIVIL: 2, Suit.MILITARY: 1}
"""How many tiles of a kind one set holds."""

TILES_PER_SET: Final = sum(COPIES_PER_SET[kind.suit] for kind in KINDS)
"""32."""


def copies(kind: Tile, sets: int) -> int:
    """How many tiles of ``kind`` ``sets`` sets hold together."""
    return COPIES_PER_SET[kind.suit] * sets


def domino_sets(sets: int) -> tuple[Tile, ...]:
    """Every tile of ``sets`` sets, in kind order."""
    return tuple(kind for kind in KINDS for _ in range(copies(kind, sets)))


def parse_tile(text: str) -> Tile:
    """``"6-2"``, ``"2-6"`` or ``"62"`` -> the 6-2 tile; anything else is refused, saying how to write one."""
    digits = [c for c in text.strip() if c not in "-/ :"]
    if len(digits) != 2 or not all(c.isascii() and c.isdigit() for c in digits):
        raise TileError(f"{text!r} is not a domino: write its two halves' pips, as 6-2")
    a, b = int(digits[0]), int(digits[1])
    return Tile(max(a, b), min(a, b))


def check_available(tiles: Iterable[Tile], sets: int) -> None:
    """Refuse tiles that ``sets`` sets cannot hold: more of a kind than its copies."""
    for kind, count in sorted(Counter(tiles).items()):
        if count > copies(kind, sets):
            held = copies(kind, sets)
            raise TileError(
                f"{count} x {kind}, but {sets} set{'s' if sets > 1 else ''} hold{'' if sets > 1 else 's'} "
                f"only {held} of it ({kind.suit.value} tiles come {COPIES_PER_SET[kind.suit]} to a set)"
            )
