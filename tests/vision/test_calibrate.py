"""Calibration from labelled rolls and face captures: it writes a profile that reads real piecepack dice, a
report, and stops on bad input with a message saying what to capture."""

from __future__ import annotations

import json
import random
import tomllib
from html import escape as html_escaped
from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.cli import main
from fantan_table.vision.calibrate import PIP_SEARCH, SEARCH, Picture, calibrate, split
from fantan_table.vision.classifier import builtin_feature_model
from fantan_table.vision.dataset import write_labels
from fantan_table.vision.evaluate import Report, upper_bound
from fantan_table.vision.profile import LEARNED, SHAPES, Profile, change_text, load_profile, save_profile
from fantan_table.vision.reader import Status, read_dice
from fantan_table.vision.render import PIECEPACK_SUITS, random_faces, render_scene

from .slanted import random_die, slanted_die
from .test_reader import _dark_dice_on_a_light_table


def write_rolls(folder: Path, n: int, seed: int = 0) -> None:
    folder.mkdir(parents=True)
    samples = []
    for i in range(n):
        values = random_faces(np.random.default_rng([seed, i]), 4, (0, 1, 2, 3, 4, 5))
        scene = render_scene(values, 310_000 + seed * 1000 + i, style="piecepack", size=(960, 720))
        cv2.imwrite(str(folder / f"roll_{i:03d}.png"), scene.image)
        samples.append((f"roll_{i:03d}.png", scene.values))
    write_labels(folder, samples)


def write_faces(folder: Path, per_face: int = 2) -> None:
    folder.mkdir(parents=True)
    for s, suit in enumerate(PIECEPACK_SUITS):
        for value in range(6):
            for k in range(per_face):
                scene = render_scene(
                    [value],
                    420_000 + 100 * s + 10 * value + k,
                    style="piecepack",
                    suits=(suit,),
                    size=(960, 720),
                    distractors=False,
                )
                cv2.imwrite(str(folder / f"{suit}_{value}_{k + 1}.png"), scene.image)


@pytest.fixture(scope="module")
def table_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("calibration")
    write_rolls(root / "rolls", 24)
    write_faces(root / "faces")
    return root


