"""Open the devices a config asks for: the real ones on the Pi, simulated ones elsewhere, or a mix.

In simulation the panel runs on gpiozero's mock pins and a :class:`PanelSimulator` presses its
buttons; the camera is the synthetic table, whose cup the table (or a person on the web page)
shakes and lifts. On the Pi, gpiozero picks its pin factory itself, so ``GPIOZERO_PIN_FACTORY``
(lgpio in the service) is respected.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gpiozero.exc import GPIOZeroError
from gpiozero.pins.mock import MockFactory

from ...devices.camera import Camera, CameraError
from ...devices.camera.simulated import SimulatedCamera
from ...devices.display import Display, DisplayError
from ...devices.display.oled import OledDisplay
from ...devices.display.simulated import SimulatedDisplay
from ...devices.display.terminal import TerminalDisplay
from ...devices.panel import Panel, PanelSimulator
from ...errors import FantanError
from .config import Config


class DeviceError(FantanError, RuntimeError):
    """A device the config names could not be opened; the message says which and what to check."""


class NoDisplay:
    """``[display] kind = "none"``: the web page is the only screen."""

    def show(self, screen: object) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class Devices:
    camera: Camera
    panel: Panel
    display: Display
    simulator: PanelSimulator | None = None
    """Set in simulation: presses the panel's buttons."""
    sim_camera: SimulatedCamera | None = None
    """Set when the camera is the synthetic table: shake and lift its cup."""

    def close(self) -> None:
        for part in (self.display, self.panel, self.camera):
            part.close()


def open_camera(config: Config, seed: int = 0) -> Camera:
    kind, cam = config.camera_kind, config.camera
    if kind == "picamera":
        from ...devices.camera.picamera import PiCamera

        return PiCamera(cam.resolution, cam.settle_seconds)
    if kind == "usb":
        from ...devices.camera.usb import UsbCamera

        return UsbCamera(cam.usb_device, cam.resolution)
    if kind == "folder":
        from ...devices.camera.folder import FolderCamera

        return FolderCamera(cam.folder)
    return SimulatedCamera(seed=seed, style=cam.sim_dice)  # faces 0-5, as before: piecepack dice have no 6


def open_display(config: Config, frames_dir: Path | None = None) -> Display:
    kind = config.display_kind
    if kind == "ssd1306" or kind == "sh1106":
        return OledDisplay(kind, config.display.i2c_port, config.display.i2c_address)
    if kind == "terminal":
        return TerminalDisplay()
    if kind == "none":
        return NoDisplay()
    return SimulatedDisplay(frames_dir)


def open_devices(config: Config, seed: int = 0, frames_dir: Path | None = None) -> Devices:
    """Everything the table needs, opened in an order that lets a failure close what was already open."""
    factory = MockFactory() if config.hardware == "sim" else None
    try:
        panel = Panel(config.pins, factory=factory, debounce_s=config.debounce_ms / 1000)
    except GPIOZeroError as exc:
        raise DeviceError(
            f"the buttons and LEDs could not be set up ({exc}): on the Pi install python3-lgpio and set "
            "GPIOZERO_PIN_FACTORY=lgpio (the service does), or run with --sim"
        ) from exc
    try:
        camera = open_camera(config, seed)
    except CameraError as exc:
        panel.close()
        raise DeviceError(str(exc)) from exc
    try:
        display = open_display(config, frames_dir)
    except DisplayError as exc:
        panel.close()
        camera.close()
        raise DeviceError(f'{exc}; or set [display] kind = "none" to run with the web page alone') from exc
    simulator = PanelSimulator(factory, config.pins) if factory is not None else None
    sim_camera = camera if isinstance(camera, SimulatedCamera) else None
    return Devices(camera, panel, display, simulator, sim_camera)
