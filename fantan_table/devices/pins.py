"""Which GPIO pin each button and LED is wired to, checked before anything is switched on."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from ..errors import FantanError


class ButtonName(enum.Enum):
    NO_MORE_BETS = "no_more_bets"
    READ = "read"
    NEXT_ROUND = "next_round"
    RAID = "raid"
    CONFIRM = "confirm"


class LedName(enum.Enum):
    TILE_0 = "tile_0"
    TILE_1 = "tile_1"
    TILE_2 = "tile_2"
    TILE_3 = "tile_3"
    BETS_OPEN = "bets_open"


#: BCM numbers of the 40-pin header's GPIOs. 0 and 1 are the HAT ID EEPROM, 2 and 3 the I2C bus of the display.
USABLE: Final = frozenset(range(4, 28))
RESERVED: Final = {
    0: "the HAT ID EEPROM (ID_SD)",
    1: "the HAT ID EEPROM (ID_SC)",
    2: "I2C SDA (the display)",
    3: "I2C SCL (the display)",
}

#: BCM number -> physical pin on the 40-pin header (the numbers printed on most pinout cards).
HEADER_PIN: Final = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33,
    14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip
GROUND_PINS: Final = (6, 9, 14, 20, 25, 30, 34, 39)

DEFAULT_BUTTONS: Final = {
    ButtonName.NO_MORE_BETS: 17,
    ButtonName.READ: 27,
    ButtonName.NEXT_ROUND: 22,
    ButtonName.RAID: 23,
    ButtonName.CONFIRM: 24,
}
DEFAULT_LEDS: Final = {
    LedName.TILE_0: 5,
    LedName.TILE_1: 6,
    LedName.TILE_2: 13,
    LedName.TILE_3: 19,
    LedName.BETS_OPEN: 26,
}


class PinError(FantanError, ValueError):
    """A pin map that cannot be wired; the message names the config key."""


@dataclass(frozen=True)
class PinMap:
    buttons: Mapping[ButtonName, int] = field(default_factory=lambda: dict(DEFAULT_BUTTONS))
    leds: Mapping[LedName, int] = field(default_factory=lambda: dict(DEFAULT_LEDS))

    def __post_init__(self) -> None:
        seen: dict[int, str] = {}
        for section, names in (("buttons", self.buttons), ("leds", self.leds)):
            for name, pin in names.items():
                key = f"[panel.{section}] {name.value} = {pin!r}"
                if type(pin) is not int or not 0 <= pin <= 27:
                    raise PinError(f"{key}: not a GPIO; use a BCM number from 4 to 27")
                if pin in RESERVED:
                    raise PinError(f"{key}: BCM {pin} is {RESERVED[pin]}; use a BCM number from 4 to 27")
                if pin in seen:
                    raise PinError(f"{key}: BCM {pin} is already {seen[pin]}; every button and LED needs its own pin")
                seen[pin] = f"[panel.{section}] {name.value}"
        missing = [n.value for n in ButtonName if n not in self.buttons] + [
            n.value for n in LedName if n not in self.leds
        ]
        if missing:
            raise PinError(f"[panel] no pin given for {', '.join(missing)}")
