"""What the display and LEDs show for a state of the table: pure functions, so every stage is tested without devices."""

from __future__ import annotations

from dataclasses import dataclass

from ...devices.display.screens import (
    BankRoll,
    BetsClosed,
    BetsOpen,
    Blank,
    GameOver,
    PlayerLine,
    Problem,
    Result,
    Screen,
    settlement_pages,
)
from ...rules.game import EndReason
from ..core.state import FANTAN, RoundRecord, Stage, TableState


@dataclass(frozen=True)
class Lights:
    bets_open: bool
    open_number: int | None


def lights_for(state: TableState) -> Lights:
    shown = FANTAN.present(state)
    return Lights(shown.accepting, shown.lit)


def result_screens(record: RoundRecord) -> list[Screen]:
    """A finished round: the dice and open number (or why it was void), then who won and lost what."""
    report = record.report
    first: Screen
    if report.voided or report.open_number is None:
        reason = record.reading.message if record.reading and not record.reading.ok else "every stake is returned"
        first = Problem("VOID", reason)
    else:
        dice = record.reading.values if record.reading else ()
        first = Result(report.round, dice, report.open_number)
    lines = [PlayerLine(s.player, *report.net(s)) for s in report.players]
    return [first, *settlement_pages(report.round, lines)]


def screens_for(state: TableState) -> list[Screen]:
    """The screens to show, in turn, for this state (most stages have one)."""
    game, latest = state.game, state.latest
    match state.stage:
        case Stage.CHOOSING:
            return [bank_roll_screen(state)]
        case Stage.BETTING:
            return [BetsOpen(state.round)]
        case Stage.CLOSED if latest is not None and not latest.ok:
            # what to do first: the display has room for four short rows, and the why can be long
            return [Problem("RE-ROLL", f"shake again, bets stand: {latest.message}")]
        case Stage.CLOSED:
            return [BetsClosed(state.round)]
        case Stage.CHECK:
            return [Problem("SHAKEN?", "dice lie as last round: CONFIRM, or READ to re-roll")]
        case Stage.SHOWING:
            return result_screens(state.rounds[-1])
        case Stage.RAIDED:
            return [Blank()]
    reason = PANEL_REASONS[game.end_reason] if game.end_reason else "the game is over"
    return [GameOver(reason, tuple(game.balances.items()))]


def bank_roll_screen(state: TableState) -> Screen:
    """The roll for the first bank: whose roll it is and the last roll, a roll to repeat, or who banks."""
    draw = state.game.draw
    assert draw is not None, "a table choosing its banker has a draw"
    tried = state.bank_rolls[-1] if state.bank_rolls else None
    if tried is not None and not tried.ok:
        return Problem("RE-ROLL", f"{draw.to_roll}: {tried.message}")
    last = (draw.rolls[-1].player, draw.rolls[-1].total) if draw.rolls else None
    tie = bool(draw.rolls) and draw.rolls[-1].go < draw.go
    return BankRoll(draw.to_roll, last, draw.winner, tie)


PANEL_REASONS: dict[EndReason, str] = {
    EndReason.ROUNDS: "all rounds played",
    EndReason.TIME: "the time is up",
    EndReason.FIRST_BANKRUPT: "a player went broke",
    EndReason.SECOND_LAST_BANKRUPT: "one player has money",
    EndReason.BANKER_BANKRUPT: "the bank went broke",
    EndReason.RAID: "a police raid",
    EndReason.NOBODY_CAN_BET: "nobody can bet",
    EndReason.ENDED: "the banker ended it",
}
"""Why the game ended, in the 21 characters a line of the panel holds (the page says it in full)."""
