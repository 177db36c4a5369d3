"""The night the table is running: its journal, its table and, when devices are attached, its runner.

A new game begun from the banker's page puts the finished (or abandoned) night into
``nights/`` and starts a fresh journal, and the runner carries on with the new table. Only the
table's owner (:mod:`.owner`) calls it, between two turns of the loop, so no frame of the old game
is ever read into the new one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from ...rules.errors import GameError
from ...rules.game import GameConfig
from ..core.journal import Journal, archive
from ..core.state import OnUnsure, Stage
from ..core.table import Table
from .hardware import Devices
from .runner import TableRunner


class Night:
    def __init__(self, state_dir: Path, table: Table, runner: TableRunner | None = None) -> None:
        self.state_dir, self.table, self.runner = state_dir, table, runner
        self.games = 1
        """Counts the games begun in this process: a view of one game is never mistaken for another's."""

    @property
    def devices(self) -> Devices | None:
        return self.runner.devices if self.runner is not None else None

    def new_game(self, game: GameConfig, on_unsure: OnUnsure, abandon: bool = False) -> Path:
        """Begin ``game``; the night so far is kept in ``nights/``. Refused mid-game unless ``abandon``."""
        state = self.table.state
        if state.stage is not Stage.OVER and state.rounds and not abandon:
            raise GameError(f"a game is under way (round {state.round}); end it first, or ask to abandon it")
        self.table.journal.close()
        kept = archive(self.state_dir, datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f"))
        self.table = Table(Journal(self.state_dir), game, on_unsure, dice=self.table.dice)
        self.games += 1
        if self.runner is not None:
            self.runner.attach(self.table)
        return kept
