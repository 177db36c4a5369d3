"""One hand's turns: the player on the dealer's left first, clockwise, a player who can play must play one card,
a pass, 004's dummy hand, the last card; every refusal names its rule and changes nothing."""

from __future__ import annotations

import pytest

from fantan_table.rules.errors import GameError, RulesError
from fantan_table.rules.sevens.events import CardPlayed, Drew, HandDealt, Passed, WentOut
from fantan_table.rules.sevens.game import SevensState, Stage, apply
from fantan_table.rules.sevens.options import (
    RULES_001,
    RULES_002,
    RULES_004,
    Agreed,
    CardMode,
    Deal,
    End,
    Options,
    Players,
)

from .tables import arrange, cards, dealt, game, run

(C7, H7, H8, H6, H5, S7, D7) = cards("7C 7H 8H 6H 5H 7S 7D")


ANY_BY_JACK = Options(players=Players.ANY, deal=Deal.WHOLE_PACK, end=End.AGREED_HANDS)


def refused(state: SevensState, event: object, why: str, error: type[Exception] = RulesError) -> None:
    with pytest.raises(error, match=why):
        apply(state, event)  # type: ignore[arg-type]


def virtual(options: Options = RULES_002, seats: int = 4, dealer: int = 3, **wanted: str) -> SevensState:
    state = game(options, seats, CardMode.VIRTUAL, dealer=dealer)
    return dealt(state, {int(k[1:]): v for k, v in wanted.items()})


def test_the_player_on_the_dealers_left_plays_first_and_turns_go_clockwise() -> None:
    """001, 002, 004: the dealer's left opens; play goes clockwise."""
    state = virtual(s0="7H", s1="8H", s2="7S")
    assert state.hand is not None and state.hand.turn == 0
    state = run(state, CardPlayed(0, H7), CardPlayed(1, H8), CardPlayed(2, S7))
    assert state.hand is not None and state.hand.turn == 3
    refused(state, CardPlayed(0, C7), "not your turn: it is seat 3's", GameError)


def test_a_player_who_can_play_may_not_pass_with_virtual_cards() -> None:
    """001: "If a player on their turn has at least one valid play, they must make a play"; 004 likewise."""
    state = virtual(s0="7H")
    refused(state, Passed(0), "you can play: a pass is refused")


def test_a_player_who_cannot_play_passes_and_pays_a_chip() -> None:
    """001: he adds one chip to the centre and the turn passes; 002: one unit to the pool."""
    state = virtual(s0="7H", s1="2C 3C 4C 5C 6C 8C 9C 10C JC QC KC AC KD")
    state = run(state, CardPlayed(0, H7))
    pool = state.chips.pool
    state = run(state, Passed(1))
    assert state.chips.pool == pool + 1 and state.hand is not None and state.hand.turn == 2


def test_one_card_a_turn() -> None:
    """001: "A player may play only one card per turn"."""
    state = run(virtual(s0="7H 7S"), CardPlayed(0, H7))
    refused(state, CardPlayed(0, S7), "not your turn", GameError)


def test_a_card_not_playable_already_played_or_not_held_is_refused() -> None:
    state = run(virtual(s0="7H", s1="5H 8H", s2="7C"), CardPlayed(0, H7))
    refused(state, CardPlayed(1, H5), "a card not playable on the layout: 5♥")
    refused(state, CardPlayed(1, H7), "already played: 7♥ is on the layout")
    refused(state, CardPlayed(1, C7), "not in your hand: 7♣")


def test_with_real_cards_a_play_is_checked_against_the_layout_only_and_a_pass_taken() -> None:
    state = run(game(RULES_001, 4), HandDealt(None), CardPlayed(1, H7))
    refused(state, CardPlayed(2, H5), "a card not playable on the layout")
    state = run(state, Passed(2), CardPlayed(3, C7))
    assert state.hand is not None and state.hand.counts == (13, 12, 13, 12)


def test_a_card_taken_out_for_equal_hands_is_refused() -> None:
    """004: with three players an Ace is taken out, so it is never played."""
    options = Options(players=RULES_004.players, deal=Deal.EQUAL_HANDS, first_dealer=RULES_004.first_dealer)
    taken = f"A{options.removed_suit.value}"
    state = run(game(options, 3), HandDealt(None))
    refused(state, CardPlayed(1, cards(taken)[0]), "taken out of the pack")


def test_real_cards_are_dealt_by_hand_and_virtual_cards_by_the_table() -> None:
    physical, virtual_ = game(RULES_001, 3), game(RULES_001, 3, CardMode.VIRTUAL)
    refused(physical, HandDealt(arrange(virtual_, {})), "the table takes no order")
    refused(virtual_, HandDealt(None), "give the shuffled order")


def test_the_last_card_ends_the_hand() -> None:
    """001: when a player plays his last card, the hand ends (002: any number may play: 52 players hold one each)."""
    state = dealt(game(ANY_BY_JACK, 52, CardMode.VIRTUAL, agreed=Agreed(hands=1)), {1: "7H"})
    refused(state, WentOut((1,) * 52), "a hand is settled once a player has played his last card", GameError)
    state = run(state, CardPlayed(1, H7))
    assert state.stage is Stage.OUT and state.hand is not None and state.hand.winner == 1
    refused(state, CardPlayed(2, H8), "cards are played, passed and drawn while a hand is played", GameError)


def test_004_a_player_who_cannot_play_draws_from_the_dummy_until_a_playable_card_comes() -> None:
    """004: two players; instead of passing, he draws the third hand's cards one by one until one is playable."""
    state = game(RULES_004, 2, CardMode.VIRTUAL, agreed=Agreed(), dealer=1)
    unplayable = "2C 3C 4C 5C 6C 8C 9C 10C JC QC KC 2D 3D 4D 5D 6D 8D"
    state = dealt(state, {0: "7H", 1: unplayable, 2: "9D 8H"})  # the dummy hand gives 9D, then 8H
    state = run(state, CardPlayed(0, H7))
    refused(state, Passed(1), "draw from the dummy hand instead of passing")
    state = run(state, Drew(1))
    assert state.hand is not None and state.hand.turn == 1 and state.hand.counts[1] == 18
    state = run(state, Drew(1))
    refused(state, Drew(1), "you can play: a draw is refused")
    state = run(state, CardPlayed(1, H8))
    assert state.hand is not None and state.hand.dummy_count == 15


def test_no_dummy_hand_to_draw_from_without_004s_two_player_game() -> None:
    state = virtual(s0="2C")
    refused(state, Drew(0), "there is no dummy hand")


def test_the_cards_left_are_the_tables_count() -> None:
    """With real cards the count entered at the end is checked: dealt, less played, plus drawn."""
    state = run(game(ANY_BY_JACK, 52, agreed=Agreed(hands=1)), HandDealt(None), CardPlayed(1, H7))
    assert state.stage is Stage.OUT
    left = tuple(0 if s == 1 else 1 for s in range(52))
    refused(state, WentOut((*left[:2], 2, *left[3:])), "seat 2 holds 1 cards by the table's count")
    refused(state, WentOut(left[:3]), "3 counts of cards left for 52 players")
    refused(state, CardPlayed(2, H8), "cards are played, passed and drawn while a hand is played", GameError)
    assert run(state, WentOut(left)).stage is Stage.OVER
