"""The running table: how long the journal takes to make an event durable, and how fast whole nights go
(bots betting, mock buttons, the journal, the display; with the dice read from the simulated camera or
entered by hand)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from common import Row

from fantan_table.table.core.journal import Event, Journal
from fantan_table.table.wiring.demo import Demo

EVENTS = 500


def _journal_ms() -> float:
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal(Path(folder))
        start = time.perf_counter()
        for i in range(EVENTS):
            journal.append(Event("bet", 1, {"player": "North", "bet": "number:1", "coins": 1, "i": i}))
        elapsed = time.perf_counter() - start
        journal.close()
    return elapsed / EVENTS * 1e3


def _night_seconds(rounds: int, hand_entered: bool) -> float:
    with tempfile.TemporaryDirectory() as folder:
        demo = Demo(Path(folder), rounds=rounds, seed=3, hand_entered=hand_entered)
        start = time.perf_counter()
        demo.play(lambda line: None)
        elapsed = time.perf_counter() - start
        demo.close()
    return elapsed


def run() -> list[Row]:
    journal = _journal_ms()
    by_hand = _night_seconds(1000, hand_entered=True)
    camera = _night_seconds(20, hand_entered=False) / 20
    return [
        Row("journal: one event, fsynced", f"{journal:.2f} ms", "-", "<= 5 ms", lambda: journal <= 5),
        Row("night of 1,000 rounds, dice by hand", f"{by_hand:.1f} s", "-", "< 30 s", lambda: by_hand < 30),
        Row("round read by the camera (sim)", f"{camera * 1e3:.0f} ms", "-", "<= 500 ms", lambda: camera <= 0.5),
    ]
