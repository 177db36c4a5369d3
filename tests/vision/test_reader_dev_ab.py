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
    "spec",
    [
        "stress:899990-900010",
        "wooden:900000-900001",
        "steep:900000-900000",
        "render:499999-500000",
        "byler:149-150",
        "render:5-6",
    ],
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
    assert [r.index for r in dev_ab.parse_set("steep", tmp_path)] == list(range(620_000, 621_500))
    assert [r.index for r in dev_ab.parse_set("render:100003-100005", tmp_path)] == [100_003, 100_004, 100_005]
    for bad in ("dice", "photos:1-2"):
        with pytest.raises(dev_ab.Refused):
            dev_ab.parse_set(bad, tmp_path)


def test_the_steep_set_is_read_only_when_named_and_is_the_steep_stress_scenes(tmp_path):
    from fantan_table.vision.stress import STEEP_TILT_DEG, stress_scene

    assert "steep" not in dev_ab.DEFAULT_SETS and set(dev_ab.DEV) - {"steep"} <= set(dev_ab.DEFAULT_SETS)
    label, picture, truth = next(dev_ab.pictures(dev_ab.Roll("steep", 620_000), tmp_path))
    scene = stress_scene(620_000, steep=True)
    assert label == "steep 620000" and truth == scene.values
    np.testing.assert_array_equal(picture, scene.image)
    assert STEEP_TILT_DEG[0] <= scene.tilt_deg <= STEEP_TILT_DEG[1]


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


def test_another_vision_modules_constant_may_be_tried_by_its_module_name():
    assert dev_ab.parse_try("slant.FAR_SIDE=0.4") == ("slant.FAR_SIDE", 0.4)
    for bad in ("slant.APART=1", "nosuch.APART=1", "os.sep=1", "slant.CONE_DEG=wide"):
        with pytest.raises(dev_ab.Refused):
            dev_ab.parse_try(bad)


def test_a_tried_constant_of_another_module_is_set_there_and_restored(capsys, tmp_path):
    """Every die's lean needs all four sides die-like: no die leans, and the rolls read as they are; the slant
    module is as it was afterwards."""
    from fantan_table.vision import slant

    far_side = slant.FAR_SIDE
    seen: list[float] = []
    real = slant._lean

    def spying(*args):
        seen.append(slant.FAR_SIDE)
        return real(*args)

    slant._lean = spying
    try:
        argv = [
            "--set",
            "render:100000-100002",
            "--try",
            "slant.FAR_SIDE=0.01",
            "--procs",
            "1",
            "--data",
            str(tmp_path),
        ]
        assert dev_ab.main(argv) == 0
    finally:
        slant._lean = real
    assert far_side == slant.FAR_SIDE and {far_side, 0.01} <= set(seen)


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
    names = sorted([*dev_ab.RELABELLED, "IMG_29991231_000000.jpg"])
    for n in names:
        assert cv2.imwrite(str(folder / n), np.zeros((8, 8, 3), np.uint8))
    rows = [f"{n},1 2 2 5 5" for n in dev_ab.RELABELLED]
    (folder / "labels.csv").write_text("\n".join(["image,values", *rows, f"{names[-1]},4 4"]) + "\n")
    truths = [next(dev_ab.pictures(dev_ab.Roll("byler", i), tmp_path))[2] for i in range(len(names))]
    assert truths == [*(dev_ab.RELABELLED[n][0] for n in names[:-1]), (4, 4)]


def _copy_of_builtin(path: Path, folder: Path) -> Path:
    from fantan_table.vision.cnn import sidecar_of

    folder.mkdir(parents=True, exist_ok=True)
    for source in (path, sidecar_of(path)):
        (folder / source.name).write_bytes(source.read_bytes())
    return folder / path.name


