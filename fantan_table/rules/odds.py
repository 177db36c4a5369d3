"""Exact odds: the chance of each open number, and what every bet is worth per $1.

All figures are :class:`fractions.Fraction`, so "161/648" is exactly that, not 0.2484...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from .bets import Bet, Variant, all_positions
from .dice import open_number
from .errors import RulesError
from .layout import TILES

PIECEPACK_FACES: Final = (0, 1, 2, 3, 4, 5)
"""A piecepack die: null (blank), ace, 2, 3, 4, 5."""
D6_FACES: Final = (1, 2, 3, 4, 5, 6)
MAX_DICE: Final = 1_000

Distribution = tuple[Fraction, Fraction, Fraction, Fraction]


def open_distribution(dice: int = 4, faces: Sequence[int] = PIECEPACK_FACES) -> Distribution:
    """P(open = k) for k in 0..3 when ``dice`` dice, each showing one of ``faces`` with equal chance, are totalled.

    Works on totals mod 4 only (a convolution over four residues), so it is exact and fast for any number of dice.
    A face listed twice counts twice, which describes dice with repeated faces.
    """
    if type(dice) is not int or not 1 <= dice <= MAX_DICE:
        raise RulesError(f"the number of dice must be a whole number from 1 to {MAX_DICE} (got {dice!r})")
    if not faces:
        raise RulesError("a die needs at least one face")
    if any(type(f) is not int for f in faces):
        raise RulesError(f"die faces are whole numbers (got {list(faces)!r})")
    one_die = [0] * 4  # ways one die lands on each residue mod 4
    for face in faces:
        one_die[open_number((face,))] += 1
    ways = [1, 0, 0, 0]  # zero dice: total 0, one way
    for _ in range(dice):
        ways = [sum(ways[a] * one_die[open_number((k, -a))] for a in TILES) for k in TILES]  # a + (k - a) opens k
    outcomes = len(faces) ** dice
    return (
        Fraction(ways[0], outcomes),
        Fraction(ways[1], outcomes),
        Fraction(ways[2], outcomes),
        Fraction(ways[3], outcomes),
    )


def expected_value(bet: Bet, distribution: Distribution) -> Fraction:
    """The exact expected change of balance per $1 staked on ``bet`` (negative: the house's edge)."""
    payout = bet.payout
    value = Fraction(0)
    for number, chance in zip(TILES, distribution, strict=True):
        if not bet.covers(number):
            value -= chance
        elif bet.strong is not None and number != bet.strong:
            assert payout.weak_cents is not None
            value += chance * Fraction(payout.weak_cents, 100)
        else:
            value += chance * Fraction(payout.win_cents, 100)
    return value


@dataclass(frozen=True)
class BetOdds:
    bet: Bet
    win_chance: Fraction
    """The chance the bet does not lose (a strong bet's money back counts here)."""
    ev: Fraction


def bet_odds(distribution: Distribution, variants: Variant = Variant.ALL) -> tuple[BetOdds, ...]:
    """Every betting position ``variants`` allow, with its chance and exact expected value per $1."""
    return tuple(
        BetOdds(bet, sum((distribution[n] for n in bet.numbers), Fraction(0)), expected_value(bet, distribution))
        for bet in all_positions(variants)
    )
