"""The table's loop: buttons to actions, camera frames to readings, the state to the LEDs and display.

Only the table's owner (:mod:`.owner`) runs :meth:`TableRunner.step`, between the commands others
submit; gpiozero's threads only fill the panel's queue. A camera or display that reports it
failed (CameraError, DisplayError) is shown on the other one (and the web page) and retried; it
never stops the table. Anything else that goes wrong propagates to the owner, which calls it a fault.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import replace

from ...devices.buttons import ButtonEvent, Press
from ...devices.camera import CameraError
from ...devices.display import DisplayError
from ...devices.display.screens import Fault, Problem, Reading, Result, Screen
from ...devices.pins import ButtonName
from ...rules.dice import DiceInUse
from ...rules.errors import RulesError
from ...rules.odds import D6_FACES, PIECEPACK_FACES
from ...vision.profile import Profile
from ...vision.reader import Reading as DiceReading
from ...vision.reader import Status, read_dice
from ..core.state import Stage, TableState
from ..core.table import Table
from ..show.present import lights_for, result_screens, screens_for
from .hardware import Devices
from .watcher import CupWatcher

log = logging.getLogger(__name__)


SCREEN_SECONDS = 3.0
"""How long each of several screens (a result, then each page of payouts) stays up."""
CAMERA_RETRY_SECONDS = 1.0


def dice_in_use(profile: Profile, expect: int) -> DiceInUse:
    """The dice the reader reads (``expect`` of them): piecepack dice when the profile learned their faces
    (blank, ace, 2-5), else pipped dice, with a blank face when the profile says they have one."""
    if profile.faces is not None:
        return DiceInUse(PIECEPACK_FACES, expect)
    return DiceInUse(((0,) if profile.blank_face else ()) + D6_FACES, expect)


class Showing(ABC):
    """A runner's display and buttons, alike for every game: the screen shown now (the page mirrors it), the
    trouble met showing it, and a button's action done without a stray press becoming a fault."""

    devices: Devices
    screen: Screen | None
    device_problem: str | None
    refused: str | None = None
    """What the rules last refused of a button's action (or the loop's), until someone clears it: the console, having
    pressed a button, says it as it says any refusal."""
    _typed: ButtonName | None = None
    """The button the console pressed, whose event the loop has yet to take."""
    _quiet = False
    """Whether the event being handled is the console's press (its refusal goes unlogged)."""

    def _draw(self, screen: Screen) -> None:
        self.screen = screen
        try:
            self.devices.display.show(screen)
        except DisplayError as exc:
            self.device_problem = f"display: {exc}"
            log.warning("%s", self.device_problem)

    def typed(self, button: ButtonName | None) -> None:
        """The console is about to press ``button`` (None: it is done waiting): it says a refusal of that press's
        action itself, so the loop keeps it in ``refused`` and logs none. Other presses and the loop's own actions
        are logged as ever."""
        self.refused = None
        self._typed = button

    def _take(self, event: ButtonEvent) -> None:
        """Handle a button's event, quietly when it is the press the console typed (``typed``)."""
        self._quiet = event.button is self._typed
        if self._quiet:
            self._typed = None
        try:
            self.on_button(event)
        finally:
            self._quiet = False

    @abstractmethod
    def on_button(self, event: ButtonEvent) -> None:
        """What a button's event does in this game now."""

    def _act(self, action: Callable[[], None]) -> None:
        """Do a button's action; one the rules refuse now is logged and kept in ``refused``, not fatal (a stray press
        is normal).

        Anything else propagates: the owner makes it a fault rather than a silently stuck table.
        """
        try:
            action()
        except RulesError as exc:
            self.refused = str(exc)
            if not self._quiet:
                log.info("button ignored: %s", exc)


