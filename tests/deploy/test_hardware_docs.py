"""The build documents match the code: the wiring table and diagram show the default pins."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from fantan_table.devices.pins import DEFAULT_BUTTONS, DEFAULT_LEDS, HEADER_PIN

HARDWARE = Path(__file__).parents[2] / "hardware"


def test_the_wiring_table_gives_each_default_pin_and_its_header_pin() -> None:
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    for section, pins in (("buttons", DEFAULT_BUTTONS), ("leds", DEFAULT_LEDS)):
        for name, bcm in pins.items():
            row = re.search(rf"\| `\[panel\.{section}\] {name.value}` \| (\d+) \| (\d+) \|", text)
            assert row is not None, f"no wiring row for [panel.{section}] {name.value}"
            assert (int(row[1]), int(row[2])) == (bcm, HEADER_PIN[bcm])


def test_header_pins_are_a_one_to_one_map_of_the_gpios() -> None:
    assert len(set(HEADER_PIN.values())) == len(HEADER_PIN) == 28
    assert HEADER_PIN[2] == 3 and HEADER_PIN[3] == 5 and HEADER_PIN[17] == 11 and HEADER_PIN[26] == 37


def test_the_committed_diagram_is_the_one_the_pin_map_draws() -> None:
    spec = importlib.util.spec_from_file_location("draw_wiring", HARDWARE / "draw_wiring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (HARDWARE / "wiring.svg").read_text(encoding="utf-8") == module.svg(), (
        "hardware/wiring.svg is stale: run .venv/bin/python hardware/draw_wiring.py"
    )
    for bcm in (*DEFAULT_BUTTONS.values(), *DEFAULT_LEDS.values()):
        assert f"GPIO{bcm} (pin {HEADER_PIN[bcm]})" in module.svg()
