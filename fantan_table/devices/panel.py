"""The banker's panel: five buttons and five LEDs on the Pi's GPIO header, through gpiozero.

gpiozero calls back on its own threads; here every edge goes through the button's logic under a
lock and the resulting events into a queue, which the table reads with ``next_event``. The pin
factory is gpiozero's: lgpio on the Pi (``GPIOZERO_PIN_FACTORY=lgpio``), mock pins in simulation.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from gpiozero import LED, Button
from gpiozero.pins import Factory

from .buttons import ButtonEvent, ButtonLogic
from .pins import ButtonName, LedName, PinMap

TILE_LEDS = (LedName.TILE_0, LedName.TILE_1, LedName.TILE_2, LedName.TILE_3)
HOLD_SECONDS = {ButtonName.NEXT_ROUND: 2.0}
"""Buttons with a long-press meaning (hold *next round* to recall past rounds); the others act at once."""


class Panel:
    def __init__(
        self,
        pins: PinMap | None = None,
        factory: Factory | None = None,
        debounce_s: float = 0.03,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pins = pins or PinMap()
        self._clock = clock
        self._lock = threading.Lock()
        self._events: queue.Queue[ButtonEvent] = queue.Queue()
        self._logic = {name: ButtonLogic(name, debounce_s, HOLD_SECONDS.get(name)) for name in ButtonName}
        self._buttons = {
            name: Button(pin, pull_up=True, pin_factory=factory) for name, pin in self.pins.buttons.items()
        }
        self._leds = {name: LED(pin, pin_factory=factory) for name, pin in self.pins.leds.items()}
        for name, button in self._buttons.items():
            button.when_pressed = lambda _device=None, n=name: self._edge(n, down=True)
            button.when_released = lambda _device=None, n=name: self._edge(n, down=False)

    # -- buttons -----------------------------------------------------------------------------------------
    def _edge(self, name: ButtonName, down: bool) -> None:
        with self._lock:
            logic = self._logic[name]
            for event in logic.down(self._clock()) if down else logic.up(self._clock()):
                self._events.put(event)

    def _tick(self) -> None:
        with self._lock:
            now = self._clock()
            for name, logic in self._logic.items():
                for event in logic.tick(now, self._buttons[name].is_pressed):
                    self._events.put(event)

    def next_event(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next button event, waiting up to ``timeout`` seconds (forever when None)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self._tick()
            try:
                return self._events.get(
                    timeout=0.05 if deadline is None else max(0.0, min(0.05, deadline - time.monotonic()))
                )
            except queue.Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    return None

    # -- LEDs --------------------------------------------------------------------------------------------
    def show_open_number(self, number: int | None) -> None:
        """Light the LED under the open number's tile (it replaces the banker's pawn); None lights none."""
        for tile, led in enumerate(TILE_LEDS):
            self._leds[led].value = tile == number

    def show_bets_open(self, open_: bool) -> None:
        self._leds[LedName.BETS_OPEN].value = open_

    def light(self, names: frozenset[LedName] | set[LedName]) -> None:
        """Light exactly these LEDs (the self-test walks through them one by one)."""
        for name, led in self._leds.items():
            led.value = name in names

    def all_off(self) -> None:
        for led in self._leds.values():
            led.off()

    @property
    def lit(self) -> frozenset[LedName]:
        return frozenset(name for name, led in self._leds.items() if led.is_lit)

    def close(self) -> None:
        for device in (*self._buttons.values(), *self._leds.values()):
            device.close()


class PanelSimulator:
    """Presses a panel's buttons through gpiozero's mock pins: for simulation, the self-test and the virtual panel.

    A press goes through the same edges, callbacks, debouncing and queue as a finger on a real button.
    """

    def __init__(self, factory: Factory, pins: PinMap, sleep: Callable[[float], None] = time.sleep) -> None:
        self._factory, self._pins, self._sleep = factory, pins, sleep

    def press(self, name: ButtonName) -> None:
        pin = self._factory.pin(self._pins.buttons[name])
        pin.drive_low()
        pin.drive_high()

    def hold(self, name: ButtonName, seconds: float) -> None:
        pin = self._factory.pin(self._pins.buttons[name])
        pin.drive_low()
        self._sleep(seconds)
        pin.drive_high()

    def lit(self, name: LedName) -> bool:
        """Whether an LED's pin is driven high, read from the pin itself rather than from the panel's records."""
        return bool(self._factory.pin(self._pins.leds[name]).state)
