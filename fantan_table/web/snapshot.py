"""The table as the page sees it: everything public at a real table (coins lie in plain sight), as JSON."""

from __future__ import annotations

from typing import Any

from ..devices.display.screens import Screen, text_lines
from ..rules.bets import all_positions, format_variants
from ..rules.game import HOUSE_COLUMN, is_bankrupt
from ..rules.round import Action
from ..rules.settlement import MAX_COINS_PER_ROUND
from ..table.core.codec import reading_to_json
from ..table.core.state import TableState
from ..table.show.history import round_json
from ..table.show.present import Lights, lights_for


def snapshot(
    state: TableState,
    version: int,
    screen: Screen | None = None,
    device_problem: str | None = None,
    fault: str | None = None,
) -> dict[str, Any]:
    game = state.game
    lights = lights_for(state) if fault is None else Lights(bets_open=False, open_number=None)  # as the panel: dark
    latest = state.latest
    players = []
    for p in game.players:
        wagers = game.wagers(p.name)
        players.append(
            {
                "name": p.name,
                "suit": p.suit.value,
                "balance_cents": game.balance(p.name),
                "bankrupt": is_bankrupt(game.balance(p.name)),
                "can_bet": game.can_bet(p.name),
                "is_banker": p.name == game.banker,
                "coins": [{"bet": str(w.bet), "coins": w.coins} for w in wagers],
                "staked": sum(w.coins for w in wagers),
            }
        )
    scoring = game.scoring_table()
    return {
        "version": version,
        "stage": state.stage.value,
        "round": state.round,
        "variants": format_variants(game.config.variants),
        "positions": [str(b) for b in all_positions(game.config.variants)],
        "max_coins": MAX_COINS_PER_ROUND,
        "players": players,
        "house_cents": game.house_cents,
        "lights": {"bets_open": lights.bets_open, "open_number": lights.open_number},
        "screen": text_lines(screen) if screen is not None else [],
        "device_problem": device_problem,
        "fault": fault,
        "reading": None if latest is None else reading_to_json(latest),
        "last_round": round_json(state.rounds[-1]) if state.rounds else None,
        "recall": [round_json(r) for r in reversed(state.recall())],
        "scoring": {
            "columns": list(scoring.columns),
            "rows": [list(r) for r in scoring.rows],
            "labels": list(scoring.labels),
            "house": HOUSE_COLUMN,
        },
        "over": game.end_reason.value if state.stage.value == "over" and game.end_reason else None,
        "actions": banker_actions(state),
        "draw": draw_json(state),
    }


def draw_json(state: TableState) -> dict[str, Any] | None:
    """The roll for the first bank (kept once decided): each roll, whose roll it is, who won, the last reading."""
    draw = state.game.draw
    if draw is None:
        return None
    last = state.bank_rolls[-1] if state.bank_rolls else None
    return {
        "contenders": list(draw.contenders),
        "go": draw.go,
        "to_roll": draw.to_roll,
        "winner": draw.winner,
        "rolls": [{"player": r.player, "go": r.go, "dice": list(r.dice), "total": r.total} for r in draw.rolls],
        "reading": None if last is None else reading_to_json(last),
    }


BANKER_ACTIONS: dict[str, Action] = {
    "close": Action.CLOSE,
    "next": Action.NEXT,
    "confirm": Action.CONFIRM,
    "reroll": Action.REROLL,
    "resume": Action.RESUME,
    "void": Action.VOID,
    "end": Action.END,
    "raid": Action.RAID,
}
"""The banker's buttons on the page, by the move of the round each makes."""


def banker_actions(state: TableState) -> list[str]:
    """The banker's buttons this stage allows (the page shows only these): the round machine's own answer."""
    game = state.game
    allowed = [name for name, action in BANKER_ACTIONS.items() if game.machine.allows(action)]
    if state.latest is None:  # a re-roll rejects a reading: none yet, none to reject
        allowed = [name for name in allowed if name != "reroll"]
    if game.draw is not None and game.draw.winner is None:  # the first round opens once the bank is decided
        allowed = [name for name in allowed if name != "next"]
    if game.is_over and game.stage.value != "raided":  # an ended game is not raided
        allowed = [name for name in allowed if name != "raid"]
    return allowed