def test_calibration_learns_piecepack_dice_and_reports(table_set: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = table_set / "profile"
    args = ["calibrate", "--images", str(table_set / "rolls"), "--faces", str(table_set / "faces"), "--out", str(out)]
    assert main([*args, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["holdout"]["scenes"] == 6 and summary["train"]["scenes"] == 14  # and 4 checking the search
    assert summary["holdout"]["wrong_when_ok"] == 0 and summary["learned_faces"] == 4 * 5 * 2
    for name in ("profile.toml", "faces.npz", "report.html", "confusion.png", "report.json"):
        assert (out / name).is_file(), name
    held = summary["holdout"]  # six rolls kept aside: the report says how little none wrong among them proves
    at_most = upper_bound(0, round(held["coverage"] * held["scenes"]))
    assert held["wrong_when_ok_at_most"] == round(at_most, 6) and at_most > 0.39
    page = (out / "report.html").read_text(encoding="utf-8")
    assert f"(95% confidence)</td><td>-</td><td>{100 * at_most:.2f}%</td>" in page  # for the rolls kept aside only
    assert len(list((out / "mistakes").iterdir())) == round(6 * (1 - summary["holdout"]["exact_scene_rate"]))
    profile = load_profile(out)
    assert profile.faces is not None
    scene = render_scene([5, 0, 2, 1], 7, style="piecepack", size=(960, 720), touching=False, distractors=False)
    reading = read_dice(scene.image, profile, 4)
    assert reading.status is Status.OK and sorted(reading.values) == [0, 1, 2, 5]


@pytest.mark.parametrize("kind", [".png", ".jpg"])
def test_too_few_captures_of_a_face_say_what_to_capture(table_set: Path, tmp_path: Path, capsys, kind: str) -> None:
    """The example name is of the kind given: ``capture faces`` writes .jpg."""
    faces = tmp_path / "faces"
    faces.mkdir()
    for f in (table_set / "faces").iterdir():
        if f.name != "moons_3_2.png":
            cv2.imwrite(str(faces / f.with_suffix(kind).name), cv2.imread(str(f)))
    code = main(
        ["calibrate", "--images", str(table_set / "rolls"), "--faces", str(faces), "--out", str(tmp_path / "p")]
    )
    assert code == 2
    assert (
        f"the moons die showing 3: 1 capture(s), 2 needed; capture it again, e.g. moons_3_2{kind}"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("arrange", "message"),
    [
        (lambda faces: (faces / "suns_1_1.png").rename(faces / "sun one.png"), "name a face capture DIE_VALUE_N"),
        (lambda faces: [f.unlink() for f in faces.glob("*_0_*")], "no captures of the blank face"),
        (lambda faces: (faces / "suns_2_1.png").write_bytes(b"junk"), "not a picture"),
        (
            lambda faces: cv2.imwrite(
                str(faces / "suns_2_1.png"), render_scene([2, 3], 1, style="piecepack", size=(960, 720)).image
            ),
            "2 dice found; show the camera one die at a time",
        ),
    ],
)
def test_bad_face_captures_are_named(table_set: Path, tmp_path: Path, capsys, arrange, message: str) -> None:
    faces = tmp_path / "faces"
    faces.mkdir()
    for f in (table_set / "faces").iterdir():
        (faces / f.name).write_bytes(f.read_bytes())
    arrange(faces)
    code = main(
        ["calibrate", "--images", str(table_set / "rolls"), "--faces", str(faces), "--out", str(tmp_path / "p")]
    )
    assert code == 2 and message in capsys.readouterr().err


def test_labels_that_do_not_match_the_pictures_stop_it(tmp_path: Path, capsys) -> None:
    rolls = tmp_path / "rolls"
    write_rolls(rolls, 3)
    (rolls / "roll_001.png").unlink()
    assert main(["calibrate", "--images", str(rolls), "--out", str(tmp_path / "p")]) == 2
    assert "the picture roll_001.png is not in" in capsys.readouterr().err
    write_rolls(tmp_path / "few", 3, seed=1)
    assert main(["calibrate", "--images", str(tmp_path / "few"), "--out", str(tmp_path / "p")]) == 2
    assert "3 labelled pictures are too few" in capsys.readouterr().err


def test_an_unreadable_empty_frame_says_what_to_capture(table_set: Path, tmp_path: Path, capsys) -> None:
    (tmp_path / "empty.png").write_bytes(b"no")
    code = main(
        [
            "calibrate",
            "--images",
            str(table_set / "rolls"),
            "--empty",
            str(tmp_path / "empty.png"),
            "--out",
            str(tmp_path / "p"),
        ]
    )
    assert code == 2 and "capture the table with nothing on it" in capsys.readouterr().err


def test_recalibrating_keeps_the_empty_table_and_the_classifier_it_starts_from(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from fantan_table.vision import calibrate as calibration

    write_rolls(tmp_path / "rolls", 8)
    monkeypatch.setattr(calibration, "measure", _fits_only_the_tuning_pictures(set(), (6, 0)))
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: None)
    cv2.imwrite(str(tmp_path / "empty.jpg"), render_scene([], 5, size=(960, 720), distractors=False).image)
    first, second = tmp_path / "first", tmp_path / "second"
    args = ["calibrate", "--images", str(tmp_path / "rolls"), "--force"]
    assert main([*args, "--empty", str(tmp_path / "empty.jpg"), "--out", str(first)]) == 0
    # again into the same folder, given the copy already there: no copying a file onto itself
    assert main([*args, "--empty", str(first / "empty.jpg"), "--out", str(first)]) == 0
    builtin_feature_model().save(first / "classifier.npz")
    save_profile(load_profile(first), first, "empty.jpg", None, "classifier.npz")
    started = load_profile(first)
    assert started.empty is not None and started.classifier is not None
    assert main([*args, "--from", str(first), "--out", str(second)]) == 0
    tuned = load_profile(second)  # what the figures were measured with: the empty table and the classifier too
    assert tuned.empty is not None and np.array_equal(tuned.empty, started.empty)
    assert tuned.classifier is not None and started.classifier is not None
    assert all(np.array_equal(a, b) for a, b in zip(tuned.classifier.weights, started.classifier.weights, strict=True))


def test_recalibrating_without_a_file_says_the_old_one_is_not_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An earlier calibration's empty table and classifier stay in the folder (one may be what the next is given),
    but a profile that does not name them no longer uses them: it says so, rather than leaving them to mislead."""
    from fantan_table.vision import calibrate as calibration

    write_rolls(tmp_path / "rolls", 8)
    monkeypatch.setattr(calibration, "measure", _fits_only_the_tuning_pictures(set(), (6, 0)))
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: None)
    cv2.imwrite(str(tmp_path / "empty.jpg"), render_scene([], 5, size=(960, 720), distractors=False).image)
    out = tmp_path / "profile"
    args = ["calibrate", "--images", str(tmp_path / "rolls"), "--force", "--out", str(out)]
    assert main([*args, "--empty", str(tmp_path / "empty.jpg")]) == 0
    builtin_feature_model().save(out / "classifier.npz")
    assert "not read by this profile" not in capsys.readouterr().out
    assert main(args) == 0
    assert f"in {out} but not read by this profile: classifier.npz, empty.jpg; remove them" in capsys.readouterr().out
    assert load_profile(out).empty is None and (out / "empty.jpg").is_file()
    assert main([*args, "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["not_used"] == ["classifier.npz", "empty.jpg"]
    assert json.loads((out / "report.json").read_text(encoding="utf-8")) == said  # the folder's own record


def test_a_roll_given_as_the_empty_table_is_refused_before_the_work(table_set: Path, tmp_path: Path, capsys) -> None:
    roll = table_set / "rolls" / "roll_000.png"
    args = ["calibrate", "--images", str(table_set / "rolls"), "--faces", str(table_set / "faces")]
    assert main([*args, "--empty", str(roll), "--out", str(tmp_path / "p")]) == 2
    said = capsys.readouterr().err
    assert f"--empty {roll}: it shows 4 dice, at (" in said and "capture the table with nothing on it" in said


def test_a_saved_profile_loads_as_it_was(tmp_path: Path) -> None:
    profile = Profile(
        die_size=(0.05, 0.1),
        min_solidity=0.9,
        pip_polarity="dark",
        roi=(1, 2, 300, 400),
        blank_face=False,
        side_faces=True,
    )
    path = save_profile(profile, tmp_path)
    assert load_profile(tmp_path) == Profile(**{**profile.__dict__, "source": str(path)})


def test_every_change_calibration_reports_names_the_key_a_person_edits() -> None:
    """The report's "changed:" lines name what is in profile.toml (``[dice] size``), its values written as TOML."""
    assert change_text("die_size", (0.035, 0.12), (0.0263, 0.081)) == "[dice] size: [0.035, 0.12] -> [0.0263, 0.081]"
    assert change_text("finder", LEARNED, SHAPES) == '[dice] finder: "learned" -> "shapes"'
    written = tomllib.loads((Path(__file__).parents[2] / "calibration/profiles/default/profile.toml").read_text())
    for name in ("blank_face", "die_size", *SEARCH, *PIP_SEARCH):
        value = getattr(Profile(), name)
        key, _, values = change_text(name, value, value).partition(": ")
        section, _, key_name = key.removeprefix("[").partition("] ")
        assert key_name in written[section], key  # a key the profile file holds
        assert tomllib.loads(f"v = {values.partition(' -> ')[0]}")["v"] == written[section][key_name]


def test_rolls_that_show_sixes_and_never_a_blank_are_ordinary_d6() -> None:
    pictures = []
    for i in range(8):
        values = random_faces(np.random.default_rng([i, 5]), 3, (1, 2, 3, 4, 5, 6))
        scene = render_scene(values, 77_000 + i, style="ivory", distractors=False)
        pictures.append(Picture(f"roll_{i}", scene.image, scene.values))
    assert any(6 in p.values for p in pictures)
    result = calibrate(pictures, Profile(), 3)
    assert result.profile.blank_face is False and "[dice] blank: true -> false" in result.changes
    blank = render_scene([0, 3, 6], 77_100)
    with_blank = [*pictures, Picture("roll_blank", blank.image, blank.values)]
    assert calibrate(with_blank, Profile(), 3).profile.blank_face is True


def test_dice_seen_at_a_slant_turn_on_side_faces() -> None:
    """A camera that sees the dice's side faces: calibration finds that reading the top face's round pips helps.
    From 50 to 60 degrees up the side faces are large, and their pips spoil many dice's crops: side faces are
    chosen whatever the seed. Higher up the crops alone may read every roll, and nothing is left to gain."""
    rng = random.Random(7)
    pictures = []
    for i in range(16):
        top, front, right = random_die(rng)
        picture, _ = slanted_die(top, (front, right), rng.uniform(10, 80), rng.uniform(50, 60))
        pictures.append(Picture(f"roll_{i}", picture, (top,)))
    result = calibrate(pictures, Profile(), 1)
    assert result.profile.side_faces is True and "[pips] side_faces: false -> true" in result.changes
    assert result.holdout.exact == result.holdout.scenes


def test_the_search_goes_round_again_when_one_setting_depends_on_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """body_colour is tried before min_solidity, but only pays once min_solidity has changed."""
    from fantan_table.vision import calibrate as calibration

    def measure(profile: Profile, pictures, expect, give_up_below=None, mistakes=None) -> Report:
        solid = profile.min_solidity == 0.8
        return Report(scenes=100, exact=50 + 10 * solid + 20 * (solid and profile.body_colour == 30))

    monkeypatch.setattr(calibration, "measure", measure)
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: None)
    frame = np.zeros((8, 8, 3), np.uint8)
    result = calibrate([Picture(f"roll_{i}", frame, (1,)) for i in range(8)], Profile(), 1)
    assert (result.profile.min_solidity, result.profile.body_colour) == (0.8, 30.0)
    assert result.train.exact == 80


def _fits_only_the_tuning_pictures(check_names: set[str], tuned_on_check: tuple[int, int]):
    """A stand-in for ``measure``: min_solidity 0.8 reads 25 of 30 pictures tuned on where the starting profile
    reads 5, and of 10 pictures that check the search ``tuned_on_check`` (exactly, wrong when sure) where the
    starting profile reads 6 exactly and none wrong."""

    def measure(profile: Profile, pictures, expect, give_up_below=None, mistakes=None) -> Report:
        tuned = profile.min_solidity == 0.8
        if {p.name for p in pictures} <= check_names:
            exact, wrong = tuned_on_check if tuned else (6, 0)
            return Report(scenes=10, dice=10, dice_right=exact, exact=exact, ok=exact + wrong, wrong_when_ok=wrong)
        exact = 25 if tuned else 5
        return Report(scenes=30, dice=30, dice_right=exact, exact=exact, ok=exact)

    return measure


@pytest.mark.parametrize(
    ("tuned_on_check", "kept"),
    [
        ((8, 0), True),
        ((5, 0), True),  # one check picture no longer read
        ((5, 1), True),  # one check picture read wrong instead of right: the most one picture can cost
        ((4, 1), False),  # two pictures
        ((6, 2), False),
    ],
)
def test_a_change_that_reads_the_check_pictures_worse_than_one_picture_can_cost_is_refused(
    monkeypatch: pytest.MonkeyPatch, tuned_on_check: tuple[int, int], kept: bool
) -> None:
    """A search can fit the pictures it tunes on and not the table (byler's photos did): a change stands only if
    the pictures that check the search lose no more than one picture can cost. No single picture decides."""
    from fantan_table.vision import calibrate as calibration

    frame = np.zeros((8, 8, 3), np.uint8)
    pictures = [Picture(f"roll_{i:02d}", frame, (1,)) for i in range(16)]
    check = split(split(pictures)[0])[1]
    assert len(check) == 3 and not {p.name for p in check} & {p.name for p in split(pictures)[1]}
    monkeypatch.setattr(calibration, "measure", _fits_only_the_tuning_pictures({p.name for p in check}, tuned_on_check))
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: None)
    result = calibrate(pictures, Profile(), 1)
    change = f"[dice] min_solidity: {Profile().min_solidity} -> 0.8"
    on_check = (result.check[1].exact, result.check[1].wrong_when_ok)
    assert (result.check[0].exact, on_check) == (6, tuned_on_check if kept else (6, 0))
    assert result.profile.min_solidity == (0.8 if kept else Profile().min_solidity)
    assert (result.changes, result.refused) == (([change], []) if kept else ([], [change]))
    assert result.train.exact == (25 if kept else 5)


def test_changes_together_lose_the_check_no_more_than_one_picture_can_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each change may lose the check a little, but not step by step more than one picture can cost."""
    from fantan_table.vision import calibrate as calibration

    frame = np.zeros((8, 8, 3), np.uint8)
    pictures = [Picture(f"roll_{i:02d}", frame, (1,)) for i in range(16)]
    check_names = {p.name for p in split(split(pictures)[0])[1]}

    def measure(profile: Profile, pictures, expect, give_up_below=None, mistakes=None) -> Report:
        changed = (profile.min_solidity == 0.8) + (profile.body_colour == 30.0)
        if {p.name for p in pictures} <= check_names:  # 8 points, then 2, then -4
            exact, wrong = ((8, 0), (2, 0), (6, 1))[changed]
            return Report(scenes=10, dice=10, dice_right=exact, exact=exact, ok=exact + wrong, wrong_when_ok=wrong)
        exact = 5 + 10 * changed
        return Report(scenes=30, dice=30, dice_right=exact, exact=exact, ok=exact)

    monkeypatch.setattr(calibration, "measure", measure)
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: None)
    result = calibrate(pictures, Profile(), 1)
    assert result.changes == [f"[table] body_colour: {Profile().body_colour} -> 30.0"]
    assert result.refused == [f"[dice] min_solidity: {Profile().min_solidity} -> 0.8"]
    assert (result.check[1].exact, result.check[1].wrong_when_ok) == (2, 0)


@pytest.mark.parametrize(
    ("on_tune", "on_check", "kept"),
    [
        (5, 3, True),  # all the tuning and check pictures it can read already: a measured size is a fact, kept
        (6, 2, True),  # it gains as much on the tuning pictures as it costs the check pictures
        (5, 2, False),
        (4, 6, True),  # fewer tuning pictures, more check pictures
        (4, 3, False),
    ],
)
def test_the_die_size_measured_from_the_rolls_is_kept_unless_it_loses_on_tuning_and_check_pictures_together(
    monkeypatch: pytest.MonkeyPatch, on_tune: int, on_check: int, kept: bool
) -> None:
    """The die size measured from the tuning pictures read fewer of the check pictures of byler and dice-photos.
    The starting profile reads 5 tuning and 3 check pictures exactly."""
    from fantan_table.vision import calibrate as calibration

    frame = np.zeros((8, 8, 3), np.uint8)
    pictures = [Picture(f"roll_{i:02d}", frame, (1,)) for i in range(16)]
    check_names = {p.name for p in split(split(pictures)[0])[1]}

    def measure(profile: Profile, pictures, expect, give_up_below=None, mistakes=None) -> Report:
        measured = profile.die_size == (0.05, 0.1)
        if {p.name for p in pictures} <= check_names:
            exact = on_check if measured else 3
        else:
            exact = on_tune if measured else 5
        return Report(scenes=10, dice=10, dice_right=exact, exact=exact, ok=exact)

    monkeypatch.setattr(calibration, "measure", measure)
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: (0.05, 0.1))
    said: list[str] = []
    result = calibrate(pictures, Profile(), 1, said.append)
    assert result.profile.die_size == ((0.05, 0.1) if kept else Profile().die_size)
    assert not [s for s in said if "round 2" in s]  # each value was tried with the size kept: no second round
    assert result.refused == ([] if kept else ["[dice] size: [0.035, 0.12] -> [0.05, 0.1]"])


def test_a_change_refused_once_and_kept_in_a_later_round_is_not_reported_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """min_solidity 0.8 costs the check pictures too much until body_colour 30 is kept in the first round."""
    from fantan_table.vision import calibrate as calibration

    frame = np.zeros((8, 8, 3), np.uint8)
    pictures = [Picture(f"roll_{i:02d}", frame, (1,)) for i in range(16)]
    check_names = {p.name for p in split(split(pictures)[0])[1]}
    monkeypatch.setattr(calibration, "SEARCH", {"min_solidity": (0.8,), "body_colour": (30.0,)})

    def measure(profile: Profile, pictures, expect, give_up_below=None, mistakes=None) -> Report:
        solid, coloured = profile.min_solidity == 0.8, profile.body_colour == 30.0
        if {p.name for p in pictures} <= check_names:
            exact, wrong = (4, 1) if solid and not coloured else (6, 0)
            return Report(scenes=10, dice=10, dice_right=exact, exact=exact, ok=exact + wrong, wrong_when_ok=wrong)
        exact = 5 + 10 * solid + 10 * coloured
        return Report(scenes=30, dice=30, dice_right=exact, exact=exact, ok=exact)

    monkeypatch.setattr(calibration, "measure", measure)
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: None)
    result = calibrate(pictures, Profile(), 1)
    assert (result.profile.min_solidity, result.profile.body_colour) == (0.8, 30.0)
    assert result.refused == []


def test_a_measured_die_size_refused_once_is_kept_once_another_change_has_paid_for_its_cost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As on dice-photos train (DEV): the table's die size turns one check picture sure and wrong (11 points), more
    than the 2 it gains on the tuning pictures; body_colour 30 turns the same picture wrong and gains 15. Once
    body_colour is kept, the size costs nothing more and is kept in the next round, and the search stops."""
    from fantan_table.vision import calibrate as calibration

    frame = np.zeros((8, 8, 3), np.uint8)
    pictures = [Picture(f"roll_{i:02d}", frame, (1,)) for i in range(16)]
    check_names = {p.name for p in split(split(pictures)[0])[1]}
    monkeypatch.setattr(calibration, "SEARCH", {"body_colour": (30.0,)})
    tried: list[tuple[bool, bool]] = []

    def measure(profile: Profile, pictures, expect, give_up_below=None, mistakes=None) -> Report:
        sized, coloured = profile.die_size == (0.05, 0.1), profile.body_colour == 30.0
        if {p.name for p in pictures} <= check_names:
            tried.append((sized, coloured))
            exact, wrong = (5, 1) if sized or coloured else (6, 0)
            return Report(scenes=10, dice=10, dice_right=exact, exact=exact, ok=exact + wrong, wrong_when_ok=wrong)
        exact = 5 + 2 * sized + 15 * coloured
        return Report(scenes=30, dice=30, dice_right=exact, exact=exact, ok=exact)

    monkeypatch.setattr(calibration, "measure", measure)
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: (0.05, 0.1))
    result = calibrate(pictures, Profile(), 1)
    # the start, the size alone (refused), body_colour (kept), the size again (kept); no third round
    assert tried == [(False, False), (True, False), (False, True), (True, True)]
    assert (result.profile.die_size, result.profile.body_colour) == ((0.05, 0.1), 30.0)
    assert result.refused == []
    assert result.train.exact == 22


