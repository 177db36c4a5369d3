"""At the table: players joining and leaving between rounds, and the roll for the first bank under the camera,
each journaled (with the roll's photos) and replayed to the same state after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from fantan_table.devices.display.screens import BankRoll, BetsOpen, Problem, Reading
from fantan_table.devices.display.simulated import SimulatedDisplay
from fantan_table.devices.pins import ButtonName
from fantan_table.rules.errors import RulesError
from fantan_table.rules.events import Left
from fantan_table.rules.game import GameConfig, Player, RotatingBanker, Suit
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.state import Stage, TableState
from fantan_table.table.core.table import Table
from fantan_table.table.show.history import scoring_table_text, write_scoring_csv
from fantan_table.table.show.present import screens_for
from fantan_table.table.wiring.hardware import Devices
from fantan_table.table.wiring.runner import TableRunner
from fantan_table.vision.profile import Profile
from fantan_table.vision.reader import Status

from .conftest import reading

ANN, BOB, CAT = Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS), Player("Cat", Suit.CROWNS)
BY_ROLL = GameConfig((ANN, BOB, CAT), banker=RotatingBanker(every_rounds=2, by_roll=True))


def replayed(journal: Journal) -> TableState:
    return TableState.replay(journal.events())


# -- joining and leaving -----------------------------------------------------------------------------
def test_a_newcomer_and_a_leaver_are_journaled_and_replay_the_same(table: Table, journal: Journal) -> None:
    table.link("Bob", "ab" * 32)
    table.seat("Cat", "arms", 2500, by="the console")
    table.place("Cat", "number:1", 2)
    table.close_bets()
    table.record_reading(reading([1, 0, 0, 0]))
    table.next_round()
    assert table.leave("Bob") == 5000
    state = replayed(journal)
    assert [p.name for p in state.game.players] == ["Ann", "Cat"] and state.game.balance("Cat") == 3100
    assert "Bob" not in state.links  # a leaver's link ends with them
    assert state.game.scoring_table() == table.state.game.scoring_table()
    kinds = {e.kind: e.data for e in journal.events()}
    assert kinds["seated"]["by"] == "the console" and kinds["left"] == {"player": "Bob", "cents": 5000, "by": "banker"}


def test_the_scoring_table_marks_who_was_not_at_the_table(table: Table, tmp_path: Path) -> None:
    table.seat("Cat", "arms", 2500)
    text = scoring_table_text(table.state.game.scoring_table())
    assert text.splitlines()[1].split() == ["start", "$50.00", "$50.00", "-"]
    assert text.splitlines()[2].split() == ["Cat", "joins", "$50.00", "$50.00", "$25.00"]
    with (tmp_path / "pad.csv").open("w", newline="") as out:
        write_scoring_csv(table.state.game.scoring_table(), out)
    assert (tmp_path / "pad.csv").read_text().splitlines()[1] == "0,50.00,50.00,"


def test_a_seat_for_an_unknown_suit_is_refused_with_the_suits(table: Table) -> None:
    with pytest.raises(RulesError, match="no suit 'hearts': one of suns, moons, crowns, arms"):
        table.seat("Cat", "hearts", 2500)


def test_a_left_record_that_does_not_match_the_balance_is_refused(table: Table, journal: Journal) -> None:
    with pytest.raises(RulesError, match="Bob holds 5000 cents, not the 10 the record says"):
        table._do(Left("Bob", 10, "the banker"))
    assert [p.name for p in table.state.game.players] == ["Ann", "Bob"] and len(journal.events()) == 1


# -- the roll for the first bank ---------------------------------------------------------------------
@pytest.fixture
def rolling(journal: Journal, devices: Devices) -> tuple[TableRunner, Table, Devices]:
    table = Table(journal, BY_ROLL)
    return TableRunner(table, devices, Profile(), still_frames=2), table, devices


def shown(devices: Devices) -> object:
    assert isinstance(devices.display, SimulatedDisplay)
    return devices.display.screen


def roll(runner: TableRunner, devices: Devices, values: list[int], seed: int) -> None:
    """One player's roll: the cup over the dice, lifted, read when still."""
    camera = devices.sim_camera
    assert camera is not None
    rolled = len(runner.table.state.bank_rolls)
    camera.shake(values, scene_seed=seed)
    runner.step()
    camera.lift()
    for _ in range(40):
        if len(runner.table.state.bank_rolls) > rolled:
            return
        runner.step()
    raise AssertionError("the roll was not read")


