"""The roll for the first bank: the highest total banks, ties roll again among the tied, in seat order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules.draw import BankDraw
from fantan_table.rules.errors import GameError

NAMES = ("Ann", "Bob", "Cat", "Dee")


def test_the_single_highest_total_banks() -> None:
    draw = BankDraw(NAMES[:3])
    assert draw.to_roll == "Ann" and draw.winner is None
    draw = draw.rolled([1, 2, 3, 4]).rolled([5, 5, 5, 5]).rolled([0, 0, 0, 1])
    assert draw.winner == "Bob" and draw.to_roll is None
    assert [(r.player, r.total) for r in draw.rolls] == [("Ann", 10), ("Bob", 20), ("Cat", 1)]


def test_a_tie_for_the_highest_is_rolled_off_by_the_tied_alone() -> None:
    draw = BankDraw(NAMES).rolled([5, 5, 0, 0]).rolled([1, 1, 1, 1]).rolled([4, 4, 1, 1]).rolled([0, 0, 0, 0])
    assert draw.winner is None and draw.contenders == ("Ann", "Cat") and draw.go == 2
    assert draw.to_roll == "Ann"
    draw = draw.rolled([2, 2, 2, 2]).rolled([3, 3, 1, 1])  # tied again: a third go
    assert draw.contenders == ("Ann", "Cat") and draw.go == 3 and draw.winner is None
    draw = draw.rolled([0, 0, 0, 0]).rolled([0, 0, 0, 1])
    assert draw.winner == "Cat"
    assert [r.go for r in draw.rolls] == [1, 1, 1, 1, 2, 2, 3, 3]


def test_a_low_tie_is_no_tie_for_the_bank() -> None:
    draw = BankDraw(NAMES[:3]).rolled([1, 1, 1, 1]).rolled([1, 1, 1, 1]).rolled([2, 2, 2, 2])
    assert draw.winner == "Cat" and draw.go == 1


def test_nobody_rolls_once_the_bank_is_decided() -> None:
    draw = BankDraw(NAMES[:2]).rolled([1, 1, 1, 1]).rolled([0, 0, 0, 0])
    with pytest.raises(GameError, match="Ann banks"):
        draw.rolled([5, 5, 5, 5])


@pytest.mark.parametrize("dice", [[], [1, -1, 2, 3], [1.5, 2, 3, 4], [True, 1, 1, 1]])
def test_only_whole_dice_count(dice) -> None:
    with pytest.raises(GameError, match="whole numbers"):
        BankDraw(NAMES[:2]).rolled(dice)


def test_one_player_cannot_roll_for_the_bank_alone() -> None:
    with pytest.raises(GameError, match="at least two"):
        BankDraw(("Ann",))


@given(st.integers(2, 4), st.lists(st.integers(0, 24), min_size=1, max_size=60))
def test_the_winner_rolled_strictly_highest_in_every_go_they_were_in(players: int, totals: list[int]) -> None:
    draw = BankDraw(NAMES[:players])
    for total in totals:
        if draw.winner is not None:
            break
        before = draw.to_roll
        draw = draw.rolled([total])
        assert draw.rolls[-1].player == before
    if draw.winner is None:
        return
    last = [r for r in draw.rolls if r.go == draw.go]
    best = max(r.total for r in last)
    assert [r.player for r in last if r.total == best] == [draw.winner]
    for go in range(1, draw.go):  # each earlier go was a tie for the highest, the winner among the tied
        rolled = [r for r in draw.rolls if r.go == go]
        top = max(r.total for r in rolled)
        tied = [r.player for r in rolled if r.total == top]
        assert len(tied) > 1 and draw.winner in tied
        next_go = [r.player for r in draw.rolls if r.go == go + 1]
        assert next_go == tied[: len(next_go)]  # the tied roll again, in seat order
