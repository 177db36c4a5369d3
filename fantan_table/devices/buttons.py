"""What a button means, from raw edges: debouncing and long presses, in our code and with our clock.

Mock pins ignore gpiozero's ``bounce_time``, and real switches bounce for a few milliseconds, so
the logic lives here, where it is tested. A button either acts the moment it goes down (the raid
button must blank the table at once) or, when it has a long-press meaning, on release: a short
press, or a long press once it has been held ``hold_s``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .pins import ButtonName


class Press(enum.Enum):
    SHORT = "press"
    LONG = "long press"


@dataclass(frozen=True)
class ButtonEvent:
    button: ButtonName
    press: Press
    at: float


class ButtonLogic:
    """One button's state machine. Feed it edges and the time; it answers with the events they make."""

    def __init__(self, name: ButtonName, debounce_s: float = 0.03, hold_s: float | None = None) -> None:
        self.name, self.debounce_s, self.hold_s = name, debounce_s, hold_s
        self._down_since: float | None = None
        self._last_edge = float("-inf")
        self._long_sent = False

    def down(self, now: float) -> list[ButtonEvent]:
        if now - self._last_edge < self.debounce_s or self._down_since is not None:
            return []  # contact bounce, or a repeated edge
        self._last_edge, self._down_since, self._long_sent = now, now, False
        return [] if self.hold_s is not None else [ButtonEvent(self.name, Press.SHORT, now)]

    def up(self, now: float) -> list[ButtonEvent]:
        if self._down_since is None or now - self._last_edge < self.debounce_s:
            return []
        held, self._down_since, self._last_edge = now - self._down_since, None, now
        if self.hold_s is None or self._long_sent:
            return []
        return [ButtonEvent(self.name, Press.LONG if held >= self.hold_s else Press.SHORT, now)]

    def tick(self, now: float, pressed: bool) -> list[ButtonEvent]:
        """Called now and then with the pin's level: a button held long enough is a long press already, and a
        release lost in contact bounce (a tap shorter than the debounce time) is caught up with."""
        if self._down_since is not None and not pressed and now - self._last_edge >= self.debounce_s:
            return self.up(now)
        if self.hold_s is None or self._down_since is None or self._long_sent:
            return []
        if now - self._down_since >= self.hold_s:
            self._long_sent = True
            return [ButtonEvent(self.name, Press.LONG, now)]
        return []
