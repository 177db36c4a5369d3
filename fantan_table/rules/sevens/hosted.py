"""Card Fan Tan (Sevens) as a game the table hosts (:class:`~fantan_table.rules.games.HostedGame`).

The journal, the replay after a power cut and the table's loop reach the game only through :data:`SEVENS`;
the rules themselves are in ``game.py`` and the modules it uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from ..errors import GameError
from ..games import HostedGame, Presentation
from . import events
from .events import ResultShown, SevensEvent, SevensSetup, WentOut
from .game import SevensState, Stage, apply, start
from .options import CardMode

MOST_LIT: Final = 4
"""The table has four LEDs, one per seat: with more players the display names whose turn it is instead."""


class Sevens:
    """The adapter: time plays no part in the rules, so ``at`` is not used."""

    name = "sevens"

    def start(self, setup: SevensEvent) -> SevensState:
        if not isinstance(setup, SevensSetup):
            raise GameError("the journal does not start with a game's setup")
        return start(setup)

    def apply(self, state: SevensState, event: SevensEvent, at: datetime) -> SevensState:
        return apply(state, event)

    def round_of(self, state: SevensState) -> int:
        return state.round

    def follow_up(self, state: SevensState) -> SevensEvent | None:
        """With virtual cards the table knows the cards left: a hand over is settled at once (also after a restart).
        With real cards the count is entered, after any revoke claim."""
        if state.stage is Stage.OUT and state.setup.mode is CardMode.VIRTUAL and state.hand is not None:
            return WentOut(state.hand.counts)
        return None

    def seen(self, state: SevensState) -> SevensEvent | None:
        return None if state.shown else ResultShown()

    def encode(self, event: SevensEvent) -> tuple[str, dict[str, Any]]:
        return events.encode(event)

    def decode(self, kind: str, data: Mapping[str, Any]) -> SevensEvent:
        return events.decode(kind, data)

    def present(self, state: SevensState) -> Presentation:
        """While a hand is played, the seat whose turn it is is lit (up to four players)."""
        playing = state.stage is Stage.PLAY and state.hand is not None and state.seats <= MOST_LIT
        return Presentation(
            stage=state.stage.value,
            round=state.round,
            accepting=state.stage is Stage.PLAY,
            lit=state.hand.turn if playing and state.hand is not None else None,
            over=state.end.value if state.end else None,
        )


SEVENS: HostedGame[SevensState, SevensEvent] = Sevens()
"""Card Fan Tan as the table hosts it."""
