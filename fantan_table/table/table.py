"""The banker: every action checked against the rules, journaled, and only then shown.

An event is applied to the state all or nothing (a refused action changes nothing and writes
nothing), then written to the journal (should that fail, the state is rebuilt from the journal),
and only then passed to whoever shows it (the panel's LEDs, the display, the web page). A
settlement follows an ok reading at once; a reading that is not ok waits for a re-roll, or voids
the round, as the house rule says.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..rules.bets import parse_bet
from ..rules.errors import RulesError
from ..rules.game import GameConfig
from ..vision.reader import Reading
from .codec import game_to_json
from .journal import Event, Journal, JournalError
from .state import OnUnsure, Stage, TableState

Listener = Callable[[TableState], None]
JPEG_QUALITY = 90


class TableError(RulesError):
    """An action the table refuses; the message says why and what to do instead."""


class Table:
    def __init__(
        self,
        journal: Journal,
        setup: GameConfig,
        on_unsure: OnUnsure = "reroll",
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """Resume the night in ``journal``, or start one with ``setup`` when the journal is empty."""
        self.journal, self._clock = journal, clock
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.version = 0
        """Counts the events applied since the table opened: a cheap way to notice a change."""
        events = journal.events()
        if events:
            self.state = TableState.replay(events)
            self.resumed = True
        else:
            first = journal.append(Event("setup", 1, {"game": game_to_json(setup), "on_unsure": on_unsure}, clock()))
            self.state = TableState.setup(first)
            self.resumed = False
        self._advance()

    # -- watching ------------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with the state after every change (and once now)."""
        with self._lock:
            self._listeners.append(listener)
            listener(self.state)

    def snapshot(self) -> TableState:
        with self._lock:
            return copy.deepcopy(self.state)

    # -- the actions -----------------------------------------------------------------------------------
    def place(self, player: str, bet: str, coins: int = 1) -> None:
        self._do("bet", {"player": player, "bet": str(parse_bet(bet)), "coins": coins})

    def remove(self, player: str, bet: str, coins: int = 1) -> None:
        self._do("unbet", {"player": player, "bet": str(parse_bet(bet)), "coins": coins})

    def close_bets(self) -> None:
        self._do("closed", {})

    def record_reading(self, reading: Reading, frame: np.ndarray | None = None) -> None:
        """What the camera saw when it decided (its frame kept as JPEG, hashed, before the event)."""
        with self._lock:
            if self.state.stage is not Stage.CLOSED:
                raise TableError(f"no reading is awaited now (the table is {self.state.stage.value})")
            frame_ref = None
            if frame is not None:
                ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
                if ok:
                    name = f"round-{self.state.round:04d}-roll-{self.state.attempts + 1}.jpg"
                    saved = self.journal.save_frame(name, jpeg.tobytes())
                    frame_ref = {"file": saved.file, "sha256": saved.sha256}
            dice = [
                {
                    "value": d.value,
                    "center": [round(d.center[0], 1), round(d.center[1], 1)],
                    "side": round(max(d.box[1]), 1),
                }
                for d in reading.dice
            ]
            self._do(
                "reading",
                {
                    "source": "camera",
                    "status": reading.status.value,
                    "dice": dice,
                    "message": reading.message,
                    "frame": frame_ref,
                },
            )

    def enter_dice(self, values: Sequence[int], by: str = "banker") -> None:
        """The banker's own count of the dice, used instead of the camera's: journaled as an override."""
        dice = [{"value": v, "center": [0.0, 0.0], "side": 0.0} for v in values]
        self._do(
            "reading", {"source": "hand", "status": "ok", "dice": dice, "message": f"entered by {by}", "frame": None}
        )

    def confirm(self) -> None:
        """The dice were shaken after all: settle the reading that looked like last round's."""
        self._do("confirmed", {})

    def reroll(self) -> None:
        self._do("reroll", {})

    def void(self, reason: str = "voided by the banker") -> None:
        self._do("voided", {"reason": reason})

    def next_round(self) -> None:
        self._do("next", {})

    def end_game(self) -> None:
        """The banker ends the game between rounds; the final scoring table stays on show."""
        self._do("ended", {})

    def raid(self) -> None:
        self._do("raid", {})

    def resume(self) -> None:
        self._do("resumed", {})

    # -- internals -------------------------------------------------------------------------------------
    def _do(self, kind: str, data: dict[str, Any]) -> None:
        with self._lock:
            event = Event(kind, self.state.round, data, self._clock())
            self.state.apply(event)  # all or nothing: a refused event raises before it changes anything
            try:
                self.journal.append(event)
            except JournalError:
                self.state = TableState.replay(self.journal.events())  # back to what is on disk
                raise
            self.version += 1
            self._advance()

    def _advance(self) -> None:
        """Do what follows by itself: settle an ok reading, void an unreadable roll, show a result once."""
        state = self.state
        if state.ready_to_settle:
            assert state.latest is not None
            self._do("settled", {"open": sum(state.latest.values) % 4, "dice": list(state.latest.values)})
            return
        if state.ready_to_void:
            assert state.latest is not None
            self._do("voided", {"reason": f"the dice could not be read: {state.latest.message}"})
            return
        for listener in self._listeners:
            listener(state)
        if state.stage is Stage.SHOWING and not state.shown:
            self._do("shown", {})


def open_table(state_dir: Path, setup: GameConfig, on_unsure: OnUnsure = "reroll") -> Table:
    return Table(Journal(state_dir), setup, on_unsure)
