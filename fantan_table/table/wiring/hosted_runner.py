"""The loop of a night of card Fan Tan (Sevens) or Collecting Tens: the seat's LED, the display, the buttons, and for
Collecting Tens the camera reading the roll for the first player.

Like Fan Tan's :class:`~.runner.TableRunner`, only the table's owner runs :meth:`HostedRunner.step`. The LEDs show
what every game presents the same way (:meth:`~fantan_table.rules.games.HostedGame.present`: the 'open' light and
the seat whose turn it is); the screens are the game's own (``table/show``). A display that fails is reported and
retried; anything else propagates to the owner, which calls it a fault.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from ...devices.buttons import ButtonEvent
from ...devices.camera import CameraError
from ...devices.display.screens import Fault, Problem, Screen
from ...devices.pins import ButtonName
from ...rules.errors import RulesError
from ...rules.sevens.game import SevensState
from ...rules.sevens.game import Stage as SevensStage
from ...rules.tens.countoff import FIRST_ROLL_DICE
from ...rules.tens.game import Stage as TensStage
from ...rules.tens.game import TensState
from ...vision.profile import Profile
from ...vision.reader import Status, read_dice
from ..core.hosting import HostedTable
from ..core.sevens_table import SevensTable
from ..core.tens_table import TensTable
from ..show.sevens_present import sevens_screens
from ..show.tens_present import reading_screen, tens_screens
from .hardware import Devices
from .runner import CAMERA_RETRY_SECONDS, SCREEN_SECONDS, Showing
from .watcher import CupWatcher

log = logging.getLogger(__name__)


class HostedRunner(Showing, ABC):
    """The LEDs and the display of a hosted table, and its *next round* button (a new hand)."""

    def __init__(self, table: HostedTable[Any, Any], devices: Devices, clock: Callable[[], float] = time.monotonic):
        self.table, self.devices, self._clock = table, devices, clock
        self.device_problem: str | None = None
        self.screen: Screen | None = None
        """What the display shows now (the web page mirrors it)."""
        self._screens: list[Screen] = []
        self._screen_since = clock()
        table.subscribe(self._present)

    # -- the loop ----------------------------------------------------------------------------------------
    def step(self, wait: float = 0.0) -> None:
        """One turn: at most one button event, then the screens' clock."""
        event = self.devices.panel.next_event(timeout=wait)
        if event is not None:
            self._take(event)
        self._rotate_screens(self._clock())

    def on_button(self, event: ButtonEvent) -> None:
        """*next round* moves the night on (a new hand, a deal); the other buttons are Fan Tan's."""
        if event.button is ButtonName.NEXT_ROUND:
            self._act(self.next)

    @abstractmethod
    def next(self) -> None:
        """What *next round* does in this game now (refused by the rules when nothing is to be done)."""

    @abstractmethod
    def screens(self) -> list[Screen]:
        """The game's screens for the state now, shown in turn."""

    # -- showing -----------------------------------------------------------------------------------------
    def _present(self, state: object) -> None:
        shown = self.table.game.present(state)
        panel = self.devices.panel
        panel.show_bets_open(shown.accepting)
        panel.show_open_number(shown.lit)
        self._show(self.screens(), restart=True)

    def show_fault(self, screen: Fault) -> None:
        """The table stopped: FAULT stays up until the process ends."""
        self._show([screen], restart=True)

    def _show(self, screens: list[Screen], restart: bool = False) -> None:
        if screens != self._screens or restart:
            self._screens, self._screen_since = screens, self._clock()
            self._draw(screens[0])

    def _rotate_screens(self, now: float) -> None:
        if len(self._screens) < 2 or now - self._screen_since < SCREEN_SECONDS:
            return
        turns = int((now - self._screen_since) // SCREEN_SECONDS)
        self._draw(self._screens[turns % len(self._screens)])

    def _device_trouble(self, problem: str | None) -> None:
        if problem == self.device_problem:
            return
        self.device_problem = problem
        if problem is not None:
            log.warning("%s", problem)
            device, _, why = problem.partition(": ")
            self._draw(Problem(device.upper(), why))
        else:
            self._show(self.screens(), restart=True)


class SevensRunner(HostedRunner):
    """Card Fan Tan: *next round* has the table choose the dealer or deal (virtual cards), or notes the deal."""

    table: SevensTable

    def __init__(self, table: SevensTable, devices: Devices, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(table, devices, clock)

    def next(self) -> None:
        if self.table.state.stage is SevensStage.DEALER and self.table.virtual:
            self.table.choose_dealer()
        else:
            self.table.deal()

    def screens(self) -> list[Screen]:
        state: SevensState = self.table.state
        return sevens_screens(state)


class TensRunner(HostedRunner):
    """Collecting Tens: the camera reads the roll for the first player as it reads a Fan Tan roll (the same
    reader and profile, the cup watcher's still frames; an unsure reading is kept and rolled again); *read*
    reads the dice lying there at once; *next round* deals, or begins the next hand."""

    table: TensTable

    def __init__(
        self,
        table: TensTable,
        devices: Devices,
        profile: Profile,
        still_frames: int = 3,
        watch_camera: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.profile, self.watch_camera = profile, watch_camera
        self.watcher = CupWatcher(still_frames, FIRST_ROLL_DICE)
        self._camera_wait_until = 0.0
        self._rolling_since: int | None = None
        super().__init__(table, devices, clock)

    def step(self, wait: float = 0.0) -> None:
        event = self.devices.panel.next_event(timeout=wait)
        if event is not None:
            self._take(event)
        if self.watch_camera and self.awaits_dice and self._clock() >= self._camera_wait_until:
            self.look()
        self._rotate_screens(self._clock())

    @property
    def awaits_dice(self) -> bool:
        return self.table.state.stage is TensStage.ROLLING

    def on_button(self, event: ButtonEvent) -> None:
        if event.button is ButtonName.READ and self.awaits_dice:
            self.look(force=True)
        else:
            super().on_button(event)

    def next(self) -> None:
        if self.table.state.stage is TensStage.DEALING:
            self.table.deal()
        else:
            self.table.next_hand()

    def look(self, force: bool = False) -> None:
        """Read one frame; keep the reading once the dice have lain still (or at once when forced by *read*)."""
        try:
            frame = self.devices.camera.capture()
        except CameraError as exc:
            self._camera_wait_until = self._clock() + CAMERA_RETRY_SECONDS
            self._device_trouble(f"camera: {exc}")
            return
        reading = read_dice(frame, self.profile, FIRST_ROLL_DICE)
        if reading.status is Status.ERROR and not force:
            self._device_trouble(f"reader: {reading.message}")
            return
        if self.device_problem and self.device_problem.startswith(("camera", "reader")):
            self._device_trouble(None)
        decided = reading if force else self.watcher.feed(reading)
        if decided is None:
            if self.watcher.armed and len(reading.dice) == FIRST_ROLL_DICE:
                self._show([reading_screen(self.table.state)])
            return
        self.watcher.disarm()
        try:
            self.table.record_reading(decided, frame)
        except RulesError as exc:  # kept, but no roll (four blanks count off nobody): the display asks again
            self._show([Problem("RE-ROLL", str(exc))])

    def _present(self, state: object) -> None:
        rolling = isinstance(state, TensState) and state.stage is TensStage.ROLLING
        if rolling and isinstance(state, TensState) and self._rolling_since != state.hand:
            self._rolling_since = state.hand  # a new roll: dice lying there are no roll until the cup comes off
            self.watcher.disarm()
        super()._present(state)

    def screens(self) -> list[Screen]:
        state: TensState = self.table.state
        latest = self.table.latest_reading
        if state.stage is TensStage.ROLLING and latest is not None and not latest.ok:
            return [Problem("RE-ROLL", f"{state.players[state.roller]}: {latest.message}")]
        return tens_screens(state)
