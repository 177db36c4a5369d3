"""tools/calibrated_dev_folds.py: every photo is read once, by a profile calibrated without it; measured folders are
refused."""

import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.vision.render import random_faces, render_scene

TOOL = Path(__file__).resolve().parents[2] / "tools" / "calibrated_dev_folds.py"
sys.path.insert(0, str(TOOL.parent))  # as when it runs as a script: it asks reader_dev_ab beside it
_spec = importlib.util.spec_from_file_location("calibrated_dev_folds", TOOL)
assert _spec is not None and _spec.loader is not None
folds_tool = importlib.util.module_from_spec(_spec)
sys.modules["calibrated_dev_folds"] = folds_tool  # its dataclasses (and the pool's workers) find it by name
_spec.loader.exec_module(folds_tool)


def _labelled(folder: Path, n: int) -> dict[str, tuple[int, ...]]:
    folder.mkdir()
    truth = {}
    rows = ["image,values"]
    for i in range(n):
        scene = render_scene(random_faces(np.random.default_rng([i, 3]), 4, (0, 1, 2, 3, 4, 5)), 100_000 + i)
        name = f"roll_{i:02d}.png"
        cv2.imwrite(str(folder / name), scene.image)
        truth[name] = scene.values
        rows.append(f"{name},{' '.join(map(str, scene.values))}")
    (folder / "labels.csv").write_text("\n".join(rows) + "\n")
    return truth


@pytest.mark.parametrize("measured", ["dice-photos/valid", "dice-photos-byler/train"])
def test_a_folder_make_bench_measures_on_is_refused(measured, tmp_path):
    (tmp_path / measured).mkdir(parents=True)
    with pytest.raises(folds_tool.Refused, match="never tune on it"):
        folds_tool.checked_folder(tmp_path / measured / ".." / Path(measured).name, tmp_path)
    assert folds_tool.checked_folder(tmp_path / "dice-photos", tmp_path) == tmp_path / "dice-photos"


def test_a_folder_too_small_to_calibrate_on_in_halves_says_so(tmp_path):
    _labelled(tmp_path / "rolls", 10)  # 5 a half: calibrating asks for 6
    with pytest.raises(folds_tool.Refused, match="half of it: 5 labelled pictures are too few"):
        folds_tool.main(["--folder", str(tmp_path / "rolls")])
    with pytest.raises(folds_tool.Refused, match="labels.csv: not found"):
        folds_tool.main(["--folder", str(tmp_path)])


def test_every_photo_is_read_once_by_the_profile_tuned_on_the_other_half(tmp_path, monkeypatch):
    truth = _labelled(tmp_path / "rolls", 14)
    tuned_on: dict[int, set[str]] = {}
    read_by: list[int] = []
    calibrate, read_dice = folds_tool.calibrate, folds_tool.read_dice

    def watched_calibrate(pictures, start, expect, progress):
        result = calibrate(pictures, start, expect, progress)
        tuned_on[id(result.profile)] = {p.name for p in pictures}
        return result

    def watched_read(frame, profile, expect):
        read_by.append(id(profile))
        return read_dice(frame, profile, expect)

    monkeypatch.setattr(folds_tool, "calibrate", watched_calibrate)
    monkeypatch.setattr(folds_tool, "read_dice", watched_read)
    reads = folds_tool.folds(tmp_path / "rolls", count=True, parallel=False)
    assert sorted(r.name for r in reads) == sorted(truth)
    first, second = tuned_on.values()
    assert first | second == set(truth) and not first & second
    for read, profile in zip(reads, read_by, strict=True):
        assert read.name not in tuned_on[profile]
        assert read.truth == truth[read.name]
        assert read.status in ("right", "unsure", "WRONG")
        assert (read.status == "right") == (read.status != "unsure" and sorted(read.values) == sorted(read.truth))
    assert any(read.status == "right" for read in reads)  # render.py dice are what calibration is made for
