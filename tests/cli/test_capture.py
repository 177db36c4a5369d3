"""Guided capture with the table's camera (here a folder camera replaying pictures), answered at the prompt."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.cli import main
from fantan_table.vision.dataset import read_labels


def camera_config(tmp_path: Path, pictures: int) -> Path:
    shots = tmp_path / "shots"
    shots.mkdir()
    for i in range(pictures):
        cv2.imwrite(str(shots / f"{i:03d}.png"), np.full((48, 64, 3), 10 * i, np.uint8))
    config = tmp_path / "config.toml"
    config.write_text(f'hardware = "sim"\n[camera]\nkind = "folder"\nfolder = "{shots}"\n')
    return config


def answer(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_rolls_are_saved_with_the_values_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = camera_config(tmp_path, 3)
    answer(monkeypatch, "\n0 3 5 2\n\nseven\n1,1,2,6\nq\n")
    assert main(["capture", "rolls", str(tmp_path / "rolls"), "--config", str(config)]) == 0
    samples = read_labels(tmp_path / "rolls")
    assert [(s.image.name, s.values) for s in samples] == [
        ("roll_001.jpg", (0, 3, 5, 2)),
        ("roll_002.jpg", (1, 1, 2, 6)),
    ]
    answer(monkeypatch, "\n4 4 4 4\nq\n")  # a second session adds to the set
    assert main(["capture", "rolls", str(tmp_path / "rolls"), "--config", str(config)]) == 0
    assert [s.image.name for s in read_labels(tmp_path / "rolls")][-1] == "roll_003.jpg"


def test_faces_are_named_for_calibration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = camera_config(tmp_path, 8)
    answer(monkeypatch, "\n" * 8)
    args = [
        "capture",
        "faces",
        str(tmp_path / "faces"),
        "--config",
        str(config),
        "--dice",
        "suns,moons",
        "--faces",
        "0,1",
        "--per-face",
        "2",
    ]
    assert main(args) == 0
    assert sorted(p.name for p in (tmp_path / "faces").iterdir()) == [
        f"{die}_{v}_{k}.jpg" for die in ("moons", "suns") for v in (0, 1) for k in (1, 2)
    ]


def test_the_empty_table_and_a_camera_that_runs_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    config = camera_config(tmp_path, 1)
    answer(monkeypatch, "\n")
    assert main(["capture", "empty", str(tmp_path / "empty.png"), "--config", str(config)]) == 0
    assert cv2.imread(str(tmp_path / "empty.png")) is not None
    answer(monkeypatch, "\n\n")
    assert main(["capture", "empty", str(tmp_path / "again.png"), "--config", str(config)]) == 0
    answer(monkeypatch, "\n")
    empty_folder = tmp_path / "none"
    empty_folder.mkdir()
    config.write_text(f'hardware = "sim"\n[camera]\nkind = "folder"\nfolder = "{empty_folder}"\n')
    assert main(["capture", "empty", str(tmp_path / "x.png"), "--config", str(config)]) == 2
    assert "the camera:" in capsys.readouterr().err


def test_the_web_page_is_for_rolls_only(tmp_path: Path, capsys) -> None:
    config = camera_config(tmp_path, 1)
    assert main(["capture", "faces", str(tmp_path / "f"), "--web", "--config", str(config)]) == 2
    assert "--web is for capturing rolls" in capsys.readouterr().err
