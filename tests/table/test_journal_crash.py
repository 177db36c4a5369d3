"""The crash test at scale (``slow``: run by ``make bench`` as ``pytest -m slow``): a 1,000-round night killed with
SIGKILL over a hundred times, anywhere in its rounds, ends with the very ledger of a night never interrupted, and a
journal that ``verify`` finds sound."""

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
from fantan_table.table.core.state import Stage
from tests.table.test_demo import ledger

ROUNDS = 1000
MIN_KILLS = 100
MAX_KILLS = 400
"""Enough to show the kills landed all over the night, few enough for the test to end in minutes."""
PLAYING_SECONDS = 0.07
"""How long a process plays after its first round line before the kill: about 5 rounds of a hand-entered night."""
DURING_START = 0.2
"""The share of kills aimed anywhere in a start instead (opening, checking and replaying the journal)."""
START_SECONDS = 120


def night(state: Path) -> subprocess.Popen[bytes]:
    args = ["demo", "--rounds", str(ROUNDS), "--seed", "42", "--state", str(state), "--hand-entered", "--json"]
    return subprocess.Popen(
        [sys.executable, "-m", "fantan_table", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},  # a round's line shows as soon as the round is played
    )


def playing(process: subprocess.Popen[bytes]) -> bool:
    """Waits until the process prints its first round (True), or ends first (False)."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], START_SECONDS)
    assert ready, "the demo printed nothing in time"
    return bool(os.read(process.stdout.fileno(), 1))


@pytest.mark.slow
def test_a_thousand_round_night_killed_over_a_hundred_times_keeps_its_ledger(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    whole = night(reference)
    _, err = whole.communicate(timeout=600)
    assert whole.returncode == 0, err.decode()
    expected = ledger(reference)
    assert expected[0] is Stage.OVER and len(expected[1]) == ROUNDS

    crashed, rng, kills = tmp_path / "crashed", random.Random(17), 0
    while kills < MAX_KILLS:
        process = night(crashed)
        if rng.random() < DURING_START:
            time.sleep(rng.uniform(0.1, 1.0))
        elif playing(process):
            time.sleep(rng.uniform(0, PLAYING_SECONDS))
        if process.poll() is not None:
            break  # the night came to its end between kills
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        kills += 1
    last = night(crashed)
    _, err = last.communicate(timeout=600)
    assert last.returncode == 0, err.decode()
    assert kills >= MIN_KILLS, f"only {kills} kills before the night ended: shorten PLAYING_SECONDS"
    assert ledger(crashed) == expected
    assert main(["verify", "--state", str(crashed)]) == 0
