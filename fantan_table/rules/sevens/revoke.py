"""A revoke claim with real cards: decided against the hands shown once the hand is over.

A revoke is passing while able to play (001, 002). The table never sees a hand of real cards, but once the hand
is over the hands can be shown: what a player held at a pass is what he shows now plus what he played since
(nobody draws after a pass: a pass waits until 004's dummy hand is empty), and the layout at that pass is the
cards played before it. If one of those cards was playable then, the claim stands; if he held a seven, the
holders of that suit's six and eight at the pass (whoever played them since, or shows them now) are paid too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import GameError, RulesError
from .cards import Card, Rank, cards_text
from .hand import Hand, MoveKind
from .layout import layout_of


@dataclass(frozen=True)
class SevenHeld:
    """A seven the revoker held at his pass, and who then held that suit's six and eight (the revoker himself is
    paid nothing)."""

    seven: Card
    six_holder: int
    eight_holder: int


@dataclass(frozen=True)
class Revoke:
    """A claim that stood: the pass at ``move`` (numbered from 1) by ``seat``, who could have played ``could_play``."""

    move: int
    seat: int
    could_play: frozenset[Card]
    sevens: tuple[SevenHeld, ...]


@dataclass(frozen=True)
class Showing:
    """The hands shown so far in a hand that is over (a hand, once shown, is what it is) and the revokes found."""

    hands: tuple[tuple[int, frozenset[Card]], ...] = ()
    revokes: tuple[Revoke, ...] = ()

    def shown(self) -> dict[int, frozenset[Card]]:
        return dict(self.hands)


def claim(hand: Hand, showing: Showing, move: int, shown: Mapping[int, frozenset[Card]]) -> tuple[Showing, Revoke]:
    """Decide the claim that the pass at ``move`` was a revoke, against the hands ``shown`` now (and before).

    A claim that does not stand, or cannot be decided from the hands shown, is refused with the reason; one that
    stands comes back with what the penalty needs.
    """
    if not hand.over:
        raise GameError("a revoke is claimed once the hand is over, when the hands can be shown")
    if not 1 <= move <= len(hand.moves) or hand.moves[move - 1].kind is not MoveKind.PASS:
        raise RulesError(f"move {move} was not a pass: only a pass can be a revoke")
    if any(r.move == move for r in showing.revokes):
        raise RulesError(f"already claimed: the pass at move {move} was found a revoke")
    all_shown = _merge(hand, showing.shown(), shown)
    seat = hand.moves[move - 1].seat
    if seat not in all_shown:
        raise RulesError(f"show seat {seat}'s hand: a revoke is decided against the cards shown")
    later = hand.moves[move:]
    held = all_shown[seat] | {m.card for m in later if m.seat == seat and m.kind is MoveKind.PLAY and m.card}
    before = layout_of(m.card for m in hand.moves[: move - 1] if m.kind is MoveKind.PLAY and m.card)
    could_play = frozenset(c for c in held if before.playable(c))
    if not could_play:
        raise RulesError(f"no revoke: seat {seat} could not play at move {move}, holding {cards_text(held)}")

    def holder(card: Card) -> int:
        played_by = [m.seat for m in later if m.card == card and m.kind is MoveKind.PLAY]
        showing_it = [s for s, cards in all_shown.items() if card in cards]
        if not (played_by or showing_it):
            raise RulesError(
                f"show the hand that holds {card.label}: its holder is paid five chips "
                f"for seat {seat}'s seven (001, 002)"
            )
        return (played_by or showing_it)[0]

    sevens = tuple(
        SevenHeld(c, holder(Card(c.suit, Rank.SIX)), holder(Card(c.suit, Rank.EIGHT)))
        for c in sorted(held)
        if c.rank is Rank.SEVEN
    )
    found = Revoke(move, seat, could_play, sevens)
    return Showing(tuple(sorted(all_shown.items())), (*showing.revokes, found)), found


def _merge(
    hand: Hand, before: Mapping[int, frozenset[Card]], now: Mapping[int, frozenset[Card]]
) -> dict[int, frozenset[Card]]:
    """The hands shown before and now, each checked against the table's count and the layout, none twice."""
    merged = dict(before)
    on_table = hand.layout.cards()
    for seat, cards in sorted(now.items()):
        if not 0 <= seat < hand.seats:
            raise GameError(f"no seat {seat}: the seats are 0 to {hand.seats - 1}")
        if seat in merged and merged[seat] != cards:
            raise RulesError(f"seat {seat} showed {cards_text(merged[seat])} before: a hand shown does not change")
        if len(cards) != hand.counts[seat]:
            raise RulesError(f"seat {seat} holds {hand.counts[seat]} cards by the table's count: {len(cards)} shown")
        if played := cards & on_table:
            raise RulesError(f"already played: {cards_text(played)} on the layout, not in seat {seat}'s hand")
        if out := cards & hand.removed:
            raise RulesError(f"{cards_text(out)} taken out of the pack so the hands are equal (004): not in a hand")
        for other, theirs in merged.items():
            if other != seat and (twice := cards & theirs):
                raise RulesError(f"{cards_text(twice)} shown in two hands: seats {other} and {seat}")
        merged[seat] = cards
    return merged
