"""Between rounds players join with their money and leave with it; a rotating game may roll for its first bank."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules import (
    Bet,
    ConfigError,
    Game,
    GameConfig,
    GameError,
    HouseBank,
    Player,
    RotatingBanker,
    Stage,
    Suit,
)
from fantan_table.rules.money import COIN_CENTS

ANN, BOB, CAT, DEE = (
    Player("Ann", Suit.SUNS),
    Player("Bob", Suit.MOONS),
    Player("Cat", Suit.CROWNS),
    Player("Dee", Suit.ARMS),
)


def play(g: Game, open_number: int, bets: dict[str, list[tuple[str, int]]] | None = None) -> None:
    for name, wagers in (bets or {}).items():
        for bet, coins in wagers:
            g.place(name, Bet.parse(bet), coins)
    g.close_bets()
    g.settle(open_number)
    g.next_round()


# -- joining and leaving -------------------------------------------------------------------------
def test_a_player_joins_between_rounds_with_the_money_they_bring() -> None:
    g = Game(GameConfig((ANN, BOB), starting_balance_cents=5000))
    play(g, 1, {"Ann": [("number:1", 2)]})
    g.seat(CAT, 3000)
    assert [p.name for p in g.players] == ["Ann", "Bob", "Cat"] and g.balance("Cat") == 3000
    play(g, 2, {"Cat": [("number:2", 1)]})
    table = g.scoring_table()
    assert table.columns == ("Ann", "Bob", "Cat")
    assert table.labels == ("start", "1", "Cat joins", "2")
    assert table.column("Cat") == (None, None, 3000, 3300)
    assert table.column("Ann") == (5000, 5600, 5600, 5600)


def test_a_player_leaves_with_their_balance_and_their_column_ends() -> None:
    g = Game(GameConfig((ANN, BOB, CAT)))
    play(g, 0, {"Bob": [("number:0", 3)]})
    assert g.leave("Bob") == 5000 + 900
    assert [p.name for p in g.players] == ["Ann", "Cat"]
    with pytest.raises(GameError, match="no player called"):
        g.balance("Bob")
    table = g.scoring_table()
    assert table.labels[-1] == "Bob leaves" and table.column("Bob")[-2:] == (5900, None)


def test_a_player_who_left_can_come_back_to_their_own_column() -> None:
    g = Game(GameConfig((ANN, BOB, CAT)))
    g.leave("Cat")
    g.seat(Player("Cat", Suit.ARMS), 1000)
    table = g.scoring_table()
    assert table.columns == ("Ann", "Bob", "Cat") and table.column("Cat") == (5000, None, 1000)


@pytest.mark.parametrize(
    ("newcomer", "cents", "message"),
    [
        (Player("Dee", Suit.SUNS), 1000, "suns are Ann's coins: the free suits are crowns, arms"),
        (Player("ann", Suit.ARMS), 1000, "names must differ"),
        (DEE, 99, "at least"),
        (DEE, 10.5, "whole cents"),
    ],
)
def test_a_newcomer_is_refused_for_the_rule_they_break(newcomer: Player, cents, message: str) -> None:
    g = Game(GameConfig((ANN, BOB)))
    with pytest.raises((ConfigError, GameError), match=message):
        g.seat(newcomer, cents)
    assert [p.name for p in g.players] == ["Ann", "Bob"] and len(g.scoring_table().rows) == 1


def test_a_fifth_player_finds_no_seat() -> None:
    g = Game(GameConfig((ANN, BOB, CAT, DEE)))
    with pytest.raises(GameError, match="the table is full: 4 players, one for each suit"):
        g.seat(Player("Eve", Suit.SUNS), 1000)


def test_the_last_two_cannot_leave_one_alone() -> None:
    g = Game(GameConfig((ANN, BOB)))
    with pytest.raises(GameError, match="Ann and Bob are the last two: end the game instead"):
        g.leave("Bob")
    assert g.balance("Bob") == 5000


def test_seats_change_only_between_rounds() -> None:
    g = Game(GameConfig((ANN, BOB, CAT)))
    g.place("Ann", Bet.parse("number:1"))
    with pytest.raises(GameError, match="Ann has coins on the layout"):
        g.leave("Ann")
    g.leave("Cat")  # another player's coins on the layout do not keep her
    g.close_bets()
    with pytest.raises(GameError, match="cannot seat a player now: betting is closed"):
        g.seat(DEE, 1000)
    g.settle(1)
    g.seat(DEE, 1000)  # the result on show: between rounds
    g.next_round()
    assert g.stage is Stage.BETTING and g.balance("Dee") == 1000


def test_nobody_joins_a_game_that_is_over() -> None:
    g = Game(GameConfig((ANN, BOB)))
    g.end()
    with pytest.raises(GameError, match="cannot seat a player now"):
        g.seat(CAT, 1000)


def test_the_banker_leaving_hands_the_bank_on() -> None:
    g = Game(GameConfig((ANN, BOB, CAT), banker=RotatingBanker(every_rounds=3, first="Bob")))
    assert g.banker == "Bob"
    g.leave("Bob")
    assert g.banker == "Cat" and g.config.banker == RotatingBanker(3, None)
    play(g, 1, {"Ann": [("number:1", 1)]})
    assert g.banker == "Cat"  # a new banker's rounds count from the start


def test_a_round_a_departed_player_played_cannot_be_corrected() -> None:
    g = Game(GameConfig((ANN, BOB, CAT)))
    play(g, 1, {"Cat": [("number:1", 1)]})
    g.leave("Cat")
    with pytest.raises(GameError, match="Cat left the table since round 1"):
        g.correct(1, 2)


def test_a_leave_that_would_leave_nobody_able_to_bet_is_refused() -> None:
    g = Game(GameConfig((ANN, BOB, CAT), starting_balance_cents=100))
    play(g, 1, {"Ann": [("number:2", 1)], "Bob": [("number:2", 1)]})  # both lose their only dollar
    with pytest.raises(GameError, match="nobody left could bet if Cat left.*seat a newcomer first"):
        g.leave("Cat")
    g.seat(DEE, 500)
    g.leave("Cat")
    assert g.stage is Stage.BETTING and not g.is_over


def test_a_banker_leaving_with_others_to_bet_hands_on_but_not_to_the_only_bettor() -> None:
    g = Game(GameConfig((ANN, BOB, CAT), starting_balance_cents=100, banker=RotatingBanker(5)))
    play(g, 2, {"Bob": [("number:1", 1)]})  # Bob loses his only dollar to Ann's bank
    with pytest.raises(GameError, match="nobody left could bet if Ann left"):
        g.leave("Ann")  # Cat would bank, and Bob has nothing


def test_the_banker_cannot_leave_while_coins_are_down() -> None:
    g = Game(GameConfig((ANN, BOB, CAT), banker=RotatingBanker(3)))
    g.place("Bob", Bet.parse("number:1"), 2)
    with pytest.raises(GameError, match="Ann banks this round: the bank passes on between rounds"):
        g.leave("Ann")
    g.remove("Bob", Bet.parse("number:1"), 2)
    g.leave("Ann")
    assert g.banker == "Bob"


def test_a_player_named_house_cannot_sit_at_a_house_bank() -> None:
    with pytest.raises(ConfigError, match="column in the scoring table is called House"):
        GameConfig((ANN, Player("house", Suit.ARMS)), banker=HouseBank(1000))
    g = Game(GameConfig((ANN, BOB), banker=HouseBank(1000)))
    with pytest.raises(ConfigError, match="called House"):
        g.seat(Player("House", Suit.ARMS), 500)


def test_a_player_is_found_whatever_the_case_typed() -> None:
    g = Game(GameConfig((ANN, BOB, CAT)))
    assert g.leave("cat") == 5000 and [p.name for p in g.players] == ["Ann", "Bob"]


@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("round"), st.integers(0, 3), st.integers(0, 3), st.integers(1, 3)),
            st.tuples(st.just("seat"), st.sampled_from([ANN, BOB, CAT, DEE]), st.integers(1, 80)),
            st.tuples(st.just("leave"), st.sampled_from(["Ann", "Bob", "Cat", "Dee"])),
        ),
        max_size=30,
    ),
    st.booleans(),
)
def test_money_is_conserved_through_comings_and_goings(steps, house_bank: bool) -> None:
    """What the players and the bank hold, plus what left the table, less what was brought, never changes."""
    banker = HouseBank(10_000) if house_bank else RotatingBanker(2)
    g = Game(GameConfig((ANN, BOB), banker=banker))
    brought = taken = 0

    def held() -> int:
        return sum(g.balances.values()) + (g.house_cents or 0)

    start = held()
    for step in steps:
        if g.is_over:
            break
        try:
            match step:
                case ("round", open_number, spot, coins):
                    for p in g.players:
                        if g.can_bet(p.name) and g.balance(p.name) >= coins * COIN_CENTS:
                            g.place(p.name, Bet.parse(f"number:{spot}"), coins)
                    g.close_bets()
                    g.settle(open_number)
                    g.next_round()
                case ("seat", player, dollars):
                    g.seat(player, dollars * COIN_CENTS)
                    brought += dollars * COIN_CENTS
                case ("leave", name):
                    taken += g.leave(name)
        except (GameError, ConfigError):
            pass
        assert held() + taken - brought == start


# -- rolling for the first bank ----------------------------------------------------------------------
def rolling(*players: Player) -> Game:
    return Game(GameConfig(players, banker=RotatingBanker(every_rounds=2, by_roll=True)))


def test_a_game_that_rolls_for_its_bank_starts_with_the_roll() -> None:
    g = rolling(ANN, BOB, CAT)
    assert g.stage is Stage.CHOOSING and g.banker is None and g.round == 1
    with pytest.raises(GameError, match="cannot place a bet now: the players are rolling for the bank"):
        g.place("Ann", Bet.parse("number:1"))
    with pytest.raises(GameError, match="not decided yet: Ann rolls next"):
        g.next_round()
    g.roll_for_bank([1, 2, 3, 4])
    g.roll_for_bank([5, 5, 4, 4])
    g.roll_for_bank([0, 1, 0, 1])
    g.next_round()
    assert g.stage is Stage.BETTING and g.banker == "Bob" and g.round == 1
    assert not g.can_bet("Bob") and g.can_bet("Ann")


def test_the_drawn_banker_banks_their_rounds_then_the_bank_rotates_on() -> None:
    g = rolling(ANN, BOB, CAT)
    for dice in ([0, 0, 0, 0], [1, 1, 1, 1], [5, 5, 5, 5]):
        g.roll_for_bank(dice)
    g.next_round()
    play(g, 1)
    assert g.banker == "Cat"
    play(g, 1)
    assert g.banker == "Ann"  # every 2 rounds, on round the seats from the drawn banker


def test_the_roll_is_only_before_the_first_round() -> None:
    g = Game(GameConfig((ANN, BOB), banker=RotatingBanker(every_rounds=2)))
    with pytest.raises(GameError, match="cannot record a reading now"):
        g.roll_for_bank([1, 1, 1, 1])


def test_a_named_first_banker_and_a_roll_are_one_choice_too_many() -> None:
    with pytest.raises(ConfigError, match="choose one"):
        GameConfig((ANN, BOB), banker=RotatingBanker(2, first="Ann", by_roll=True))


def test_a_raid_during_the_roll_resumes_the_roll() -> None:
    g = rolling(ANN, BOB)
    g.roll_for_bank([3, 3, 3, 3])
    g.raid()
    g.resume()
    assert g.stage is Stage.CHOOSING and g.draw is not None and g.draw.to_roll == "Bob"
