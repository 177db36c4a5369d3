"""The running table on simulated hardware: buttons, the cup, the camera, the LEDs and the display together."""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
import pytest

from fantan_table.devices.camera import CameraError
from fantan_table.devices.display.screens import BetsClosed, Blank, Problem, Reading, Result
from fantan_table.devices.display.simulated import SimulatedDisplay
from fantan_table.devices.pins import ButtonName, LedName
from fantan_table.table.core.state import Stage
from fantan_table.table.core.table import Table
from fantan_table.table.wiring.hardware import Devices
from fantan_table.table.wiring.runner import SCREEN_SECONDS, TableRunner
from fantan_table.vision.profile import Profile
from fantan_table.vision.reader import Reading as SeenDice
from fantan_table.vision.reader import Status


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def rig(table: Table, devices: Devices) -> tuple[TableRunner, Table, Devices, Clock]:
    clock = Clock()
    return TableRunner(table, devices, Profile(), still_frames=2, clock=clock), table, devices, clock


def screen(devices: Devices) -> object:
    assert isinstance(devices.display, SimulatedDisplay)
    return devices.display.screen


def until(runner: TableRunner, done: Callable[[], bool], steps: int = 40) -> None:
    for _ in range(steps):
        if done():
            return
        runner.step()
    raise AssertionError("the table did not get there")


def press(runner: TableRunner, devices: Devices, button: ButtonName) -> None:
    assert devices.simulator is not None
    devices.simulator.press(button)
    runner.step()


def test_a_round_from_buttons_and_the_cup(rig) -> None:
    runner, table, devices, _ = rig
    sim, camera = devices.simulator, devices.sim_camera
    assert sim is not None and camera is not None and sim.lit(LedName.BETS_OPEN)
    table.place("Ann", "number:2", 1)
    press(runner, devices, ButtonName.NO_MORE_BETS)
    assert table.state.stage is Stage.CLOSED and not sim.lit(LedName.BETS_OPEN)
    camera.shake([1, 2, 3, 4], scene_seed=11)
    runner.step()
    assert table.state.stage is Stage.CLOSED and screen(devices) == BetsClosed(1)  # the cup is still down
    camera.lift()
    runner.step()  # the first frame after the lift: the dice are still rolling (blurred)
    assert screen(devices) in (BetsClosed(1), Reading(1))
    camera.lift()
    until(runner, lambda: table.state.stage is Stage.SHOWING)
    assert screen(devices) == Result(1, table.state.rounds[-1].reading.values, 2)
    assert sim.lit(LedName.TILE_2) and not sim.lit(LedName.TILE_1)
    assert table.state.game.balance("Ann") == 5300
    press(runner, devices, ButtonName.NEXT_ROUND)
    assert table.state.stage is Stage.BETTING and sim.lit(LedName.BETS_OPEN) and not sim.lit(LedName.TILE_2)


def test_the_raid_button_blanks_everything_at_once_and_again_resumes(rig) -> None:
    runner, table, devices, _ = rig
    table.place("Bob", "number:0", 3)
    press(runner, devices, ButtonName.RAID)
    assert table.state.stage is Stage.RAIDED and screen(devices) == Blank()
    assert devices.panel.lit == frozenset()
    press(runner, devices, ButtonName.RAID)
    assert table.state.stage is Stage.BETTING and table.state.game.coins_staked("Bob") == 3


def test_read_forces_a_reading_of_what_is_there(rig) -> None:
    runner, table, devices, _ = rig
    press(runner, devices, ButtonName.NO_MORE_BETS)
    devices.sim_camera.shake([5, 5, 5, 5], scene_seed=3)
    devices.sim_camera.lift()
    devices.sim_camera.settle_frames = 0
    runner.watch_camera = False  # only the button reads
    press(runner, devices, ButtonName.READ)
    assert table.state.stage is Stage.SHOWING and table.state.rounds[-1].report.open_number == 0


