"""The pack and the layout (001, 002, 004 agree): King high to Ace low; sevens open a row each, built one rank at a
time up to the King and down to the Ace, in the suit only."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantan_table.rules.errors import RulesError
from fantan_table.rules.sevens.cards import PACK, Card, Rank, Suit, cards_text, parse_card
from fantan_table.rules.sevens.layout import Layout, layout_of

from . import oracle


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def test_the_pack_is_52_cards_king_high_to_ace_low() -> None:
    assert len(set(PACK)) == 52
    assert max(Rank) is Rank.KING and min(Rank) is Rank.ACE
    assert sorted(Rank)[6] is Rank.SEVEN


@pytest.mark.parametrize("card", PACK)
def test_a_cards_text_reads_back(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card


@pytest.mark.parametrize("text", ["", "7", "H", "1H", "11H", "7X", "KH7", "0S"])
def test_text_that_is_no_card_is_refused(text: str) -> None:
    with pytest.raises(RulesError, match="not a card"):
        parse_card(text)


def test_cards_sort_suit_by_suit_then_rank() -> None:
    assert sorted(cards("KH 7C AH 10C")) == cards("7C 10C AH KH")
    assert cards_text(cards("8H 7H")) == "7♥ 8♥"
    assert cards_text([]) == "none"


def test_on_an_empty_layout_only_sevens_are_playable() -> None:
    """001: "A player may always play any Seven"; 002: play begins with a 7."""
    assert Layout().playable_cards() == frozenset(c for c in PACK if c.rank is Rank.SEVEN)


def test_a_seven_opens_its_row_for_its_six_and_eight() -> None:
    """001: the eight on one side of the seven, the six on the other, same suit."""
    layout = layout_of(cards("7H"))
    assert layout.playable_cards() == frozenset(cards("6H 8H 7C 7D 7S"))


def test_a_row_builds_down_to_the_ace_and_up_to_the_king() -> None:
    """001: down from the six to the Ace, up from the eight to the King."""
    layout = layout_of(cards("7S 6S 5S 4S 3S 2S AS 8S 9S 10S JS QS KS"))
    assert layout.row(Suit.SPADES) is not None
    assert layout.playable_cards() == frozenset(cards("7C 7D 7H"))
    assert layout.cards() == frozenset(c for c in PACK if c.suit is Suit.SPADES)


@pytest.mark.parametrize(("played", "refused"), [("", "6H"), ("7H", "5H"), ("7H", "9H"), ("7H 8H", "8C"), ("7H", "7H")])
def test_a_card_out_of_sequence_is_not_playable(played: str, refused: str) -> None:
    layout = layout_of(cards(played)) if played else Layout()
    assert not layout.playable(parse_card(refused))
    with pytest.raises(RulesError, match="a card not playable on the layout"):
        layout_of([*cards(played), parse_card(refused)])


@settings(max_examples=200)
@given(st.data())
def test_the_playable_cards_are_the_oracles_after_any_legal_plays(data: st.DataObject) -> None:
    layout, on_table = Layout(), set[str]()
    for _ in range(data.draw(st.integers(0, 52))):
        playable = sorted(layout.playable_cards())
        assert {str(c) for c in playable} == {t for t in oracle.pack() if oracle.can_play(t, on_table)}
        if not playable:
            break
        card = data.draw(st.sampled_from(playable))
        layout, on_table = layout.with_card(card), on_table | {str(card)}
        assert layout.cards() == {parse_card(t) for t in on_table}
