"""A night of card Fan Tan killed with SIGKILL anywhere, again and again, ends with the very chips and hands of a
night never interrupted, and a journal ``verify`` finds sound. The whole test (``slow``, run by ``make bench``):
1,000 hands and over a hundred kills; the suite runs a short night with a few kills."""

from __future__ import annotations

from pathlib import Path

import pytest

from fantan_table.cli import main
from fantan_table.rules.sevens.game import Stage

from .killing import kill_again_and_again, play_to_the_end
from .test_sevens_table import ledger

PLAYING_SECONDS = 0.05
"""How long a process plays after its first hand's line before the kill: a few hands."""
CHIPS = 100_000
"""Enough chips that no bot runs out (which ends a game of 001) before the agreed hands are played."""


def crash_and_compare(tmp_path: Path, hands: int, min_kills: int, max_kills: int) -> int:
    night = ["--game", "sevens", "--hands", str(hands), "--chips", str(CHIPS), "--seed", "42", "--json"]
    reference, crashed = tmp_path / "reference", tmp_path / "crashed"
    play_to_the_end(reference, night, timeout=600)
    expected = ledger(reference)
    assert expected[0] is Stage.OVER and len(expected[1]) == hands

    kills = kill_again_and_again(crashed, night, PLAYING_SECONDS, max_kills)
    play_to_the_end(crashed, night, timeout=600)
    assert kills >= min_kills, f"only {kills} kills before the night ended: shorten PLAYING_SECONDS"
    assert ledger(crashed) == expected
    assert main(["verify", "--state", str(crashed)]) == 0
    return kills


def test_a_short_sevens_night_killed_a_few_times_keeps_its_chips(tmp_path: Path) -> None:
    crash_and_compare(tmp_path, hands=200, min_kills=4, max_kills=6)


@pytest.mark.slow
def test_a_thousand_hand_sevens_night_killed_over_a_hundred_times_keeps_its_chips(tmp_path: Path) -> None:
    crash_and_compare(tmp_path, hands=1000, min_kills=100, max_kills=400)
