"""A whole game: antes, the winner's take, points, the dealer moving on, the end, and the hosted-game adapter."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from fantan_table.rules.errors import ConfigError, GameError, RulesError
from fantan_table.rules.sevens.events import (
    CardPlayed,
    DealerChosen,
    Faulted,
    HandDealt,
    Passed,
    ResultShown,
    SevensSetup,
    WentOut,
)
from fantan_table.rules.sevens.game import EndReason, SevensState, Stage, apply, start
from fantan_table.rules.sevens.hosted import SEVENS
from fantan_table.rules.sevens.options import (
    RULES_001,
    RULES_002,
    RULES_004,
    Agreed,
    Ante,
    CardMode,
    Deal,
    End,
    NextDealer,
    Options,
    Players,
    Scoring,
)

from .tables import NAMES, cards, dealt, game, run

AT = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
ONE_EACH = Options(players=Players.ANY, deal=Deal.WHOLE_PACK, end=End.AGREED_HANDS)
"""52 players hold a card each: the player holding a seven on the dealer's left goes out at once."""
(H7,) = cards("7H")


def one_card_hand(options: Options = ONE_EACH, agreed: Agreed | None = None, dealer: int = 0) -> SevensState:
    """Seat ``dealer + 1`` goes out with 7♥ on the first move."""
    state = dealt(game(options, 52, CardMode.VIRTUAL, agreed or Agreed(hands=3), dealer), {(dealer + 1) % 52: "7H"})
    return run(state, CardPlayed((dealer + 1) % 52, H7))


def settle(state: SevensState) -> SevensState:
    follow = SEVENS.follow_up(state)
    assert isinstance(follow, WentOut)
    return apply(state, follow)


def test_001_each_player_antes_one_chip_and_a_short_hand_one_more() -> None:
    """001: each adds one chip after the deal; those dealt fewer cards add one more."""
    state = run(game(RULES_001, 3, dealer=2), HandDealt(None))
    assert state.antes == (1, 2, 2) and state.chips.pool == 5
    assert state.chips.seats == (49, 48, 48)


def test_002_each_player_puts_the_agreed_stake_in_the_pool() -> None:
    state = run(game(RULES_002, 5, agreed=Agreed(hands=1, stake=3), dealer=0), HandDealt(None))
    assert state.antes == (3,) * 5 and state.chips.pool == 15


def test_004s_chip_game_has_no_ante() -> None:
    options = Options(players=Players.TWO_TO_SIX, deal=Deal.EQUAL_HANDS, ante=Ante.NONE, end=End.AGREED_HANDS)
    state = run(game(options, 4), HandDealt(None))
    assert state.chips.pool == 0


def test_the_winner_takes_the_pool_and_a_chip_per_card_left_in_each_other_hand() -> None:
    """001, 002, 004 (chips): the pool, and from each other player one chip per card he holds."""
    state = settle(one_card_hand())
    result = state.results[0]
    assert result.winner == 1 and result.pool_taken == 52
    assert result.chips[1] == -1 + 52 + 51 and result.chips[0] == -2
    assert state.chips.pool == 0 and sum(state.chips.seats) == 52 * 50


def test_004_points_the_winner_scores_a_point_per_card_left_and_no_chip_moves() -> None:
    options = Options(players=Players.ANY, deal=Deal.WHOLE_PACK, scoring=Scoring.POINTS, end=End.POINTS_TARGET)
    state = settle(one_card_hand(options, Agreed(points_target=60)))
    assert state.points[1] == 51 and sum(state.points) == 51
    assert set(state.chips.seats) == {0} and state.stage is Stage.DEAL


def test_004_the_first_to_the_points_target_wins() -> None:
    options = Options(players=Players.ANY, deal=Deal.WHOLE_PACK, scoring=Scoring.POINTS, end=End.POINTS_TARGET)
    state = settle(one_card_hand(options, Agreed(points_target=51)))  # exactly reached: 51 cards left
    assert state.stage is Stage.OVER and state.end is EndReason.TARGET and state.winners == (1,)
    with pytest.raises(GameError, match="the game is over: a player reached the points target"):
        apply(state, HandDealt(None))


def test_001_a_player_out_of_chips_ends_the_game_at_the_end_of_that_hand() -> None:
    """001: "the game ends at the completion of the current hand, with the player having the most chips declared the
    winner"."""
    options = Options(players=Players.ANY, deal=Deal.WHOLE_PACK)
    state = one_card_hand(options, Agreed(hands=5, starting_chips=1))
    assert min(state.chips.seats) == 0 and state.stage is Stage.OUT, "a player out of chips plays the hand out"
    state = settle(state)
    assert state.end is EndReason.BROKE and state.winners == (1,)
    exactly_none_left = settle(one_card_hand(options, Agreed(hands=5, starting_chips=2)))  # the ante and a card
    assert min(exactly_none_left.chips.seats) == 0 and exactly_none_left.end is EndReason.BROKE


