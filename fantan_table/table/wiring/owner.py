"""The table's one owner: a single thread that alone touches the table, its journal and the devices' outputs.

Buttons, camera frames, the web page and the console never call the table themselves: they submit
a command (a function of the :class:`Night`) and wait for its answer. Between commands the owner
runs the loop (a button event, a camera frame, the clocks), so a new game can never land between a
frame and its reading. After every change it publishes a :class:`View`, an immutable copy that
anyone may read from any thread, and tells the watchers (the page's live stream) that it changed.

Supervised, fails loud: anything unexpected in a command or in the loop (a full disk, no file
handles left, a reader or camera that raises) or in a device's thread is a FAULT. Betting locks at
once, the lights go out, the display shows FAULT and why, the page shows a banner, a fault event is
journaled when the journal still can, and :attr:`Owner.faulted` is set so that ``run`` ends the
process with a non-zero status; the service then restarts it and the night resumes from its
journal. What the rules refuse (a late bet, a stray button press) is not a fault: its caller hears why.
"""

from __future__ import annotations

import copy
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ...devices.display.screens import Fault, Screen
from ...errors import FantanError
from ...rules.errors import RulesError
from ...rules.events import ReadingRecord
from ..core.state import TableState
from ..core.tens_table import TensTable
from .night import Night

log = logging.getLogger(__name__)

T = TypeVar("T")

TICK_SECONDS = 0.05
"""How long the owner waits for a command before a turn of the loop: a button is answered within it."""
COMMANDS_PER_TURN = 20
"""Commands taken between two turns of the loop: a burst of bets waits for no camera frame, yet frames go on."""
COMMAND_TIMEOUT_SECONDS = 10.0
"""A command unanswered this long means the owner is stuck (a reading takes well under a second)."""
FAULT_EXIT_SECONDS = 5.0
"""After a fault, how long the FAULT screen and banner stay up before the process ends to be restarted."""
FAULT_EXIT_STATUS = 3
STUCK_SECONDS = 30.0
"""No turn finished for this long means the owner hangs (a device call that never returns): a fault too."""
"""``run``'s exit status after a fault: not 0, so systemd's Restart=on-failure starts the table again."""


class OwnerError(FantanError, RuntimeError):
    """The table could not take a command: it has a fault (and restarts by itself) or did not answer in time."""


@dataclass(frozen=True)
class View:
    """The table as anyone may read it, from any thread: a copy the owner made after a change, never changed."""

    version: int
    """Counts the views published: a cheap way to notice a change (a new game never repeats a number)."""
    state: Any
    """The game's state: Fan Tan's ``TableState``, ``SevensState`` or ``TensState`` (see :attr:`plays`)."""
    screen: Screen | None
    device_problem: str | None
    fault: str | None
    """Why the table stopped, when it did: every page shows it as a banner."""
    plays: str = "fantan"
    """The game of the night (``hosting.GAMES``' names)."""
    players: tuple[str, ...] = ()
    links: dict[str, str] | None = None
    """Each linked player's token's SHA-256 (a copy)."""
    roll: ReadingRecord | None = None
    """Collecting Tens: the last reading of this hand's roll for the first player (the page draws its photo)."""
    entered: tuple[object, ...] = ()
    """Collecting Tens with real tiles: the tiles of the hand being declared, entered so far (not journaled)."""


@dataclass
class _Command(Generic[T]):
    action: Callable[[Night], T]
    future: Future[T]
    after_turn: bool = False
    """Answer once the turn's loop has run and its view is out, not straight after the action: what the action
    set off (a simulated button's event, taken by the loop) is then in the view its caller reads."""


