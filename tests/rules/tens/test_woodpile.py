"""The woodpile: sets per number of players, its stacks, a seeded shuffle, and the deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from fantan_table.rules.errors import ConfigError
from fantan_table.rules.tens import default_sets, domino_sets, shuffled, tiles_dealt
from fantan_table.rules.tens.woodpile import MIN_DRAWS_PER_PLAYER, check_sets, deal, stack_heights

DOC = Path(__file__).parents[3] / "docs" / "collecting-tens.md"
TILES_AND_SETS = {2: (19, 1), 3: (28, 2), 4: (37, 2), 5: (46, 2), 6: (55, 3), 7: (64, 3), 8: (73, 4), 10: (91, 4)}
"""Players: (tiles in the hands after the deal, the default number of sets), as docs/collecting-tens.md says."""


@pytest.mark.parametrize("players", sorted(TILES_AND_SETS))
def test_tiles_and_default_sets(players: int) -> None:
    dealt, sets = TILES_AND_SETS[players]
    assert tiles_dealt(players) == dealt == 10 + 9 * (players - 1)
    assert default_sets(players) == sets
    assert 32 * sets - dealt >= MIN_DRAWS_PER_PLAYER * players > 32 * (sets - 1) - dealt
    assert f"| {players} | {dealt} | {sets} | {32 * sets - dealt} |" in DOC.read_text()


def test_fewer_sets_than_the_hands_need_are_refused() -> None:
    check_sets(1, 3)  # 28 of 32: four to draw
    with pytest.raises(ConfigError, match="4 players hold 37 tiles after the deal"):
        check_sets(1, 4)
    with pytest.raises(ConfigError):
        check_sets(0, 2)


@pytest.mark.parametrize("tiles", [32, 64, 96, 7, 10, 11, 14])
def test_stacks_of_five_five_then_four_and_five(tiles: int) -> None:
    heights = stack_heights(tiles)
    assert sum(heights) == tiles
    full = (5, 5, *(4, 5) * 20)
    assert heights[:-1] == full[: len(heights) - 1] and 0 < heights[-1] <= full[len(heights) - 1]


def test_the_first_two_stacks_are_the_first_hand_and_each_other_gets_a_four_and_a_five() -> None:
    heights = stack_heights(64)
    assert sum(heights[:2]) == 10
    assert all(heights[2 + 2 * i] + heights[3 + 2 * i] == 9 for i in range(5))


def test_a_seed_fixes_the_shuffle() -> None:
    assert shuffled(2, seed=7) == shuffled(2, seed=7) != shuffled(2, seed=8)
    assert sorted(shuffled(2, seed=7)) == sorted(domino_sets(2))


@pytest.mark.parametrize("first", [0, 1, 2])
def test_the_deal_goes_round_from_the_first_player(first: int) -> None:
    order = list(range(32))
    hands, woodpile = deal(order, players=3, first=first)
    assert hands[first] == tuple(range(10))
    assert hands[(first + 1) % 3] == tuple(range(10, 19))
    assert hands[(first + 2) % 3] == tuple(range(19, 28))
    assert woodpile == (28, 29, 30, 31)


def test_a_deal_leaves_a_tile_to_draw() -> None:
    with pytest.raises(ConfigError):
        deal(list(range(28)), players=3, first=0)
