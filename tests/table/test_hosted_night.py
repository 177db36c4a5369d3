"""One owner, one night, any game: card Fan Tan and Collecting Tens run through the same owner, commands, views and
faults as piecepack Fan Tan; the LEDs light the seat to play, the display names the player; a new night may be of
another game, and the journal decides what a restart resumes."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from fantan_table.devices.buttons import ButtonEvent, Press
from fantan_table.devices.display.screens import Status, text_lines
from fantan_table.devices.pins import ButtonName, LedName
from fantan_table.rules.errors import GameError, RulesError
from fantan_table.rules.sevens.events import SevensSetup
from fantan_table.rules.sevens.game import Stage as SevensStage
from fantan_table.rules.sevens.options import RULES_001, Agreed, CardMode
from fantan_table.rules.tens.game import Stage as TensStage
from fantan_table.rules.tens.options import Dominoes, TensConfig
from fantan_table.table.core.hosting import GAMES, night_of
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.sevens_table import SevensTable
from fantan_table.table.core.table import Table
from fantan_table.table.core.tens_table import TensTable
from fantan_table.table.wiring.hardware import Devices
from fantan_table.table.wiring.hosted_runner import SevensRunner, TensRunner
from fantan_table.table.wiring.hosts import Loop, journal_setup, open_night, open_table
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import Owner
from fantan_table.table.wiring.runner import TableRunner, dice_in_use
from fantan_table.table.wiring.setups import FanTanNight
from fantan_table.vision.profile import Profile

from .conftest import GAME, reading

SEVENS = SevensSetup(("Ann", "Bob", "Cy"), RULES_001, Agreed(hands=2), CardMode.PHYSICAL)
TENS = TensConfig(("Ann", "Bob", "Cy"), dominoes=Dominoes.PHYSICAL)
SEAT_LEDS = (LedName.TILE_0, LedName.TILE_1, LedName.TILE_2, LedName.TILE_3)


@pytest.fixture
def sevens_owner(tmp_path: Path, devices: Devices) -> Iterator[Owner]:
    table = SevensTable(Journal(tmp_path / "state"), SEVENS)
    running = Owner(Night(tmp_path / "state", table, SevensRunner(table, devices), Loop(devices, Profile())))
    running.start()
    yield running
    running.stop()
    running.night.table.journal.close()


def lit_seat(devices: Devices) -> int | None:
    lit = [seat for seat, led in enumerate(SEAT_LEDS) if led in devices.panel.lit]
    assert len(lit) <= 1
    return lit[0] if lit else None


def test_a_sevens_night_runs_on_the_one_owner_with_views_commands_and_lights(
    sevens_owner: Owner, devices: Devices
) -> None:
    view = sevens_owner.view
    assert view.plays == "sevens" and view.players == ("Ann", "Bob", "Cy") and view.state.stage is SevensStage.DEALER
    sevens_owner.call(lambda night: night.sevens.choose_dealer(["4H", "JS"]))  # the Jack falls to seat 1: Bob deals
    sevens_owner.call(lambda night: night.sevens.deal())
    view = sevens_owner.view
    assert view.state.hand.turn == 2 and lit_seat(devices) == 2  # Cy, left of the dealer, plays first
    assert isinstance(view.screen, Status) and view.screen.big == "Cy"
    assert "pool 5" in view.screen.heading  # 3 antes, and 1 more from each of the 2 short hands (001)
    sevens_owner.call(lambda night: night.sevens.play("Cy", "7D"))
    assert lit_seat(devices) == 0 and sevens_owner.view.screen.big == "Ann"
    with pytest.raises(RulesError, match="a card not playable on the layout: 9"):
        sevens_owner.call(lambda night: night.sevens.play("Ann", "9D"))
    with pytest.raises(GameError, match="tonight the table plays sevens: that is piecepack Fan Tan's"):
        sevens_owner.call(lambda night: night.fantan.place("Ann", "number:1"))
    assert sevens_owner.fault is None  # what the rules refuse is answered, not a fault


def test_a_sevens_fault_is_journaled_as_the_games_own_and_the_restart_resumes(sevens_owner: Owner) -> None:
    sevens_owner.call(lambda night: night.sevens.choose_dealer(["JS"]))
    sevens_owner.call(lambda night: night.sevens.deal())
    sevens_owner.call(lambda night: night.sevens.play("Bob", "7H"))

    def broken(_: Night) -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(Exception, match="fault"):
        sevens_owner.call(broken)
    night = sevens_owner.night
    assert sevens_owner.fault is not None and night.table.journal.events()[-1].kind == "fault"
    before = night.table.state
    again = SevensTable(Journal(night.state_dir, write=False), SEVENS)
    assert again.state == before and again.resumed


def test_links_and_pin_tries_of_another_game_are_the_tables_own_rows(tmp_path: Path) -> None:
    table = TensTable(Journal(tmp_path / "state"), TENS)
    digest = hashlib.sha256(b"token").hexdigest()
    table.link("bob", digest)  # any case: the player's name as the night knows it
    table.record_login("10.0.0.5", False)
    table.roll([1, 2, 3, 4], by="the banker (web)")
    assert table.links == {"Bob": digest}
    with pytest.raises(GameError, match="no player called 'Zed'"):
        table.link("Zed", digest)
    table.journal.close()
    again = TensTable(Journal(tmp_path / "state"), TENS)
    assert again.links == {"Bob": digest} and again.state.stage is TensStage.DEALING
    assert again.latest_reading is not None and again.latest_reading.source == "hand"
    assert again.latest_reading.message == "entered by the banker (web)"
    again.unlink("Bob")
    assert again.links == {}
    again.journal.close()


def test_a_new_night_may_be_of_another_game_with_a_loop_of_its_own(tmp_path: Path, devices: Devices) -> None:
    state_dir = tmp_path / "state"
    table = Table(Journal(state_dir), GAME)
    night = Night(state_dir, table, TableRunner(table, devices, Profile(), still_frames=2))
    night.begin(SEVENS)
    assert isinstance(night.table, SevensTable) and isinstance(night.runner, SevensRunner)
    night.sevens.choose_dealer(["JH"])
    night.sevens.deal()
    with pytest.raises(GameError, match="a game is under way"):
        night.begin(TENS)
    night.begin(TENS, abandon=True)
    assert isinstance(night.table, TensTable) and isinstance(night.runner, TensRunner)
    assert night.tens.dice.faces == table.dice.faces  # the roll for the first player is read as the table's dice
    night.begin(FanTanNight(GAME))
    assert isinstance(night.table, Table) and isinstance(night.runner, TableRunner)
    assert len(list((state_dir / "nights").iterdir())) == 3  # every night before is kept
    night.table.journal.close()


def test_a_restart_resumes_the_game_the_journal_holds_whatever_the_config_asks(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    first = open_table(Journal(state_dir), TENS, Table(Journal(tmp_path / "x"), GAME).dice)
    first.roll([2, 2, 2, 2])
    first.journal.close()
    journal, moved = open_night(state_dir, "stamp")
    assert moved is None and night_of(journal) == "tens" and journal_setup(journal) == first.state.config
    resumed = open_table(journal, FanTanNight(GAME), first.dice)  # the config now asks for Fan Tan
    assert isinstance(resumed, TensTable) and resumed.state.dice == (2, 2, 2, 2)
    resumed.end()
    resumed.journal.close()
    journal, moved = open_night(state_dir, "stamp")  # an ended night of any game is put away
    assert moved == state_dir / "nights" / "stamp" and night_of(journal) is None
    journal.close()


def test_every_game_has_a_table_and_a_loop(tmp_path: Path, devices: Devices) -> None:
    loop = Loop(devices, Profile())
    for name, setup in (("fantan", FanTanNight(GAME)), ("sevens", SEVENS), ("tens", TENS)):
        table = open_table(Journal(tmp_path / name), setup, Table(Journal(tmp_path / "d"), GAME).dice)
        assert table.game is GAMES[name] and loop.runner_for(table).devices is devices
        table.journal.close()


def test_next_round_deals_and_the_display_names_a_fifth_player(tmp_path: Path, devices: Devices) -> None:
    five = SevensSetup(("Ann", "Bob", "Cy", "Di", "Eve"), RULES_001, Agreed(hands=1), CardMode.VIRTUAL)
    table = SevensTable(Journal(tmp_path / "state"), five, seeds=lambda what, n: 7)
    runner = SevensRunner(table, devices)
    runner.on_button(_press(ButtonName.NEXT_ROUND))  # the table deals the cards that choose the dealer
    runner.on_button(_press(ButtonName.NEXT_ROUND))  # and the hand
    hand = table.state.hand
    assert hand is not None and lit_seat(devices) is None  # five players: no LED, the display names them
    assert text_lines(runner.screen)[1] == table.players[hand.turn]
    table.journal.close()


def _press(button: ButtonName) -> ButtonEvent:
    return ButtonEvent(button, Press.SHORT, 0.0)


def _until(runner: TensRunner, done: Callable[[], bool], turns: int = 60) -> None:
    for _ in range(turns):
        if done():
            return
        runner.step()
    raise AssertionError("the table did not get there")


def test_the_roll_for_the_first_player_is_read_by_the_camera_and_kept_with_its_photo(
    tmp_path: Path, devices: Devices
) -> None:
    state_dir = tmp_path / "state"
    table = TensTable(Journal(state_dir), replace(TENS, dice_faces=dice_in_use(Profile(), 4).faces))
    runner = TensRunner(table, devices, Profile(), still_frames=2)
    camera = devices.sim_camera
    assert camera is not None
    assert text_lines(runner.screen)[1:] == ["Ann", "rolls four dice", "for the first player"]
    camera.shake([1, 2, 3, 4], scene_seed=11)  # the cup comes down over the dice...
    runner.step()
    camera.lift()  # ...and off: the watcher keeps the roll once it lies still
    _until(runner, lambda: table.state.stage is TensStage.DEALING)
    kept = table.latest_reading
    assert kept is not None and kept.source == "camera" and kept.ok and kept.frame is not None
    assert sorted(table.state.dice or ()) == [1, 2, 3, 4] and table.state.first == 0  # ten, counted from Ann: Ann
    assert (state_dir / kept.frame.file).is_file()
    kinds = [e.kind for e in table.journal.events()]
    assert kinds.index("reading") == kinds.index("rolled") - 1  # the reading and its photo, then the roll
    dice = " ".join(map(str, table.state.dice or ()))
    assert text_lines(runner.screen)[:2] == [f"dice {dice} = 10", "Ann 1ST"]
    table.journal.close()
    again = TensTable(Journal(state_dir), TENS)
    assert again.latest_reading == kept  # the photo's record survives a restart, as the page draws it
    again.journal.close()


def test_an_unsure_reading_is_kept_and_the_dice_are_rolled_again(tmp_path: Path, devices: Devices) -> None:
    table = TensTable(Journal(tmp_path / "state"), replace(TENS, dice_faces=dice_in_use(Profile(), 4).faces))
    runner = TensRunner(table, devices, Profile(), still_frames=2, watch_camera=False)
    camera = devices.sim_camera
    assert camera is not None
    camera.shake([2, 5, 6], scene_seed=5)  # a die fell off the table: three are seen
    camera.lift()
    camera.settle_frames = 0
    runner.on_button(_press(ButtonName.READ))  # the banker reads what lies there
    kept = table.latest_reading
    assert kept is not None and not kept.ok and kept.frame is not None
    assert table.state.stage is TensStage.ROLLING and table.state.dice is None  # never guessed at
    assert text_lines(runner.screen)[0] == "RE-ROLL"
    table.roll([2, 5, 6, 1], by="the banker")  # the audited fallback: typed, kept as a reading by hand
    assert table.latest_reading is not None and table.latest_reading.source == "hand"
    assert table.state.stage is TensStage.DEALING
    table.journal.close()


def test_a_sure_reading_the_rules_refuse_as_a_roll_is_kept_and_rolled_again(tmp_path: Path) -> None:
    table = TensTable(Journal(tmp_path / "state"), TENS)  # piecepack dice: four blanks total nothing
    frame = np.zeros((60, 80, 3), np.uint8)
    with pytest.raises(GameError, match="counts off nobody: roll the four dice again"):
        table.record_reading(reading([0, 0, 0, 0]), frame)
    kept = table.latest_reading
    assert kept is not None and kept.ok and kept.values == (0, 0, 0, 0) and kept.frame is not None
    assert table.state.stage is TensStage.ROLLING and table.state.dice is None
    table.record_reading(reading([1, 0, 2, 0]), frame)  # three, counted from Ann: Cy
    assert table.state.first == 2 and len(table.journal.events()) == 4  # setup, two readings, the roll
    table.journal.close()
