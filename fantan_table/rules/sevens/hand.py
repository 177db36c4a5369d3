"""One hand of card Fan Tan from the deal to the last card: whose turn it is, what may be played, pass and draw.

Pure and all or nothing: each move checks everything, then returns a new :class:`Hand` (a refusal raises a
:class:`RulesError` naming the rule and changes nothing). The rules are the three documents' common ones: the
player on the dealer's left plays first and turns go clockwise (001, 002, 004); a player who can play must play
one card, and only one (001, 004); a player who cannot passes (001, 002), or with 004's two-player dummy hand
draws from it instead until a playable card comes; the first to play his last card ends the hand.

With real cards (:attr:`CardMode.PHYSICAL`) the table knows the layout and how many cards each hand holds, not
which: a play is checked against the layout only, and a pass is taken as it comes (a revoke is claimed later,
``revoke.py``). With virtual cards it knows every hand and refuses a pass while a play is possible.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from ..errors import GameError, RulesError
from .cards import Card, cards_text
from .deal import deal, hand_sizes, has_dummy, left_of, removed_cards
from .layout import Layout
from .options import CardMode, Options

T = TypeVar("T")


class MoveKind(enum.Enum):
    PLAY = "play"
    PASS = "pass"
    DRAW = "draw"


@dataclass(frozen=True)
class Move:
    """One turn's act, in the order made; moves are numbered from 1 in refusals and revoke claims."""

    seat: int
    kind: MoveKind
    card: Card | None = None
    """The card played, or drawn from the dummy hand when the table knows it (virtual cards)."""