def test_the_check_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys) -> None:
    from fantan_table.vision import calibrate as calibration

    write_rolls(tmp_path / "rolls", 8)
    frame = np.zeros((8, 8, 3), np.uint8)
    check = split(split([Picture(f"roll_{i:03d}.png", frame, (1,)) for i in range(8)])[0])[1]
    monkeypatch.setattr(calibration, "measure", _fits_only_the_tuning_pictures({p.name for p in check}, (4, 1)))
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: None)
    out = tmp_path / "p"
    args = ["calibrate", "--images", str(tmp_path / "rolls"), "--out", str(out), "--force"]
    assert main(args) == 0
    line = (
        "on the 10 pictures that checked the search, the tuned profile read 60.00% exactly (0 wrong when sure), "
        "the starting one 60.00% (0 wrong when sure); refused, as they cost these as much as they gained on the tuning "
        "pictures, or more than one picture can (alone or with the changes kept before them): [dice] min_solidity: "
        f"{Profile().min_solidity} -> 0.8"
    )
    assert line in capsys.readouterr().out
    assert html_escaped(line) in (out / "report.html").read_text(encoding="utf-8")
    check = json.loads((out / "report.json").read_text(encoding="utf-8"))["check"]
    assert check["refused"] == [f"[dice] min_solidity: {Profile().min_solidity} -> 0.8"]
    assert (check["tuned"]["exact_scene_rate"], check["start"]["exact_scene_rate"]) == (0.6, 0.6)


