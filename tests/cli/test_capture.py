"""Guided capture with the table's camera (here a folder camera replaying pictures), answered at the prompt."""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Callable
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


def test_a_taken_port_is_said_in_one_line_before_the_prompt(tmp_path: Path, capsys) -> None:
    config = camera_config(tmp_path, 1)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config.write_text(config.read_text() + f'[web]\nhost = "127.0.0.1"\nport = {port}\n')
        assert main(["capture", "rolls", str(tmp_path / "r"), "--web", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port} (Address already in use)" in err
    assert "the table's service serves on the same port: stop it first if it runs" in err and "Traceback" not in err


def simulated_person(capsys: pytest.CaptureFixture[str], rolls_left: list[int]) -> Callable[[str], str]:
    """The capture prompt's answers: the simulated roll read off the screen and typed, as a person would, until
    ``rolls_left[0]`` rolls are taken (then Ctrl-D)."""

    def person(prompt: str) -> str:
        if prompt.startswith("The dice show"):
            return capsys.readouterr().out.rsplit("(simulated: the dice rolled ", 1)[1].split(")")[0]
        if prompt.startswith("Roll the dice"):
            if not rolls_left[0]:
                raise EOFError
            rolls_left[0] -= 1
        return ""

    return person


def test_a_piecepack_calibration_walked_through_in_simulation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The calibration guide, end to end on simulated hardware: the camera shows what each step asks for."""
    config = tmp_path / "config.toml"
    config.write_text('hardware = "sim"\n[camera]\nsim_dice = "piecepack"\n')
    monkeypatch.setattr("builtins.input", simulated_person(capsys, [ROLLS]))
    assert main(["capture", "empty", str(tmp_path / "empty.jpg"), "--config", str(config)]) == 0
    assert main(["capture", "faces", str(tmp_path / "faces"), "--config", str(config), "--per-face", "2"]) == 0
    assert main(["capture", "rolls", str(tmp_path / "rolls"), "--config", str(config)]) == 0
    faces = sorted(p.name for p in (tmp_path / "faces").iterdir())
    assert len(faces) == 4 * 6 * 2 and "suns_0_1.jpg" in faces and "arms_5_2.jpg" in faces
    empty = cv2.imread(str(tmp_path / "empty.jpg"))
    assert empty is not None and float(empty.std()) < 40  # a table, no dice
    one = cv2.imread(str(tmp_path / "faces" / "moons_3_1.jpg"))
    assert one is not None and not np.array_equal(one, empty)  # one die on it
    samples = read_labels(tmp_path / "rolls")
    assert len(samples) == ROLLS and all(len(s.values) == 4 and max(s.values) <= 5 for s in samples)
    capsys.readouterr()
    out = tmp_path / "profile"
    args = ["calibrate", "--images", str(tmp_path / "rolls"), "--faces", str(tmp_path / "faces")]
    status = main([*args, "--empty", str(tmp_path / "empty.jpg"), "--out", str(out), "--json"])
    printed = capsys.readouterr()
    assert printed.out, printed.err
    report = json.loads(printed.out)
    assert (out / "profile.toml").exists() and (out / "faces.npz").exists()
    assert status == (0 if report["fit_for_play"] else 1)
    page = (out / "report.html").read_text()
    assert ("Fit for play" in page) == report["fit_for_play"] and ("Not fit for play" in page) != report["fit_for_play"]


ROLLS = 16
"""Rolls captured in the walk-through: four kept aside to measure the profile on."""


def test_a_profile_unfit_for_play_is_refused_unless_forced() -> None:
    from fantan_table.cli.calibrate import unfit_for_play
    from fantan_table.vision.evaluate import Report

    fit = Report(scenes=20, dice=80, dice_right=80, exact=20, ok=20, wrong_when_ok=0)
    assert unfit_for_play(fit, Report()) == []
    short = Report(scenes=20, dice=80, dice_right=78, exact=18, ok=18, wrong_when_ok=0)
    assert unfit_for_play(short, Report()) == ["90.00% of the held-aside rolls read exactly (needs 95%)"]
    wrong = Report(scenes=20, dice=80, dice_right=79, exact=19, ok=20, wrong_when_ok=1)
    assert any("were read wrong (needs none)" in reason for reason in unfit_for_play(wrong, Report()))
    assert unfit_for_play(Report(), Report()) == ["no picture was kept aside to measure it on (give at least 6 rolls)"]
    checked_wrong = Report(scenes=10, dice=40, dice_right=39, exact=9, ok=10, wrong_when_ok=1)
    assert unfit_for_play(fit, checked_wrong) == [
        "1 of the 10 rolls that checked the search were read wrong while sure (needs none)"
    ]
    assert unfit_for_play(fit, fit) == []


@pytest.mark.parametrize(
    ("what", "name", "said"),
    [
        ("empty", "/proc/no-such-folder/empty.jpg", "cannot make that folder"),
        ("empty", "cal/empty.txt", "not a name OpenCV can write a picture to; give one ending .jpg or .png"),
        ("empty", "afile/empty.jpg", "afile is a file: give a folder"),
        ("faces", "afile", "afile is a file: give a folder"),
        ("rolls", "afile", "afile is a file: give a folder"),
    ],
)
def test_a_place_that_cannot_take_the_pictures_is_refused_before_the_prompt(
    what: str, name: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    (tmp_path / "afile").write_text("a file\n")
    monkeypatch.chdir(tmp_path)
    asked: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "")
    assert main(["capture", what, name, "--config", str(camera_config(tmp_path, 1))]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert asked == []  # said before the person cleared the table or rolled


def test_a_roll_typed_with_another_number_of_dice_is_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    config = camera_config(tmp_path, 1)  # [reader] expect: 4 by default
    answer(monkeypatch, "\n1 2\n1 2 3 4\nq\n")
    assert main(["capture", "rolls", str(tmp_path / "rolls"), "--config", str(config)]) == 0
    assert "a roll is 4 dice ([reader] expect): type each one's value" in capsys.readouterr().out
    assert [s.values for s in read_labels(tmp_path / "rolls")] == [(1, 2, 3, 4)]


def test_capturing_simulated_rolls_again_adds_new_rolls_of_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second session adding to a set must not shake the first session's rolls again: duplicates would land in
    both the tuned and the held-aside parts of a calibration."""
    config = tmp_path / "config.toml"
    config.write_text('hardware = "sim"\n[camera]\nsim_dice = "piecepack"\n')
    rolls_left = [0]
    monkeypatch.setattr("builtins.input", simulated_person(capsys, rolls_left))
    rolls = tmp_path / "rolls"
    for _ in range(2):  # three rolls a session
        rolls_left[0] = 3
        assert main(["capture", "rolls", str(rolls), "--config", str(config)]) == 0
    pictures = [cv2.imread(str(rolls / f"roll_{i:03d}.jpg")) for i in range(1, 7)]
    assert [s.image.name for s in read_labels(rolls)] == [f"roll_{i:03d}.jpg" for i in range(1, 7)]
    assert not any(np.array_equal(a, b) for a, b in zip(pictures[:3], pictures[3:], strict=True))
    corner = (slice(0, 40), slice(0, 40))  # the table where no dice lie: the same table in both sessions
    assert all(np.abs(p[corner].astype(int) - pictures[0][corner].astype(int)).mean() < 8 for p in pictures)
