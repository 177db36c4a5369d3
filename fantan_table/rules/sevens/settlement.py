"""The chips of card Fan Tan: antes, passes, revoke penalties and the winner's take, in whole chips.

Chips only move between players and the pool, so the players' chips and the pool always add up to what the
players started with. The amounts are the documents': a pass costs one chip to the pool (001, 002, 004); a
revoke three chips to the pool and, for a seven held, five chips to each holder of its six and eight (001, 002);
the hand's winner takes the pool and one chip per card left in each other hand (001, 002, 004). 001's players
dealt a card fewer put one chip more into the pool. 004's points: one per card left in the others' hands.
With points (:attr:`Scoring.POINTS`) no chip moves at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import GameError
from .hand import Hand, MoveKind
from .options import Agreed, Ante, Deal, Options
from .revoke import Revoke

PASS_CHIPS: Final = 1
"""A pass puts one chip into the pool (001, 002, 004)."""
REVOKE_CHIPS: Final = 3
"""A revoke puts three chips into the pool (001, 002)."""
SEVEN_CHIPS: Final = 5
"""Passing on a seven pays five chips to each holder of its six and eight (001, 002)."""
SHORT_HAND_CHIPS: Final = 1
"""001: a player dealt fewer cards than others adds one chip more to the pool."""
ANTE_ONE_CHIP: Final = 1
"""001: after the deal each player puts one chip into the pool."""


@dataclass(frozen=True)
class Chips:
    """Every player's chips by seat and the pool's: a player may owe chips (below zero) until the hand ends."""

    seats: tuple[int, ...]
    pool: int = 0

    @property
    def total(self) -> int:
        return sum(self.seats) + self.pool

    def pay(self, seat: int, chips: int, to: int | None = None) -> Chips:
        """``seat`` pays ``chips`` to seat ``to``, or to the pool when ``to`` is None."""
        seats = list(self.seats)
        seats[seat] -= chips
        if to is None:
            return Chips(tuple(seats), self.pool + chips)
        seats[to] += chips
        return Chips(tuple(seats), self.pool)

    def take_pool(self, seat: int) -> Chips:
        seats = list(self.seats)
        seats[seat] += self.pool
        return Chips(tuple(seats), 0)


def antes(options: Options, agreed: Agreed, hand: Hand) -> tuple[int, ...]:
    """What each seat puts into the pool when the hand is dealt."""
    if not options.chips_move:
        return (0,) * hand.seats
    each = {Ante.ONE_CHIP: ANTE_ONE_CHIP, Ante.AGREED_STAKE: agreed.stake, Ante.NONE: 0}[options.ante]
    longest = max(hand.dealt)
    short_pays = options.deal is Deal.WHOLE_PACK_SHORT_PAYS
    return tuple(each + (SHORT_HAND_CHIPS if short_pays and n < longest else 0) for n in hand.dealt)


def pay_antes(chips: Chips, due: Sequence[int]) -> Chips:
    for seat, amount in enumerate(due):
        chips = chips.pay(seat, amount)
    return chips


def pass_chips(options: Options) -> int:
    return PASS_CHIPS if options.chips_move else 0


def pay_revoke(chips: Chips, options: Options, revoke: Revoke) -> Chips:
    """The penalty of a revoke found: three chips to the pool, five to each other holder of a held seven's six
    and eight."""
    if not options.chips_move:
        return chips
    chips = chips.pay(revoke.seat, REVOKE_CHIPS)
    for held in revoke.sevens:
        for holder in (held.six_holder, held.eight_holder):
            if holder != revoke.seat:
                chips = chips.pay(revoke.seat, SEVEN_CHIPS, to=holder)
    return chips


@dataclass(frozen=True)
class HandResult:
    """One hand's line in the scoring table: what each seat paid and won, and why."""

    number: int
    dealer: int
    winner: int
    antes: tuple[int, ...]
    passes: tuple[int, ...]
    """How many times each seat passed."""
    revokes: tuple[Revoke, ...]
    cards_left: tuple[int, ...]
    pool_taken: int
    """The pool the winner took: antes, passes and revokes' three chips."""
    chips: tuple[int, ...]
    """Each seat's chips gained (or lost, below zero) over the hand, antes included."""
    points: tuple[int, ...]
    """Each seat's points scored in the hand (004): only the winner scores."""


def settle(
    chips: Chips, before: Chips, hand: Hand, options: Options, antes_paid: tuple[int, ...], revokes: tuple[Revoke, ...]
) -> tuple[Chips, HandResult]:
    """The end of a hand: each other seat pays the winner a chip per card left, and the winner takes the pool.
    ``before`` is the chips before the antes, for the hand's line in the scoring table."""
    winner = hand.winner
    if winner is None:
        raise GameError("a hand is settled once it is over")
    pool = chips.pool
    if options.chips_move:
        for seat, left in enumerate(hand.counts):
            if seat != winner:
                chips = chips.pay(seat, left, to=winner)
        chips = chips.take_pool(winner)
    scored = sum(hand.counts) if not options.chips_move else 0
    result = HandResult(
        number=hand.number,
        dealer=hand.dealer,
        winner=winner,
        antes=antes_paid,
        passes=tuple(sum(m.seat == s and m.kind is MoveKind.PASS for m in hand.moves) for s in range(hand.seats)),
        revokes=revokes,
        cards_left=hand.counts,
        pool_taken=pool,
        chips=tuple(after - start for after, start in zip(chips.seats, before.seats, strict=True)),
        points=tuple(scored if s == winner else 0 for s in range(hand.seats)),
    )
    return chips, result
