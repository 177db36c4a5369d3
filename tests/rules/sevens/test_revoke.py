"""Revokes with real cards (001, 002): passing while able to play costs three chips to the pool; passing holding a
seven also pays five chips to each holder of that suit's six and eight. Decided against the hands shown.

The table: 26 players with two cards each (002: any number), so a hand is short. Seat 1 opens with 7♥, seat 2
passes holding 7♠ (a revoke), everyone else passes, and seat 1 goes out with 6♥.
"""

from __future__ import annotations

import pytest

from fantan_table.rules.errors import GameError, RulesError
from fantan_table.rules.sevens.events import CardPlayed, HandDealt, Passed, RevokeClaimed, SevensEvent, WentOut
from fantan_table.rules.sevens.game import SevensState, Stage, apply
from fantan_table.rules.sevens.options import (
    RULES_004,
    Agreed,
    Ante,
    CardMode,
    Deal,
    End,
    NextDealer,
    Options,
    Players,
    Revoke,
)

from .tables import cards, dealt, game, run

SEATS = 26
ANY_PENALISED = Options(
    players=Players.ANY, next_dealer=NextDealer.LEFT, deal=Deal.WHOLE_PACK, ante=Ante.AGREED_STAKE, end=End.AGREED_HANDS
)
(H7, H6) = cards("7H 6H")


def hand_over(options: Options = ANY_PENALISED) -> SevensState:
    state = run(game(options, SEATS, agreed=Agreed(hands=1)), HandDealt(None), CardPlayed(1, H7))
    for seat in [*range(2, SEATS), 0]:
        state = run(state, Passed(seat))
    state = run(state, CardPlayed(1, H6))
    assert state.stage is Stage.OUT
    return state


def claim(move: int, **shown: str) -> RevokeClaimed:
    return RevokeClaimed(move, tuple((int(seat[1:]), frozenset(cards(text))) for seat, text in shown.items()))


def refused(state: SevensState, event: SevensEvent, why: str) -> None:
    with pytest.raises(RulesError, match=why):
        apply(state, event)


def test_a_pass_costs_one_chip_to_the_pool() -> None:
    """001: "he must add one chip to the center"; 002: "contributes one unit to the pool"."""
    state = hand_over()
    assert state.chips.pool == SEATS + (SEATS - 1)  # each player's stake, and 25 passes
    assert state.chips.seats[2] == 50 - 1 - 1


def test_a_revoke_holding_a_seven_pays_three_to_the_pool_and_five_to_the_six_and_the_eight_in_two_hands() -> None:
    """001: three chips in the centre, and five chips each to the players who have the six and the eight."""
    state = hand_over()
    after = run(state, claim(2, s2="7S 2C", s5="6S 3C", s9="8S 4C"))
    change = [a - b for a, b in zip(after.chips.seats, state.chips.seats, strict=True)]
    assert change[2] == -3 - 5 - 5 and change[5] == 5 and change[9] == 5
    assert sum(change) == -3 and after.chips.pool == state.chips.pool + 3
    assert [r.seat for r in after.showing.revokes] == [2]


def test_a_revoke_holding_a_seven_pays_ten_when_one_hand_holds_the_six_and_the_eight() -> None:
    state = hand_over()
    after = run(state, claim(2, s2="7S 2C", s5="6S 8S"))
    assert after.chips.seats[5] - state.chips.seats[5] == 10
    assert after.chips.seats[2] - state.chips.seats[2] == -13


def test_a_revoke_without_a_seven_pays_three_to_the_pool() -> None:
    """002: "if he revokes, by failing to play when he could do so, he forfeits three units to the pool"."""
    state = hand_over()
    after = run(state, claim(3, s3="8H 2C"))
    assert after.chips.seats[3] - state.chips.seats[3] == -3 and after.chips.pool == state.chips.pool + 3


def test_the_penalties_go_to_the_winner_with_the_pool() -> None:
    """001: the revoke's three chips are added at the end of the hand, before the winner collects the centre."""
    state = run(hand_over(), claim(2, s2="7S 2C", s5="6S 8S"))
    settled = run(state, WentOut(tuple(0 if s == 1 else 2 for s in range(SEATS))))
    assert settled.results[0].pool_taken == SEATS + (SEATS - 1) + 3
    assert settled.chips.seats[1] == 50 - 1 + settled.results[0].pool_taken + 2 * (SEATS - 1)
    assert settled.results[0].revokes == state.showing.revokes


def test_a_claim_needs_the_hands_that_hold_the_six_and_the_eight() -> None:
    state = hand_over()
    refused(state, claim(2, s2="7S 2C"), "show the hand that holds 6♠")
    refused(state, claim(2, s2="7S 2C", s5="6S 3C"), "show the hand that holds 8♠")


def test_an_honest_pass_is_no_revoke() -> None:
    refused(hand_over(), claim(3, s3="3C 2C"), "no revoke: seat 3 could not play at move 3")


@pytest.mark.parametrize(
    ("event", "why"),
    [
        (claim(1, s1=""), "move 1 was not a pass"),
        (claim(99, s2="7S 2C"), "move 99 was not a pass"),
        (claim(2, s3="3C 2C"), "show seat 2's hand"),
        (claim(2, s2="7S"), "seat 2 holds 2 cards by the table's count: 1 shown"),
        (claim(2, s2="7S 7H"), "already played: 7♥"),
        (claim(2, s2="7S 2C", s5="6S 2C"), "2♣ shown in two hands"),
    ],
)
def test_a_claim_against_hands_that_cannot_be_is_refused(event: SevensEvent, why: str) -> None:
    refused(hand_over(), event, why)


def test_a_hand_shown_does_not_change_and_a_revoke_is_claimed_once() -> None:
    state = run(hand_over(), claim(3, s3="8H 2C"))
    refused(state, claim(3, s3="8H 2C"), "already claimed")
    refused(state, claim(2, s2="7S 4C", s3="8H 3C"), "a hand shown does not change")


def test_a_claim_waits_for_the_end_of_the_hand_and_the_settlement_closes_it() -> None:
    state = run(game(ANY_PENALISED, SEATS, agreed=Agreed(hands=2)), HandDealt(None), Passed(1))
    with pytest.raises(GameError, match="once the hand is over"):
        apply(state, claim(1, s1="2C 3C"))
    settled = run(hand_over(), WentOut(tuple(0 if s == 1 else 2 for s in range(SEATS))))
    with pytest.raises(GameError, match="the game is over"):
        apply(settled, claim(2, s2="7S 2C", s5="6S 8S"))


def test_no_revoke_with_virtual_cards_or_without_a_penalty() -> None:
    """Virtual cards: the table refused every pass that could have been a play. 004 sets no penalty."""
    not_penalised = Options(
        players=Players.ANY, deal=Deal.WHOLE_PACK, revoke=Revoke.NOT_PENALISED, end=End.AGREED_HANDS
    )
    refused(hand_over(not_penalised), claim(2, s2="7S 2C", s5="6S 8S"), "no penalty for a revoke")
    assert RULES_004.revoke is Revoke.NOT_PENALISED
    state = dealt(game(ANY_PENALISED, 52, CardMode.VIRTUAL, agreed=Agreed(hands=1)), {1: "7H"})
    state = run(state, CardPlayed(1, H7))
    assert state.stage is Stage.OUT
    refused(state, claim(1, s1=""), "with virtual cards the table refused every pass")
