"""The table's one config file: which hardware, which pins, which game, and the house rules.

``/etc/fantan-table/config.toml`` on the Pi (or ``--config FILE``); ``config.example.toml`` in the
repository documents every key. Every key is optional. An unknown section or key, or a bad value,
is a :class:`ConfigFileError` naming the file and the key, raised before any device is touched.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Literal

from ..devices.pins import ButtonName, LedName, PinError, PinMap
from ..rules.bets import Variant, format_variants, parse_variants
from ..rules.errors import ConfigError
from ..rules.game import GameConfig, Suit
from ..rules.money import COIN_CENTS
from ..tomlfile import check, read_toml
from .banker_pin import valid_pin_hash
from .codec import game_from_json

DEFAULT_PATH: Final = Path("/etc/fantan-table/config.toml")
PI_MODEL_FILE: Final = Path("/proc/device-tree/model")

Hardware = Literal["pi", "sim"]
CameraKind = Literal["auto", "picamera", "usb", "folder", "sim"]
DisplayKind = Literal["auto", "ssd1306", "sh1106", "sim", "terminal", "none"]
OnUnsure = Literal["reroll", "void"]


class ConfigFileError(ValueError):
    """A config that cannot be used; the message names the file and the key."""


def on_a_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False


@dataclass(frozen=True)
class CameraConfig:
    kind: CameraKind = "auto"
    resolution: tuple[int, int] = (2304, 1296)
    settle_seconds: float = 2.0
    usb_device: int = 0
    folder: str = ""


@dataclass(frozen=True)
class DisplayConfig:
    kind: DisplayKind = "auto"
    i2c_port: int = 1
    i2c_address: int = 0x3C


@dataclass(frozen=True)
class ReaderConfig:
    profile: str = ""
    """A profile folder or file; empty for the built-in defaults (pipped dice)."""
    expect: int = 4


@dataclass(frozen=True)
class HouseRules:
    on_unsure: OnUnsure = "reroll"
    """When the dice cannot be read: the banker re-rolls with the bets standing, or the round is void."""
    auto_next_seconds: float = 0.0
    """Open betting again this long after a settlement; 0 waits for the *next round* button."""
    still_frames: int = 3
    """How many frames in a row must agree before the table reads the dice by itself."""


@dataclass(frozen=True)
class WebConfig:
    host: str = ""
    """Where the page listens; empty: every interface on the Pi, this computer only in simulation."""
    port: int = 8080
    banker_pin_hash: str = ""


@dataclass(frozen=True)
class Config:
    hardware: Hardware
    state_dir: Path
    game: GameConfig
    camera: CameraConfig = CameraConfig()
    display: DisplayConfig = DisplayConfig()
    pins: PinMap = field(default_factory=PinMap)
    debounce_ms: int = 30
    reader: ReaderConfig = ReaderConfig()
    house: HouseRules = HouseRules()
    web: WebConfig = WebConfig()
    source: str = "built-in defaults"

    @property
    def camera_kind(self) -> CameraKind:
        if self.camera.kind != "auto":
            return self.camera.kind
        return "picamera" if self.hardware == "pi" else "sim"

    @property
    def display_kind(self) -> DisplayKind:
        if self.display.kind != "auto":
            return self.display.kind
        return "ssd1306" if self.hardware == "pi" else "sim"

    @property
    def web_host(self) -> str:
        return self.web.host or ("0.0.0.0" if self.hardware == "pi" else "127.0.0.1")


DEFAULT_PLAYERS: Final = ("North", "East", "South", "West")

#: Every key the file may hold: (section, key) -> kind of value. "" is the top level.
KEYS: Final[dict[tuple[str, str], Any]] = {
    ("", "hardware"): str,
    ("", "state_dir"): str,
    ("camera", "kind"): str,
    ("camera", "resolution"): "size",
    ("camera", "settle_seconds"): float,
    ("camera", "usb_device"): int,
    ("camera", "folder"): str,
    ("display", "kind"): str,
    ("display", "i2c_port"): int,
    ("display", "i2c_address"): int,
    ("panel", "debounce_ms"): int,
    **{("panel.buttons", b.value): int for b in ButtonName},
    **{("panel.leds", led.value): int for led in LedName},
    ("reader", "profile"): str,
    ("reader", "expect"): int,
    ("house", "on_unsure"): str,
    ("house", "auto_next_seconds"): float,
    ("house", "still_frames"): int,
    ("web", "host"): str,
    ("web", "port"): int,
    ("web", "banker_pin_hash"): str,
    ("game", "players"): "strings",
    ("game", "suits"): "strings",
    ("game", "starting_dollars"): int,
    ("game", "variants"): "strings",
    ("game", "banker"): str,
    ("game", "house_bank_dollars"): int,
    ("game", "rotate_every"): int,
    ("game", "first_banker"): str,
    ("game", "end"): str,
    ("game", "end_rounds"): int,
    ("game", "end_time"): datetime,
}
SECTIONS: Final = tuple(dict.fromkeys(section for section, _ in KEYS if section))
CHOICES: Final[dict[tuple[str, str], tuple[str, ...]]] = {
    ("", "hardware"): ("pi", "sim"),
    ("camera", "kind"): ("auto", "picamera", "usb", "folder", "sim"),
    ("display", "kind"): ("auto", "ssd1306", "sh1106", "sim", "terminal", "none"),
    ("house", "on_unsure"): ("reroll", "void"),
    ("game", "banker"): ("house", "house-bank", "rotating"),
    ("game", "end"): ("raid", "rounds", "time", "first-bankrupt", "second-last-bankrupt", "banker-bankrupt"),
}


def default_state_dir(hardware: Hardware) -> Path:
    return Path("/var/lib/fantan-table") if hardware == "pi" else Path(".fantan-state")


def load_config(path: Path | None, hardware: Hardware | None = None) -> Config:
    """Read the config (``None``: the defaults); ``hardware`` (from ``--sim``) overrides the file's choice."""
    raw = _read(path) if path is not None else {}
    where = str(path) if path is not None else "defaults"

    def get(section: str, key: str, default: Any) -> Any:
        return raw.get((section, key), default)

    def fail(section: str, key: str, message: str) -> ConfigFileError:
        name = f"[{section}] {key}" if section else key
        return ConfigFileError(f"{where}: {name}: {message}")

    chosen: Hardware = hardware or get("", "hardware", "pi" if on_a_raspberry_pi() else "sim")
    numbers = [
        ("camera", "settle_seconds", 0, 30),
        ("camera", "usb_device", 0, 63),
        ("display", "i2c_port", 0, 31),
        ("display", "i2c_address", 0x03, 0x77),
        ("panel", "debounce_ms", 0, 500),
        ("reader", "expect", 1, 8),
        ("house", "auto_next_seconds", 0, 3600),
        ("house", "still_frames", 1, 30),
        ("web", "port", 0, 65535),
        ("game", "starting_dollars", 1, 1_000_000),
        ("game", "house_bank_dollars", 1, 100_000_000),
        ("game", "rotate_every", 1, 1000),
        ("game", "end_rounds", 1, 1_000_000),
    ]
    for section, key, low, high in numbers:
        value = raw.get((section, key))
        if value is not None and not low <= value <= high:
            raise fail(section, key, f"out of range, must be {low} to {high} (got {value!r})")
    pin_hash = get("web", "banker_pin_hash", "")
    if pin_hash and not valid_pin_hash(pin_hash):
        raise fail("web", "banker_pin_hash", "not a PIN hash: make one with 'fantan-table pin-hash'")
    width, height = get("camera", "resolution", CameraConfig.resolution)
    if not (64 <= width <= 9152 and 64 <= height <= 6944):
        raise fail("camera", "resolution", f"out of range, must be 64x64 to 9152x6944 (got {[width, height]})")
    try:
        pins = PinMap(
            buttons={b: get("panel.buttons", b.value, PinMap().buttons[b]) for b in ButtonName},
            leds={led: get("panel.leds", led.value, PinMap().leds[led]) for led in LedName},
        )
    except PinError as exc:
        raise ConfigFileError(f"{where}: {exc}") from None
    try:
        game = _game(raw)
    except ConfigError as exc:
        raise ConfigFileError(f"{where}: [game] {exc}") from None
    return Config(
        hardware=chosen,
        state_dir=Path(get("", "state_dir", str(default_state_dir(chosen)))),
        game=game,
        camera=CameraConfig(
            kind=get("camera", "kind", "auto"),
            resolution=(width, height),
            settle_seconds=get("camera", "settle_seconds", CameraConfig.settle_seconds),
            usb_device=get("camera", "usb_device", CameraConfig.usb_device),
            folder=get("camera", "folder", ""),
        ),
        display=DisplayConfig(
            kind=get("display", "kind", "auto"),
            i2c_port=get("display", "i2c_port", DisplayConfig.i2c_port),
            i2c_address=get("display", "i2c_address", DisplayConfig.i2c_address),
        ),
        pins=pins,
        debounce_ms=get("panel", "debounce_ms", 30),
        reader=ReaderConfig(
            profile=_relative_to(path, get("reader", "profile", "")), expect=get("reader", "expect", 4)
        ),
        house=HouseRules(
            on_unsure=get("house", "on_unsure", HouseRules.on_unsure),
            auto_next_seconds=get("house", "auto_next_seconds", HouseRules.auto_next_seconds),
            still_frames=get("house", "still_frames", HouseRules.still_frames),
        ),
        web=WebConfig(
            host=get("web", "host", ""),
            port=get("web", "port", WebConfig.port),
            banker_pin_hash=pin_hash,
        ),
        source=where,
    )


