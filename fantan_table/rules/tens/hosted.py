"""Collecting Tens as a hosted game (:class:`~fantan_table.rules.games.HostedGame`): the table's journal,
replay and lights reach the rules only through :data:`TENS`."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..errors import GameError
from ..games import HostedGame, Presentation
from ..layout import TILES
from . import codec, game
from .events import Shown, TensEvent, TensSetup
from .game import Stage, TensState

SEAT_LIGHTS: Final = len(TILES)
"""The table's four LEDs, one under each Fan Tan tile, light seats here: a night of more players than
that lights none, and the display names whose turn it is."""


class Tens:
    name = "tens"

    def start(self, setup: TensEvent) -> TensState:
        if not isinstance(setup, TensSetup):
            raise GameError("the journal does not start with a game's setup")
        return game.start(setup)

    def apply(self, state: TensState, event: TensEvent, at: datetime) -> TensState:
        """The fold needs no clock: ``at`` is the journal's, kept there."""
        return game.apply(state, event)

    def round_of(self, state: TensState) -> int:
        return state.hand

    def follow_up(self, state: TensState) -> TensEvent | None:
        """Nothing happens by itself: every move is a player's, or the banker's."""
        return None

    def seen(self, state: TensState) -> TensEvent | None:
        return Shown() if state.stage is Stage.SHOWING and not state.shown else None

    def encode(self, event: TensEvent) -> tuple[str, dict[str, Any]]:
        return codec.encode(event)

    def decode(self, kind: str, data: Mapping[str, Any]) -> TensEvent:
        return codec.decode(kind, data)

    def present(self, state: TensState) -> Presentation:
        """The seat whose turn it is lights: the roller's, the first player's while dealing, the player to
        move's, the winner's while a won hand is on show (none for more than :data:`SEAT_LIGHTS` players)."""
        return Presentation(
            stage=state.stage.value,
            round=state.hand,
            accepting=state.stage in (Stage.TAKING, Stage.HOLDING),
            lit=_seat_on_show(state) if len(state.players) <= SEAT_LIGHTS else None,
            over=state.over,
        )


def _seat_on_show(state: TensState) -> int | None:
    match state.stage:
        case Stage.ROLLING:
            return state.roller
        case Stage.DEALING:
            return state.first
        case Stage.TAKING | Stage.HOLDING:
            return state.to_move
        case Stage.SHOWING:
            winner = state.results[-1].winner
            return None if winner is None else state.players.index(winner)
        case Stage.OVER:
            return None


TENS: HostedGame[TensState, TensEvent] = Tens()
"""Collecting Tens, hosted beside piecepack Fan Tan through the same interface."""
