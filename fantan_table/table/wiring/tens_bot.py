"""A Collecting Tens bot: what a player holding virtual dominoes does, decided from its own hand and the discard.

No chance and no memory: the same hand and discard always give the same move, so a demo night resumed from its
journal plays on exactly as it would have. The heuristic is a simple one, meant to finish hands, not to win
them: a hand is worth the most tiles it can set in twins and allowed pairs at once (ten: complete); the bot
takes the discard when that makes its hand worth more, and discards the tile whose loss costs least.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from ...rules.tens.dominoes import KINDS, Tile
from ...rules.tens.hand import PARTNERS, PairRule, counts_of

TWINS: Final = 2
PAIR: Final = 2
HAND_PAIRS: Final = 4
"""A complete hand's pairs, besides its twins: pairs beyond these count for nothing without twins."""
SEARCHES_KEPT: Final = 2**16
"""Hands (and part-hands) whose worth is remembered: many more than one turn looks at, bounded for a long night."""


def worth(tiles: Sequence[Tile], rule: PairRule) -> int:
    """The most of ``tiles`` a complete hand's shape can hold at once, twins and up to four allowed pairs (ten of
    ten tiles: a complete hand)."""
    return _worth(counts_of(tiles), rule)


def best_discard(hand: Sequence[Tile], rule: PairRule) -> Tile:
    """The tile to lay down: the one whose loss leaves the hand worth most (ties: the highest tile)."""

    def left_without(tile: Tile) -> tuple[int, Tile]:
        rest = list(hand)
        rest.remove(tile)
        return worth(rest, rule), tile

    return max(left_without(tile) for tile in set(hand))[1]


def takes(hand: Sequence[Tile], discard: Tile, rule: PairRule) -> bool:
    """Whether taking ``discard`` (and then laying down the best tile) leaves the hand worth more than now."""
    ten = [*hand, discard]
    if worth(ten, rule) == len(ten):
        return True  # complete: declare it
    ten.remove(best_discard(ten, rule))
    return worth(ten, rule) > worth(hand, rule)


@lru_cache(maxsize=SEARCHES_KEPT)
def _worth(counts: tuple[int, ...], rule: PairRule) -> int:
    best = PAIR * min(_most_pairs(counts, 0, rule), HAND_PAIRS)  # no twins yet
    for kind, held in enumerate(counts):
        if held >= TWINS:
            rest = (*counts[:kind], held - TWINS, *counts[kind + 1 :])
            best = max(best, TWINS + PAIR * _most_pairs(rest, 0, rule))
    return best


@lru_cache(maxsize=SEARCHES_KEPT)
def _most_pairs(counts: tuple[int, ...], start: int, rule: PairRule) -> int:
    """The most disjoint allowed pairs among ``counts`` (no kind before ``start`` held)."""
    first = next((kind for kind in range(start, len(KINDS)) if counts[kind]), None)
    if first is None:
        return 0
    rest = list(counts)
    rest[first] -= 1
    best = _most_pairs(tuple(rest), first, rule)  # this tile left unpaired
    for mate in PARTNERS[rule][first]:
        if rest[mate]:
            rest[mate] -= 1
            best = max(best, 1 + _most_pairs(tuple(rest), first, rule))
            rest[mate] += 1
    return best