def _read(path: Path) -> dict[tuple[str, str], Any]:
    """The file's values by (section, key), each checked for its kind and, where there is a list, its choice."""
    data = read_toml(path, ConfigFileError, "config file (copy config.example.toml from the repository)")
    flat: dict[tuple[str, str], Any] = {}

    def walk(section: str, table: dict[str, Any]) -> None:
        for key, value in table.items():
            inner = f"{section}.{key}" if section else key
            if isinstance(value, dict):
                if inner not in SECTIONS:
                    raise ConfigFileError(
                        f"{path}: unknown section [{inner}]; sections are {', '.join(f'[{s}]' for s in SECTIONS)}"
                    )
                walk(inner, value)
                continue
            name = f"[{section}] {key}" if section else key
            if (section, key) not in KEYS:
                takes = ", ".join(k for s, k in KEYS if s == section)
                raise ConfigFileError(
                    f"{path}: {name}: unknown key; {f'[{section}]' if section else 'the top level'} takes {takes}"
                )
            checked = check(value, KEYS[(section, key)], f"{path}: {name}", ConfigFileError)
            choices = CHOICES.get((section, key))
            if choices is not None and checked not in choices:
                raise ConfigFileError(f"{path}: {name}: must be one of {', '.join(map(repr, choices))} (got {value!r})")
            flat[(section, key)] = checked

    walk("", data)
    return flat


