"""The display port: a 128x64 panel showing one screen at a time.

Adapters: ``OledDisplay`` (SSD1306 or SH1106 over I2C through luma.oled, on the Pi),
``SimulatedDisplay`` (luma's dummy device, keeping each frame as a picture) and
``TerminalDisplay`` (the screen in words, for a laptop). A display that fails raises
``DisplayError``; the table goes on without it (the web page shows the same).
"""

from __future__ import annotations

from typing import Protocol

from ...errors import FantanError
from .screens import Screen


class DisplayError(FantanError, RuntimeError):
    """The display could not be reached; the message says what to check."""


class Display(Protocol):
    def show(self, screen: Screen) -> None: ...

    def close(self) -> None: ...
