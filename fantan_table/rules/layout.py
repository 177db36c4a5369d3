"""The four tiles on the table and the betting positions between them.

The tiles lie in a square read clockwise from the top left as 0-1-3-2::

    0 | 1
    --+--
    2 | 3

Every other notion (sides, diagonals, corners) is derived from the tiles'
places in that square, so there is one source of truth for the geometry.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

TILES: Final = (0, 1, 2, 3)

#: (column, row) of each tile, origin at the top left.
TILE_PLACES: Final[dict[int, tuple[int, int]]] = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (1, 1)}


def _distance(a: int, b: int) -> int:
    (ax, ay), (bx, by) = TILE_PLACES[a], TILE_PLACES[b]
    return abs(ax - bx) + abs(ay - by)


#: Tiles sharing an edge, clockwise from the top, each written in clockwise order.
SIDE_PAIRS: Final[tuple[tuple[int, int], ...]] = ((0, 1), (1, 3), (3, 2), (2, 0))
SIDES: Final[tuple[frozenset[int], ...]] = tuple(frozenset(p) for p in SIDE_PAIRS)

#: Pairs of tiles meeting only at the centre point: 0-3 and 1-2.
DIAGONALS: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(pair) for pair in combinations(TILES, 2) if _distance(*pair) == 2
)


def neighbours(tile: int) -> frozenset[int]:
    """The two tiles that share an edge with ``tile``."""
    return frozenset(t for t in TILES if _distance(tile, t) == 1)


def corner(tile: int) -> frozenset[int]:
    """The numbers a corner bet on ``tile`` covers: the tile and its two edge-neighbours."""
    return neighbours(tile) | {tile}


def side_text(pair: frozenset[int]) -> str:
    """A side as it is read clockwise round the square: ``{2, 3}`` -> ``"3-2"``."""
    ((a, b),) = (p for p in SIDE_PAIRS if frozenset(p) == pair)
    return f"{a}-{b}"


def is_side(a: int, b: int) -> bool:
    return frozenset({a, b}) in SIDES


def is_diagonal(a: int, b: int) -> bool:
    return frozenset({a, b}) in DIAGONALS