def test_a_network_tried_is_the_one_asked_and_the_reader_is_as_it_was_afterwards(tmp_path):
    """The second built-in network given as the first: the tried classifier asks it twice, in the first's place."""
    from fantan_table.vision.classifier import builtin_model
    from fantan_table.vision.cnn import BOXES_PATH, MORE_BOXES_PATH

    other = _copy_of_builtin(MORE_BOXES_PATH, tmp_path / "x")
    network = other.rename(other.with_name(BOXES_PATH.name))
    other.with_suffix(".json").rename(network.with_suffix(".json"))
    job = dev_ab._Job(tmp_path, True, None, dev_ab.parse_network(network))
    as_it_is, tried = job.variants()
    tried()
    members = reader.builtin_model().members
    assert [m.onnx for m in members] == [MORE_BOXES_PATH.read_bytes()] * 2
    as_it_is()
    assert reader.builtin_model() is builtin_model()
    job.restore()
    assert reader.builtin_model is builtin_model


def test_a_builtin_networks_own_copy_moves_nothing(capsys, tmp_path):
    from fantan_table.vision.cnn import BOXES_PATH

    network = _copy_of_builtin(BOXES_PATH, tmp_path / "same")
    argv = ["--set", "render:100000-100002", "--network", str(network), "--procs", "1", "--data", str(tmp_path)]
    assert dev_ab.main(argv) == 0
    out = capsys.readouterr().out
    assert "CHANGE" not in out and "render  right  -> right" in out


def test_a_finder_tried_is_the_one_asked_and_the_reader_is_as_it_was_afterwards(tmp_path):
    """The built-in finder's network at another threshold, in a file of the built-in finder's name."""
    import json

    from fantan_table.vision.finder import BUILTIN_PATH, builtin_finder

    tried_path = tmp_path / BUILTIN_PATH.name
    tried_path.write_bytes(BUILTIN_PATH.read_bytes())
    sidecar = json.loads(BUILTIN_PATH.with_suffix(".json").read_text())
    tried_path.with_suffix(".json").write_text(json.dumps({**sidecar, "threshold": 0.9}))
    job = dev_ab._Job(tmp_path, True, None, dev_ab.parse_network(tried_path))
    as_it_is, tried = job.variants()
    tried()
    assert reader.builtin_finder().threshold == 0.9 != builtin_finder().threshold
    as_it_is()
    assert reader.builtin_finder() is builtin_finder()
    tried()
    job.restore()
    assert reader.builtin_finder is builtin_finder


def test_a_finder_that_cannot_be_read_is_refused(tmp_path):
    from fantan_table.vision.finder import BUILTIN_PATH

    broken = tmp_path / BUILTIN_PATH.name
    broken.write_bytes(b"not a network")
    with pytest.raises(dev_ab.Refused, match="dice finder"):
        dev_ab.parse_network(broken)


def test_a_network_that_is_no_builtin_ones_or_cannot_be_read_is_refused(tmp_path):
    from fantan_table.vision.cnn import BOXES_PATH

    with pytest.raises(dev_ab.Refused, match="one of"):
        dev_ab.parse_network(tmp_path / "faces.onnx")
    broken = tmp_path / BOXES_PATH.name
    broken.write_bytes(b"not a network")
    with pytest.raises(dev_ab.Refused):
        dev_ab.parse_network(broken)
    with pytest.raises(dev_ab.Refused, match="give one"):
        dev_ab.main(["--try", "APART=1", "--network", str(broken), "--data", str(tmp_path)])


def test_perturbed_pictures_are_what_the_reader_reads(capsys, tmp_path, monkeypatch):
    """A quarter turn: every picture the reader is given is the scene's, turned."""
    shapes: list[tuple[int, ...]] = []
    real = reader.read_dice

    def spying(picture, *args):
        shapes.append(picture.shape)
        return real(picture, *args)

    monkeypatch.setattr(reader, "read_dice", spying)
    argv = ["--set", "render:100000-100001", "--perturb", "quarter-turn", "--procs", "1", "--data", str(tmp_path)]
    assert dev_ab.main(argv) == 0
    scene = next(dev_ab.pictures(dev_ab.Roll("render", 100_000), tmp_path))[1]
    assert shapes == [(scene.shape[1], scene.shape[0], 3)] * 2
    assert "render" in capsys.readouterr().out


def test_an_unknown_perturbation_is_refused_by_name(capsys):
    with pytest.raises(SystemExit):
        dev_ab.main(["--perturb", "sideways"])
    assert "invalid choice: 'sideways'" in capsys.readouterr().err
