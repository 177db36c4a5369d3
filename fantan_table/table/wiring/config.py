"""The table's one config file: which hardware, which pins, which game, and the house rules.

``/etc/fantan-table/config.toml`` on the Pi (or ``--config FILE``). Every key is declared once, in
:data:`KEYS` (kind, default, range, meaning); ``config.example.toml`` is written from it by
``fantan-table config --example``, and the web page's new-game form asks for the game's keys from it.
Every key is optional. An unknown section or key, or a bad value,
is a :class:`ConfigFileError` naming the file and the key, raised before any device is touched.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Literal, get_args

from ...devices.pins import DEFAULT_BUTTONS, DEFAULT_LEDS, ButtonName, LedName, PinError, PinMap
from ...errors import FantanError
from ...rules.bets import Variant, format_variants, parse_variants
from ...rules.dice import MAX_SHAKEN
from ...rules.errors import ConfigError
from ...rules.events import OnUnsure
from ...rules.game import GameConfig, ShortBank, Suit
from ...rules.money import COIN_CENTS
from ...rules.sevens.events import SevensSetup
from ...rules.sevens.game import start as sevens_start
from ...rules.sevens.options import PRESETS, Agreed, CardMode
from ...rules.tens.hand import PairRule
from ...rules.tens.options import Dominoes, TensConfig, WhenDry
from ...settings import Key, Scope, declare, example_file, read_settings, section_values, toml_value
from ...vision.render import STYLE_CHOICES
from ..core.codec import game_from_json
from .banker_pin import valid_pin_hash
from .setups import FANTAN_NAME, GAME_NAMES, SEVENS_NAME, TENS_NAME, FanTanNight, NightSetup

DEFAULT_PATH: Final = Path("/etc/fantan-table/config.toml")
PI_MODEL_FILE: Final = Path("/proc/device-tree/model")

Hardware = Literal["pi", "sim"]
CameraKind = Literal["auto", "picamera", "usb", "folder", "sim"]
DisplayKind = Literal["auto", "ssd1306", "sh1106", "sim", "terminal", "none"]


class ConfigFileError(FantanError, ValueError):
    """A config that cannot be used; the message names the file and the key."""


def on_a_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False


@dataclass(frozen=True)
class CameraConfig:
    kind: CameraKind
    resolution: tuple[int, int]
    settle_seconds: float
    usb_device: int
    folder: str
    sim_dice: str


@dataclass(frozen=True)
class DisplayConfig:
    kind: DisplayKind
    i2c_port: int
    i2c_address: int


@dataclass(frozen=True)
class ReaderConfig:
    profile: str
    expect: int


@dataclass(frozen=True)
class HouseRules:
    on_unsure: OnUnsure
    auto_next_seconds: float
    still_frames: int


@dataclass(frozen=True)
class WebConfig:
    host: str
    port: int
    banker_pin_hash: str
    base_url: str
    trusted_proxy: str
    tls_certificate: str
    tls_key: str
    api_description: bool

    @property
    def tls(self) -> bool:
        return bool(self.tls_certificate)


@dataclass(frozen=True)
class Config:
    """The whole file, every key filled in (the meaning of each is in :data:`KEYS`)."""

    hardware: Hardware
    state_dir: Path
    game: GameConfig | None
    """Piecepack Fan Tan's game, when ``[game] plays`` is it (another game's players need not make one)."""
    camera: CameraConfig
    display: DisplayConfig
    pins: PinMap
    debounce_ms: int
    reader: ReaderConfig
    house: HouseRules
    web: WebConfig
    source: str = "built-in defaults"
    night: NightSetup | None = None
    """What a new night plays: the game ``[game] plays`` names, with its options."""

    @property
    def new_night(self) -> NightSetup:
        assert self.night is not None, "load_config sets it"
        return self.night

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
SUITS: Final = tuple(s.value for s in Suit)
#: The words of [game] variants; each item of the list is one of them or several joined by commas.
VARIANT_WORDS: Final = ("corners", "diagonals", "strong", "all")
MAX_DOLLARS: Final = 1_000_000
"""A player's money at the start, at most: more than any table plays for, and far from overflowing cents."""
MAX_HOUSE_DOLLARS: Final = 100 * MAX_DOLLARS
"""A house bank's money at the start, at most: a hundred players' worth."""
MAX_ROUNDS: Final = 1_000_000
"""A game's rounds at most: years of nights, so only a typing slip goes beyond it."""

