"""What the table's small display can show: one value per screen, drawn by ``draw`` or printed as text.

The table decides what to show and builds one of these; the display adapters only draw them. Money
is whole cents, as everywhere in the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...rules.money import format_cents, format_delta

PLAYERS_PER_PAGE = 2
"""Two players' results fit on the 128x64 panel in letters large enough to read across the table."""


@dataclass(frozen=True)
class BetsOpen:
    round: int


@dataclass(frozen=True)
class BetsClosed:
    round: int


@dataclass(frozen=True)
class Reading:
    """The cup is off and the camera is reading the dice."""

    round: int


@dataclass(frozen=True)
class Result:
    round: int
    dice: tuple[int, ...]
    open_number: int
    recalled: bool = False
    """A past round shown again (hold *next round*), not the one just played."""

    @property
    def total(self) -> int:
        return sum(self.dice)


@dataclass(frozen=True)
class PlayerLine:
    player: str
    delta_cents: int
    balance_cents: int


@dataclass(frozen=True)
class Settlement:
    """One page of a round's settlement: each player's win or loss and new balance."""

    round: int
    lines: tuple[PlayerLine, ...]
    page: int = 1
    pages: int = 1


@dataclass(frozen=True)
class Problem:
    """Something the banker must act on: a heading in large letters ("RE-ROLL", "VOID") and why."""

    heading: str
    reason: str


@dataclass(frozen=True)
class Fault:
    """The table stopped on an unexpected error and restarts by itself; betting is locked until it has."""

    reason: str


@dataclass(frozen=True)
class GameOver:
    reason: str
    balances: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class BankRoll:
    """The players roll for the bank: whose roll it is, the last roll, and once decided who banks."""

    to_roll: str | None
    last: tuple[str, int] | None
    """The last roll counted: who, and its total."""
    winner: str | None
    tie: bool = False
    """The last go was tied for the highest: the tied players roll again."""


@dataclass(frozen=True)
class Status:
    """A card or domino game at the table (Sevens, Collecting Tens): a heading, one line in large letters that the
    players read from their seats (whose turn, who won, a roll's total), and up to two short lines (the pool,
    the discard, what to do next)."""

    heading: str
    big: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Blank:
    """Nothing lit: a police raid, or the table switched off."""


@dataclass(frozen=True)
class SelftestCard:
    """The self-test's screen: a frame to the panel's very edge and every digit, to spot dead pixels or a bad crop."""


Screen = (
    BetsOpen
    | BetsClosed
    | Reading
    | Result
    | Settlement
    | Problem
    | Fault
    | GameOver
    | BankRoll
    | Status
    | Blank
    | SelftestCard
)


def settlement_pages(round_: int, lines: tuple[PlayerLine, ...] | list[PlayerLine]) -> list[Settlement]:
    """Split a round's settlement into pages of ``PLAYERS_PER_PAGE`` players."""
    lines = tuple(lines)
    chunks = [lines[i : i + PLAYERS_PER_PAGE] for i in range(0, len(lines), PLAYERS_PER_PAGE)] or [()]
    return [Settlement(round_, chunk, page, len(chunks)) for page, chunk in enumerate(chunks, 1)]


def text_lines(screen: Screen) -> list[str]:
    """The screen in words, for a terminal display, logs and the web page's mirror."""
    match screen:
        case BetsOpen(round=n):
            return [f"Round {n}", "BETS OPEN", "place your coins"]
        case BetsClosed(round=n):
            return [f"Round {n}", "NO MORE BETS", "lift the cup"]
        case Reading(round=n):
            return [f"Round {n}", "READING THE DICE"]
        case Result(round=n, dice=dice, open_number=open_number, recalled=recalled):
            head = f"PAST: round {n}" if recalled else f"Round {n}"
            return [head, f"dice {' '.join(map(str, dice))} = {screen.total}", f"OPEN {open_number}"]
        case Settlement(round=n, lines=lines, page=page, pages=pages):
            head = f"Round {n} paid" + (f" ({page}/{pages})" if pages > 1 else "")
            return [head] + [
                f"{line.player}: {format_delta(line.delta_cents)} -> {format_cents(line.balance_cents)}"
                for line in lines
            ]
        case Problem(heading=heading, reason=reason):
            return [heading, reason]
        case Fault(reason=reason):
            return ["FAULT", reason, "restarting: bets are locked"]
        case GameOver(reason=reason, balances=balances):
            return ["GAME OVER", reason] + [f"{name}: {format_cents(cents)}" for name, cents in balances]
        case BankRoll(to_roll=to_roll, last=last, winner=winner, tie=tie):
            rolled = ["WHO BANKS?"] + ([f"{last[0]} rolled {last[1]}"] if last else [])
            if winner is not None:
                return [*rolled, f"{winner} BANKS", "press NEXT ROUND"]
            return [*rolled, *(["a tie: roll again"] if tie else []), f"{to_roll} rolls the dice"]
        case Status(heading=heading, big=big, lines=lines):
            return [heading, big, *lines]
        case Blank():
            return []
        case SelftestCard():
            return ["TEST", "0123456789"]
    raise TypeError(f"not a screen: {screen!r}")