def test_calibration_has_the_network_look_at_each_picture_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every profile tried reads the same pictures, and the network's maps depend on the picture alone."""
    from fantan_table.vision import calibrate as calibration
    from fantan_table.vision.finder import DiceFinder

    looked: list[int] = []
    real = DiceFinder._maps
    monkeypatch.setattr(DiceFinder, "_maps", lambda self, frame: looked.append(id(frame)) or real(self, frame))
    monkeypatch.setattr(calibration, "SEARCH", {"min_solidity": (0.8, 0.9)})
    monkeypatch.setattr(calibration, "PIP_SEARCH", {"pip_contrast": (30.0, 60.0)})
    pictures = []
    for i in range(8):
        scene = render_scene(random_faces(np.random.default_rng([i, 3]), 4, (1, 2, 3, 4, 5, 6)), 330_000 + i)
        pictures.append(Picture(f"roll_{i}", scene.image, scene.values))
    result = calibrate(pictures, Profile(), 4)
    assert result.evaluations > 3  # tried several profiles on the same pictures
    assert sorted(looked) == sorted(id(p.frame) for p in pictures)


def test_a_profile_that_reads_a_check_picture_wrong_is_not_fit_for_play(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys
) -> None:
    """The check keeps a change that reads one check picture sure and wrong if it gains enough elsewhere; the
    profile it leaves is then known to read a roll of this table wrong."""
    from fantan_table.vision import calibrate as calibration

    write_rolls(tmp_path / "rolls", 8)
    frame = np.zeros((8, 8, 3), np.uint8)
    check = split(split([Picture(f"roll_{i:03d}.png", frame, (1,)) for i in range(8)])[0])[1]
    monkeypatch.setattr(calibration, "measure", _fits_only_the_tuning_pictures({p.name for p in check}, (5, 1)))
    monkeypatch.setattr(calibration, "die_sizes", lambda *_: None)
    args = ["calibrate", "--images", str(tmp_path / "rolls"), "--out", str(tmp_path / "p")]
    assert main(args) == 1
    assert (
        "1 of the 10 rolls that checked the search were read wrong while sure (needs none)" in capsys.readouterr().err
    )


