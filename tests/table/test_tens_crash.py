"""A night of Collecting Tens killed with SIGKILL anywhere, again and again, ends with the very journal (every
event but its time) and ledger of a night never interrupted, and a journal ``verify`` finds sound. The whole test
(``slow``, run by ``make bench``): 1,000 hands and over a hundred kills; the suite runs a short night with a few."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fantan_table.cli import main
from fantan_table.rules.tens.game import Stage

from .test_tens_table import journal_rows, ledger

START_SECONDS = 120
PLAYING_SECONDS = 0.15
"""How long a process plays after its first hand's line before the kill: about one hand and a half (a hand of
four bots is about fifty events, a tenth of a second)."""
DURING_START = 0.2
"""The share of kills aimed anywhere in a start instead (opening, checking and replaying the journal)."""


def night(state: Path, hands: int) -> subprocess.Popen[bytes]:
    args = ["demo", "--game", "tens", "--hands", str(hands), "--seed", "42", "--json", "--state", str(state)]
    return subprocess.Popen(
        [sys.executable, "-m", "fantan_table", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},  # a hand's line shows as soon as the hand is on show
    )


def playing(process: subprocess.Popen[bytes]) -> bool:
    """Waits until the process prints its first hand (True), or ends first (False)."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], START_SECONDS)
    assert ready, "the demo printed nothing in time"
    return bool(os.read(process.stdout.fileno(), 1))


def crash_and_compare(tmp_path: Path, hands: int, min_kills: int, max_kills: int) -> int:
    reference = tmp_path / "reference"
    whole = night(reference, hands)
    _, err = whole.communicate(timeout=900)
    assert whole.returncode == 0, err.decode()
    expected = ledger(reference)
    assert expected[0] is Stage.OVER and len(expected[1]) == hands

    crashed, rng, kills = tmp_path / "crashed", random.Random(17), 0
    while kills < max_kills:
        process = night(crashed, hands)
        if rng.random() < DURING_START:
            time.sleep(rng.uniform(0.1, 1.0))
        elif playing(process):
            time.sleep(rng.uniform(0, PLAYING_SECONDS))
        if process.poll() is not None:
            break  # the night came to its end between kills
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        kills += 1
    last = night(crashed, hands)
    _, err = last.communicate(timeout=900)
    assert last.returncode == 0, err.decode()
    assert kills >= min_kills, f"only {kills} kills before the night ended: shorten PLAYING_SECONDS"
    assert ledger(crashed) == expected
    assert journal_rows(crashed) == journal_rows(reference)
    assert main(["verify", "--state", str(crashed)]) == 0
    return kills


def test_a_short_tens_night_killed_a_few_times_keeps_its_ledger(tmp_path: Path) -> None:
    crash_and_compare(tmp_path, hands=30, min_kills=4, max_kills=6)


@pytest.mark.slow
def test_a_thousand_hand_tens_night_killed_over_a_hundred_times_keeps_its_ledger(tmp_path: Path) -> None:
    crash_and_compare(tmp_path, hands=1000, min_kills=100, max_kills=200)