def test_unshaken_dice_wait_for_confirm(rig) -> None:
    runner, table, devices, _ = rig
    camera = devices.sim_camera
    for round_ in (1, 2):
        press(runner, devices, ButtonName.NO_MORE_BETS)
        camera.shake([0, 1, 2, 4], scene_seed=77)  # the very same dice in the very same places
        runner.step()
        camera.lift()
        until(runner, lambda: table.state.stage in (Stage.SHOWING, Stage.CHECK))
        if round_ == 1:
            press(runner, devices, ButtonName.NEXT_ROUND)
    assert table.state.stage is Stage.CHECK
    assert isinstance(screen(devices), Problem) and screen(devices).heading == "SHAKEN?"
    press(runner, devices, ButtonName.CONFIRM)
    assert table.state.stage is Stage.SHOWING and table.state.round == 2


class FailingCamera:
    def __init__(self) -> None:
        self.broken = True

    def capture(self) -> np.ndarray:
        if self.broken:
            raise CameraError("the USB camera at index 0 gave no frame: check its cable")
        return np.full((480, 640, 3), 90, np.uint8)

    def close(self) -> None:
        pass


def test_a_failing_camera_is_reported_and_the_table_goes_on(rig) -> None:
    runner, table, devices, clock = rig
    camera = FailingCamera()
    devices.camera = camera
    press(runner, devices, ButtonName.NO_MORE_BETS)
    runner.step()
    assert screen(devices) == Problem("CAMERA", "the USB camera at index 0 gave no frame: check its cable")
    assert runner.device_problem is not None and table.state.stage is Stage.CLOSED
    camera.broken = False
    clock.now += 2
    runner.step()
    assert runner.device_problem is None and screen(devices) != Problem("CAMERA", "")
    table.enter_dice([1, 1, 1, 1])  # the banker can always enter the dice by hand
    assert table.state.stage is Stage.SHOWING


def test_settlement_pages_follow_the_result_and_the_next_round_opens_by_itself(table: Table, devices: Devices) -> None:
    clock = Clock()
    runner = TableRunner(table, devices, Profile(), auto_next_seconds=10, clock=clock, watch_camera=False)
    table.close_bets()
    table.enter_dice([1, 1, 1, 1])
    assert isinstance(screen(devices), Result)
    clock.now += SCREEN_SECONDS
    runner.step()
    assert type(screen(devices)).__name__ == "Settlement"
    clock.now += 10
    runner.step()
    assert table.state.stage is Stage.BETTING and table.state.round == 2


def test_holding_next_round_recalls_past_rounds(table: Table, devices: Devices) -> None:
    clock = Clock()
    runner = TableRunner(table, devices, Profile(), clock=clock, watch_camera=False)
    for dice in ([0, 0, 0, 1], [0, 0, 0, 2]):
        table.close_bets()
        table.enter_dice(dice)
        table.next_round()
    devices.simulator.hold(ButtonName.NEXT_ROUND, 2.1)
    runner.step()
    assert screen(devices) == Result(2, (0, 0, 0, 2), 2, recalled=True)  # marked as past
    clock.now += SCREEN_SECONDS
    runner.step()
    assert screen(devices) == Result(1, (0, 0, 0, 1), 1, recalled=True)
    clock.now += SCREEN_SECONDS
    runner.step()
    assert type(screen(devices)).__name__ == "BetsOpen" and table.state.stage is Stage.BETTING


def test_a_frame_the_reader_cannot_read_at_all_is_shown_not_taken_for_the_cup(rig, monkeypatch) -> None:
    runner, table, devices, _ = rig
    press(runner, devices, ButtonName.NO_MORE_BETS)
    failed = SeenDice(Status.ERROR, (), "the reader failed (OSError: [Errno 24] Too many open files), a bug")
    with monkeypatch.context() as patched:
        patched.setattr("fantan_table.table.wiring.runner.read_dice", lambda *args: failed)
        runner.step()
    assert screen(devices) == Problem("READER", failed.message) and runner.device_problem == f"reader: {failed.message}"
    runner.step()  # the reader reads again (the cup is on): the trouble is over
    assert runner.device_problem is None and screen(devices) == BetsClosed(1)
    assert table.state.stage is Stage.CLOSED


