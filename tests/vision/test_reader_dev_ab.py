"""tools/reader_dev_ab.py: the DEV half of choosing a reader rule reads only DEV data and really tries the change."""

import importlib.util
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "reader_dev_ab.py"
_spec = importlib.util.spec_from_file_location("reader_dev_ab", TOOL)
assert _spec is not None and _spec.loader is not None
dev_ab = importlib.util.module_from_spec(_spec)
sys.modules["reader_dev_ab"] = dev_ab  # its dataclasses and its workers find it by name
_spec.loader.exec_module(dev_ab)


@pytest.mark.parametrize(
    "spec", ["stress:899990-900010", "wooden:900000-900001", "render:399999-400000", "byler:149-150"]
)
def test_the_benchs_measuring_data_is_refused(spec):
    with pytest.raises(dev_ab.Refused, match="measuring data"):
        dev_ab.parse_set(spec)


def test_sets_are_the_dev_rolls_unless_a_range_is_given():
    assert [r.index for r in dev_ab.parse_set("stress")] == list(range(600_000, 601_500))
    assert [r.index for r in dev_ab.parse_set("render:3-5")] == [3, 4, 5]
    assert dev_ab.parse_set("photos") == [dev_ab.Roll("photos", -1)]
    for bad in ("dice", "stress:600000", "photos:1-2"):
        with pytest.raises(dev_ab.Refused):
            dev_ab.parse_set(bad)


def test_only_the_readers_numeric_constants_may_be_tried():
    assert dev_ab.parse_try("APART=0.85") == ("APART", 0.85)
    for bad in ("FOO=1", "read_dice=1", "APART=near", "FAILURES=1"):
        with pytest.raises(dev_ab.Refused):
            dev_ab.parse_try(bad)


def test_a_tried_value_reaches_the_workers_and_moves_the_rolls_it_should(capsys):
    """Dice at least five sides apart: every render.py roll read right becomes unsure, and is listed."""
    assert dev_ab.main(["--set", "render:0-2", "--try", "APART=5", "--procs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("CHANGE render") >= 2
    assert "render  right  -> unsure" in out
    assert "right  -> right" not in out
