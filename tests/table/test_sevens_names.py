"""Card Fan Tan's refusals at the table name the players: the rules core numbers seats from 0, nobody at the table
does."""

from __future__ import annotations

import pytest

from fantan_table.rules.errors import GameError, RulesError
from fantan_table.rules.sevens.events import SevensSetup
from fantan_table.rules.sevens.options import RULES_001, Agreed, CardMode
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.sevens_table import SevensTable, seats_named

PLAYERS = ("Ann", "Bob", "Cat")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not your turn: it is seat 2's (turns go clockwise)", "not your turn: it is Cat's (turns go clockwise)"),
        ("seat 0 holds 3 cards by the table's count", "Ann holds 3 cards by the table's count"),
        ("seats 0, 2 tie for the highest cut: they cut again", "Ann and Cat tie for the highest cut: they cut again"),
        ("7♥ shown in two hands: seats 1 and 2", "7♥ shown in two hands: Bob and Cat"),
        ("seats 0, 1, 2 tie", "Ann, Bob and Cat tie"),
        ("no seat 7: the seats are 0 to 2", "no seat 7: the seats are 0 to 2"),  # no seat: left as it is
        ("move 12 was not a pass: only a pass can be a revoke", "move 12 was not a pass: only a pass can be a revoke"),
    ],
)
def test_a_seat_number_is_said_as_its_players_name(text: str, said: str) -> None:
    assert seats_named(text, PLAYERS) == said


def test_the_tables_refusal_names_whose_turn_it_is_and_keeps_its_kind(journal: Journal) -> None:
    table = SevensTable(journal, SevensSetup(PLAYERS, RULES_001, Agreed(hands=1), CardMode.PHYSICAL))
    table.choose_dealer(["4H", "JS"])  # the first Jack falls to Bob: Cat plays first
    table.deal()
    with pytest.raises(GameError, match=r"^not your turn: it is Cat's \(turns go clockwise") as refused:
        table.play("Ann", "7H")
    assert isinstance(refused.value, RulesError) and "seat" not in str(refused.value)
    assert len(journal.events()) == 3  # setup, dealer, deal: nothing refused was written
