"""Supervised, fails loud: each injected fault ends locked in FAULT with nothing lost, and a restart resumes."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.devices.display.screens import Fault
from fantan_table.devices.display.simulated import SimulatedDisplay
from fantan_table.devices.pins import LedName
from fantan_table.table.core.journal import Event, Journal, JournalError
from fantan_table.table.core.state import Stage
from fantan_table.table.core.table import Table
from fantan_table.table.wiring.hardware import Devices
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import Owner, OwnerError
from fantan_table.table.wiring.runner import TableRunner
from fantan_table.vision.profile import Profile

from .conftest import GAME

TURNS = 80
"""Turns of the owner's loop a lifted cup may take to be read (the watcher wants the dice still for 2 frames)."""


def own(table: Table, devices: Devices) -> Owner:
    runner = TableRunner(table, devices, Profile(), still_frames=2)
    return Owner(Night(table.journal.state_dir, table, runner))


def do(owner: Owner, action: Callable[[Night], object]) -> object:
    """Submit a command and run the owner's turn that answers it (the test is the owner's thread)."""
    future = owner.submit(action)
    owner.turn()
    return future.result(timeout=0)


def turn_until(owner: Owner, done: Callable[[], bool]) -> None:
    for _ in range(TURNS):
        if done():
            return
        owner.turn()
    raise AssertionError("the table did not get there")


@pytest.fixture
def closed(table: Table, devices: Devices) -> Iterator[Owner]:
    """A round with coins down, betting closed, and the cup lifted off a roll of 1 1 1 0 (open 3)."""
    owner = own(table, devices)
    do(owner, lambda night: night.table.place("Ann", "number:3", 2))
    do(owner, lambda night: night.table.close_bets())
    assert devices.sim_camera is not None
    devices.sim_camera.shake([1, 1, 1, 0], scene_seed=5)
    owner.turn()  # the camera sees the cup: the watcher is armed
    devices.sim_camera.lift()
    yield owner


def assert_locked_in_fault(owner: Owner, devices: Devices, words: str) -> None:
    assert owner.faulted.is_set() and owner.fault is not None and words in owner.fault
    assert devices.panel.lit == frozenset()  # betting locked: the bets-open LED is off, no tile lit
    assert isinstance(devices.display, SimulatedDisplay) and devices.display.screen == Fault(owner.fault)
    assert owner.view.fault == owner.fault
    with pytest.raises(OwnerError, match="has a fault"):
        owner.submit(lambda night: night.table.place("Bob", "number:1", 1)).result(timeout=0)


def restart_and_finish(owner: Owner, devices: Devices) -> Table:
    """What systemd does: a new process on the same state directory, which reads the lifted dice and settles."""
    state_dir = owner.night.state_dir
    before = owner.night.table.journal.events()
    owner.night.table.journal.close()
    table = Table(Journal(state_dir), GAME)
    assert table.resumed and table.state.stage is Stage.CLOSED
    assert table.state.game.coins_staked("Ann") == 2  # nothing lost
    assert [e.kind for e in table.journal.events()] == [e.kind for e in before]
    again = own(table, devices)
    turn_until(again, lambda: table.state.stage is Stage.SHOWING)
    assert table.state.rounds[-1].report.open_number == 3 and table.state.game.balance("Ann") == 5000 + 2 * 300
    assert devices.sim_camera is not None and devices.panel.lit == {LedName.TILE_3}
    return table