def _relative_to(config_path: Path | None, value: str) -> str:
    """A relative profile path is taken from the config file's folder, as a person writing the file means it."""
    if not value or config_path is None or Path(value).is_absolute():
        return value
    return str(config_path.parent / value)


def _game(raw: dict[tuple[str, str], Any]) -> GameConfig:
    """The [game] section, in the journal's words for a game (one mapping of names to rules, in codec)."""

    def get(key: str, default: Any) -> Any:
        return raw.get(("game", key), default)

    names: tuple[str, ...] = get("players", DEFAULT_PLAYERS)
    suits: tuple[str, ...] = get("suits", tuple(s.value for s in Suit)[: len(names)])
    if len(suits) != len(names):
        raise ConfigError(f"suits: give one suit per player ({len(names)} players, {len(suits)} suits)")
    known = [s.value for s in Suit]
    if any(s not in known for s in suits):
        raise ConfigError(f"suits: each is one of {', '.join(known)} (got {list(suits)})")
    variants = format_variants(functools.reduce(operator.or_, map(parse_variants, get("variants", ())), Variant.NONE))
    end = get("end", "raid")
    if end == "time" and ("game", "end_time") not in raw:
        raise ConfigError('end = "time" needs end_time, e.g. end_time = 2026-11-22T23:30:00+01:00')
    return game_from_json(
        {
            "players": [{"name": n, "suit": s} for n, s in zip(names, suits, strict=True)],
            "starting_balance_cents": get("starting_dollars", 50) * COIN_CENTS,
            "variants": variants,
            "banker": {
                "mode": get("banker", "house"),
                "balance_cents": get("house_bank_dollars", 500) * COIN_CENTS,
                "every_rounds": get("rotate_every", 4),
                "first": get("first_banker", "") or None,
            },
            "end": {"kind": end, "rounds": get("end_rounds", 20), "deadline": get("end_time", None)},
        }
    )
