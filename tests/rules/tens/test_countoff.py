"""The first player: every total the four dice can show, every roller, every number of players."""

from __future__ import annotations

import itertools

import pytest

from fantan_table.rules.errors import GameError
from fantan_table.rules.odds import D6_FACES, PIECEPACK_FACES
from fantan_table.rules.tens.countoff import FIRST_ROLL_DICE, first_player

MOST_PLAYERS_TESTED = 20
"""Culin saw the game played by up to twenty."""


def counted_off(total: int, roller: int, players: int) -> int:
    """The count done as a player does it: one at the roller, then seat by seat anticlockwise."""
    seat = roller
    for _ in range(total - 1):
        seat = (seat + 1) % players
    return seat


@pytest.mark.parametrize("faces", [PIECEPACK_FACES, D6_FACES], ids=["piecepack", "d6"])
def test_every_total_roller_and_number_of_players(faces: tuple[int, ...]) -> None:
    totals = {sum(dice) for dice in itertools.product(faces, repeat=FIRST_ROLL_DICE)}
    assert totals == set(range(4 * min(faces), 4 * max(faces) + 1))
    for players in range(2, MOST_PLAYERS_TESTED + 1):
        for roller in range(players):
            for total in totals - {0}:
                dice = (total - 3 * (total // 4), *(total // 4,) * 3)  # any four dice with that total
                assert first_player(dice, roller, players) == counted_off(total, roller, players)


def test_the_roller_counts_themself_first() -> None:
    assert first_player((1, 0, 0, 0), roller=2, players=4) == 2
    assert first_player((1, 1, 0, 0), roller=3, players=4) == 0
    assert first_player((6, 6, 6, 6), roller=0, players=5) == 3  # 24 = 4 rounds of 5, and 4 more


def test_four_blanks_count_off_nobody_and_are_rolled_again() -> None:
    with pytest.raises(GameError, match="the dice total 0, which counts off nobody: roll the four dice again"):
        first_player((0, 0, 0, 0), roller=0, players=3)


@pytest.mark.parametrize(("roller", "players"), [(0, 1), (2, 2), (-1, 3)])
def test_no_count_off_without_players_and_a_roller_among_them(roller: int, players: int) -> None:
    with pytest.raises(GameError):
        first_player((1, 2, 3, 4), roller, players)