HEADER: Final = (
    "fantan-table's config. Copy it to /etc/fantan-table/config.toml (the installer does),\n"
    "or give it with --config FILE.\n"
    "Every key is optional; the value shown is the default. A key the table does not know is an error.\n"
    "Written by `fantan-table config --example` from the keys declared in fantan_table/table/wiring/config.py."
)

SECTION_TEXTS: Final = {
    "panel.buttons": "BCM numbers (GPIO17 is 17), not header pin numbers; see hardware/wiring.md.\n"
    "Each button connects its GPIO to ground (the Pi's pull-up holds it high).",
    "panel.leds": "Each LED: GPIO -> 330 ohm resistor -> LED -> ground.",
}

#: Every key the file may hold, declared once: checked on reading, written to config.example.toml,
#: and (the game's keys and the house's on_unsure) asked for by the web page's new-game form.
KEYS: Final = declare(
    Key(
        "",
        "hardware",
        str,
        None,
        '"pi": the real camera, buttons, LEDs and display. "sim": simulated ones (a laptop, CI). '
        'Default: "pi" on a Raspberry Pi, "sim" anywhere else. `fantan-table run --sim` overrides it.',
        choices=get_args(Hardware),
        shown='"pi"',
    ),
    Key(
        "",
        "state_dir",
        str,
        None,
        "Where the journal of every round (and each round's photo) is kept. Default: /var/lib/fantan-table "
        "on the Pi (the service's StateDirectory), .fantan-state in simulation.",
        shown='"/var/lib/fantan-table"',
    ),
    Key(
        "camera",
        "kind",
        str,
        "auto",
        '"auto" (picamera on the Pi, sim otherwise), "picamera", "usb" (an OpenCV webcam), '
        '"folder" (replay recorded pictures, in name order), "sim" (the synthetic table).',
        choices=get_args(CameraKind),
    ),
    Key(
        "camera",
        "resolution",
        "size",
        (2304, 1296),
        "Still resolution for the Pi camera: Camera Module 3 gives 2304x1296 binned, fast and sharp enough.",
        low=(64, 64),
        high=(9152, 6944),  # the largest still of the Pi's cameras (HQ camera 4056x3040, Module 3 4608x2592)
    ),
    Key(
        "camera",
        "settle_seconds",
        float,
        2.0,
        "How long the automatic exposure and white balance may settle before they are locked for the night.",
        low=0,
        high=30,
    ),
    Key("camera", "usb_device", int, 0, 'The webcam\'s number for kind = "usb" (/dev/video0 is 0).', low=0, high=63),
    Key("camera", "folder", str, "", 'The folder of pictures for kind = "folder".'),
    Key(
        "camera",
        "sim_dice",
        str,
        "mixed",
        'The dice the simulated camera rolls (kind = "sim"): "mixed" (pipped dice of every look), "pips", '
        '"ivory", "colour", or "piecepack" (the four suits\' dice: blank, ace, 2-5), to try a piecepack '
        "calibration on a laptop.",
        choices=STYLE_CHOICES,
    ),
    Key(
        "display",
        "kind",
        str,
        "auto",
        '"auto" (ssd1306 on the Pi, sim otherwise), "ssd1306", "sh1106" (the 1.3-inch panels), '
        '"sim" (pictures in memory, mirrored on the web page), "terminal" (printed), "none".',
        choices=get_args(DisplayKind),
    ),
    Key("display", "i2c_port", int, 1, "The I2C bus (1 on every Pi since the model B+).", low=0, high=31),
    Key(
        "display",
        "i2c_address",
        int,
        0x3C,
        "The panel's I2C address (0x3C; some are 0x3D).",
        low=0x03,  # 7-bit addresses below 0x03 and above 0x77 are reserved by the I2C specification
        high=0x77,
        shown="0x3C",
    ),
    Key(
        "panel",
        "debounce_ms",
        int,
        30,
        "Presses shorter than this are contact bounce and are ignored (milliseconds).",
        low=0,
        high=500,
    ),
    *(
        Key("panel.buttons", b.value, int, DEFAULT_BUTTONS[b], f"BCM number of the {b.value.replace('_', ' ')} button.")
        for b in ButtonName
    ),
    *(
        Key("panel.leds", led.value, int, DEFAULT_LEDS[led], f"The {led.value.replace('_', ' ')} LED.")
        for led in LedName
    ),
    Key(
        "reader",
        "profile",
        str,
        "",
        "The dice reader's profile folder (from `fantan-table calibrate`); relative to this file. "
        "Empty: the built-in defaults for pipped dice.",
    ),
    Key(
        "reader",
        "expect",
        int,
        4,
        'How many dice are shaken: any other count is read as "unsure" and not settled.',
        low=1,
        high=MAX_SHAKEN,
    ),
    Key(
        "house",
        "on_unsure",
        str,
        "reroll",
        'When the dice cannot be read surely: "reroll" (the banker shakes again, the bets stand) '
        'or "void" (the round is void and every stake goes back).',
        choices=get_args(OnUnsure),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "house",
        "auto_next_seconds",
        float,
        0.0,
        "Seconds after a settlement before betting opens by itself; 0 waits for the next-round button.",
        low=0,
        high=3600,
    ),
    Key(
        "house",
        "still_frames",
        int,
        3,
        "Frames in a row that must show the same dice before the table reads them by itself.",
        low=1,
        high=30,
    ),
    Key(
        "web",
        "host",
        str,
        "",
        "Where the scorer's page listens. Empty: all interfaces on the Pi, 127.0.0.1 in simulation.",
    ),
    Key("web", "port", int, 8080, "0 takes any free port (the address is printed at start).", low=0, high=65535),
    Key(
        "web",
        "banker_pin_hash",
        str,
        "",
        "The banker's PIN, hashed (`fantan-table pin-hash` makes it). Empty: the table makes up a PIN at its first "
        "start and writes it to a file only its own user can read (the path is printed).",
    ),
    Key(
        "web",
        "base_url",
        str,
        "",
        "The start of the players' links and QR codes, e.g. http://fantan.local:8080. "
        "Empty: this machine's own address and port.",
    ),
    Key(
        "web",
        "trusted_proxy",
        str,
        "",
        "The address of a reverse proxy in front of the page, whose X-Forwarded-For header is believed. "
        "Empty: no proxy, and that header is ignored (anyone could send it).",
    ),
    Key(
        "web",
        "tls_certificate",
        str,
        "",
        "Serve the page over HTTPS with this certificate (PEM); cookies are then marked Secure. "
        "Needs tls_key. See the README's 'HTTPS on the Pi'.",
    ),
    Key("web", "tls_key", str, "", "The private key (PEM) of tls_certificate, readable by the table's user only."),
    Key(
        "web",
        "api_description",
        bool,
        False,
        "Serve the API's description at /openapi.json (for people extending the table); off on a game night.",
    ),
    Key(
        "game",
        "plays",
        str,
        FANTAN_NAME,
        'The game a new night plays: "fantan" (piecepack Fan Tan, the dice game), "sevens" (card Fan Tan, options '
        'in [sevens]) or "tens" (Collecting Tens with Chinese dominoes, options in [tens]). A night under way '
        "carries on as the game it is whatever this says.",
        choices=GAME_NAMES,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "players",
        "strings",
        DEFAULT_PLAYERS,
        "The players, by seat: two to four for Fan Tan, each with their own suit of coins; card Fan Tan takes as "
        "many as its rules allow (clockwise), Collecting Tens two or more (in the order of play).",
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "suits",
        "strings",
        None,
        f"Each player's suit, in the players' order: {', '.join(SUITS)}. Default: these in this order.",
        choices=SUITS,
        shown=toml_value(SUITS),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "starting_dollars",
        int,
        50,
        "Each player's money at the start, in whole dollars (Fan Tan and Collecting Tens).",
        low=1,
        high=MAX_DOLLARS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "variants",
        "strings",
        (),
        'Extra bets allowed: any of "corners", "diagonals", "strong" (or "all"). Numbers and sides always are.',
        choices=VARIANT_WORDS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "banker",
        str,
        "house",
        'Who banks: "house" (the table only keeps score; the house never runs out), "house-bank" (a house '
        'with house_bank_dollars, which can go bankrupt), "rotating" (a player banks and passes the bank on '
        "every rotate_every rounds, starting with first_banker).",
        choices=("house", "house-bank", "rotating"),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "house_bank_dollars",
        int,
        500,
        'The house bank\'s money at the start, in whole dollars (banker = "house-bank").',
        low=1,
        high=MAX_HOUSE_DOLLARS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "rotate_every",
        int,
        4,
        'Rounds each player banks for (banker = "rotating").',
        low=1,
        high=1000,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "first_banker",
        str,
        "",
        'The player who banks first (banker = "rotating"); empty: the first player.',
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "banker_by_roll",
        bool,
        False,
        'Decide the first banker by rolling the highest (banker = "rotating", first_banker empty): before round 1 '
        "each player rolls the dice under the camera in turn, the highest total banks, ties roll again.",
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "short_bank",
        str,
        "owes",
        'A bank (house-bank or rotating) that holds less than a round\'s wins: "owes" (every win paid in full, '
        'the bank below zero, owing it) or "in-proportion" (it pays what it holds, shared in proportion to the '
        "wins, and the rest goes unpaid). Either way the bank is then bankrupt.",
        choices=tuple(s.value for s in ShortBank),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "end",
        str,
        "raid",
        'When the game ends: "raid" (never, until the police raid), "rounds" (after end_rounds), "time" '
        '(at end_time, finishing the round under way), "first-bankrupt", "second-last-bankrupt", '
        '"banker-bankrupt" (needs a house bank or a rotating banker).',
        choices=("raid", "rounds", "time", "first-bankrupt", "second-last-bankrupt", "banker-bankrupt"),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "end_rounds",
        int,
        20,
        'Rounds the game lasts (end = "rounds").',
        low=1,
        high=MAX_ROUNDS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "game",
        "end_time",
        datetime,
        None,
        'When the game ends (end = "time"), a date and time with its offset from UTC.',
        shown="2026-11-22T23:30:00+01:00",
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "sevens",
        "rules",
        str,
        "001",
        'Card Fan Tan as which rule document plays it (docs/sevens.md): "001" (3-6 players, the first Jack deals, '
        '1 chip ante, revokes penalised), "002" (any number, an agreed stake), "004" (2-6, points to a target, the '
        "two-player dummy hand).",
        choices=tuple(PRESETS),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "sevens",
        "cards",
        str,
        CardMode.PHYSICAL.value,
        '"physical": a real pack, the banker enters each card played on the page; "virtual": the table deals to '
        "the players' phones and refuses a pass while a card can be played.",
        choices=tuple(m.value for m in CardMode),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "sevens",
        "hands",
        int,
        10,
        "Hands the game lasts (unless it ends first: a player out of chips, or a points target).",
        low=1,
        high=MAX_ROUNDS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "sevens",
        "chips",
        int,
        50,
        "Each player's chips at the start.",
        low=0,
        high=MAX_DOLLARS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "sevens",
        "stake",
        int,
        1,
        'Each player\'s ante in chips when the rules take an agreed stake ("002").',
        low=1,
        high=MAX_DOLLARS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "sevens",
        "points_target",
        int,
        50,
        'The points that win a game scored by points ("004").',
        low=1,
        high=MAX_ROUNDS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "tens",
        "dominoes",
        str,
        Dominoes.PHYSICAL.value,
        '"physical": a real set, the banker enters each move and a declared hand tile by tile; "virtual": the table '
        "builds the woodpile and deals to the players' phones.",
        choices=tuple(d.value for d in Dominoes),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "tens",
        "pairs",
        str,
        PairRule.LISTED.value,
        '"listed": only the rule document\'s own list of pairs of ten and twenty; "ten-or-twenty": any two tiles '
        "whose pips total 10 or 20.",
        choices=tuple(r.value for r in PairRule),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "tens",
        "sets",
        int,
        0,
        "Sets of 32 dominoes in play; 0: the fewest that deal every hand and leave each player three tiles to draw.",
        low=0,
        high=100,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "tens",
        "when_dry",
        str,
        WhenDry.CARRY.value,
        'The woodpile runs dry and the hand is drawn: "carry" (the pot waits for the next hand\'s winner) or '
        '"refund" (every player takes back what they put in).',
        choices=tuple(w.value for w in WhenDry),
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "tens",
        "ante_dollars",
        int,
        1,
        "Each player's ante into the pot, each hand, in whole dollars.",
        low=1,
        high=MAX_DOLLARS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
    Key(
        "tens",
        "penalty_dollars",
        int,
        0,
        "Paid into the pot for a declared hand that is not complete; 0: the declaration is only refused.",
        low=0,
        high=MAX_DOLLARS,
        scope=Scope.FILE | Scope.NEW_GAME,
    ),
)
CHOICES: Final = {where: key.choices for where, key in KEYS.items() if key.choices and key.kind is str}


def example() -> str:
    """config.example.toml as it must read: every key, its meaning and its default."""
    return example_file(HEADER, SECTION_TEXTS, KEYS)


def default_state_dir(hardware: Hardware) -> Path:
    return Path("/var/lib/fantan-table") if hardware == "pi" else Path(".fantan-state")


def load_config(path: Path | None, hardware: Hardware | None = None) -> Config:
    """Read the config (``None``: the defaults); ``hardware`` (from ``--sim``) overrides the file's choice."""
    given = _read(path) if path is not None else {}
    where = str(path) if path is not None else "defaults"

    def values(section: str) -> dict[str, Any]:
        return section_values(KEYS, given, section)

    top = values("")
    chosen: Hardware = hardware or top["hardware"] or ("pi" if on_a_raspberry_pi() else "sim")
    web = values("web")
    if web["banker_pin_hash"] and not valid_pin_hash(web["banker_pin_hash"]):
        raise ConfigFileError(f"{where}: [web] banker_pin_hash: not a PIN hash: make one with 'fantan-table pin-hash'")
    if bool(web["tls_certificate"]) != bool(web["tls_key"]):
        raise ConfigFileError(f"{where}: [web] tls_certificate and tls_key go together: give both, or neither")
    for name in ("tls_certificate", "tls_key"):
        web[name] = _relative_to(path, web[name]) if web[name] else ""
        if web[name] and _missing(Path(web[name])):  # said now, not once a night has begun and the page starts
            raise ConfigFileError(f"{where}: [web] {name}: no such file {web[name]}: give the PEM file's path")
    if web["base_url"] and not web["base_url"].startswith(("http://", "https://")):
        raise ConfigFileError(f"{where}: [web] base_url must start with http:// or https:// (got {web['base_url']!r})")
    buttons, leds = values("panel.buttons"), values("panel.leds")
    try:
        pins = PinMap(buttons={b: buttons[b.value] for b in ButtonName}, leds={led: leds[led.value] for led in LedName})
    except PinError as exc:
        raise ConfigFileError(f"{where}: {exc}") from None
    game_keys = values("game")
    plays = game_keys["plays"]
    try:
        game = game_from_settings(game_keys) if plays == FANTAN_NAME else None
        night = night_from_settings(game_keys, values("sevens"), values("tens"), game, values("house")["on_unsure"])
    except ConfigError as exc:
        raise ConfigFileError(f"{where}: [{'game' if plays == FANTAN_NAME else plays}] {exc}") from None
    reader = values("reader")
    return Config(
        hardware=chosen,
        state_dir=Path(top["state_dir"] or default_state_dir(chosen)),
        game=game,
        camera=CameraConfig(**values("camera")),
        display=DisplayConfig(**values("display")),
        pins=pins,
        debounce_ms=values("panel")["debounce_ms"],
        reader=ReaderConfig(profile=_relative_to(path, reader["profile"]), expect=reader["expect"]),
        house=HouseRules(**values("house")),
        web=WebConfig(**web),
        source=where,
        night=night,
    )


def _read(path: Path) -> dict[tuple[str, str], Any]:
    """The file's values by (section, key), each checked against its declaration."""
    return read_settings(path, KEYS, ConfigFileError, "config file (copy config.example.toml from the repository)")


def _missing(file: Path) -> bool:
    """No file at ``file``. One this user may not look at (the key, readable by the table's user only) is not
    said missing: the page says what it finds when it starts."""
    try:
        return not file.is_file()
    except PermissionError:
        return False


def _relative_to(config_path: Path | None, value: str) -> str:
    """A relative profile path is taken from the config file's folder, as a person writing the file means it."""
    if not value or config_path is None or Path(value).is_absolute():
        return value
    return str(config_path.parent / value)


def night_from_settings(
    game: dict[str, Any],
    sevens: dict[str, Any],
    tens: dict[str, Any],
    fantan: GameConfig | None,
    on_unsure: OnUnsure,
) -> NightSetup:
    """The night ``[game] plays`` names, from its keys (each already checked against its declaration); a setup
    its game's rules refuse is a ConfigError naming the rule."""
    players: tuple[str, ...] = game["players"]
    match game["plays"]:
        case name if name == SEVENS_NAME:
            agreed = Agreed(sevens["hands"], sevens["chips"], sevens["stake"], sevens["points_target"])
            setup = SevensSetup(players, PRESETS[sevens["rules"]], agreed, CardMode(sevens["cards"]))
            return sevens_start(setup).setup  # checked (names, seats, numbers) and with the names as kept
        case name if name == TENS_NAME:
            return TensConfig(
                players,
                starting_cents=game["starting_dollars"] * COIN_CENTS,
                ante_cents=tens["ante_dollars"] * COIN_CENTS,
                pairs=PairRule(tens["pairs"]),
                sets=tens["sets"] or None,
                when_dry=WhenDry(tens["when_dry"]),
                penalty_cents=tens["penalty_dollars"] * COIN_CENTS,
                dominoes=Dominoes(tens["dominoes"]),
            )
    return FanTanNight(fantan if fantan is not None else game_from_settings(game), on_unsure)


def game_from_settings(game: dict[str, Any]) -> GameConfig:
    """The [game] keys (each already checked against its declaration), in the journal's words for a game."""
    names: tuple[str, ...] = game["players"]
    suits: tuple[str, ...] = SUITS[: len(names)] if game["suits"] is None else game["suits"]
    if len(suits) != len(names):
        raise ConfigError(f"suits: give one suit per player ({len(names)} players, {len(suits)} suits)")
    if any(s not in SUITS for s in suits):
        raise ConfigError(f"suits: each is one of {', '.join(SUITS)} (got {list(suits)})")
    variants = format_variants(functools.reduce(operator.or_, map(parse_variants, game["variants"]), Variant.NONE))
    if game["banker_by_roll"] and game["banker"] != "rotating":
        raise ConfigError('banker_by_roll decides who banks first, so it needs banker = "rotating"')
    if game["end"] == "time" and game["end_time"] is None:
        raise ConfigError('end = "time" needs end_time, e.g. end_time = 2026-11-22T23:30:00+01:00')
    return game_from_json(
        {
            "players": [{"name": n, "suit": s} for n, s in zip(names, suits, strict=True)],
            "starting_balance_cents": game["starting_dollars"] * COIN_CENTS,
            "variants": variants,
            "banker": {
                "mode": game["banker"],
                "balance_cents": game["house_bank_dollars"] * COIN_CENTS,
                "every_rounds": game["rotate_every"],
                "first": game["first_banker"] or None,
                "by_roll": game["banker_by_roll"],
            },
            "end": {"kind": game["end"], "rounds": game["end_rounds"], "deadline": game["end_time"]},
            "short_bank": game["short_bank"],
        }
    )