def test_a_full_disk_while_keeping_the_photo_is_a_fault_and_a_restart_resumes(
    closed: Owner, devices: Devices, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    with monkeypatch.context() as patched:
        patched.setattr("fantan_table.table.core.journal.write_new_durably", full)
        turn_until(closed, closed.faulted.is_set)
    assert_locked_in_fault(closed, devices, "No space left on device")
    events = closed.night.table.journal.events()
    assert events[-1].kind == "fault" and "No space left" in events[-1].data["reason"]
    assert not any(e.kind == "reading" for e in events)  # a reading without its photo was never journaled
    restart_and_finish(closed, devices).journal.close()


def test_a_reader_that_raises_is_a_fault_not_an_unsure_reading(
    closed: Owner, devices: Devices, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(frame: np.ndarray, *args: object, **kwargs: object) -> object:
        raise cv2.error("OpenCV(5.0.0) minEnclosingCircle: (-215:Assertion failed) count >= 0")

    with monkeypatch.context() as patched:
        patched.setattr("fantan_table.table.wiring.runner.read_dice", broken)
        closed.turn()
    assert_locked_in_fault(closed, devices, "minEnclosingCircle")
    restart_and_finish(closed, devices).journal.close()


class RaisingCamera:
    """A camera driver failing in a way it does not report as a CameraError (a bug, a vanished device)."""

    def capture(self) -> np.ndarray:
        raise RuntimeError("picamera2: the camera pipeline stopped")

    def close(self) -> None:
        pass


def test_a_camera_that_raises_is_a_fault(closed: Owner, devices: Devices) -> None:
    working = devices.camera
    devices.camera = RaisingCamera()
    closed.turn()
    assert_locked_in_fault(closed, devices, "camera pipeline stopped")
    devices.camera = working
    restart_and_finish(closed, devices).journal.close()


def test_a_journal_that_cannot_be_written_faults_the_command_and_keeps_what_was_written(
    table: Table, devices: Devices, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = own(table, devices)
    do(owner, lambda night: night.table.place("Ann", "number:3", 2))

    def full(self: Journal, event: Event) -> Event:
        raise JournalError("cannot write to the journal: database or disk is full")

    with monkeypatch.context() as patched:
        patched.setattr(Journal, "append", full)
        with pytest.raises(OwnerError, match="disk is full"):
            do(owner, lambda night: night.table.place("Bob", "number:1", 1))
    assert owner.view.state.game.coins_staked("Ann") == 2 and owner.view.state.game.coins_staked("Bob") == 0
    assert_locked_in_fault(owner, devices, "disk is full")


def test_a_device_thread_that_dies_is_a_fault(table: Table, devices: Devices) -> None:
    owner = own(table, devices)
    owner.report("gpiozero", OSError(errno.EIO, "Input/output error"))
    owner.turn()
    assert_locked_in_fault(owner, devices, "gpiozero: OSError")


def test_a_fault_during_a_raid_is_journaled_and_the_restart_is_still_raided(table: Table, devices: Devices) -> None:
    owner = own(table, devices)
    do(owner, lambda night: night.table.place("Bob", "number:1", 3))
    do(owner, lambda night: night.table.raid())
    owner.report("display", OSError(errno.EREMOTEIO, "Remote I/O error"))
    owner.turn()
    assert_locked_in_fault(owner, devices, "display: OSError")
    again = Table(Journal(table.journal.state_dir), GAME)
    assert again.state.stage is Stage.RAIDED and again.journal.events()[-1].kind == "fault"
    again.resume()
    assert again.state.game.coins_staked("Bob") == 3
    again.journal.close()


def test_what_the_rules_refuse_is_not_a_fault(table: Table, devices: Devices) -> None:
    owner = own(table, devices)
    with pytest.raises(Exception, match="cannot"):
        do(owner, lambda night: night.table.confirm())
    assert owner.fault is None and devices.panel.lit == {LedName.BETS_OPEN}


EMFILE_SCRIPT = """
import json, os, resource, sys
from dataclasses import replace
from pathlib import Path
from fantan_table.table.wiring.config import load_config
from fantan_table.table.wiring.hardware import open_devices
from fantan_table.table.core.journal import Journal
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import Owner
from fantan_table.table.wiring.runner import TableRunner
from fantan_table.table.core.table import Table
from fantan_table.vision.profile import Profile
from fantan_table.vision.reader import read_dice
from tests.table.conftest import GAME

state_dir = Path(sys.argv[1])
devices = open_devices(replace(load_config(None, "sim"), debounce_ms=0))
table = Table(Journal(state_dir), GAME)
owner = Owner(Night(state_dir, table, TableRunner(table, devices, Profile(), still_frames=2)))
def do(action):
    future = owner.submit(action)
    owner.turn()
    future.result(timeout=0)
do(lambda night: night.table.place("Ann", "number:3", 2))
do(lambda night: night.table.close_bets())
devices.sim_camera.shake([1, 1, 1, 0], scene_seed=5)
owner.turn()
# The reader imports parts of numpy on first use: warm it, as a table that has read dice before is.
read_dice(devices.sim_camera.settled_roll([1, 1, 1, 0]), Profile(), 4)
lowest_free = os.open(os.devnull, os.O_RDONLY)
os.close(lowest_free)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (lowest_free, hard))  # not one more file may be opened
devices.sim_camera.lift()
for _ in range(80):
    owner.turn()
    if owner.faulted.is_set():
        break
lit = sorted(led.value for led in devices.panel.lit)
print(json.dumps({"fault": owner.fault, "lit": lit, "screen": repr(devices.display.screen)}))
"""


def test_running_out_of_file_handles_is_a_fault_and_a_restart_resumes(tmp_path: Path, devices: Devices) -> None:
    """A real RLIMIT_NOFILE, lowered in a child process so that keeping the photo cannot open its file."""
    state_dir = tmp_path / "state"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", EMFILE_SCRIPT, str(state_dir)], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["fault"] is not None and "Too many open files" in seen["fault"], seen
    assert seen["lit"] == [] and seen["screen"].startswith("Fault(")
    table = Table(Journal(state_dir), GAME)
    assert table.state.stage is Stage.CLOSED and table.state.game.coins_staked("Ann") == 2
    assert table.journal.events()[-1].kind == "fault"
    again = own(table, devices)
    assert devices.sim_camera is not None
    devices.sim_camera.shake([1, 1, 1, 0], scene_seed=5)
    again.turn()
    devices.sim_camera.lift()
    turn_until(again, lambda: table.state.stage is Stage.SHOWING)
    assert table.state.game.balance("Ann") == 5000 + 2 * 300
    table.journal.close()


def test_a_hung_loop_is_a_fault_found_by_the_watchdog(table: Table, devices: Devices, monkeypatch) -> None:
    monkeypatch.setattr("fantan_table.table.wiring.owner.STUCK_SECONDS", 0.2)
    owner = own(table, devices)
    owner.start()
    release = threading.Event()
    owner.submit(lambda _: release.wait(10))  # a device call that does not come back
    try:
        assert owner.check_alive()
        time.sleep(0.4)
        assert not owner.check_alive() and owner.faulted.is_set() and "hangs" in (owner.fault or "")
        with pytest.raises(OwnerError, match="hangs"):
            owner.call(lambda night: night.table.place("Ann", "number:1", 1), timeout=1)
    finally:
        release.set()
        owner.stop()
