"""Where every tile of a hand is: each player's hand, the woodpile, the discards; and how one moves.

With virtual dominoes the table knows every tile. With physical dominoes it knows only how many lie where,
so each tile is ``None``, a tile the table cannot see, and the same moves keep the same counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import GameError
from .dominoes import Tile
from .woodpile import deal

Seen = Tile | None
"""A tile as the table knows it: which tile, or ``None`` for a physical tile it cannot see."""


@dataclass(frozen=True)
class Tiles:
    """Every tile of the sets in play, by where it lies."""

    hands: tuple[tuple[Seen, ...], ...]
    """By seat."""
    woodpile: tuple[Seen, ...]
    """Still face down, the next to draw first."""
    discards: tuple[Seen, ...] = ()
    """Face up, the last discarded last."""

    @classmethod
    def dealt(cls, order: Sequence[Seen], players: int, first: int) -> Tiles:
        hands, woodpile = deal(order, players, first)
        return cls(hands, woodpile)

    @property
    def everywhere(self) -> tuple[Seen, ...]:
        """Every tile, wherever it lies (for checking none was made or lost)."""
        return (*(tile for hand in self.hands for tile in hand), *self.woodpile, *self.discards)

    def drawn(self, seat: int) -> Tiles:
        """``seat`` draws the woodpile's next tile."""
        if not self.woodpile:
            raise GameError("the woodpile is empty: there is no tile to draw")
        return replace(
            self, hands=self._hands_with(seat, (*self.hands[seat], self.woodpile[0])), woodpile=self.woodpile[1:]
        )

    def taken(self, seat: int) -> Tiles:
        """``seat`` takes the last discard."""
        if not self.discards:
            raise GameError("nothing has been discarded: there is no tile to take")
        return replace(
            self, hands=self._hands_with(seat, (*self.hands[seat], self.discards[-1])), discards=self.discards[:-1]
        )

    def discarded(self, seat: int, tile: Seen) -> Tiles:
        """``seat`` lays ``tile`` face up (``None``: a physical tile the table cannot see)."""
        hand = list(self.hands[seat])
        if tile not in hand:
            raise GameError(f"cannot discard {tile}: it is not in the hand")
        hand.remove(tile)
        return replace(self, hands=self._hands_with(seat, tuple(hand)), discards=(*self.discards, tile))

    def _hands_with(self, seat: int, hand: tuple[Seen, ...]) -> tuple[tuple[Seen, ...], ...]:
        return (*self.hands[:seat], hand, *self.hands[seat + 1 :])
