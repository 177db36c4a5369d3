"""The 52-card pack of card Fan Tan (Sevens): four suits, thirteen ranks from the King (high) to the Ace (low).

All three rule documents (001, 002, 004) use the standard pack ranked King high to Ace low. A card's text in the
journal is its rank then its suit letter ("7H", "10S", "AC", "KD"), plain ASCII so it reads the same everywhere.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from ..errors import RulesError


class Suit(enum.Enum):
    """A suit; the value is the letter a card's text ends with."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SUIT_ORDER: Final = {suit: i for i, suit in enumerate(Suit)}
_SYMBOLS: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """A rank; the value orders them Ace (low) to King (high), as the documents rank the pack."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def text(self) -> str:
        return _RANK_TEXT.get(self, str(self.value))


_RANK_TEXT: Final = {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"}
_RANK_OF_TEXT: Final = {rank.text: rank for rank in Rank}


@functools.total_ordering
@dataclass(frozen=True)
class Card:
    """One card; cards sort by suit, then rank, so a hand shows suit by suit."""

    suit: Suit
    rank: Rank

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (_SUIT_ORDER[self.suit], self.rank) < (_SUIT_ORDER[other.suit], other.rank)

    def __str__(self) -> str:
        return f"{self.rank.text}{self.suit.value}"

    @property
    def label(self) -> str:
        """The card as a person reads it: "7♥"."""
        return f"{self.rank.text}{self.suit.symbol}"


def parse_card(text: str) -> Card:
    """The card ``text`` names ("7H", "10S", "AC"; any case), or a :class:`RulesError` saying what a card's text is."""
    cleaned = text.strip().upper()
    rank, suit = _RANK_OF_TEXT.get(cleaned[:-1]), cleaned[-1:]
    if rank is None or suit not in {s.value for s in Suit}:
        raise RulesError(f"not a card: {text!r} (a card is its rank A, 2-10, J, Q or K, then its suit C, D, H or S)")
    return Card(Suit(suit), rank)


PACK: Final = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
"""The 52 cards, in a fixed order (suit by suit, Ace to King): the order a shuffle starts from."""


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as the refusals name them, sorted: "7♥ 8♥ K♠" ("none" for no card)."""
    return " ".join(c.label for c in sorted(cards)) or "none"
