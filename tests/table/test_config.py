"""The config file: the example documents every key and loads as the defaults; every mistake names its key."""

from __future__ import annotations

import re
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantan_table.cli import main
from fantan_table.devices.pins import ButtonName, LedName
from fantan_table.rules.bets import Variant, parse_variants
from fantan_table.rules.game import AfterRounds, AtTime, HouseBank, RotatingBanker, Suit, UntilRaid
from fantan_table.settings import Key, declare, read_settings, toml_value
from fantan_table.table.wiring.config import KEYS, ConfigFileError, example, load_config, on_a_raspberry_pi

EXAMPLE = Path(__file__).parents[2] / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_documents_every_key_and_means_the_defaults() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    for section, key in KEYS:
        assert f"{key} =" in text or f"# {key} =" in text, f"config.example.toml does not document {section}.{key}"
    example, defaults = load_config(EXAMPLE, "sim"), load_config(None, "sim")
    assert example.game == defaults.game and example.pins == defaults.pins
    assert (example.camera, example.display, example.reader, example.house, example.web) == (
        defaults.camera,
        defaults.display,
        defaults.reader,
        defaults.house,
        defaults.web,
    )


def test_sim_picks_simulated_devices_and_a_local_page() -> None:
    config = load_config(None, "sim")
    assert (config.camera_kind, config.display_kind, config.web_host) == ("sim", "sim", "127.0.0.1")
    pi = load_config(None, "pi")
    assert (pi.camera_kind, pi.display_kind, pi.web_host) == ("picamera", "ssd1306", "0.0.0.0")
    assert str(pi.state_dir) == "/var/lib/fantan-table"


