"""The hand checker: are ten tiles a complete hand, and how (or why not)?

A complete hand is two identical tiles (the *twins*, of either suit) and four pairs, each pair totalling ten
or twenty pips. Which pairs count is a house rule (:class:`PairRule`): the rule document's own list of
pairs, taken literally, or any two tiles whose pips total 10 or 20.

The search works on a hand's counts per kind (:data:`~.dominoes.KINDS` order): it tries each kind held twice
as the twins and pairs the lowest kind left with each partner the rule allows, so it finds a partition
whenever one exists. Every allowed pair, listed or not, totals 10 or 20, so the eight paired tiles total a
multiple of ten: twins whose pips do not leave one are skipped without a search.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul
from typing import Final

from .dominoes import KINDS, Tile, check_available, parse_tile
from .errors import TileError

HAND_TILES: Final = 10
"""A hand is checked with ten tiles: the first player's deal, or nine plus the tile just taken or drawn."""
PAIR_TOTALS: Final = (10, 20)
"""What a pair's pips may total: ten, or twenty (the name's "tens")."""
TEN: Final = 10


class PairRule(enum.Enum):
    """Which two tiles make a pair of a complete hand."""

    LISTED = "listed"
    """Only the rule document's own list: its five pairs of twenty and nine of ten, exactly as written."""
    TEN_OR_TWENTY = "ten-or-twenty"
    """Any two tiles whose pips total 10 or 20 (the document's words without its list)."""


LISTED_PAIRS: Final = frozenset(
    frozenset({parse_tile(a), parse_tile(b)})
    for a, b in (
        # the twenties
        ("6-6", "6-2"), ("6-6", "5-3"), ("6-6", "4-4"), ("6-4", "6-4"), ("5-5", "5-5"),
        # the tens
        ("6-2", "1-1"), ("5-3", "1-1"), ("5-2", "2-1"), ("4-4", "1-1"), ("4-2", "3-1"),
        ("4-2", "2-2"), ("3-4", "2-1"), ("3-3", "3-1"), ("3-3", "2-2"),
    )
)  # fmt: skip
"""The document's 14 pairs (a one-tile set is that tile twice: 6-4 with 6-4, 5-5 with 5-5)."""


def pair_allowed(a: Tile, b: Tile, rule: PairRule) -> bool:
    """Whether ``a`` and ``b`` make a pair under ``rule``."""
    if rule is PairRule.LISTED:
        return frozenset({a, b}) in LISTED_PAIRS
    return a.pips + b.pips in PAIR_TOTALS


def describe(rule: PairRule) -> str:
    """The rule's pairs in a refusal's words."""
    return "the listed pairs" if rule is PairRule.LISTED else "two tiles totalling 10 or 20 pips"


@dataclass(frozen=True)
class CompleteHand:
    """How ten tiles make a complete hand: the twins, and four pairs (each higher tile first)."""

    twins: Tile
    pairs: tuple[tuple[Tile, Tile], ...]

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return (self.twins, self.twins, *(tile for pair in self.pairs for tile in pair))

    def __str__(self) -> str:
        return " | ".join([f"{self.twins} {self.twins}", *(f"{a} {b}" for a, b in self.pairs)])


@dataclass(frozen=True)
class Verdict:
    """The checker's answer: the partition of a complete hand, or why the tiles are not one."""

    complete: CompleteHand | None
    why_not: str | None = None

    @property
    def ok(self) -> bool:
        return self.complete is not None


# -- the search, on counts per kind -------------------------------------------------------------------
PIPS: Final = tuple(kind.pips for kind in KINDS)
PARTNERS: Final = {
    rule: tuple(
        tuple(j for j in range(i, len(KINDS)) if pair_allowed(KINDS[i], KINDS[j], rule)) for i in range(len(KINDS))
    )
    for rule in PairRule
}
"""For each rule and kind, the kinds at or after it in :data:`KINDS` that pair with it."""

HALF_TEN: Final = TEN // 2
TWINS_LEAVING: Final = tuple(tuple(i for i, pips in enumerate(PIPS) if pips % HALF_TEN == r) for r in range(HALF_TEN))
"""For a hand of ``2 * h`` pips, the kinds whose twins leave a multiple of ten: those with ``h`` pips modulo 5."""

Partition = tuple[int, tuple[tuple[int, int], ...]]
"""The twins' kind index and the four pairs' kind indexes."""


def counts_of(tiles: Sequence[Tile]) -> tuple[int, ...]:
    """How many of each kind ``tiles`` holds, in :data:`KINDS` order."""
    held = Counter(tiles)
    return tuple(held[kind] for kind in KINDS)


def partition(counts: Sequence[int], rule: PairRule) -> Partition | None:
    """A way for the hand with these ``counts`` (ten tiles) to be complete, or ``None`` when there is none."""
    total = sum(map(mul, counts, PIPS))
    if total % 2:
        return None  # twins add an even number of pips to a multiple of ten
    partners = PARTNERS[rule]
    for twins in TWINS_LEAVING[total // 2 % HALF_TEN]:
        if counts[twins] < 2:
            continue
        rest = list(counts)
        rest[twins] -= 2
        pairs = _pair_up(rest, 0, partners)
        if pairs is not None:
            return twins, pairs
    return None


def _pair_up(rest: list[int], start: int, partners: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...] | None:
    """Pairs using every tile in ``rest`` (no kind before ``start`` left), or ``None``; ``rest`` is restored."""
    first = next((i for i in range(start, len(rest)) if rest[i]), None)
    if first is None:
        return ()
    rest[first] -= 1
    try:
        for mate in partners[first]:
            if rest[mate]:
                rest[mate] -= 1
                found = _pair_up(rest, first, partners)
                rest[mate] += 1
                if found is not None:
                    return ((first, mate), *found)
        return None
    finally:
        rest[first] += 1


def check_hand(tiles: Sequence[Tile], rule: PairRule, sets: int) -> Verdict:
    """Whether ``tiles`` are a complete hand under ``rule``, and how, or why not.

    Ten tiles the ``sets`` in play can hold are required: anything else is a slip of the hand or the typing,
    refused (``TileError``) rather than judged.
    """
    if len(tiles) != HAND_TILES:
        raise TileError(f"a hand is checked with {HAND_TILES} tiles, not {len(tiles)}")
    check_available(tiles, sets)
    counts = counts_of(tiles)
    found = partition(counts, rule)
    if found is not None:
        twins, pairs = found
        return Verdict(CompleteHand(KINDS[twins], tuple((KINDS[a], KINDS[b]) for a, b in pairs)))
    doubles = [KINDS[i] for i, held in enumerate(counts) if held >= 2]
    if not doubles:
        return Verdict(None, "no two identical tiles: a complete hand needs one tile twice")
    tried = " or ".join(f"{kind} {kind}" for kind in doubles)
    return Verdict(None, f"setting aside {tried}, the other eight tiles do not make four pairs of {describe(rule)}")
