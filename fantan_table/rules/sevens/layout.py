"""The layout: one row (a "fan") per suit, opened by its seven, built up to the King and down to the Ace.

Every document agrees (001, 002, 004): a seven may always be played and opens its suit's row; then the six
goes on one side and the eight on the other, and the row grows one rank at a time, down to the Ace and up to
the King, in that suit only. Nothing else is ever playable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import RulesError
from .cards import PACK, Card, Rank, Suit


@dataclass(frozen=True)
class Row:
    """The ranks of one suit on the table: every rank from ``low`` to ``high``, the seven among them."""

    low: Rank = Rank.SEVEN
    high: Rank = Rank.SEVEN

    def holds(self, rank: Rank) -> bool:
        return self.low <= rank <= self.high

    def next_ranks(self) -> tuple[Rank, ...]:
        """The ranks that may go on this row next: one below its low end, one above its high end."""
        below = (Rank(self.low - 1),) if self.low > Rank.ACE else ()
        above = (Rank(self.high + 1),) if self.high < Rank.KING else ()
        return below + above

    def with_rank(self, rank: Rank) -> Row:
        return Row(min(self.low, rank), max(self.high, rank))


@dataclass(frozen=True)
class Layout:
    """The cards on the table, as one row per suit (``None`` until that suit's seven is played)."""

    rows: tuple[tuple[Suit, Row], ...] = ()

    def row(self, suit: Suit) -> Row | None:
        return dict(self.rows).get(suit)

    def holds(self, card: Card) -> bool:
        """Whether ``card`` is already on the layout."""
        row = self.row(card.suit)
        return row is not None and row.holds(card.rank)

    def playable(self, card: Card) -> bool:
        """Whether ``card`` may be played now: a seven not yet out, or the next rank at either end of its row."""
        row = self.row(card.suit)
        if row is None:
            return card.rank is Rank.SEVEN
        return card.rank in row.next_ranks()

    def playable_cards(self) -> frozenset[Card]:
        """Every card of the pack that may be played now (a card taken out of the pack is the caller's to drop)."""
        return frozenset(c for c in PACK if self.playable(c))

    def cards(self) -> frozenset[Card]:
        """Every card on the layout."""
        return frozenset(c for c in PACK if self.holds(c))

    def with_card(self, card: Card) -> Layout:
        """The layout with ``card`` played; the caller has checked it is playable. Rows keep the order their
        sevens came in, as 004 lays them out (the suits' order changes from deal to deal)."""
        row = self.row(card.suit)
        grown = Row() if row is None else row.with_rank(card.rank)
        if row is None:
            return Layout((*self.rows, (card.suit, grown)))
        return Layout(tuple((s, grown if s is card.suit else r) for s, r in self.rows))


def layout_of(cards: Iterable[Card]) -> Layout:
    """The layout ``cards`` make when played in this order (each must be playable when its turn comes)."""
    layout = Layout()
    for card in cards:
        if not layout.playable(card):
            raise RulesError(f"a card not playable on the layout: {card.label}")
        layout = layout.with_card(card)
    return layout
