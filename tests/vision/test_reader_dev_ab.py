"""tools/reader_dev_ab.py: the DEV half of choosing a reader rule reads only DEV data and really tries the change."""

import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.vision import reader

TOOL = Path(__file__).resolve().parents[2] / "tools" / "reader_dev_ab.py"
_spec = importlib.util.spec_from_file_location("reader_dev_ab", TOOL)
assert _spec is not None and _spec.loader is not None
dev_ab = importlib.util.module_from_spec(_spec)
sys.modules["reader_dev_ab"] = dev_ab  # its dataclasses find their module by name
_spec.loader.exec_module(dev_ab)


@pytest.mark.parametrize(
    "spec", ["stress:899990-900010", "wooden:900000-900001", "render:499999-500000", "byler:149-150", "render:5-6"]
)
def test_the_benchs_measuring_data_and_what_is_no_dev_data_are_refused(spec, tmp_path):
    with pytest.raises(dev_ab.Refused, match="never tune on it"):
        dev_ab.parse_set(spec, tmp_path)


@pytest.mark.parametrize("spec", ["stress:900010-899990", "stress:-5-3", "stress:600000", "render:a-b"])
def test_a_range_must_run_from_first_to_last(spec, tmp_path):
    with pytest.raises(dev_ab.Refused, match="FIRST-LAST"):
        dev_ab.parse_set(spec, tmp_path)


def test_sets_are_the_dev_rolls_unless_a_range_is_given(tmp_path):
    assert [r.index for r in dev_ab.parse_set("stress", tmp_path)] == list(range(600_000, 601_500))
    assert [r.index for r in dev_ab.parse_set("render:100003-100005", tmp_path)] == [100_003, 100_004, 100_005]
    for bad in ("dice", "photos:1-2"):
        with pytest.raises(dev_ab.Refused):
            dev_ab.parse_set(bad, tmp_path)


@pytest.mark.parametrize("name", ["photos", "byler"])
def test_photos_that_are_not_there_are_refused_before_any_reading(name, tmp_path):
    (tmp_path / "dice-photos").mkdir()  # the other set's folder being there is no help
    with pytest.raises(dev_ab.Refused, match="no labelled photos"):
        dev_ab.parse_set(name, tmp_path)


def test_no_roll_outside_dev_is_read_whoever_asks(tmp_path):
    with pytest.raises(dev_ab.Refused):
        next(dev_ab.pictures(dev_ab.Roll("byler", 160), tmp_path))
    with pytest.raises(dev_ab.Refused):
        next(dev_ab.pictures(dev_ab.Roll("stress", 900_001), tmp_path))


def test_only_the_readers_own_numeric_constants_may_be_tried():
    """Not one it imports (setting the reader's copy reaches nothing) nor one fixed as a default argument."""
    assert dev_ab.parse_try("APART=0.85") == ("APART", 0.85)
    assert dev_ab.parse_try("MOST_DICE=6") == ("MOST_DICE", 6) and isinstance(dev_ab.parse_try("MOST_DICE=6")[1], int)
    for bad in ("FOO=1", "read_dice=1", "APART=near", "FAILURES=1", "FACE_PX=8", "NOT_A_FACE=7", "PIP_RADIUS=0.5"):
        with pytest.raises(dev_ab.Refused):
            dev_ab.parse_try(bad)
    with pytest.raises(dev_ab.Refused, match="whole number"):
        dev_ab.parse_try("MOST_DICE=6.5")


def test_a_tried_value_is_read_and_moves_the_rolls_it_should(capsys, tmp_path):
    """Dice at least five sides apart: every render.py roll read right becomes unsure, and is listed. Read here, one
    by one (``--procs 1``: a test run's threads make forking unsafe), the reader is as it was afterwards."""
    apart = reader.APART
    argv = ["--set", "render:100000-100002", "--try", "APART=5", "--procs", "1", "--data", str(tmp_path)]
    assert dev_ab.main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("CHANGE render") >= 2
    assert "render  right  -> unsure" in out
    assert "right  -> right" not in out
    assert apart == reader.APART


def test_trying_a_constants_own_value_moves_nothing(capsys, tmp_path):
    """The reading "as it is" is the reader's own: the same value tried lists no roll."""
    argv = ["--set", "render:100000-100002", "--try", f"APART={reader.APART}", "--procs", "1", "--data", str(tmp_path)]
    assert dev_ab.main(argv) == 0
    out = capsys.readouterr().out
    assert "CHANGE" not in out and "render  right  -> right" in out


def test_a_relabelled_photo_is_read_against_what_it_shows(tmp_path):
    folder = tmp_path / "dice-photos-byler" / "train"
    folder.mkdir(parents=True)
    (name,) = dev_ab.RELABELLED
    names = [name, "IMG_29991231_000000.jpg"]
    for n in names:
        assert cv2.imwrite(str(folder / n), np.zeros((8, 8, 3), np.uint8))
    (folder / "labels.csv").write_text(f"image,values\n{names[0]},1 2 2 5 5\n{names[1]},4 4\n")
    truths = [next(dev_ab.pictures(dev_ab.Roll("byler", i), tmp_path))[2] for i in (0, 1)]
    assert truths == [dev_ab.RELABELLED[name][0], (4, 4)]
