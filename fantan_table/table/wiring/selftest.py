"""The self-test: every LED, every button, the camera with the dice reader, and the display, each passed or failed.

On the Pi a person watches the LEDs and presses the buttons when asked; in simulation the test
presses the mock buttons itself and rolls the synthetic dice, so the same code runs in CI.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ...devices.camera import CameraError
from ...devices.display import DisplayError
from ...devices.display.screens import SelftestCard
from ...devices.display.simulated import SimulatedDisplay
from ...devices.pins import ButtonName, LedName
from ...vision.finder import builtin_finder
from ...vision.onnx_net import Engine
from ...vision.profile import Profile
from ...vision.reader import Status, read_dice
from .hardware import Devices

SIM_ROLL = (0, 3, 5, 2)
ENGINE_NAMES = {
    Engine.ONNXRUNTIME: "networks on ONNX Runtime",
    Engine.OPENCV: "networks on OpenCV's dnn (slower: ONNX Runtime cannot be loaded here)",
}


@dataclass(frozen=True)
class Check:
    part: str
    passed: bool
    detail: str


def check_leds(devices: Devices, say: Callable[[str], None], seconds: float) -> list[Check]:
    checks = []
    for led in LedName:
        say(f"LED {led.value} on: watch that it alone glows")
        devices.panel.light({led})
        lit = devices.panel.lit
        if devices.simulator is not None:
            lit = frozenset(name for name in LedName if devices.simulator.lit(name))
        time.sleep(seconds)
        passed = lit == {led}
        seen = ", ".join(sorted(n.value for n in lit)) or "none"
        checks.append(Check(f"led {led.value}", passed, f"lit for {seconds:g} s" if passed else f"lit: {seen}"))
    devices.panel.all_off()
    return checks


def check_buttons(devices: Devices, say: Callable[[str], None], timeout: float) -> list[Check]:
    checks = []
    for button in ButtonName:
        say(f"press {button.value.replace('_', ' ').upper()} (within {timeout:g} s)")
        if devices.simulator is not None:
            devices.simulator.press(button)
        deadline, others = time.monotonic() + timeout, []
        while (left := deadline - time.monotonic()) > 0:
            event = devices.panel.next_event(timeout=left)
            if event is not None and event.button == button:
                checks.append(Check(f"button {button.value}", True, "pressed"))
                break
            if event is not None:
                others.append(event.button.value)
        else:
            instead = f"; pressed instead: {', '.join(others)}" if others else ""
            checks.append(Check(f"button {button.value}", False, f"never seen in {timeout:g} s{instead}"))
    return checks


def check_camera(devices: Devices, profile: Profile, expect: int) -> Check:
    sim = devices.sim_camera
    try:
        if sim is not None:
            sim.shake(SIM_ROLL)
            sim.lift()
            for _ in range(sim.settle_frames):
                sim.capture()
        frame = devices.camera.capture()
    except CameraError as exc:
        return Check("camera", False, str(exc))
    read_dice(frame, profile, expect)  # the first reading loads the networks: the second shows the table's pace
    start = time.perf_counter()
    reading = read_dice(frame, profile, expect)
    ms = (time.perf_counter() - start) * 1000
    seen = f"{frame.shape[1]}x{frame.shape[0]} frame; reader: {reading.status.value}"
    seen += f", dice {' '.join(map(str, reading.values))}" if reading.status is Status.OK else f" ({reading.message})"
    seen += f"; read in {ms:.0f} ms, {ENGINE_NAMES[builtin_finder().engine]}"
    if sim is not None:
        right = reading.status is Status.OK and sorted(reading.values) == sorted(SIM_ROLL)
        return Check("camera", right, f"{seen}; rolled {' '.join(map(str, SIM_ROLL))}")
    return Check("camera", reading.status is not Status.ERROR, seen)


def check_display(devices: Devices) -> Check:
    try:
        devices.display.show(SelftestCard())
    except DisplayError as exc:
        return Check("display", False, str(exc))
    if isinstance(devices.display, SimulatedDisplay):
        drawn = devices.display.image.getbbox() is not None
        return Check("display", drawn, "test card drawn" if drawn else "the frame stayed dark")
    return Check("display", True, "test card sent: check the frame reaches every edge and all ten digits show")


def run_selftest(
    devices: Devices,
    profile: Profile,
    expect: int = 4,
    say: Callable[[str], None] = print,
    button_timeout: float = 10.0,
    led_seconds: float = 0.5,
) -> list[Check]:
    checks = check_leds(devices, say, led_seconds)
    checks += check_buttons(devices, say, button_timeout)
    checks.append(check_camera(devices, profile, expect))
    checks.append(check_display(devices))
    return checks
