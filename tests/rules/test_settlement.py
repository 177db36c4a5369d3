import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules import (
    Bet,
    BetError,
    Outcome,
    RulesError,
    StakeError,
    Variant,
    Wager,
    check_stake,
    check_variants,
    parse_bet,
    settle_wager,
    settle_wagers,
)

from .oracle import all_bet_texts, delta_cents

wager_lists = st.lists(st.tuples(st.sampled_from(all_bet_texts()), st.integers(1, 5)), min_size=0, max_size=5)


@given(wager_lists, st.integers(0, 3))
def test_settlement_matches_the_independent_model(wagers, open_number):
    results = settle_wagers([Wager(parse_bet(t), c) for t, c in wagers], open_number)
    assert [r.delta_cents for r in results] == [delta_cents(t, c, open_number) for t, c in wagers]
    for r in results:
        assert type(r.delta_cents) is int
        expected = Outcome.LOSE if r.delta_cents < 0 else Outcome.WIN if r.delta_cents > 0 else Outcome.MONEY_BACK
        assert r.outcome is expected


def test_a_three_dollar_corner_wins_exactly_99_cents():
    assert settle_wager(Wager(Bet.corner(0), 3), 2).delta_cents == 99
    assert settle_wager(Wager(Bet.corner(0), 3), 3).delta_cents == -300


@pytest.mark.parametrize(
    "text, open_number, delta, outcome",
    [
        ("number:2", 2, 300, Outcome.WIN),
        ("number:2", 1, -100, Outcome.LOSE),
        ("side:0-1", 1, 100, Outcome.WIN),
        ("strong-side:0>1", 0, 200, Outcome.WIN),
        ("strong-side:0>1", 1, 0, Outcome.MONEY_BACK),
        ("strong-side:0>1", 3, -100, Outcome.LOSE),
        ("strong-corner:0", 0, 100, Outcome.WIN),
        ("strong-corner:0", 2, 0, Outcome.MONEY_BACK),
        ("strong-corner:0", 3, -100, Outcome.LOSE),
        ("diagonal:1-2", 2, 100, Outcome.WIN),
        ("strong-diagonal:3>0", 3, 200, Outcome.WIN),
        ("strong-diagonal:3>0", 0, 0, Outcome.MONEY_BACK),
    ],
)
def test_payout_table(text, open_number, delta, outcome):
    result = settle_wager(Wager(parse_bet(text), 1), open_number)
    assert (result.delta_cents, result.outcome) == (delta, outcome)


@pytest.mark.parametrize("open_number", [-1, 4, True, 1.0])
def test_open_number_is_0_to_3(open_number):
    with pytest.raises(RulesError, match="0-3"):
        settle_wager(Wager(Bet.number(0), 1), open_number)


@pytest.mark.parametrize("coins", [0, -1, 1.5, True])
def test_a_wager_is_whole_coins(coins):
    with pytest.raises(StakeError, match="whole number of \\$1 coins"):
        Wager(Bet.number(0), coins)


def test_stake_limits_name_the_rule():
    five = [Wager(Bet.number(0), 3), Wager(Bet.side(0, 1), 2)]
    check_stake("Colin", five, 500)
    with pytest.raises(StakeError, match="at most 5 \\$1 coins a round"):
        check_stake("Colin", five + [Wager(Bet.number(1), 1)], 5000)
    with pytest.raises(StakeError, match="more than their balance"):
        check_stake("Colin", five, 499)
    with pytest.raises(StakeError, match="bankrupt"):
        check_stake("Colin", [Wager(Bet.number(0), 1)], 99)
    check_stake("Colin", [], 0)  # sitting a round out is always allowed


def test_variant_not_enabled_is_refused_naming_it():
    with pytest.raises(BetError, match="strong-corner bets need the variant\\(s\\) corners,strong"):
        check_variants(Bet.strong_corner(1), Variant.STRONG)
    check_variants(Bet.strong_corner(1), Variant.STRONG | Variant.CORNERS)
    check_variants(Bet.side(0, 1), Variant.NONE)
