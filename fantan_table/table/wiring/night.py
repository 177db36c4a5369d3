"""The night the table is running: its journal, its table and, when devices are attached, its loop.

A night is of one game (piecepack Fan Tan, card Fan Tan, Collecting Tens: :mod:`.hosts`). A new game begun from
the banker's page, of the same game or another, puts the finished (or abandoned) night into ``nights/`` and starts
a fresh journal, and the loop carries on with the new table (a loop of the new game's own when the game changes).
Only the table's owner (:mod:`.owner`) calls it, between two turns of the loop, so no frame of the old game is
ever read into the new one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...rules.dice import ANY_DICE, DiceInUse
from ...rules.errors import GameError
from ...rules.game import GameConfig
from ...rules.sevens.game import SevensState
from ...rules.sevens.game import Stage as SevensStage
from ...rules.tens.game import Stage as TensStage
from ...rules.tens.game import TensState
from ..core.journal import Journal, archive
from ..core.sevens_table import SevensTable
from ..core.state import OnUnsure, Stage, TableState
from ..core.table import Table
from ..core.tens_table import TensTable
from .hardware import Devices
from .hosts import AnyTable, Loop, Runner, table_for
from .runner import TableRunner
from .setups import FanTanNight, NightSetup


class Night:
    def __init__(self, state_dir: Path, table: AnyTable, runner: Runner | None = None, loop: Loop | None = None):
        self.state_dir, self.table, self.runner = state_dir, table, runner
        self.loop = loop if loop is not None or runner is None else Loop.like(runner)
        self.dice: DiceInUse = table.dice if isinstance(table, Table | TensTable) else ANY_DICE
        """The table's dice: what a Fan Tan roll and a Collecting Tens roll for the first player are read as."""
        self.games = 1
        """Counts the games begun in this process: a view of one game is never mistaken for another's."""

    @property
    def devices(self) -> Devices | None:
        return self.runner.devices if self.runner is not None else None

    @property
    def plays(self) -> str:
        return self.table.game.name

    @property
    def fantan(self) -> Table:
        """The night's table, when piecepack Fan Tan is played: bets, dice and seats are its own."""
        if not isinstance(self.table, Table):
            raise GameError(f"tonight the table plays {self.plays}: that is piecepack Fan Tan's (bets, dice, seats)")
        return self.table

    @property
    def sevens(self) -> SevensTable:
        if not isinstance(self.table, SevensTable):
            raise GameError(f"tonight the table plays {self.plays}: cards are card Fan Tan's (sevens)")
        return self.table

    @property
    def tens(self) -> TensTable:
        if not isinstance(self.table, TensTable):
            raise GameError(f"tonight the table plays {self.plays}: dominoes are Collecting Tens' (tens)")
        return self.table

    def new_game(self, game: GameConfig, on_unsure: OnUnsure, abandon: bool = False) -> Path:
        """Begin a night of piecepack Fan Tan (see :meth:`begin`)."""
        return self.begin(FanTanNight(game, on_unsure), abandon)

    def begin(self, setup: NightSetup, abandon: bool = False) -> Path:
        """Begin a night of ``setup``'s game; the night so far is kept in ``nights/``. Refused mid-game unless
        ``abandon``."""
        if under_way(self.table.state) and not abandon:
            raise GameError(
                f"a game is under way ({self.table.game.present(self.table.state).stage}); end it first, "
                "or ask to abandon it"
            )
        self.table.journal.close()
        kept = archive(self.state_dir, datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f"))
        old = self.table
        self.table = table_for(Journal(self.state_dir), setup, self.dice)
        self.games += 1
        if isinstance(self.runner, TableRunner) and isinstance(self.table, Table) and isinstance(old, Table):
            self.runner.attach(self.table)
        elif self.runner is not None and self.loop is not None:
            self.runner = self.loop.runner_for(self.table)
        return kept


def under_way(state: Any) -> bool:
    """Whether a game has begun and is not over: a new one then waits for the banker to end it or abandon it."""
    match state:
        case TableState():
            return state.stage is not Stage.OVER and bool(state.rounds)
        case SevensState():
            return state.stage not in (SevensStage.DEALER, SevensStage.OVER)
        case TensState():
            return state.stage is not TensStage.OVER and (state.stage is not TensStage.ROLLING or state.hand > 1)
    raise TypeError(f"not a night's state: {state!r}")