def test_a_full_config_is_read_into_its_parts(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
hardware = "pi"
state_dir = "/srv/fantan"
[camera]
kind = "usb"
usb_device = 2
[display]
kind = "sh1106"
i2c_address = 0x3D
[panel.buttons]
raid = 12
[reader]
profile = "profiles/mine"
[house]
on_unsure = "void"
[game]
players = ["Ann", "Bob", "Cy"]
suits = ["arms", "suns", "moons"]
starting_dollars = 20
variants = ["corners", "strong"]
banker = "rotating"
rotate_every = 2
first_banker = "Bob"
end = "rounds"
end_rounds = 12
""",
    )
    config = load_config(path)
    assert config.hardware == "pi" and config.state_dir == Path("/srv/fantan")
    assert (config.camera_kind, config.camera.usb_device, config.display_kind) == ("usb", 2, "sh1106")
    assert config.display.i2c_address == 0x3D and config.pins.buttons[ButtonName.RAID] == 12
    assert config.reader.profile == str(tmp_path / "profiles/mine")
    assert config.house.on_unsure == "void"
    game = config.game
    assert [(p.name, p.suit) for p in game.players] == [("Ann", Suit.ARMS), ("Bob", Suit.SUNS), ("Cy", Suit.MOONS)]
    assert game.starting_balance_cents == 2000 and game.variants == Variant.CORNERS | Variant.STRONG
    assert game.banker == RotatingBanker(2, "Bob") and game.end == AfterRounds(12)


def test_banker_and_end_choices(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            '[game]\nbanker = "house-bank"\nhouse_bank_dollars = 80\nend = "time"\n'
            "end_time = 2026-11-22T23:30:00+01:00\n",
        ),
        "sim",
    )
    assert config.game.banker == HouseBank(8000)
    assert config.game.end == AtTime(datetime(2026, 11, 22, 23, 30, tzinfo=timezone(timedelta(hours=1))))
    assert load_config(None, "sim").game.end == UntilRaid()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hardwar = 'pi'", r"hardwar: unknown key; the top level takes hardware, state_dir"),
        ("hardware = 'mac'", r"hardware: must be one of 'pi', 'sim' \(got 'mac'\)"),
        ("[camera]\nkind = 'webcam'", r"\[camera\] kind: must be one of 'auto', 'picamera'"),
        ("[camera]\nresolution = [640]", r"\[camera\] resolution: must be \[width, height\] in whole pixels"),
        ("[camera]\nresolution = [10, 10]", r"\[camera\] resolution: out of range"),
        ("[display]\ni2c_address = 200", r"\[display\] i2c_address: out of range, must be 3 to 119"),
        ("[panel.buttons]\nread = 17", r"\[panel.buttons\] read = 17: BCM 17 is already \[panel.buttons\] no_more"),
        ("[panel.leds]\ntile_0 = 2", r"\[panel.leds\] tile_0 = 2: BCM 2 is I2C SDA"),
        ("[panel.leds]\ntile_0 = 40", r"\[panel.leds\] tile_0 = 40: not a GPIO"),
        ("[panel.lights]\ntile_0 = 5", r"unknown section \[panel.lights\]"),
        ("[panel.leds]\ntile_4 = 7", r"\[panel.leds\] tile_4: unknown key; \[panel.leds\] takes tile_0"),
        ("[reader]\nexpect = '4'", r"\[reader\] expect: must be a whole number \(got '4'\)"),
        ("[web]\nport = 70000", r"\[web\] port: out of range"),
        ("[game]\nplayers = ['Ann']", r"\[game\] Fan Tan is for 2 to 4 players"),
        ("[game]\nplayers = ['A', 'B']\nsuits = ['suns']", r"\[game\] suits: give one suit per player"),
        ("[game]\nsuits = ['suns', 'moons', 'crowns', 'stars']", r"\[game\] suits: each is one of suns"),
        ("[game]\nvariants = ['sides']", r"\[game\] unknown variant 'sides'"),
        ("[game]\nend = 'time'", r"\[game\] end = \"time\" needs end_time"),
        ("[game]\nend_time = 2026-11-22T23:30:00", r"\[game\] end_time: must be a date and time with its offset"),
        ("[game]\nend = 'banker-bankrupt'", r"\[game\] 'banker bankrupt' needs a house bank"),
        ("[game", r"not valid TOML"),
    ],
)
def test_every_mistake_names_the_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigFileError, match=message) as caught:
        load_config(path, "sim")
    assert str(caught.value).startswith(str(path))


def test_a_missing_file_says_where_to_get_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigFileError, match="no such config file.*config.example.toml"):
        load_config(tmp_path / "nope.toml")


def test_pi_detection_reads_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_a_raspberry_pi(model)
    model.write_text("QEMU Virtual Machine")
    assert not on_a_raspberry_pi(model)
    assert not on_a_raspberry_pi(tmp_path / "absent")


def test_led_defaults_are_all_there() -> None:
    assert set(load_config(None, "sim").pins.leds) == set(LedName)


def test_the_committed_example_is_the_one_the_declaration_writes() -> None:
    assert EXAMPLE.read_text(encoding="utf-8") == example(), "run: fantan-table config --example > config.example.toml"


def test_the_config_command_prints_the_example_and_checks_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "--example"]) == 0
    assert capsys.readouterr().out == example()
    assert main(["config", "--config", str(write(tmp_path, "[web]\nport = 9000\n"))]) == 0
    assert "every key is known" in capsys.readouterr().out
    assert main(["config", "--config", str(write(tmp_path, "[web]\nport = -1\n"))]) == 2
    assert "[web] port: out of range, must be 0 to 65535 (got -1)" in capsys.readouterr().err


@pytest.mark.parametrize("key", [k for k in KEYS.values() if k.default is not None], ids=lambda k: k.label)
def test_every_default_written_as_toml_reads_back_as_itself(key: Key) -> None:
    """The example's values are the defaults: each passes its own key's checks and comes back unchanged."""
    text = key.shown or toml_value(key.default)
    value = tomllib.loads(f"v = {text}")["v"]
    assert key.checked(value, key.label, ConfigFileError) == key.default


def test_declared_choices_are_what_the_rules_accept() -> None:
    assert KEYS[("game", "suits")].choices == tuple(s.value for s in Suit)
    for word in KEYS[("game", "variants")].choices:
        assert parse_variants(word) != Variant.NONE


ranged = [k for k in KEYS.values() if k.low is not None and k.kind in (int, float)]


@pytest.mark.parametrize("key", ranged, ids=lambda k: k.label)
@given(data=st.data())
@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_number_is_taken_within_its_declared_range_and_refused_outside(
    tmp_path: Path, key: Key, data: st.DataObject
) -> None:
    inside = data.draw(st.integers(int(key.low), int(key.high)))
    outside = data.draw(st.one_of(st.integers(max_value=int(key.low) - 1), st.integers(min_value=int(key.high) + 1)))
    header = f"[{key.section}]\n" if key.section else ""
    path = write(tmp_path, f"{header}{key.name} = {inside}\n")
    assert read_settings(path, KEYS, ConfigFileError, "config")[(key.section, key.name)] == inside
    load_config(path, "sim")  # and the whole config takes it
    with pytest.raises(ConfigFileError, match=re.escape(f"{key.label}: out of range, must be {key.low} to {key.high}")):
        load_config(write(tmp_path, f"{header}{key.name} = {outside}\n"), "sim")


def test_a_key_cannot_be_declared_twice() -> None:
    twice = Key("web", "port", int, 1, "a port")
    with pytest.raises(ValueError, match=r"\[web\] port is declared twice"):
        declare(twice, twice)