def test_the_game_ends_after_the_agreed_hands_with_the_most_chips_winning() -> None:
    state = settle(one_card_hand(agreed=Agreed(hands=1)))
    assert state.end is EndReason.HANDS and state.winners == (1,) and state.stage is Stage.OVER


@pytest.mark.parametrize(("next_dealer", "expected"), [(NextDealer.WINNER, 7), (NextDealer.LEFT, 6)])
def test_001_the_winner_deals_next_and_002_the_deal_passes_left(next_dealer: NextDealer, expected: int) -> None:
    """Seat 6 (the dealer's left) cannot play and passes; seat 7 goes out with 7♥."""
    options = Options(players=Players.ANY, deal=Deal.WHOLE_PACK, end=End.AGREED_HANDS, next_dealer=next_dealer)
    state = dealt(game(options, 52, CardMode.VIRTUAL, dealer=5), {6: "2C", 7: "7H"})
    state = settle(run(state, Passed(6), CardPlayed(7, H7)))
    assert state.results[0].winner == 7 and state.dealer == expected


def test_the_first_dealer_is_chosen_once() -> None:
    state = game(RULES_001, 3)
    with pytest.raises(GameError, match="the first dealer is chosen once"):
        apply(state, DealerChosen(cards("JH")))
    fresh = start(SevensSetup(NAMES[:3], RULES_001, Agreed(hands=1), CardMode.PHYSICAL))
    with pytest.raises(GameError, match="a hand is dealt once the dealer is known"):
        apply(fresh, HandDealt(None))


def test_a_setup_the_rules_cannot_play_is_refused() -> None:
    with pytest.raises(ConfigError, match="2 players"):
        start(SevensSetup(NAMES[:2], RULES_001, Agreed(hands=1), CardMode.PHYSICAL))
    with pytest.raises(ConfigError, match="two players with one name"):
        start(SevensSetup(("Ann", "ann", "Bob"), RULES_001, Agreed(hands=1), CardMode.PHYSICAL))
    with pytest.raises(ConfigError, match="agree a number of hands"):
        start(SevensSetup(NAMES[:3], RULES_001, Agreed(), CardMode.PHYSICAL))
    with pytest.raises(GameError, match="set up once"):
        apply(game(RULES_001, 3), SevensSetup(NAMES[:3], RULES_001, Agreed(hands=1), CardMode.PHYSICAL))


def test_a_refused_event_leaves_the_state_as_it_was() -> None:
    state = one_card_hand()
    kept = repr(state)
    with pytest.raises(RulesError, match="by the table's count"):
        apply(state, WentOut((0,) * 52))
    assert repr(state) == kept


# -- the adapter -------------------------------------------------------------------------------------------------
def test_a_hand_over_with_virtual_cards_settles_by_itself_but_not_with_real_ones() -> None:
    assert SEVENS.follow_up(one_card_hand()) == WentOut(tuple(0 if s == 1 else 1 for s in range(52)))
    real = run(game(ONE_EACH, 52), HandDealt(None), CardPlayed(1, H7))
    assert real.stage is Stage.OUT and SEVENS.follow_up(real) is None


def test_a_result_is_shown_once_and_the_round_moves_on_after_it() -> None:
    state = one_card_hand()
    assert SEVENS.round_of(state) == 1 and SEVENS.seen(state) is None
    state = settle(state)
    assert SEVENS.round_of(state) == 1 and SEVENS.seen(state) == ResultShown()
    state = SEVENS.apply(state, ResultShown(), AT)
    assert SEVENS.round_of(state) == 2 and SEVENS.seen(state) is None
    with pytest.raises(GameError, match="no hand's result waits to be shown"):
        SEVENS.apply(state, ResultShown(), AT)


def test_present_lights_the_seat_to_play_for_four_players_at_most() -> None:
    state = run(game(RULES_001, 4, dealer=1), HandDealt(None))
    shown = SEVENS.present(state)
    assert (shown.stage, shown.round, shown.accepting, shown.lit, shown.over) == ("playing", 1, True, 2, None)
    five = run(game(RULES_001, 5, dealer=1), HandDealt(None))
    assert SEVENS.present(five).lit is None
    assert SEVENS.present(game(RULES_001, 4)).accepting is False
    over = settle(one_card_hand(agreed=Agreed(hands=1)))
    assert SEVENS.present(over).over == "the agreed hands are played"


def test_a_fault_changes_nothing() -> None:
    state = game(RULES_004, 3, agreed=Agreed())
    assert SEVENS.apply(state, Faulted("the camera fell"), AT) == state


def test_the_adapter_starts_only_from_a_setup() -> None:
    with pytest.raises(GameError, match="does not start with a game's setup"):
        SEVENS.start(HandDealt(None))
    assert SEVENS.name == "sevens"
