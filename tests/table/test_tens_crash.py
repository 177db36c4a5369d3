"""A night of Collecting Tens killed with SIGKILL anywhere, again and again, ends with the very journal (every
event but its time) and ledger of a night never interrupted, and a journal ``verify`` finds sound. The whole test
(``slow``, run by ``make bench``): 1,000 hands and over a hundred kills; the suite runs a short night with a few."""

from __future__ import annotations

from pathlib import Path

import pytest

from fantan_table.cli import main
from fantan_table.rules.tens.game import Stage

from .killing import kill_again_and_again, play_to_the_end
from .test_tens_table import journal_rows, ledger

PLAYING_SECONDS = 0.15
"""How long a process plays after its first hand's line before the kill: about one hand and a half (a hand of
four bots is about fifty events, a tenth of a second)."""


def crash_and_compare(tmp_path: Path, hands: int, min_kills: int, max_kills: int) -> int:
    night = ["--game", "tens", "--hands", str(hands), "--seed", "42", "--json"]
    reference, crashed = tmp_path / "reference", tmp_path / "crashed"
    play_to_the_end(reference, night, timeout=900)
    expected = ledger(reference)
    assert expected[0] is Stage.OVER and len(expected[1]) == hands

    kills = kill_again_and_again(crashed, night, PLAYING_SECONDS, max_kills)
    play_to_the_end(crashed, night, timeout=900)
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