@dataclass(frozen=True)
class Hand:
    """A hand in play, or ended (:attr:`winner` set). Seats are numbered clockwise from 0."""

    number: int
    dealer: int
    options: Options
    mode: CardMode
    dealt: tuple[int, ...]
    """How many cards each seat was dealt (001's short hands pay one chip more)."""
    counts: tuple[int, ...]
    """How many cards each seat holds now: the table knows this even of real cards."""
    held: tuple[frozenset[Card], ...] | None
    """Each seat's cards, with virtual cards; ``None`` with real ones."""
    dummy: tuple[Card, ...]
    """004's face-down dummy hand with virtual cards, its top card last; empty with real cards or none."""
    dummy_count: int
    layout: Layout
    turn: int
    moves: tuple[Move, ...] = ()
    winner: int | None = None

    @property
    def seats(self) -> int:
        return len(self.counts)

    @property
    def removed(self) -> frozenset[Card]:
        return removed_cards(self.options, self.seats)

    @property
    def over(self) -> bool:
        return self.winner is not None

    # -- the deal ------------------------------------------------------------------------------------------------
    @classmethod
    def deal(
        cls, number: int, dealer: int, options: Options, mode: CardMode, seats: int, order: Sequence[Card] | None
    ) -> Hand:
        """A new hand: ``order`` is the shuffled pack in play for virtual cards, ``None`` for real cards (the table
        sees no deal, only knows each hand's size)."""
        if mode is CardMode.VIRTUAL:
            if order is None:
                raise RulesError("virtual cards are dealt by the table: give the shuffled order of the pack")
            dealt = deal(order, options, dealer, seats)
            held: tuple[frozenset[Card], ...] | None = tuple(frozenset(h) for h in dealt.hands)
            sizes, dummy, dummy_count = tuple(len(h) for h in dealt.hands), dealt.dummy, len(dealt.dummy)
        else:
            if order is not None:
                raise RulesError("real cards are dealt by hand: the table takes no order of the pack")
            held, dummy = None, ()
            sizes, dummy_count = hand_sizes(options, dealer, seats)
        return cls(
            number, dealer, options, mode, sizes, sizes, held, dummy, dummy_count, Layout(), left_of(dealer, seats)
        )

    # -- what a seat may do ----------------------------------------------------------------------------------------
    def playable_in_hand(self, seat: int) -> frozenset[Card]:
        """The cards ``seat`` holds that may be played now (virtual cards only)."""
        if self.held is None:
            raise GameError("with real cards the table does not know a hand")
        return frozenset(c for c in self.held[seat] if self.layout.playable(c))

    def play(self, seat: int, card: Card) -> Hand:
        """``seat`` plays ``card``: it must be on the layout's open ends (and, with virtual cards, in the hand)."""
        self._check_turn(seat)
        if card in self.removed:
            raise RulesError(f"{card.label} was taken out of the pack so the hands are equal (004): it is not in play")
        if self.layout.holds(card):
            raise RulesError(f"already played: {card.label} is on the layout")
        if not self.layout.playable(card):
            raise RulesError(
                f"a card not playable on the layout: {card.label} (a seven opens a row, then the next rank up or "
                f"down of that suit; playable now: {cards_text(self.layout.playable_cards() - self.removed)})"
            )
        held = self.held
        if held is not None:
            if card not in held[seat]:
                raise RulesError(f"not in your hand: {card.label}")
            held = _with(held, seat, held[seat] - {card})
        counts = _with(self.counts, seat, self.counts[seat] - 1)
        out = counts[seat] == 0
        return replace(
            self,
            counts=counts,
            held=held,
            layout=self.layout.with_card(card),
            turn=seat if out else left_of(seat, self.seats),
            moves=(*self.moves, Move(seat, MoveKind.PLAY, card)),
            winner=seat if out else None,
        )

    def pass_turn(self, seat: int) -> Hand:
        """``seat`` passes: refused while the dummy hand has cards to draw, and with virtual cards while ``seat`` can
        play. With real cards a pass is taken; if it was a revoke, it is claimed when the hands are shown."""
        self._check_turn(seat)
        if self.dummy_count:
            raise RulesError("draw from the dummy hand instead of passing, until a playable card comes (004)")
        if self.held is not None and (playable := self.playable_in_hand(seat)):
            raise RulesError(f"you can play: a pass is refused (a player who can play must: {cards_text(playable)})")
        return replace(self, turn=left_of(seat, self.seats), moves=(*self.moves, Move(seat, MoveKind.PASS)))

    def draw(self, seat: int) -> Hand:
        """``seat``, unable to play, draws the dummy hand's top card (004, two players); the turn stays with him."""
        self._check_turn(seat)
        if not has_dummy(self.options, self.seats):
            raise RulesError("there is no dummy hand to draw from: only 004's two-player game deals one")
        if not self.dummy_count:
            raise RulesError("the dummy hand is empty: a player who cannot play passes")
        held, dummy, drawn = self.held, self.dummy, None
        if held is not None:
            if playable := self.playable_in_hand(seat):
                raise RulesError(
                    f"you can play: a draw is refused (a player who can play must: {cards_text(playable)})"
                )
            drawn, dummy = dummy[-1], dummy[:-1]
            held = _with(held, seat, held[seat] | {drawn})
        return replace(
            self,
            counts=_with(self.counts, seat, self.counts[seat] + 1),
            held=held,
            dummy=dummy,
            dummy_count=self.dummy_count - 1,
            moves=(*self.moves, Move(seat, MoveKind.DRAW, drawn)),
        )

    def _check_turn(self, seat: int) -> None:
        if self.over:
            raise GameError(f"the hand is over: seat {self.winner} played his last card")
        if not 0 <= seat < self.seats:
            raise GameError(f"no seat {seat}: the seats are 0 to {self.seats - 1}")
        if seat != self.turn:
            raise GameError(f"not your turn: it is seat {self.turn}'s (turns go clockwise from the dealer's left)")

    # -- the end ---------------------------------------------------------------------------------------------------
    def check_cards_left(self, cards_left: Sequence[int]) -> None:
        """Refuse a count of the cards left that is not the table's: dealt, less played, plus drawn."""
        if not self.over:
            raise GameError("the hand is not over: nobody has played his last card")
        if len(cards_left) != self.seats:
            raise RulesError(f"{len(cards_left)} counts of cards left for {self.seats} players")
        for seat, (entered, count) in enumerate(zip(cards_left, self.counts, strict=True)):
            if entered != count:
                played = sum(m.seat == seat and m.kind is MoveKind.PLAY for m in self.moves)
                drew = sum(m.seat == seat and m.kind is MoveKind.DRAW for m in self.moves)
                raise RulesError(
                    f"seat {seat} holds {count} cards by the table's count (dealt {self.dealt[seat]}, played "
                    f"{played}, drew {drew}), not {entered}: count again"
                )


def _with(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])
