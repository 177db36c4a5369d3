"""Card Fan Tan at the table: the night journaled on the hosted-game loop, real and virtual cards, the bots'
night (the same per seed, also when resumed), ``demo --game sevens`` and ``verify`` on its journal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fantan_table.cli import main
from fantan_table.rules.errors import RulesError
from fantan_table.rules.games import replay
from fantan_table.rules.sevens.events import SevensSetup
from fantan_table.rules.sevens.game import Stage
from fantan_table.rules.sevens.hosted import SEVENS
from fantan_table.rules.sevens.options import RULES_001, Agreed, CardMode
from fantan_table.table.core.hosting import night_of
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.sevens_table import SevensTable
from fantan_table.table.wiring.sevens_demo import SevensDemo

PLAYERS = ("Ann", "Bob", "Cat")


def fixed_seeds(what: str, n: int) -> int:
    return {"dealer": 11, "deal": 100 + n}[what]


def ledger(state_dir: Path) -> tuple:
    """Everything chips: each hand's result and the chips and pool now."""
    journal = Journal(state_dir)
    state = replay(SEVENS, journal.events())
    journal.close()
    return state.stage, state.results, state.chips


@pytest.fixture
def virtual(journal: Journal) -> SevensTable:
    return SevensTable(journal, SevensSetup(PLAYERS, RULES_001, Agreed(hands=2), CardMode.VIRTUAL), seeds=fixed_seeds)


def test_a_virtual_hand_is_dealt_by_the_table_and_journaled(virtual: SevensTable, journal: Journal) -> None:
    assert night_of(journal) == "sevens" and virtual.state.stage is Stage.DEALER
    virtual.choose_dealer()
    virtual.deal()
    hand = virtual.state.hand
    assert hand is not None and hand.held is not None and sum(hand.counts) == 52
    seat = hand.turn
    playable = virtual.playable(seat)
    if playable:
        with pytest.raises(RulesError, match="you can play: a pass is refused"):
            virtual.pass_turn(seat)
        virtual.play(PLAYERS[seat], sorted(playable)[0])
    events = journal.events()
    assert replay(SEVENS, events) == virtual.state
    assert [e.kind for e in events][:3] == ["setup", "dealer", "deal"]


def test_a_card_the_layout_cannot_take_is_refused_and_nothing_written(virtual: SevensTable, journal: Journal) -> None:
    virtual.choose_dealer()
    virtual.deal()
    hand = virtual.state.hand
    assert hand is not None and hand.held is not None
    before = len(journal.events())
    with pytest.raises(RulesError, match="a card not playable on the layout: K"):
        virtual.play(hand.turn, next(c for c in hand.held[hand.turn] if c.rank.text == "K"))
    with pytest.raises(RulesError, match="no player called Zed"):
        virtual.pass_turn("Zed")
    assert len(journal.events()) == before


def test_real_cards_are_entered_and_the_hand_settled_on_the_counts(journal: Journal) -> None:
    table = SevensTable(journal, SevensSetup(PLAYERS, RULES_001, Agreed(hands=1), CardMode.PHYSICAL))
    with pytest.raises(RulesError, match="enter the cards turned up"):
        table.choose_dealer()
    table.choose_dealer(["2C", "5D", "JH"])  # the first Jack falls to seat 2: Cat deals
    table.deal()
    assert table.state.hand is not None and table.state.hand.turn == 0  # Ann, on the dealer's left
    table.play("Ann", "7S")
    table.pass_turn("Bob")  # real cards: a pass is taken, a revoke can be claimed later
    table.play("Cat", "8S")
    # 52 cards to three: Ann's hand is the long one; the two short hands ante a chip more (001); and a pass
    assert table.state.antes == (1, 2, 2) and table.state.chips.pool == 5 + 1
    with pytest.raises(RulesError, match="already played: 7♠"):
        table.play("Ann", "7S")


def test_the_same_seed_gives_the_same_night_and_a_resumed_one_ends_the_same(tmp_path: Path) -> None:
    lines: list[list[dict]] = [[], []]
    for i in range(2):
        demo = SevensDemo(tmp_path / f"night-{i}", hands=3, seed=5, players=4)
        demo.play(lines[i].append)
        demo.close()
    assert lines[0] == lines[1] and len(lines[0]) == 3
    # a night stopped after a few moves and resumed from its journal
    demo = SevensDemo(tmp_path / "stopped", hands=3, seed=5, players=4)
    for _ in range(40):
        demo._move()
    demo.close()
    resumed = SevensDemo(tmp_path / "stopped", hands=3, seed=5, players=4)
    assert resumed.table.resumed
    resumed.play(lambda _: None)
    resumed.close()
    assert ledger(tmp_path / "stopped") == ledger(tmp_path / "night-0")


def test_chips_are_conserved_over_a_bots_night(tmp_path: Path) -> None:
    demo = SevensDemo(tmp_path / "night", hands=6, seed=9, players=5)
    final = demo.play(lambda _: None)
    state = demo.table.state
    demo.close()
    assert state.stage is Stage.OVER and sum(final.values()) + state.chips.pool == 5 * Agreed().starting_chips


def test_demo_game_sevens_prints_a_line_per_hand_and_verify_finds_it_sound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    args = ["demo", "--game", "sevens", "--hands", "3", "--seed", "2", "--players", "6", "--json"]
    assert main([*args, "--state", str(state)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["hand"] for line in lines[:-1]] == [1, 2, 3] and len(lines[-1]["final"]) == 6
    assert main(["verify", "--state", str(state), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sound"] and report["game"] == "sevens" and report["stage"] == "over"


def test_fan_tan_still_seats_four_at_most_in_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "5"]) == 2
    assert "piecepack Fan Tan is for 2 to 4 players (got 5)" in capsys.readouterr().err


def test_demo_game_tens_plays_its_hands_and_verify_finds_it_sound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    assert main(["demo", "--game", "tens", "--hands", "3", "--seed", "4", "--state", str(state)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out[:3]] == ["hand 1", "hand 2", "hand 3"]
    assert out[-1].startswith("final balances: North $")
    assert main(["verify", "--state", str(state), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "tens"