class Owner:
    def __init__(self, night: Night) -> None:
        self.night = night
        self._commands: queue.Queue[_Command[object]] = queue.Queue()
        self._watchers: list[Callable[[View], None]] = []
        self._watch_lock = threading.Lock()
        self._reported: str | None = None
        self.fault: str | None = None
        self.faulted = threading.Event()
        """Set once a fault has been shown and journaled: ``run`` ends the process soon after."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._seen: tuple[object, ...] = ()
        self._answers_after_turn: list[tuple[Future[object], object]] = []
        self._version = 0
        self._heartbeat = time.monotonic()
        self.view = self._make_view()

    # -- for everyone else -------------------------------------------------------------------------------------
    def submit(self, action: Callable[[Night], T], after_turn: bool = False) -> Future[T]:
        """Queue ``action`` for the owner; the future holds its result, or the rules' refusal, or an OwnerError.

        With ``after_turn`` the result comes once the loop's turn after the action has run and been published."""
        future: Future[T] = Future()
        if self.fault is not None:
            future.set_exception(self._refusal())
        elif self.stopping:
            future.set_exception(OwnerError("the table is stopping: try again once it is back"))
        else:
            self._commands.put(_Command(action, future, after_turn))  # type: ignore[arg-type]
        return future

    def call(self, action: Callable[[Night], T], timeout: float = COMMAND_TIMEOUT_SECONDS) -> T:
        """Submit ``action`` and wait for its answer (from any thread but the owner's)."""
        future = self.submit(action)
        try:
            return future.result(timeout)
        except FutureTimeout:
            future.cancel()
            raise OwnerError(f"the table did not answer within {timeout:g} s: try again in a moment") from None

    def watch(self, watcher: Callable[[View], None]) -> Callable[[], None]:
        """Call ``watcher`` (on the owner's thread, so keep it short) with each new view; returns how to stop."""
        with self._watch_lock:
            self._watchers.append(watcher)

        def unwatch() -> None:
            with self._watch_lock:
                self._watchers.remove(watcher)

        return unwatch

    def report(self, where: str, exc: BaseException) -> None:
        """A device's own thread failed: the owner turns it into a fault on its next turn (any thread may call)."""
        self._reported = f"{where}: {type(exc).__name__}: {exc}"
        log.error("fault in %s", where, exc_info=(type(exc), exc, exc.__traceback__))

    def check_alive(self) -> bool:
        """From a watchdog's thread: False, and a fault, once the owner has not finished a turn for STUCK_SECONDS.

        A hung owner cannot show its own FAULT screen; commands are refused with the reason and ``run`` exits.
        """
        hung = time.monotonic() - self._heartbeat
        if hung <= STUCK_SECONDS:
            return True
        if self.fault is None:
            self.fault = f"the table's loop hangs: no turn finished for {hung:.0f} s"
            log.error("%s", self.fault)
            self.faulted.set()
        return False

    # -- the thread ----------------------------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="table-owner", daemon=True)
        self._thread.start()

    @property
    def stopping(self) -> bool:
        """The table is shutting down: no more commands, and the page's live streams end."""
        return self._stop.is_set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                self.turn(TICK_SECONDS)
            except Exception as exc:  # noqa: BLE001 - the supervisor of last resort: the thread never dies quietly
                log.exception("the table's owner failed")
                if self.fault is None:
                    self._fail(f"{type(exc).__name__}: {exc}")

    def turn(self, wait: float = 0.0) -> None:
        """The commands that come within ``wait`` (a few at most), then one turn of the loop, then a view if changed."""
        for taken in range(COMMANDS_PER_TURN):
            try:
                command = self._commands.get(timeout=wait) if wait and not taken else self._commands.get_nowait()
            except queue.Empty:
                break
            self._execute(command)
        if self._reported is not None and self.fault is None:
            self._fail(self._reported)
        runner = self.night.runner
        if runner is not None and self.fault is None:
            try:
                runner.step()
            except Exception as exc:  # noqa: BLE001 - the supervisor: anything unexpected is a fault
                log.exception("the table's loop failed")
                self._fail(f"{type(exc).__name__}: {exc}")
        self._publish()
        self._heartbeat = time.monotonic()
        answers, self._answers_after_turn = self._answers_after_turn, []
        for future, result in answers:
            future.set_result(result)

    def _execute(self, command: _Command[object]) -> None:
        if not command.future.set_running_or_notify_cancel():
            return  # its caller gave up waiting
        if self.fault is not None:
            command.future.set_exception(self._refusal())
            return
        try:
            result = command.action(self.night)
        except RulesError as exc:  # the rules refuse it now: the caller hears why, the table goes on
            command.future.set_exception(exc)
            return
        except Exception as exc:  # noqa: BLE001 - the supervisor: anything unexpected is a fault
            log.exception("a command to the table failed")
            self._fail(f"{type(exc).__name__}: {exc}")
            command.future.set_exception(self._refusal())
            return
        self._publish()  # whoever waits reads the view of what they did
        if command.after_turn:
            self._answers_after_turn.append((command.future, result))
        else:
            command.future.set_result(result)

    # -- a fault -------------------------------------------------------------------------------------------------
    def _fail(self, reason: str) -> None:
        """Lock betting, show FAULT, journal it; each step on its own, since any device may be what failed."""
        self.fault = reason
        night = self.night
        runner = night.runner
        if runner is not None:
            self._try("switch the lights off", runner.devices.panel.all_off)
            self._try("show FAULT", lambda: runner.show_fault(Fault(reason)))
        table = night.table
        self._try("journal the fault", lambda: table.record_fault(reason))
        while True:  # whoever waits hears of the fault now rather than at their timeout
            try:
                pending = self._commands.get_nowait()
            except queue.Empty:
                break
            if pending.future.set_running_or_notify_cancel():
                pending.future.set_exception(self._refusal())
        self.faulted.set()

    @staticmethod
    def _try(what: str, step: Callable[[], object]) -> None:
        try:
            step()
        except Exception:  # noqa: BLE001 - best effort: the fault itself is already recorded
            log.exception("after the fault, could not %s", what)

    def _refusal(self) -> OwnerError:
        return OwnerError(f"the table has a fault ({self.fault}); it restarts by itself and resumes the night")

    # -- views ---------------------------------------------------------------------------------------------------
    def _publish(self) -> None:
        seen = self._fingerprint()
        if seen == self._seen:
            return
        self.view = self._make_view()
        with self._watch_lock:
            watchers = list(self._watchers)
        for watcher in watchers:
            watcher(self.view)

    def _fingerprint(self) -> tuple[object, ...]:
        table, runner = self.night.table, self.night.runner
        screen = runner.screen if runner is not None else None
        problem = runner.device_problem if runner is not None else None
        return (self.night.games, table.version, screen, problem, self.fault, _entered(table))

    def _make_view(self) -> View:
        self._seen = self._fingerprint()
        self._version += 1
        runner, table = self.night.runner, self.night.table
        return View(
            self._version,
            _private_copy(table.state),
            runner.screen if runner is not None else None,
            runner.device_problem if runner is not None else None,
            self.fault,
            table.game.name,
            table.players,
            table.links,
            table.latest_reading if isinstance(table, TensTable) else None,
            _entered(table),
        )


def _entered(table: object) -> tuple[object, ...]:
    return table.entered_so_far if isinstance(table, TensTable) else ()


def _private_copy(state: Any) -> Any:
    """A copy no later change reaches. Card Fan Tan's and Collecting Tens' states are frozen values: shared. Fan
    Tan's finished rounds are frozen records: shared, not copied, so that a view of a long night costs well under
    a millisecond rather than tens (146 rounds: 0.4 ms against 27 ms)."""
    if not isinstance(state, TableState):
        return state
    finished: dict[int, object] = {id(r): r for r in (*state.rounds, *state.game.reports)}
    return copy.deepcopy(state, finished)