def play_a_round(runner: TableRunner, table: Table, devices: Devices, values: list[int], seed: int) -> None:
    camera = devices.sim_camera
    assert camera is not None
    press(runner, devices, ButtonName.NO_MORE_BETS)
    camera.shake(values, scene_seed=seed)
    runner.step()
    camera.lift()
    until(runner, lambda: table.state.stage is Stage.SHOWING)


def test_dice_left_on_the_table_are_not_read_when_bets_close(rig) -> None:
    runner, table, devices, _ = rig
    camera = devices.sim_camera
    assert camera is not None
    play_a_round(runner, table, devices, [1, 2, 3, 4], seed=21)
    press(runner, devices, ButtonName.NEXT_ROUND)
    table.place("Ann", "number:1", 1)
    press(runner, devices, ButtonName.NO_MORE_BETS)  # last round's dice still lie there, in plain view
    for _ in range(10):
        runner.step()
    assert table.state.stage is Stage.CLOSED and table.state.latest is None  # not read, not SHAKEN?
    assert isinstance(screen(devices), Problem) and screen(devices).heading == "CUP?"
    camera.shake([2, 2, 3, 4], scene_seed=22)
    runner.step()  # the cup: now a roll may come
    camera.lift()
    until(runner, lambda: table.state.stage is Stage.SHOWING)
    reading = table.state.rounds[-1].reading
    assert reading is not None and sorted(reading.values) == [2, 2, 3, 4]  # the new roll, in reading order


def test_the_banker_reads_dice_left_on_the_table_by_pressing_read(rig) -> None:
    runner, table, devices, _ = rig
    play_a_round(runner, table, devices, [1, 2, 3, 4], seed=23)
    press(runner, devices, ButtonName.NEXT_ROUND)
    press(runner, devices, ButtonName.NO_MORE_BETS)
    runner.step()
    press(runner, devices, ButtonName.READ)  # the banker's word: read what lies there
    assert table.state.stage is Stage.CHECK  # the same dice in the same places: SHAKEN? asks the banker


def test_fewer_dice_than_expected_after_the_cup_ask_the_banker_to_check(rig) -> None:
    runner, table, devices, _ = rig
    camera = devices.sim_camera
    assert camera is not None
    press(runner, devices, ButtonName.NO_MORE_BETS)
    camera.shake([1, 2, 3], scene_seed=24)  # a die rolled off the table
    runner.step()
    camera.lift()
    for _ in range(8):
        runner.step()
    assert table.state.stage is Stage.CLOSED
    shown = screen(devices)
    assert isinstance(shown, Problem) and shown.heading == "DICE?" and "3 of 4 dice seen" in shown.reason


def test_a_refused_press_is_logged_unless_the_console_says_it(rig, caplog: pytest.LogCaptureFixture) -> None:
    """A stray press of a physical button leaves a log line (journalctl shows it) and the table goes on; the
    one press the console typed leaves none, for the console says the refusal itself, while any other press, then or
    later, is logged as ever."""
    runner, table, devices, _ = rig
    caplog.set_level(logging.INFO, logger="fantan_table.table.wiring.runner")
    press(runner, devices, ButtonName.NEXT_ROUND)  # betting is open: there is no next round to open
    assert runner.refused is not None and "cannot open the next round now" in runner.refused
    assert [r.getMessage() for r in caplog.records] == [f"button ignored: {runner.refused}"]
    caplog.clear()
    runner.typed(ButtonName.NEXT_ROUND)
    assert runner.refused is None, "the console reads the refusal of its own press only"
    press(runner, devices, ButtonName.CONFIRM)  # another button in the meantime (a finger, the page)
    assert len(caplog.records) == 1 and "confirm" in caplog.records[0].getMessage()
    caplog.clear()
    press(runner, devices, ButtonName.NEXT_ROUND)
    assert runner.refused is not None and caplog.records == []
    press(runner, devices, ButtonName.NEXT_ROUND)
    assert len(caplog.records) == 1, "only the one press the console typed goes unlogged"
    assert table.state.stage is Stage.BETTING
