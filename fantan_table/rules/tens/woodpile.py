"""The woodpile: how many sets a game uses, how the shuffled tiles are stacked, and how they are dealt.

The tiles are stacked face down in a row of stacks: two stacks of five, then stacks of four and five in turn
until every tile is in the pile (the last stack holds what is left). The first player takes the two stacks
of five, ten tiles; each other player, in the order of play, is dealt the next stack of four and stack of
five, nine tiles. The stacks after those are drawn from in order, each stack from its top.

A tile order lists the tiles in the order they are taken: the first ten are the first player's, and so on.
Virtual dominoes get theirs from :func:`shuffled`, a seeded shuffle, so a night replays from its journal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, TypeVar

from ..errors import ConfigError
from .dominoes import TILES_PER_SET, Tile, domino_sets

FIRST_STACKS: Final = (5, 5)
"""The first player's hand: the woodpile's first two stacks."""
OTHER_STACKS: Final = (4, 5)
"""Every other player's hand, and then the pattern of the rest of the woodpile: a stack of four, one of five."""
FIRST_HAND: Final = sum(FIRST_STACKS)
OTHER_HAND: Final = sum(OTHER_STACKS)

MIN_DRAWS_PER_PLAYER: Final = 3
"""The default number of sets leaves at least this many tiles per player in the woodpile after the deal:
with fewer, most hands would end drawn before anyone has had a few turns to collect their tens."""

T = TypeVar("T")


def tiles_dealt(players: int) -> int:
    """Tiles in the players' hands after the deal: ten for the first player, nine for each other."""
    return FIRST_HAND + OTHER_HAND * (players - 1)


def default_sets(players: int) -> int:
    """The fewest sets that deal every hand and leave :data:`MIN_DRAWS_PER_PLAYER` tiles a player to draw."""
    needed = tiles_dealt(players) + MIN_DRAWS_PER_PLAYER * players
    return -(-needed // TILES_PER_SET)


def check_sets(sets: int, players: int) -> None:
    """Refuse a number of sets too small to deal every hand and leave a tile to draw."""
    if sets < 1 or sets * TILES_PER_SET <= tiles_dealt(players):
        raise ConfigError(
            f"{players} players hold {tiles_dealt(players)} tiles after the deal and the woodpile needs one more: "
            f"{sets} set{'s' if sets != 1 else ''} of {TILES_PER_SET} is too few"
        )


def stack_heights(tiles: int) -> tuple[int, ...]:
    """The woodpile's stacks, in order, for ``tiles`` tiles: 5, 5, then 4, 5, 4, 5... and what is left."""
    heights: list[int] = []
    left = tiles
    pattern = (*FIRST_STACKS, *OTHER_STACKS * (tiles // OTHER_HAND + 1))
    for height in pattern:
        if left <= 0:
            break
        heights.append(min(height, left))
        left -= heights[-1]
    return tuple(heights)


def shuffled(sets: int, seed: int) -> tuple[Tile, ...]:
    """Every tile of ``sets`` sets in an order fixed by ``seed``: the same seed, the same woodpile."""
    order = list(domino_sets(sets))
    random.Random(seed).shuffle(order)
    return tuple(order)


def deal(order: Sequence[T], players: int, first: int) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...]]:
    """The hands by seat and the woodpile left to draw from, dealing ``order`` as the woodpile is dealt."""
    if len(order) <= tiles_dealt(players):
        raise ConfigError(f"{len(order)} tiles cannot deal {players} hands and leave one to draw")
    hands: list[tuple[T, ...]] = [()] * players
    hands[first] = tuple(order[:FIRST_HAND])
    for turn in range(1, players):
        start = FIRST_HAND + OTHER_HAND * (turn - 1)
        hands[(first + turn) % players] = tuple(order[start : start + OTHER_HAND])
    return tuple(hands), tuple(order[tiles_dealt(players) :])
