"""What the display and LEDs show at each stage of a round."""

from __future__ import annotations

from fantan_table.devices.display.screens import BetsClosed, BetsOpen, Blank, GameOver, PlayerLine, Problem, Result
from fantan_table.rules.game import GameConfig, Player, RotatingBanker, Suit
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.table import Table
from fantan_table.table.show.present import Lights, lights_for, screens_for
from fantan_table.vision.reader import Status

from .conftest import reading


def test_each_stage_has_its_screen_and_lights(table: Table) -> None:
    assert screens_for(table.state) == [BetsOpen(1)] and lights_for(table.state) == Lights(True, None)
    table.place("Ann", "number:1", 2)
    table.close_bets()
    assert screens_for(table.state) == [BetsClosed(1)] and lights_for(table.state) == Lights(False, None)
    table.record_reading(reading((1, 2), Status.UNSURE, message="found 2 dice, expected 4"))
    assert screens_for(table.state) == [Problem("RE-ROLL", "shake again, bets stand: found 2 dice, expected 4")]
    table.record_reading(reading((1, 2, 3, 3)))
    screens = screens_for(table.state)
    assert screens[0] == Result(1, (1, 2, 3, 3), 1) and lights_for(table.state) == Lights(False, 1)
    assert screens[1].lines == (PlayerLine("Ann", 600, 5600), PlayerLine("Bob", 0, 5000))
    table.raid()
    assert screens_for(table.state) == [Blank()]


def test_a_void_round_says_why(table: Table) -> None:
    table.close_bets()
    table.void("the cup fell off the table")
    first = screens_for(table.state)[0]
    assert isinstance(first, Problem) and first.heading == "VOID"


def test_the_banking_player_sees_the_bank_take(journal: Journal) -> None:
    game = GameConfig((Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS)), banker=RotatingBanker(5, "Bob"))
    table = Table(journal, game)
    table.place("Ann", "number:1", 2)
    table.close_bets()
    table.enter_dice([1, 0, 0, 0])
    lines = screens_for(table.state)[1].lines
    assert lines == (PlayerLine("Ann", 600, 5600), PlayerLine("Bob", -600, 4400))


def test_game_over_shows_the_final_balances(journal: Journal) -> None:
    from fantan_table.rules.game import AfterRounds

    table = Table(journal, GameConfig((Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS)), end=AfterRounds(1)))
    table.close_bets()
    table.enter_dice([0, 0, 0, 0])
    table.next_round()
    assert screens_for(table.state) == [GameOver("all rounds played", (("Ann", 5000), ("Bob", 5000)))]