def test_rolls_of_varying_numbers_of_dice_calibrate_with_expect_0(tmp_path: Path, capsys) -> None:
    rolls = tmp_path / "rolls"
    rolls.mkdir()
    samples = []
    for i in range(6):
        scene = render_scene([3, 5, 2, 6][i % 4 :], 78_000 + i, style="ivory", distractors=False)
        cv2.imwrite(str(rolls / f"roll_{i}.png"), scene.image)
        samples.append((f"roll_{i}.png", scene.values))
    write_labels(rolls, samples)
    args = ["calibrate", "--images", str(rolls), "--out", str(tmp_path / "p"), "--json"]
    assert main([*args, "--expect", "-1"]) == 2
    assert "or 0 if it varies" in capsys.readouterr().err
    assert main([*args, "--expect", "0"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["holdout"]["scenes"] == 1 and summary["holdout"]["exact_scene_rate"] == 1.0  # roll_3: one die
    assert summary["holdout"]["wrong_when_ok_at_most"] == 0.95  # one roll read right proves next to nothing
    assert main([*args[:-1], "--expect", "0"]) == 0  # as a person reads it
    assert (
        "wrong when sure 0.00% (0 wrong of 1 read sure; the real rate could be as high as 95.00% at 95% confidence)"
        in capsys.readouterr().out
    )


def test_calibration_chooses_the_finder_that_reads_the_table():
    """Black dice on a pale table, and a profile whose outlines look only for dice lighter than the table: the
    first thing the search tries is the network, which reads them, and it keeps it."""
    rng = np.random.default_rng(5)
    pictures = []
    for i in range(8):
        values = tuple(int(v) for v in rng.integers(1, 7, 4))
        pictures.append(Picture(f"roll_{i}", _dark_dice_on_a_light_table(values), values))
    start = Profile(finder=SHAPES, body_darkness=0)
    result = calibrate(pictures, start, 4)
    assert result.profile.finder == LEARNED
    assert '[dice] finder: "shapes" -> "learned"' in result.changes
    assert result.holdout.exact == result.holdout.scenes


def test_the_report_says_what_each_mistake_was_read_as() -> None:
    from fantan_table.cli.calibrate import _html
    from fantan_table.vision.calibrate import Result
    from fantan_table.vision.reader import DieReading, Reading

    def die(value: int | None) -> DieReading:
        return DieReading(value, (10.0, 10.0), ((10.0, 10.0), (8.0, 8.0), 0.0), 1.0 if value is not None else 0.0)

    frame = np.zeros((8, 8, 3), np.uint8)
    report = Report(scenes=2, dice=6, dice_right=3, exact=0, ok=1, wrong_when_ok=1)
    mistakes = [
        (Picture("dice_37.jpg", frame, (1, 1, 1)), Reading(Status.OK, (die(1), die(1)))),
        (Picture("dice_40.jpg", frame, (2, 3)), Reading(Status.UNSURE, (die(2), die(None)), "die at (10, 10): faint")),
    ]
    page = _html(Result(Profile(), report, report, (report, report), mistakes=mistakes), [])
    assert "dice_37.jpg: rolled 1 1 1; read 1 1 sure: WRONG</figcaption>" in page
    assert "dice_40.jpg: rolled 2 3; unsure: die at (10, 10): faint</figcaption>" in page
