"""Between hands the display says what moves the night on (the panel's NEXT ROUND), as Fan Tan's screens say
"place your coins" and "lift the cup": a newcomer banking card Fan Tan or Collecting Tens is never left guessing."""

from __future__ import annotations

from pathlib import Path

from fantan_table.devices.display.screens import Screen, text_lines
from fantan_table.rules.sevens.events import SevensSetup
from fantan_table.rules.sevens.options import RULES_001, Agreed, CardMode
from fantan_table.rules.tens.options import Dominoes, TensConfig
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.sevens_table import SevensTable
from fantan_table.table.core.tens_table import TensTable
from fantan_table.table.show.sevens_present import sevens_screens
from fantan_table.table.show.tens_present import tens_screens

PLAYERS = ("Ann", "Bob", "Cy")
COMPLETE = ("6-6", "6-6", "6-4", "6-4", "6-2", "1-1", "5-5", "5-5", "5-3", "1-1")


def said(screens: list[Screen]) -> list[list[str]]:
    return [text_lines(s) for s in screens]


def test_sevens_says_who_deals_and_to_press_next_round(tmp_path: Path) -> None:
    virtual = SevensTable(Journal(tmp_path / "v"), SevensSetup(PLAYERS, RULES_001, Agreed(hands=1), CardMode.VIRTUAL))
    assert said(sevens_screens(virtual.state)) == [["SEVENS", "DEALER?", "who deals first:", "press NEXT ROUND"]]
    virtual.choose_dealer(["4H", "JS"])
    assert said(sevens_screens(virtual.state))[-1] == ["Hand 1  pool 0", "DEAL", "Bob's deal:", "press NEXT ROUND"]
    virtual.journal.close()
    real = SevensTable(Journal(tmp_path / "r"), SevensSetup(PLAYERS, RULES_001, Agreed(hands=1), CardMode.PHYSICAL))
    assert said(sevens_screens(real.state))[0][2:] == ["who deals first:", "enter the cards"]
    real.choose_dealer(["4H", "JS"])
    assert said(sevens_screens(real.state))[-1][2:] == ["Bob deals,", "then NEXT ROUND"]
    real.journal.close()


def test_collecting_tens_says_who_deals_and_to_press_next_round_for_the_next_hand(tmp_path: Path) -> None:
    table = TensTable(Journal(tmp_path / "t"), TensConfig(PLAYERS, dominoes=Dominoes.PHYSICAL))
    table.roll([1, 1, 2, 2])  # six, counted from Ann: Cy
    assert said(tens_screens(table.state)) == [["dice 1 1 2 2 = 6", "Cy 1ST", "...Cy Ann Bob Cy", "deal, NEXT ROUND"]]
    table.deal()
    table.discarded("Cy")
    table.took("Ann")
    for tile in COMPLETE:
        table.enter_tile("Ann", tile)
    table.declare("Ann")
    assert said(tens_screens(table.state)) == [["Hand 1 won", "Ann", "takes $3.00", "press NEXT ROUND"]]
    table.journal.close()
    virtual = TensTable(Journal(tmp_path / "v"), TensConfig(PLAYERS, dominoes=Dominoes.VIRTUAL))
    virtual.roll([1, 1, 2, 2])
    assert said(tens_screens(virtual.state))[0][-1] == "NEXT ROUND deals"
    virtual.journal.close()
