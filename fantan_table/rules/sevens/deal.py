"""Dealing: who deals first, which cards are in play, and who gets which card, from an explicit order.

The deal takes the pack's order as given, so the table can feed the order of a real shuffle it never sees
(only the hand sizes matter then) or of a virtual one (:func:`shuffled`, seeded, so a night replays).
Cards go one at a time, clockwise, starting on the dealer's left (001, 004); with 004's dummy hand the dealer
deals it after himself in each round. Seats are numbered clockwise, so the dealer's left is the next seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import RulesError
from .cards import PACK, Card, Rank, cards_text
from .options import Deal, Dummy, FirstDealer, Options

REMOVED_FOR_EQUAL_HANDS: Final = {
    3: (Rank.ACE,),
    5: (Rank.ACE, Rank.KING),
    6: (Rank.ACE, Rank.TWO, Rank.KING, Rank.QUEEN),
}
"""004: cards of one suit taken out so every hand is equal: an Ace for three hands, the Ace and King for five, the
Ace, two, King and Queen for six. Two and four hands share 52 cards evenly. 004's two-player dummy hand makes
three hands; we take out the Ace then too (004 does not say)."""


def left_of(seat: int, seats: int) -> int:
    """The seat on ``seat``'s left: the next one clockwise."""
    return (seat + 1) % seats


def has_dummy(options: Options, seats: int) -> bool:
    """Whether 004's dummy hand is dealt: only when two play."""
    return options.dummy is Dummy.DRAW_PILE and seats == 2


def hands_dealt(options: Options, seats: int) -> int:
    """How many hands the pack is dealt into: one per player, and the dummy when it is in play."""
    return seats + has_dummy(options, seats)


def removed_cards(options: Options, seats: int) -> frozenset[Card]:
    """The cards taken out of the pack before the deal (004's equal hands), none otherwise."""
    if options.deal is not Deal.EQUAL_HANDS:
        return frozenset()
    ranks = REMOVED_FOR_EQUAL_HANDS.get(hands_dealt(options, seats), ())
    return frozenset(Card(options.removed_suit, rank) for rank in ranks)


def pack_in_play(options: Options, seats: int) -> tuple[Card, ...]:
    """The cards dealt, in the pack's fixed order."""
    removed = removed_cards(options, seats)
    return tuple(c for c in PACK if c not in removed)


def shuffled(cards: Sequence[Card], seed: int) -> tuple[Card, ...]:
    """``cards`` in a shuffled order that ``seed`` always gives: virtual cards for a night that replays."""
    order = list(cards)
    random.Random(seed).shuffle(order)
    return tuple(order)


@dataclass(frozen=True)
class Dealt:
    """The hands as dealt: each player's cards by seat, and the dummy hand's (empty without one), in the order
    dealt; its last card is on top of the face-down pile, drawn first."""

    hands: tuple[tuple[Card, ...], ...]
    dummy: tuple[Card, ...]


def deal(order: Sequence[Card], options: Options, dealer: int, seats: int) -> Dealt:
    """Deal ``order`` (every card in play, once each) one at a time, clockwise from the dealer's left."""
    in_play = pack_in_play(options, seats)
    if sorted(order) != sorted(in_play):
        missing, extra = set(in_play) - set(order), set(order) - set(in_play)
        raise RulesError(
            f"the deal must hold each card in play once ({len(in_play)} cards): "
            f"missing {cards_text(missing)}, not in play {cards_text(extra)}, {len(order)} given"
        )
    positions = _positions(options, dealer, seats)
    piles: list[list[Card]] = [[] for _ in range(hands_dealt(options, seats))]
    for i, card in enumerate(order):
        piles[positions[i % len(positions)]].append(card)
    hands = tuple(tuple(p) for p in piles[:seats])
    return Dealt(hands, tuple(piles[seats]) if has_dummy(options, seats) else ())


def hand_sizes(options: Options, dealer: int, seats: int) -> tuple[tuple[int, ...], int]:
    """How many cards each seat is dealt, and the dummy hand: all the table knows of a deal of real cards."""
    positions = _positions(options, dealer, seats)
    sizes = [0] * hands_dealt(options, seats)
    for i in range(len(pack_in_play(options, seats))):
        sizes[positions[i % len(positions)]] += 1
    return tuple(sizes[:seats]), sizes[seats] if has_dummy(options, seats) else 0


def _positions(options: Options, dealer: int, seats: int) -> tuple[int, ...]:
    """The order hands get cards in one round of the deal: the dealer's left first, the dealer, then the dummy
    (numbered ``seats``) when there is one."""
    players = tuple((dealer + 1 + i) % seats for i in range(seats))
    return players + ((seats,) if has_dummy(options, seats) else ())


# -- the first dealer --------------------------------------------------------------------------------------------
def first_dealer(method: FirstDealer, cards: Sequence[Card], seats: int) -> int:
    """The first dealer's seat, from the cards that chose it.

    001 (:attr:`FirstDealer.FIRST_JACK`): ``cards`` are dealt face up one at a time clockwise from seat 0, and the
    first to receive a Jack deals; the cards end at that Jack. 002 and 004 (cuts): ``cards`` holds one cut per
    seat; the highest (002) or the lowest (004) deals, and players who tie for it cut again.
    """
    if len(set(cards)) != len(cards):
        raise RulesError(f"the same card twice in the cards that choose the dealer: {cards_text(cards)}")
    if method is FirstDealer.FIRST_JACK:
        jacks = [i for i, c in enumerate(cards) if c.rank is Rank.JACK]
        if jacks != [len(cards) - 1]:
            raise RulesError("the first dealer gets the first Jack dealt face up (001): the cards end at that Jack")
        return (len(cards) - 1) % seats
    if len(cards) != seats:
        raise RulesError(f"every player cuts once to choose the dealer: {len(cards)} cuts for {seats} players")
    best = (max if method is FirstDealer.HIGHEST_CUT else min)(c.rank for c in cards)
    tied = [seat for seat, c in enumerate(cards) if c.rank is best]
    if len(tied) > 1:
        which = "highest (002)" if method is FirstDealer.HIGHEST_CUT else "lowest (004)"
        raise RulesError(f"seats {', '.join(map(str, tied))} tie for the {which} cut: they cut again")
    return tied[0]


def dealer_cards(method: FirstDealer, order: Sequence[Card], seats: int) -> tuple[Card, ...]:
    """The cards that choose the first dealer when the table deals them from ``order`` (virtual cards): up to the
    first Jack (001); or a cut per seat in turn, the players who tie for the best cutting again from what is left."""
    if method is FirstDealer.FIRST_JACK:
        first_jack = next(i for i, c in enumerate(order) if c.rank is Rank.JACK)
        return tuple(order[: first_jack + 1])
    best = max if method is FirstDealer.HIGHEST_CUT else min
    cuts, rest = list(order[:seats]), iter(order[seats:])
    while True:
        top = best(c.rank for c in cuts)
        tied = [seat for seat, c in enumerate(cuts) if c.rank is top]
        if len(tied) == 1:
            return tuple(cuts)
        for seat in tied:
            recut = next(rest, None)
            if recut is None:
                raise RulesError("the pack ran out while the tied players cut again: shuffle and cut anew")
            cuts[seat] = recut
