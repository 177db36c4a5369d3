"""The real panel: a 0.96-inch 128x64 SSD1306 (or SH1106) on the Pi's I2C bus, through luma.oled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from . import DisplayError
from .draw import HEIGHT, WIDTH, draw
from .screens import Blank, Screen

Driver = Literal["ssd1306", "sh1106"]


def _luma_device(driver: Driver, port: int, address: int) -> Any:
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    device_class = {"ssd1306": ssd1306, "sh1106": sh1106}[driver]
    return device_class(i2c(port=port, address=address), width=WIDTH, height=HEIGHT)


class OledDisplay:
    def __init__(
        self,
        driver: Driver = "ssd1306",
        port: int = 1,
        address: int = 0x3C,
        open_device: Callable[[Driver, int, int], Any] = _luma_device,
    ) -> None:
        self._where = f"{driver} display at I2C address {address:#04x} on bus {port}"
        try:
            self._device = open_device(driver, port, address)
        except Exception as exc:  # luma raises its own errors, smbus2 OSError
            raise DisplayError(
                f"no {self._where} ({exc}): enable I2C (sudo raspi-config, Interface Options), check the wiring "
                "(SDA to header pin 3, SCL to pin 5) and the address with 'i2cdetect -y 1'"
            ) from exc

    def show(self, screen: Screen) -> None:
        try:
            self._device.display(draw(screen))
        except Exception as exc:
            raise DisplayError(f"the {self._where} stopped answering ({exc}); check its wiring") from exc

    def close(self) -> None:
        try:
            self.show(Blank())
            self._device.cleanup()
        except (DisplayError, OSError):
            pass  # already gone; nothing left to switch off
