from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from fantan_table.rules import (
    D6_FACES,
    PIECEPACK_FACES,
    Bet,
    RulesError,
    bet_odds,
    expected_value,
    open_distribution,
    parse_bet,
)

from .oracle import all_bet_texts, delta_cents


def enumerate_open(dice: int, faces) -> list[Fraction]:
    counts = Counter(sum(roll) % 4 for roll in product(faces, repeat=dice))
    outcomes = len(faces) ** dice
    return [Fraction(counts[k], outcomes) for k in range(4)]


@pytest.mark.parametrize("faces", [PIECEPACK_FACES, D6_FACES, (0, 0, 1, 7)])
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
def test_distribution_matches_enumeration_of_every_roll(dice, faces):
    assert list(open_distribution(dice, faces)) == enumerate_open(dice, faces)


def test_four_piecepack_dice():
    assert open_distribution() == (Fraction(161, 648), Fraction(1, 4), Fraction(163, 648), Fraction(1, 4))
    assert expected_value(Bet.number(0), open_distribution()) == Fraction(-1, 162)


@pytest.mark.parametrize("dice", [1, 4])
def test_every_bet_ev_matches_enumeration(dice):
    """EV per $1 = the average over every roll of what the model pays a one-coin bet."""
    rolls = list(product(PIECEPACK_FACES, repeat=dice))
    by_text = {str(o.bet): o.ev for o in bet_odds(open_distribution(dice))}
    for text in all_bet_texts():
        brute = Fraction(sum(delta_cents(text, 1, sum(r) % 4) for r in rolls), 100 * len(rolls))
        assert by_text[str(parse_bet(text))] == brute, text


def test_many_dice_stay_exact_and_sum_to_one():
    d = open_distribution(1000, D6_FACES)
    assert sum(d) == 1
    assert all(isinstance(p, Fraction) for p in d)


@pytest.mark.parametrize("dice, faces", [(0, PIECEPACK_FACES), (1001, PIECEPACK_FACES), (4, ()), (4, (1.5, 2))])
def test_bad_dice_are_refused(dice, faces):
    with pytest.raises(RulesError):
        open_distribution(dice, faces)
