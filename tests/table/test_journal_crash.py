"""The crash test at scale (``slow``: run by ``make bench`` as ``pytest -m slow``): a 1,000-round night killed with
SIGKILL over a hundred times, anywhere in its rounds, ends with the very ledger of a night never interrupted, and a
journal that ``verify`` finds sound."""

from __future__ import annotations

from pathlib import Path

import pytest

from fantan_table.cli import main
from fantan_table.table.core.state import Stage
from tests.table.test_demo import ledger

from .killing import kill_again_and_again, play_to_the_end

ROUNDS = 1000
MIN_KILLS = 100
MAX_KILLS = 400
"""Enough to show the kills landed all over the night, few enough for the test to end in minutes."""
PLAYING_SECONDS = 0.07
"""How long a process plays after its first round line before the kill: about 5 rounds of a hand-entered night."""
NIGHT = ["--rounds", str(ROUNDS), "--seed", "42", "--hand-entered", "--json"]


@pytest.mark.slow
def test_a_thousand_round_night_killed_over_a_hundred_times_keeps_its_ledger(tmp_path: Path) -> None:
    reference, crashed = tmp_path / "reference", tmp_path / "crashed"
    play_to_the_end(reference, NIGHT, timeout=600)
    expected = ledger(reference)
    assert expected[0] is Stage.OVER and len(expected[1]) == ROUNDS

    kills = kill_again_and_again(crashed, NIGHT, PLAYING_SECONDS, MAX_KILLS)
    play_to_the_end(crashed, NIGHT, timeout=600)
    assert kills >= MIN_KILLS, f"only {kills} kills before the night ended: shorten PLAYING_SECONDS"
    assert ledger(crashed) == expected
    assert main(["verify", "--state", str(crashed)]) == 0