def test_each_player_rolls_under_the_camera_and_the_highest_banks(rolling, journal: Journal) -> None:
    runner, table, devices = rolling
    assert table.state.stage is Stage.CHOOSING and shown(devices) == BankRoll("Ann", None, None)
    for _ in range(5):  # dice lying on the table are no roll: the cup must come down first
        runner.step()
    assert table.state.bank_rolls == []
    roll(runner, devices, [1, 2, 1, 2], seed=31)
    assert shown(devices) == BankRoll("Bob", ("Ann", 6), None)
    roll(runner, devices, [5, 4, 5, 4], seed=32)
    roll(runner, devices, [0, 1, 0, 1], seed=33)
    assert table.state.game.draw is not None and table.state.game.draw.winner == "Bob"
    assert shown(devices) == BankRoll(None, ("Cat", 2), "Bob")
    for _ in range(5):  # decided: the camera reads no more rolls for the bank
        runner.step()
    assert len(table.state.bank_rolls) == 3
    frames = [r.frame for r in table.state.bank_rolls]
    assert [f.file for f in frames if f] == [f"frames/bank-roll-{n}.jpg" for n in (1, 2, 3)]
    assert all((journal.state_dir / f.file).exists() for f in frames if f)
    devices.simulator.press(ButtonName.NEXT_ROUND)
    runner.step()
    assert table.state.stage is Stage.BETTING and table.state.game.banker == "Bob"
    assert table.state.round == 1 and shown(devices) == BetsOpen(1)
    state = replayed(journal)
    assert state.game.banker == "Bob" and state.game.draw == table.state.game.draw


def test_a_tie_for_the_highest_rolls_again_between_the_tied(rolling) -> None:
    runner, table, devices = rolling
    for n, values in enumerate(([5, 5, 0, 0], [2, 2, 0, 0], [2, 3, 2, 3])):
        roll(runner, devices, values, seed=40 + n)
    assert shown(devices) == BankRoll("Ann", ("Cat", 10), None, tie=True)
    roll(runner, devices, [0, 0, 0, 1], seed=44)
    roll(runner, devices, [0, 0, 1, 1], seed=45)
    assert table.state.game.draw is not None and table.state.game.draw.winner == "Cat"


def test_an_unsure_roll_counts_for_nothing_and_the_same_player_rolls_again(rolling) -> None:
    runner, table, devices = rolling
    table.record_reading(reading([3, None, 2, 1], status=Status.UNSURE))
    assert table.state.game.draw is not None and table.state.game.draw.rolls == ()
    screen = screens_for(table.state)[0]
    assert isinstance(screen, Problem) and screen.heading == "RE-ROLL" and screen.reason.startswith("Ann:")
    table.record_reading(reading([3, 3, 2, 1]))
    assert table.state.game.draw.rolls[-1].player == "Ann"


def test_a_roll_lying_as_the_one_before_is_not_counted(rolling) -> None:
    runner, table, _ = rolling
    table.record_reading(reading([3, 3, 2, 1]))
    table.record_reading(reading([3, 3, 2, 1]))  # Bob did not shake: the same dice in the same places
    draw = table.state.game.draw
    assert draw is not None and [r.player for r in draw.rolls] == ["Ann"] and draw.to_roll == "Bob"
    assert table.state.bank_rolls[-1].status == "rejected"
    assert "shake them" in screens_for(table.state)[0].reason


def test_the_banker_may_type_a_roll_for_the_bank(rolling) -> None:
    _, table, _ = rolling
    with pytest.raises(RulesError, match="checked as Bob's roll for the bank, but Ann rolls now"):
        table.enter_dice([5, 5, 5, 5], by="the console", for_bank="Bob")
    table.enter_dice([5, 5, 5, 5], by="the console", for_bank="Ann")
    draw = table.state.game.draw
    assert draw is not None and draw.rolls[-1].player == "Ann" and draw.rolls[-1].total == 20
    assert table.state.bank_rolls[-1].source == "hand"


def test_a_restart_during_the_roll_waits_for_the_cup(rolling, journal: Journal, devices: Devices) -> None:
    runner, table, _ = rolling
    roll(runner, devices, [1, 2, 1, 2], seed=52)
    again = TableRunner(Table(journal, BY_ROLL), devices, Profile(), still_frames=2)
    for _ in range(5):
        again.step()
    assert len(again.table.state.bank_rolls) == 1  # Ann's dice still lie there: not Bob's roll
    assert isinstance(again.screen, (BankRoll, Reading))