class TableRunner(Showing):
    def __init__(
        self,
        table: Table,
        devices: Devices,
        profile: Profile,
        expect: int = 4,
        still_frames: int = 3,
        auto_next_seconds: float = 0.0,
        watch_camera: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``watch_camera=False`` leaves the dice to be entered by hand (a night without a camera)."""
        self.table, self.devices, self.profile, self.expect = table, devices, profile, expect
        self.watch_camera = watch_camera
        self.auto_next_seconds = auto_next_seconds
        self._clock = clock
        self.watcher = CupWatcher(still_frames, expect)
        self.device_problem: str | None = None
        self._screens: list[Screen] = []
        self._screen_since = clock()
        self._stage_since = clock()
        self._stage: Stage | None = None
        self._camera_wait_until = 0.0
        self._override: list[Screen] | None = None
        self._partial, self._partial_seen = 0, 0
        """Frames in a row showing the same number of dice, fewer than expected (a die off the table?)."""
        self.screen: Screen | None = None
        """What the display shows now (the web page mirrors it)."""
        table.subscribe(self._present)

    def attach(self, table: Table) -> None:
        """Run another table from now on (a new game begun from the banker's page)."""
        self.table = table
        self._stage = None
        self.watcher.disarm()
        table.subscribe(self._present)

    # -- the loop ----------------------------------------------------------------------------------------
    def step(self, wait: float = 0.0) -> None:
        """One turn: at most one button event, one camera frame when the dice are awaited, and the clocks."""
        event = self.devices.panel.next_event(timeout=wait)
        if event is not None:
            self._take(event)
        stage = self.table.state.stage
        if self.watch_camera and self.table.state.awaits_dice and self._clock() >= self._camera_wait_until:
            self.look()
        now = self._clock()
        if stage is Stage.SHOWING and self.auto_next_seconds and now - self._stage_since >= self.auto_next_seconds:
            self._act(self.table.next_round)
        self._rotate_screens(now)

    def on_button(self, event: ButtonEvent) -> None:
        table, stage = self.table, self.table.state.stage
        match event.button, event.press:
            case ButtonName.RAID, _:
                self._act(table.resume if stage is Stage.RAIDED else table.raid)
            case ButtonName.NO_MORE_BETS, _:
                self._act(table.close_bets)
            case ButtonName.READ, _ if stage is Stage.CHECK:
                self._act(table.reroll)
                self.watcher.disarm()
            case ButtonName.READ, _:
                self.look(force=True)
            case ButtonName.CONFIRM, _:
                self._act(table.confirm)
            case ButtonName.NEXT_ROUND, Press.LONG:
                self._recall()
            case ButtonName.NEXT_ROUND, _:
                self._act(table.next_round)

    def look(self, force: bool = False) -> None:
        """Read one frame; record it when the dice have lain still (or at once when forced by *read*)."""
        try:
            frame = self.devices.camera.capture()
        except CameraError as exc:
            self._camera_wait_until = self._clock() + CAMERA_RETRY_SECONDS
            self._device_trouble(f"camera: {exc}")
            return
        reading = read_dice(frame, self.profile, self.expect)
        if reading.status is Status.ERROR:  # not the cup: no picture the reader can read (or the reader failed)
            self._device_trouble(f"reader: {reading.message}")
            if not force:  # the banker's *read* still records it, as an unreadable roll
                return
        elif self.device_problem and self.device_problem.startswith(("camera", "reader")):
            self._device_trouble(None)
        decided = reading if force else self.watcher.feed(reading)
        if decided is None:
            if self._override is None:
                self._show(self._waiting(reading))
            return
        self.watcher.disarm()
        if self.table.state.stage is Stage.CHECK:  # a new roll after the unshaken warning replaces the old one
            self._act(self.table.reroll)
        self._act(lambda: self.table.record_reading(decided, frame))

    def _waiting(self, reading: DiceReading) -> list[Screen]:
        """What the display says while the table waits for the dice: what it waits for, and what to do."""
        state, seen = self.table.state, len(reading.dice)
        self._partial = self._partial + 1 if 0 < seen < self.expect and seen == self._partial_seen else 0
        self._partial_seen = seen
        if self.watcher.armed and seen == self.expect:
            return [Reading(state.round)]  # the cup is off and the dice are settling
        if state.stage is Stage.CLOSED and state.latest is None:
            if not self.watcher.armed and seen == self.expect:
                return [Problem("CUP?", "dice lie here since no more bets: cover them with the cup, or READ them")]
            if self.watcher.armed and self._partial >= self.watcher.still_frames:
                return [Problem("DICE?", f"{seen} of {self.expect} dice seen: check them, then press READ")]
        return screens_for(state)

    # -- showing -----------------------------------------------------------------------------------------
    def _present(self, state: TableState) -> None:
        if state.stage is not self._stage:
            resumed = self._stage is None
            self._stage, self._stage_since = state.stage, self._clock()
            if state.stage is Stage.CLOSED and resumed:
                self.watcher.arm()  # a restart with betting closed: the cup may have come off before it
            elif state.stage in (Stage.CLOSED, Stage.CHOOSING):
                self.watcher.disarm()  # dice lying there are no roll: the cup must come down (or the banker READs)
        lights = lights_for(state)
        panel = self.devices.panel
        if state.stage is Stage.RAIDED:
            panel.all_off()
        else:
            panel.show_bets_open(lights.bets_open)
            panel.show_open_number(lights.open_number)
        self._override = None
        self._show(screens_for(state), restart=True)

    def show_fault(self, screen: Fault) -> None:
        """The table stopped: FAULT stays up until the process ends."""
        self._override = None
        self._show([screen], restart=True)

    def _show(self, screens: list[Screen], restart: bool = False) -> None:
        if screens != self._screens or restart:
            self._screens, self._screen_since = screens, self._clock()
            self._draw(screens[0])

    def _rotate_screens(self, now: float) -> None:
        screens = self._override or self._screens
        if len(screens) < 2 or now - self._screen_since < SCREEN_SECONDS:
            return
        turns = int((now - self._screen_since) // SCREEN_SECONDS)
        if self._override is not None and turns >= len(self._override):
            self._override = None  # the recall is over: back to the table's own screens
            self._show(screens_for(self.table.state), restart=True)
            return
        self._draw(screens[turns % len(screens)])

    def _recall(self) -> None:
        """Hold *next round*: the last rounds' results, one after another, then back."""
        rounds = self.table.state.recall()
        if not rounds:
            return
        self._override = [_recalled(result_screens(r)[0]) for r in reversed(rounds)]
        self._screen_since = self._clock()
        self._draw(self._override[0])

    def _device_trouble(self, problem: str | None) -> None:
        if problem == self.device_problem:
            return
        self.device_problem = problem
        if problem is not None:
            log.warning("%s", problem)
            device, _, why = problem.partition(": ")
            if self.table.state.stage is not Stage.RAIDED:
                self._draw(Problem(device.upper(), why))
        else:
            self._show(screens_for(self.table.state), restart=True)


def _recalled(screen: Screen) -> Screen:
    """A past round's first screen, marked as past (a result; a void round's screen says VOID already)."""
    return replace(screen, recalled=True) if isinstance(screen, Result) else screen
