import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules import VALID_FORMS, Bet, BetError, BetKind, ConfigError, Variant, all_positions, parse_bet
from fantan_table.rules.bets import format_variants, parse_variants

from .oracle import all_bet_texts, covered, needs


@pytest.mark.parametrize("text", all_bet_texts())
def test_every_real_position_parses_to_what_the_layout_says(text):
    bet = parse_bet(text)
    numbers, strong = covered(text)
    assert bet.numbers == numbers
    assert bet.strong == strong
    assert parse_bet(str(bet)) == bet
    assert {
        v.name.lower() for v in Variant if v in bet.required_variants and v not in (Variant.NONE, Variant.ALL)
    } == needs(text)


def test_positions_are_thirty_and_each_distinct():
    positions = all_positions()
    assert len(positions) == 30 == len(set(positions))
    assert {parse_bet(t) for t in all_bet_texts()} == set(positions)
    assert [str(b) for b in all_positions(Variant.NONE)] == [
        "number:0",
        "number:1",
        "number:2",
        "number:3",
        "side:0-1",
        "side:1-3",
        "side:3-2",
        "side:2-0",
    ]


def test_canonical_text_forms():
    assert str(Bet.side(1, 0)) == "side:0-1"
    assert str(Bet.side(2, 3)) == "side:3-2"
    assert str(Bet.strong_side(0, 1)) == "strong-side:0>1"
    assert str(Bet.strong_corner(0)) == "strong-corner:0"
    assert str(Bet.strong_diagonal(3, 0)) == "strong-diagonal:3>0"
    assert str(Bet.diagonal(2, 1)) == "diagonal:1-2"
    assert parse_bet("  SIDE: 1 - 0 ") == Bet.side(0, 1)


def test_strong_corner_is_strong_on_its_own_tile():
    bet = parse_bet("strong-corner:0")
    assert bet.strong == 0 and bet.weak_numbers == {1, 2}


@pytest.mark.parametrize(
    "text, hint",
    [
        ("side:0-3", "not a side"),
        ("side:1-2", "not a side"),
        ("diagonal:0-1", "not a diagonal"),
        ("strong-diagonal:2>3", "not a diagonal"),
        ("number:4", "not a tile"),
        ("number:-1", "not a tile"),
        ("number:", "not a tile"),
        ("corner:01", "not a tile"),
        ("side:0-0", "must differ"),
        ("strong-side:0-1", "joined by '>'"),
        ("side:0>1", "joined by '-'"),
        ("side:0-1-3", "joined by '-'"),
        ("corner", "after a colon"),
        ("pair:0-1", "is not a bet"),
        ("", "is not a bet"),
    ],
)
def test_bad_positions_are_refused_with_the_valid_forms(text, hint):
    with pytest.raises(BetError) as info:
        parse_bet(text)
    assert hint in str(info.value)
    assert VALID_FORMS in str(info.value)


@pytest.mark.parametrize("not_text", [None, 3, ["side:0-1"]])
def test_non_text_is_refused(not_text):
    with pytest.raises(BetError):
        parse_bet(not_text)


@given(st.text(max_size=25))
def test_any_text_either_parses_to_a_real_position_or_is_refused(text):
    try:
        bet = parse_bet(text)
    except BetError:
        return
    assert bet in all_positions()


@given(
    st.sampled_from(list(BetKind)), st.sets(st.integers(-1, 4), max_size=4), st.one_of(st.none(), st.integers(-1, 4))
)
def test_a_bet_value_can_only_be_a_real_position(kind, numbers, strong):
    try:
        bet = Bet(kind, frozenset(numbers), strong)
    except BetError:
        assert (kind, frozenset(numbers), strong) not in {(b.kind, b.numbers, b.strong) for b in all_positions()}
        return
    assert bet in all_positions()


def test_variants_text():
    assert parse_variants("corners,diagonals,strong") == Variant.ALL
    assert parse_variants("") == Variant.NONE == parse_variants("none")
    assert parse_variants(" Strong , corners") == Variant.STRONG | Variant.CORNERS
    assert format_variants(Variant.CORNERS | Variant.STRONG) == "corners,strong"
    with pytest.raises(ConfigError, match="unknown variant 'corner'"):
        parse_variants("corner")
