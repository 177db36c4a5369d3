"""The self-test finds a dead button, a failing camera and a wrong LED, and passes a healthy simulated table."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from fantan_table.cli import main
from fantan_table.devices.camera import CameraError
from fantan_table.devices.panel import PanelSimulator
from fantan_table.devices.pins import ButtonName
from fantan_table.table.wiring.config import load_config
from fantan_table.table.wiring.hardware import Devices, open_devices
from fantan_table.table.wiring.selftest import run_selftest
from fantan_table.vision import finder, onnx_net
from fantan_table.vision.classifier import builtin_model
from fantan_table.vision.profile import Profile


@pytest.fixture
def devices() -> Iterator[Devices]:
    opened = open_devices(load_config(None, "sim"))
    yield opened
    opened.close()


def parts(checks: list) -> dict[str, bool]:
    return {c.part: c.passed for c in checks}


def test_a_healthy_simulated_table_passes_every_part(devices: Devices) -> None:
    said: list[str] = []
    checks = run_selftest(devices, Profile(), say=said.append, button_timeout=1, led_seconds=0)
    assert all(parts(checks).values()), checks
    assert len(checks) == 5 + 5 + 2
    assert any("press RAID" in line for line in said)
    camera = next(c for c in checks if c.part == "camera")
    assert re.search(r"; read in \d+ ms, networks on ONNX Runtime;", camera.detail), camera.detail


def test_the_camera_check_says_when_the_networks_run_on_opencv_alone(
    devices: Devices, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a 32-bit Raspberry Pi OS ONNX Runtime has no wheel: the reader is slower, and the self-test says why."""
    monkeypatch.setattr(onnx_net, "_runtime", lambda: None)
    monkeypatch.setattr(finder, "_builtin", None)  # the built-in networks made again, on OpenCV
    builtin_model.cache_clear()
    try:
        checks = run_selftest(devices, Profile(), say=lambda _: None, button_timeout=1, led_seconds=0)
    finally:
        builtin_model.cache_clear()
    camera = next(c for c in checks if c.part == "camera")
    assert camera.passed, camera.detail
    assert "networks on OpenCV's dnn (slower: ONNX Runtime cannot be loaded here)" in camera.detail


class DeadButton(PanelSimulator):
    """A simulator whose finger misses one button, as a broken wire would."""

    def press(self, name: ButtonName) -> None:
        if name is not ButtonName.RAID:
            super().press(name)


def test_a_dead_button_fails_and_is_named(devices: Devices) -> None:
    assert devices.simulator is not None
    devices.simulator = DeadButton(devices.simulator._factory, devices.panel.pins)
    checks = run_selftest(devices, Profile(), say=lambda _: None, button_timeout=0.3, led_seconds=0)
    failed = [c for c in checks if not c.passed]
    assert [c.part for c in failed] == ["button raid"] and "never seen" in failed[0].detail


class BrokenCamera:
    def capture(self) -> np.ndarray:
        raise CameraError("the Pi camera gave no frame (timeout)")

    def close(self) -> None:
        pass


def test_a_failing_camera_fails_with_its_message(devices: Devices) -> None:
    devices.camera, devices.sim_camera = BrokenCamera(), None
    checks = run_selftest(devices, Profile(), say=lambda _: None, button_timeout=0.5, led_seconds=0)
    assert [(c.part, c.detail) for c in checks if not c.passed] == [("camera", "the Pi camera gave no frame (timeout)")]


def test_an_led_stuck_on_is_caught(devices: Devices) -> None:
    assert devices.simulator is not None
    stuck = devices.simulator._factory.pin(devices.panel.pins.leds[next(iter(devices.panel.pins.leds))])
    original = devices.panel.light

    def light_with_a_short(names: set) -> None:
        original(names)
        stuck.state = True  # tile_0's LED wired to 3.3 V: on whatever the Pi says

    devices.panel.light = light_with_a_short  # type: ignore[method-assign]
    checks = run_selftest(devices, Profile(), say=lambda _: None, button_timeout=0.5, led_seconds=0)
    assert parts(checks)["led tile_0"] and not parts(checks)["led tile_1"]
    assert "tile_0" in next(c.detail for c in checks if c.part == "led tile_1")


def test_the_command_prints_json_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--sim", "--json", "--button-timeout", "1"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 12 and all(line["passed"] for line in lines)
    assert {line["part"] for line in lines} >= {"camera", "display", "button confirm", "led bets_open"}


def test_on_the_pi_gpiozero_picks_the_factory_the_environment_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    config_file = tmp_path / "config.toml"
    config_file.write_text('hardware = "pi"\n[camera]\nkind = "sim"\n[display]\nkind = "sim"\n')
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    opened = open_devices(load_config(config_file))
    try:
        assert opened.simulator is None  # real mode: nobody presses buttons for you
        assert isinstance(Device.pin_factory, MockFactory)
        opened.panel.show_bets_open(True)
        assert Device.pin_factory.pin(26).state
    finally:
        opened.close()
        Device.pin_factory.close()
