"""The deal and the first dealer: cards taken out (004), hand sizes, the order of the deal, Jack and cuts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules.errors import RulesError
from fantan_table.rules.sevens.cards import PACK, Card, Rank, Suit, parse_card
from fantan_table.rules.sevens.deal import (
    deal,
    dealer_cards,
    first_dealer,
    hand_sizes,
    pack_in_play,
    removed_cards,
    shuffled,
)
from fantan_table.rules.sevens.options import RULES_001, RULES_002, RULES_004, Deal, FirstDealer, Options, Players

from . import oracle


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


@pytest.mark.parametrize(("seats", "taken"), [(2, ""), (3, "A"), (4, ""), (5, "A K"), (6, "A 2 K Q")])
def test_004_takes_cards_of_one_suit_out_so_hands_are_equal(seats: int, taken: str) -> None:
    """004: three players, an Ace; five, the Ace and King; six, the Ace, two, King and Queen; of the same suit.
    (Two players here without the dummy hand.)"""
    options = Options(players=Players.TWO_TO_SIX, deal=Deal.EQUAL_HANDS, removed_suit=Suit.HEARTS)
    assert removed_cards(options, seats) == frozenset(cards(" ".join(f"{r}H" for r in taken.split())))
    sizes, dummy = hand_sizes(options, 0, seats)
    assert len(set(sizes)) == 1 and dummy == 0
    assert sum(sizes) == len(pack_in_play(options, seats)) == 52 - len(taken.split())


def test_004s_dummy_hand_makes_three_equal_hands_of_17() -> None:
    """004's two-player game deals a third hand; three hands take an Ace out (our reading: 004 does not say)."""
    sizes, dummy = hand_sizes(RULES_004, 0, 2)
    assert sizes == (17, 17) and dummy == 17
    assert removed_cards(RULES_004, 2) == {Card(RULES_004.removed_suit, Rank.ACE)}


def test_001_deals_the_whole_pack_and_the_dealers_left_gets_the_extra_card() -> None:
    """001: the entire pack, one at a time clockwise; some players get one card more."""
    assert hand_sizes(RULES_001, 2, 3) == ((18, 17, 17), 0)
    assert hand_sizes(RULES_001, 0, 5) == ((10, 11, 11, 10, 10), 0)
    assert removed_cards(RULES_001, 3) == frozenset()


def test_cards_go_one_at_a_time_from_the_dealers_left() -> None:
    """004: "Le donneur distribue les cartes une à une, en commençant par son voisin de gauche"."""
    dealt = deal(PACK, RULES_002, 1, 4)
    assert dealt.hands[2][:2] == (PACK[0], PACK[4])
    assert dealt.hands[1][0] == PACK[3]
    assert dealt.dummy == ()


def test_the_dummy_hand_is_dealt_after_the_dealer() -> None:
    order = pack_in_play(RULES_004, 2)
    dealt = deal(order, RULES_004, 0, 2)
    assert (dealt.hands[1][0], dealt.hands[0][0], dealt.dummy[0]) == order[:3]


@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.sampled_from([RULES_001, RULES_002, RULES_004]))
def test_the_deal_is_the_oracles(seed: int, seats: int, options: Options) -> None:
    order = shuffled(pack_in_play(options, seats), seed)
    dealer = seed % seats
    dealt = deal(order, options, dealer, seats)
    dummy = options is RULES_004 and seats == 2
    hands, pile = oracle.deal([str(c) for c in order], dealer, seats, dummy)
    assert [[str(c) for c in h] for h in dealt.hands] == hands
    assert [str(c) for c in dealt.dummy] == pile
    assert hand_sizes(options, dealer, seats) == (tuple(map(len, hands)), len(pile))


@pytest.mark.parametrize(
    "order",
    [PACK[1:], PACK + PACK[:1], (*PACK[1:], PACK[1])],
    ids=["a card missing", "a card too many", "a card twice"],
)
def test_a_deal_that_is_not_the_pack_in_play_is_refused(order: tuple[Card, ...]) -> None:
    with pytest.raises(RulesError, match="the deal must hold each card in play once"):
        deal(order, RULES_001, 0, 4)


def test_a_deal_with_a_card_taken_out_is_refused() -> None:
    """004, three players: the Ace taken out is not dealt."""
    with pytest.raises(RulesError, match="not in play"):
        deal(PACK, RULES_004, 0, 3)


def test_a_seeded_shuffle_is_the_same_every_time_and_a_shuffle() -> None:
    assert shuffled(PACK, 7) == shuffled(PACK, 7) != shuffled(PACK, 8)
    assert sorted(shuffled(PACK, 7)) == sorted(PACK)


def test_001_the_first_jack_dealt_face_up_chooses_the_dealer() -> None:
    """001: dealt face up clockwise; the first to receive a Jack deals."""
    assert first_dealer(FirstDealer.FIRST_JACK, cards("2H 5S KD 9C JD"), 4) == 0
    assert first_dealer(FirstDealer.FIRST_JACK, cards("JS"), 4) == 0
    assert first_dealer(FirstDealer.FIRST_JACK, cards("2H 5S JD"), 4) == 2
    for wrong in ("2H 5S", "JH 5S JD", "JH 5S"):
        with pytest.raises(RulesError, match="first Jack"):
            first_dealer(FirstDealer.FIRST_JACK, cards(wrong), 4)


def test_002_the_highest_cut_deals_and_004_the_lowest() -> None:
    cuts = cards("9H KS 2D 5C")
    assert first_dealer(FirstDealer.HIGHEST_CUT, cuts, 4) == 1
    assert first_dealer(FirstDealer.LOWEST_CUT, cuts, 4) == 2


def test_players_who_tie_for_the_cut_cut_again() -> None:
    with pytest.raises(RulesError, match="seats 0, 2 tie for the highest"):
        first_dealer(FirstDealer.HIGHEST_CUT, cards("KH 5S KD"), 3)
    assert first_dealer(FirstDealer.LOWEST_CUT, cards("KH 5S KD"), 3) == 1


def test_a_cut_per_player_and_no_card_twice() -> None:
    with pytest.raises(RulesError, match="2 cuts for 3 players"):
        first_dealer(FirstDealer.HIGHEST_CUT, cards("KH 5S"), 3)
    with pytest.raises(RulesError, match="the same card twice"):
        first_dealer(FirstDealer.HIGHEST_CUT, cards("KH 5S KH"), 3)


@given(st.integers(0, 2**32 - 1), st.integers(2, 13), st.sampled_from(FirstDealer))
def test_the_table_deals_cards_that_choose_a_dealer(seed: int, seats: int, method: FirstDealer) -> None:
    chosen = dealer_cards(method, shuffled(PACK, seed), seats)
    assert 0 <= first_dealer(method, chosen, seats) < seats
