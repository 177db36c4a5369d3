"""Which table and which loop a night of each game gets: the one place ``run`` and a new game from the page learn
what is played.

A night's setup (:mod:`.setups`) names its game by its type. A journal that holds a night is resumed as the game it
holds, with the setup it began with, whatever the config now asks for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from ...devices.display.screens import Fault, Screen
from ...devices.pins import ButtonName
from ...rules.dice import DiceInUse
from ...rules.errors import GameError
from ...rules.events import Setup
from ...rules.games import PLAYS, replay
from ...rules.sevens.events import SevensSetup
from ...rules.tens.events import TensSetup
from ...rules.tens.options import TensConfig
from ...vision.profile import Profile
from ..core.hosting import GAMES, HostedTable, night_of, table_row
from ..core.journal import Journal, archive
from ..core.sevens_table import SevensTable
from ..core.table import Table
from ..core.tens_table import TensTable
from .hardware import Devices
from .hosted_runner import HostedRunner, SevensRunner, TensRunner
from .runner import TableRunner
from .setups import FanTanNight, NightSetup


class Runner(Protocol):
    """What the owner runs and shows of any game's loop."""

    devices: Devices
    screen: Screen | None
    device_problem: str | None
    refused: str | None

    def step(self, wait: float = 0.0) -> None: ...
    def show_fault(self, screen: Fault) -> None: ...
    def typed(self, button: ButtonName | None) -> None: ...


def open_table(journal: Journal, new: NightSetup, dice: DiceInUse) -> AnyTable:
    """The night in ``journal`` as the game it holds (whatever the config now asks for), or a new night of ``new``
    when it is empty."""
    return table_for(journal, journal_setup(journal) or new, dice)


def open_night(state_dir: Path, stamp: str) -> tuple[Journal, Path | None]:
    """The journal of the night to play in ``state_dir`` (opened, and so checked whole, once), and where a night of
    any game that was over went: it is moved to ``nights/STAMP`` first and a new journal begins."""
    journal = Journal(state_dir)
    name = night_of(journal)
    if name is None:
        return journal, None
    game = GAMES.get(name)
    if game is None:
        raise GameError(f"the journal holds a night of {name!r}, a game this version does not know")
    events = journal.events()
    if game.present(replay(game, [e for e in events if not table_row(game, e)])).over is None:
        return journal, None
    journal.close()
    moved = archive(state_dir, stamp)
    return Journal(state_dir), moved


def journal_setup(journal: Journal) -> NightSetup | None:
    """The setup the journal's night began with (``None``: an empty journal), read by its own game's codec."""
    events = journal.events()
    if not events:
        return None
    game = GAMES.get(night_of(journal) or "")
    if game is None:
        raise GameError(f"the journal holds a night of {night_of(journal)!r}, a game this version does not know")
    setup = game.decode(events[0].kind, {k: v for k, v in events[0].data.items() if k != PLAYS})
    match setup:
        case Setup(game=fantan, on_unsure=on_unsure):
            return FanTanNight(fantan, on_unsure)
        case SevensSetup():
            return setup
        case TensSetup(config=config):
            return config
    raise GameError("the journal does not start with a game's setup")


AnyTable = HostedTable[Any, Any]


def table_for(journal: Journal, setup: NightSetup, dice: DiceInUse) -> AnyTable:
    """The table of ``setup``'s game over ``journal`` (resumed when it holds that game's night already). ``dice``
    are the table's dice, which a Collecting Tens roll for the first player is read and typed as."""
    match setup:
        case FanTanNight(game=game, on_unsure=on_unsure):
            return Table(journal, game, on_unsure, dice=dice)
        case SevensSetup():
            return SevensTable(journal, setup)
        case TensConfig():
            return TensTable(journal, replace(setup, dice_faces=dice.faces))


@dataclass(frozen=True)
class Loop:
    """How ``run`` runs any game's loop: the devices, the reader's profile, and the house's numbers."""

    devices: Devices
    profile: Profile
    expect: int = 4
    still_frames: int = 3
    auto_next_seconds: float = 0.0
    watch_camera: bool = True

    def runner_for(self, table: AnyTable) -> Runner:
        match table:
            case Table():
                return TableRunner(
                    table,
                    self.devices,
                    self.profile,
                    expect=self.expect,
                    still_frames=self.still_frames,
                    auto_next_seconds=self.auto_next_seconds,
                    watch_camera=self.watch_camera,
                )
            case SevensTable():
                return SevensRunner(table, self.devices)
            case TensTable():
                return TensRunner(
                    table, self.devices, self.profile, still_frames=self.still_frames, watch_camera=self.watch_camera
                )
        raise TypeError(f"no loop for {table!r}")

    @classmethod
    def like(cls, runner: Runner) -> Loop:
        """The loop settings a running loop was made with, for the next night's."""
        match runner:
            case TableRunner():
                return cls(
                    runner.devices,
                    runner.profile,
                    runner.expect,
                    runner.watcher.still_frames,
                    runner.auto_next_seconds,
                    runner.watch_camera,
                )
            case TensRunner():
                return cls(
                    runner.devices,
                    runner.profile,
                    still_frames=runner.watcher.still_frames,
                    watch_camera=runner.watch_camera,
                )
            case HostedRunner():
                return cls(runner.devices, Profile())  # card Fan Tan reads no dice: the built-in profile
        raise TypeError(f"not a loop: {runner!r}")
