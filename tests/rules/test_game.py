from datetime import UTC, datetime, timedelta

import pytest

from fantan_table.rules import (
    AfterRounds,
    AtTime,
    BankerBankrupt,
    Bet,
    BetError,
    ConfigError,
    EndReason,
    FirstBankrupt,
    Game,
    GameConfig,
    GameError,
    HouseBank,
    Player,
    RotatingBanker,
    SecondLastBankrupt,
    ShortBank,
    Stage,
    StakeError,
    Suit,
    UntilRaid,
    Variant,
)

COLIN, STEVE, DEAN, GRAEME = (
    Player("Colin", Suit.SUNS),
    Player("Steve", Suit.MOONS),
    Player("Dean", Suit.ARMS),
    Player("Graeme", Suit.CROWNS),
)
NOON = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def game(**kwargs) -> Game:
    kwargs.setdefault("players", (COLIN, STEVE))
    return Game(GameConfig(**kwargs))


def play(g: Game, open_number: int, bets: dict[str, list[tuple[Bet, int]]] | None = None, at=None):
    for name, wagers in (bets or {}).items():
        for bet, coins in wagers:
            g.place(name, bet, coins)
    g.close_bets()
    report = g.settle(open_number, at)
    g.next_round(at)
    return report


# -- set-up --------------------------------------------------------------------------------
def test_defaults_follow_the_seed():
    g = game(players=(COLIN, STEVE, DEAN, GRAEME))
    assert g.balances == {"Colin": 5000, "Steve": 5000, "Dean": 5000, "Graeme": 5000}
    assert g.banker is None and g.house_cents is None
    assert g.stage is Stage.BETTING and g.round == 1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": (COLIN,)}, "2 to 4 players"),
        ({"players": (COLIN, STEVE, DEAN, GRAEME, Player("Eve", Suit.SUNS))}, "2 to 4 players"),
        ({"players": (COLIN, Player("colin ", Suit.MOONS))}, "names must differ"),
        ({"players": (COLIN, Player("Steve", Suit.SUNS))}, "suits repeat"),
        ({"starting_balance_cents": 99}, "at least \\$1.00"),
        ({"starting_balance_cents": 50.0}, "whole cents"),
        ({"banker": HouseBank(0)}, "house bank balance"),
        ({"banker": RotatingBanker(0)}, "every N rounds"),
        ({"banker": RotatingBanker(2, first="Zed")}, "not one of the players"),
        ({"end": AfterRounds(0)}, "rounds must be"),
        ({"end": AtTime(datetime(2026, 1, 1))}, "time zone"),
        ({"end": BankerBankrupt()}, "needs a house bank or a rotating banker"),
    ],
)
def test_bad_setups_are_refused_with_the_reason(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        game(**kwargs)


# -- betting -------------------------------------------------------------------------------
def test_bets_stack_and_can_be_taken_back_while_open():
    g = game()
    g.place("Colin", Bet.side(0, 1), 2)
    g.place("Colin", Bet.side(0, 1), 1)
    g.place("Colin", Bet.number(3))
    assert [(str(w.bet), w.coins) for w in g.wagers("Colin")] == [("side:0-1", 3), ("number:3", 1)]
    g.remove("Colin", Bet.side(0, 1), 2)
    g.remove("Colin", Bet.number(3))
    assert [(str(w.bet), w.coins) for w in g.wagers("Colin")] == [("side:0-1", 1)]
    with pytest.raises(GameError, match="has 1 coin\\(s\\) on side:0-1, so cannot take back 2"):
        g.remove("Colin", Bet.side(0, 1), 2)


def test_no_bet_after_no_more_bets():
    g = game()
    g.place("Colin", Bet.number(1))
    g.close_bets()
    with pytest.raises(GameError, match="betting is closed"):
        g.place("Steve", Bet.number(2))
    with pytest.raises(GameError, match="betting is closed"):
        g.remove("Colin", Bet.number(1))
    assert g.wagers("Steve") == ()


def test_settle_needs_closed_betting():
    g = game()
    with pytest.raises(GameError, match="call 'no more bets' first"):
        g.settle(0)


def test_stake_limits_apply_to_the_round_total():
    g = game(starting_balance_cents=300)
    g.place("Colin", Bet.number(0), 2)
    with pytest.raises(StakeError, match="more than their balance"):
        g.place("Colin", Bet.side(0, 1), 2)
    g2 = game()
    g2.place("Colin", Bet.number(0), 4)
    with pytest.raises(StakeError, match="at most 5"):
        g2.place("Colin", Bet.number(1), 2)


def test_variants_must_be_enabled():
    with pytest.raises(BetError, match="need the variant"):
        game().place("Colin", Bet.corner(0))
    g = game(variants=Variant.CORNERS)
    g.place("Colin", Bet.corner(0))


def test_unknown_player_is_named():
    with pytest.raises(GameError, match="no player called 'Zed'; the players are Colin, Steve"):
        game().place("Zed", Bet.number(0))


def test_bankrupt_player_cannot_bet():
    g = game(starting_balance_cents=100, end=UntilRaid())
    play(g, 1, {"Colin": [(Bet.number(0), 1)], "Steve": [(Bet.number(1), 1)]})
    assert g.balance("Colin") == 0
    with pytest.raises(StakeError, match="Colin is bankrupt"):
        g.place("Colin", Bet.number(0))


# -- settling and the scoring table --------------------------------------------------------------
def test_round_report_and_scoring_table_keep_history():
    g = game(players=(COLIN, STEVE, DEAN))
    report = play(g, 2, {"Colin": [(Bet.number(2), 1)], "Steve": [(Bet.side(0, 1), 5)]})
    assert report.round == 1 and report.open_number == 2
    assert [(s.player, s.delta_cents) for s in report.players] == [("Colin", 300), ("Steve", -500), ("Dean", 0)]
    assert report.banker_delta_cents == 200
    play(g, 0, {"Steve": [(Bet.side(0, 1), 1)]})
    table = g.scoring_table()
    assert table.columns == ("Colin", "Steve", "Dean")
    assert table.column("Steve") == (5000, 4500, 4600)
    assert g.round == 3 and g.stage is Stage.BETTING
    assert all(g.wagers(p.name) == () for p in g.players)


def test_void_returns_every_stake_and_does_not_count_as_played():
    g = game(end=AfterRounds(1))
    g.place("Colin", Bet.number(2), 5)
    g.close_bets()
    report = g.void()
    g.next_round()
    assert report.voided and report.open_number is None
    assert g.balances == {"Colin": 5000, "Steve": 5000}
    assert not g.is_over and g.round == 2 and g.rounds_played == 0
    assert g.scoring_table().rows == ((5000, 5000), (5000, 5000))


# -- end conditions -------------------------------------------------------------------------------
def test_agreed_rounds():
    g = game(end=AfterRounds(2))
    play(g, 0)
    assert not g.is_over
    play(g, 1)
    assert g.is_over and g.end_reason is EndReason.ROUNDS
    with pytest.raises(GameError, match="the game is over \\(the agreed rounds are played\\)"):
        g.place("Colin", Bet.number(0))


def test_time_reached_ends_after_the_round_under_way():
    g = game(end=AtTime(NOON))
    play(g, 0, at=NOON - timedelta(minutes=1))
    assert not g.is_over
    play(g, 0, at=NOON)
    assert g.end_reason is EndReason.TIME


def test_time_reached_between_rounds():
    g = game(end=AtTime(NOON))
    assert not g.finish_if_due(NOON - timedelta(seconds=1))
    g.place("Colin", Bet.number(0))
    assert not g.finish_if_due(NOON)  # a coin is down: the round is played out first
    g.remove("Colin", Bet.number(0))
    assert g.finish_if_due(NOON) and g.end_reason is EndReason.TIME


def test_first_bankrupt():
    g = game(players=(COLIN, STEVE, DEAN), starting_balance_cents=200, end=FirstBankrupt())
    play(g, 3, {"Colin": [(Bet.number(0), 1)]})
    assert not g.is_over
    play(g, 3, {"Colin": [(Bet.number(0), 1)]})
    assert g.end_reason is EndReason.FIRST_BANKRUPT


def test_second_last_bankrupt():
    g = game(players=(COLIN, STEVE, DEAN), starting_balance_cents=100, end=SecondLastBankrupt())
    play(g, 3, {"Colin": [(Bet.number(0), 1)]})
    assert not g.is_over
    play(g, 3, {"Steve": [(Bet.number(0), 1)]})
    assert g.end_reason is EndReason.SECOND_LAST_BANKRUPT


def test_house_bank_goes_bankrupt():
    g = game(banker=HouseBank(500), end=BankerBankrupt())
    play(g, 0, {"Colin": [(Bet.number(0), 1)]})
    assert g.house_cents == 200 and not g.is_over
    assert g.scoring_table().columns == ("Colin", "Steve", "House")
    play(g, 0, {"Colin": [(Bet.number(0), 1)]})
    assert g.house_cents == -100 and g.end_reason is EndReason.BANKER_BANKRUPT


def test_house_bank_that_cannot_pay_stops_any_game():
    g = game(banker=HouseBank(300), end=AfterRounds(10))
    play(g, 0, {"Colin": [(Bet.number(0), 1)]})
    assert g.end_reason is EndReason.BANKER_BANKRUPT


def test_rotating_banker_goes_bankrupt():
    g = game(players=(COLIN, STEVE), starting_balance_cents=200, banker=RotatingBanker(3), end=BankerBankrupt())
    play(g, 0, {"Steve": [(Bet.number(0), 1)]})
    assert g.balances == {"Colin": -100, "Steve": 500}
    assert g.end_reason is EndReason.BANKER_BANKRUPT


# -- a bank that holds less than the wins ---------------------------------------------------------------------
def test_a_short_house_bank_owes_by_default_and_is_bankrupt():
    g = game(banker=HouseBank(2000), end=AfterRounds(10))
    report = play(g, 0, {"Colin": [(Bet.number(0), 5)], "Steve": [(Bet.number(0), 5)]})  # $30 of wins from $20
    assert report.bank_after_cents == -1000 and report.bank_short and report.unpaid_cents == 0
    assert g.balances == {"Colin": 6500, "Steve": 6500} and g.end_reason is EndReason.BANKER_BANKRUPT


def test_a_short_house_bank_in_proportion_pays_what_it_holds():
    g = game(banker=HouseBank(2000), end=AfterRounds(10), short_bank=ShortBank.IN_PROPORTION)
    report = play(g, 0, {"Colin": [(Bet.number(0), 5)], "Steve": [(Bet.number(0), 1)]})  # wins $15 + $3 from $20
    assert [(s.delta_cents, s.unpaid_cents) for s in report.players] == [(1500, 0), (300, 0)]  # $18 <= $20: all paid
    assert g.house_cents == 200 and not report.bank_short and not g.is_over
    g = game(banker=HouseBank(1000), end=AfterRounds(10), short_bank=ShortBank.IN_PROPORTION)
    report = play(g, 0, {"Colin": [(Bet.number(0), 5)], "Steve": [(Bet.number(1), 1)]})  # $15 won; $10 + $1 held
    assert [(s.delta_cents, s.unpaid_cents) for s in report.players] == [(1100, 400), (-100, 0)]
    assert g.house_cents == 0 and g.balances == {"Colin": 6100, "Steve": 4900}


def test_cents_left_by_proportion_go_to_the_largest_remainders_in_seat_order():
    players = (COLIN, STEVE, DEAN)
    g = game(players=players, banker=HouseBank(100), end=AfterRounds(10), short_bank=ShortBank.IN_PROPORTION)
    report = play(g, 0, {name: [(Bet.number(0), 1)] for name in ("Colin", "Steve", "Dean")})  # $9 won, $1 held
    assert [s.delta_cents for s in report.players] == [34, 33, 33] and g.house_cents == 0


def test_a_short_rotating_banker_owes_and_hands_the_bank_on():
    g = game(players=(COLIN, STEVE, DEAN), starting_balance_cents=500, banker=RotatingBanker(3))
    report = play(g, 0, {"Steve": [(Bet.number(0), 5)], "Dean": [(Bet.number(0), 5)]})  # Colin banks $5 against $30
    assert report.bank_after_cents == -2500 and report.bank_short and g.balances["Colin"] == -2500
    assert g.banker == "Steve" and not g.can_bet("Colin")


def test_a_short_rotating_banker_in_proportion_pays_all_it_has():
    g = game(
        players=(COLIN, STEVE, DEAN),
        starting_balance_cents=500,
        banker=RotatingBanker(3),
        short_bank=ShortBank.IN_PROPORTION,
    )
    report = play(g, 0, {"Steve": [(Bet.number(0), 5)], "Dean": [(Bet.number(0), 5)]})
    assert [s.delta_cents for s in report.players if s.player != "Colin"] == [250, 250]
    assert report.unpaid_cents == 2500 and g.balances["Colin"] == 0 and g.banker == "Steve"


def test_the_house_that_only_keeps_score_pays_every_win_whatever_the_rule():
    g = game(short_bank=ShortBank.IN_PROPORTION)
    report = play(g, 0, {"Colin": [(Bet.number(0), 5)]})
    assert report.bank_after_cents is None and not report.bank_short and g.balances["Colin"] == 6500


def test_police_raid_ends_at_once_and_can_resume():
    g = game(end=UntilRaid())
    g.place("Colin", Bet.number(2), 3)
    g.close_bets()
    g.raid()
    assert g.is_over and g.end_reason is EndReason.RAID
    with pytest.raises(GameError, match="raided by the police"):
        g.settle(2)
    g.resume()
    assert g.stage is Stage.CLOSED and g.wagers("Colin")[0].coins == 3
    assert g.settle(2).players[0].delta_cents == 900
    with pytest.raises(GameError, match="only a game stopped by a police raid"):
        g.resume()


def test_nobody_left_who_can_bet():
    g = game(starting_balance_cents=100)
    play(g, 3, {"Colin": [(Bet.number(0), 1)], "Steve": [(Bet.number(0), 1)]})
    assert g.end_reason is EndReason.NOBODY_CAN_BET


# -- the rotating banker --------------------------------------------------------------------------
def test_bank_rotates_every_n_rounds_in_seat_order():
    g = game(players=(COLIN, STEVE, DEAN), banker=RotatingBanker(2, first="Steve"))
    bankers = []
    for _ in range(6):
        bankers.append(g.banker)
        play(g, 1)
    assert bankers == ["Steve", "Steve", "Dean", "Dean", "Colin", "Colin"]


def test_banker_keeps_losses_pays_wins_and_does_not_bet():
    g = game(players=(COLIN, STEVE, DEAN), banker=RotatingBanker(5))
    with pytest.raises(GameError, match="Colin is the banker this round, and the banker does not bet"):
        g.place("Colin", Bet.number(0))
    report = play(g, 1, {"Steve": [(Bet.number(1), 1)], "Dean": [(Bet.side(2, 3), 4)]})
    assert report.banker == "Colin" and report.banker_delta_cents == -300 + 400
    assert g.balances == {"Colin": 5100, "Steve": 5300, "Dean": 4600}


def test_bank_skips_a_player_with_nothing_to_pay_with():
    g = game(players=(COLIN, STEVE, DEAN), starting_balance_cents=100, banker=RotatingBanker(1))
    play(g, 3, {"Steve": [(Bet.number(0), 1)]})  # Steve loses his last dollar to Colin
    assert g.balance("Steve") == 0
    assert g.banker == "Dean"


def test_a_broken_banker_hands_the_bank_on_at_once():
    g = game(players=(COLIN, STEVE, DEAN), starting_balance_cents=200, banker=RotatingBanker(5))
    play(g, 0, {"Steve": [(Bet.number(0), 1)]})
    assert g.balance("Colin") == -100
    assert g.banker == "Steve"
