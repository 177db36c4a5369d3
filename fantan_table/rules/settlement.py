"""Stakes and their settlement: what each coin on the layout wins or loses once a number opens."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .bets import Bet, Variant, format_variants
from .errors import BetError, RulesError, StakeError
from .layout import TILES
from .money import COIN_CENTS, format_cents

MAX_COINS_PER_ROUND: Final = 5
"""A player stakes $1 to $5 a round in all, several coins on one spot allowed."""


class Outcome(enum.Enum):
    WIN = "won"
    LOSE = "lost"
    MONEY_BACK = "money back"


@dataclass(frozen=True)
class Wager:
    """``coins`` $1 coins lying on one betting position."""

    bet: Bet
    coins: int

    def __post_init__(self) -> None:
        if type(self.coins) is not int or self.coins < 1:
            raise StakeError(f"{self.bet}: a wager is a whole number of $1 coins, at least 1 (got {self.coins!r})")

    @property
    def stake_cents(self) -> int:
        return self.coins * COIN_CENTS


@dataclass(frozen=True)
class BetResult:
    wager: Wager
    outcome: Outcome
    delta_cents: int
    """What the player's balance changes by: winnings, 0 for money back, minus the stake when lost."""


def settle_wager(wager: Wager, open_number: int) -> BetResult:
    """Settle one wager once ``open_number`` is open."""
    check_open_number(open_number)
    bet, payout = wager.bet, wager.bet.payout
    if not bet.covers(open_number):
        return BetResult(wager, Outcome.LOSE, -wager.stake_cents)
    if bet.strong is not None and open_number != bet.strong:
        assert payout.weak_cents is not None
        outcome = Outcome.MONEY_BACK if payout.weak_cents == 0 else Outcome.WIN
        return BetResult(wager, outcome, wager.coins * payout.weak_cents)
    return BetResult(wager, Outcome.WIN, wager.coins * payout.win_cents)


def settle_wagers(wagers: Iterable[Wager], open_number: int) -> tuple[BetResult, ...]:
    return tuple(settle_wager(w, open_number) for w in wagers)


def check_open_number(open_number: int) -> None:
    if type(open_number) is not int or open_number not in TILES:
        raise RulesError(f"the open number is the dice total mod 4, so 0-3 (got {open_number!r})")


def check_variants(bet: Bet, variants: Variant) -> None:
    """Refuse a bet kind this game has not enabled, naming the variants it needs."""
    missing = bet.required_variants & ~variants
    if missing:
        raise BetError(
            f"{bet}: {bet.kind.value} bets need the variant(s) {format_variants(bet.required_variants)}, "
            f"and this game has {format_variants(variants)}"
        )


def check_stake(who: str, wagers: Sequence[Wager], balance_cents: int) -> None:
    """Refuse a round's stake that breaks the limits, naming the limit."""
    coins = sum(w.coins for w in wagers)
    if coins == 0:
        return
    if balance_cents < COIN_CENTS:
        raise StakeError(f"{who} is bankrupt ({format_cents(balance_cents)}) and cannot bet: a bet needs a $1 coin")
    if coins > MAX_COINS_PER_ROUND:
        raise StakeError(
            f"{who} would stake ${coins} this round: at most {MAX_COINS_PER_ROUND} $1 coins a round in all"
        )
    if coins * COIN_CENTS > balance_cents:
        raise StakeError(
            f"{who} would stake ${coins} with a balance of {format_cents(balance_cents)}: "
            "nobody may stake more than their balance"
        )
