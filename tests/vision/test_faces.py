"""Learned faces: real piecepack dice (blank, suit symbol, numerals) read after being shown to the camera."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fantan_table.vision.faces import FaceModel, ink_map
from fantan_table.vision.profile import SHAPES, Profile, ProfileError, load_profile
from fantan_table.vision.reader import Status, face_crop, read_dice
from fantan_table.vision.render import random_faces, render_scene

OUTLINES = Profile(finder=SHAPES)
"""A profile with learned faces finds the dice by their outlines (calibration learns the faces from the outlines'
boxes): these tests cut their crops the same way."""


def captures(per_face: int) -> tuple[list[np.ndarray], list[int], list[str]]:
    """Each face of each of the four suits' dice, shown ``per_face`` times (four dice in each picture)."""
    faces, values, names = [], [], []
    for value in range(6):
        for k in range(per_face):
            scene = render_scene(
                [value] * 4, 900_000 + value * 10 + k, style="piecepack", distractors=False, touching=False
            )
            for die in read_dice(scene.image, OUTLINES, 4).dice:
                truth = min(
                    scene.dice, key=lambda t: np.hypot(t.center[0] - die.center[0], t.center[1] - die.center[1])
                )
                faces.append(face_crop(scene.image, die.box))
                values.append(value)
                names.append(truth.style)
    return faces, values, names


@pytest.fixture(scope="module")
def model() -> FaceModel:
    return FaceModel.learn(*captures(per_face=3))


def test_a_blank_face_has_no_ink_and_a_marked_one_has() -> None:
    scene = render_scene([0, 4, 0, 4], 3, style="piecepack", distractors=False, touching=False)
    inks = {}
    for die in read_dice(scene.image, OUTLINES, 4).dice:
        truth = min(scene.dice, key=lambda t: np.hypot(t.center[0] - die.center[0], t.center[1] - die.center[1]))
        inks.setdefault(truth.value, []).append(float(ink_map(face_crop(scene.image, die.box)).max()))
    assert max(inks[0]) < 0.5 * min(inks[4])


def test_learned_faces_read_fresh_dice_and_are_never_wrong(model: FaceModel) -> None:
    right = unsure = 0
    for i in range(60):
        values = random_faces(np.random.default_rng([i, 9]), 4, (0, 1, 2, 3, 4, 5))
        scene = render_scene(values, 800_000 + i, style="piecepack")
        for die in read_dice(scene.image, OUTLINES, 4).dice:
            truth = min(scene.dice, key=lambda t: np.hypot(t.center[0] - die.center[0], t.center[1] - die.center[1]))
            value, _, problem = model.classify(face_crop(scene.image, die.box))
            if value is None:
                assert problem
                unsure += 1
            else:
                assert value == truth.value, (i, truth, value)
                right += 1
    assert right >= 0.9 * (right + unsure)


def test_a_profile_with_learned_faces_reads_piecepack_dice(model: FaceModel, tmp_path: Path) -> None:
    model.save(tmp_path / "faces.npz")
    (tmp_path / "profile.toml").write_text('[faces]\nmodel = "faces.npz"\n')
    profile = load_profile(tmp_path)
    assert profile.faces is not None and profile.faces.names == model.names
    scene = render_scene([0, 1, 3, 5], 12, style="piecepack", surface="felt", touching=False, distractors=False)
    reading = read_dice(scene.image, profile, 4)
    assert reading.status is Status.OK and sorted(reading.values) == [0, 1, 3, 5]
    assert read_dice(scene.image, Profile(), 4).status is Status.UNSURE  # pips alone cannot read them


def test_a_broken_faces_file_names_the_key(tmp_path: Path) -> None:
    (tmp_path / "faces.npz").write_bytes(b"not numpy")
    (tmp_path / "profile.toml").write_text('[faces]\nmodel = "faces.npz"\n')
    with pytest.raises(ProfileError, match=r"\[faces\] model: cannot read the learned faces"):
        load_profile(tmp_path)


def test_a_model_saved_in_another_format_asks_for_calibrating_again(model: FaceModel, tmp_path: Path) -> None:
    model.save(tmp_path / "faces.npz")
    with np.load(tmp_path / "faces.npz") as data:
        older = {key: data[key] for key in data.files if key != "format"}
    np.savez_compressed(tmp_path / "faces.npz", **older)  # as saved before models had a format
    (tmp_path / "profile.toml").write_text('[faces]\nmodel = "faces.npz"\n')
    with pytest.raises(ProfileError, match=r"format 0, this one reads 1\): learn the faces again"):
        load_profile(tmp_path)


def test_learning_needs_blank_and_marked_faces(model: FaceModel) -> None:
    faces, values, _ = captures(per_face=1)
    with pytest.raises(ValueError, match="the blank face"):
        FaceModel.learn([f for f, v in zip(faces, values, strict=True) if v == 0], [0] * 4, ["x"] * 4)
    with pytest.raises(ValueError, match="the blank face"):
        FaceModel.learn([f for f, v in zip(faces, values, strict=True) if v == 3], [3] * 4, ["x"] * 4)
    marked = next(f for f, v in zip(faces, values, strict=True) if v == 3)
    assert model.classify(marked)[0] == 3


#: Benchmark scenes (seed, faces) where a glint hides the upright stroke of a 5, once read "5 and 3 alike".
GLINT_ON_A_FIVE = [
    (62_000_186 + 134, (2, 5, 0, 2)),
    (62_000_186 + 315, (5, 5, 5, 4)),
    (62_000_186 + 529, (5,) * 4),
    (62_000_186 + 814, (5, 5, 1, 5)),
]


@pytest.mark.parametrize(("seed", "values"), GLINT_ON_A_FIVE)
def test_a_glint_on_a_fives_stroke_still_reads_five(model: FaceModel, seed: int, values: tuple[int, ...]) -> None:
    scene = render_scene(list(values), seed, style="piecepack")
    for die in read_dice(scene.image, OUTLINES, 4).dice:
        truth = min(scene.dice, key=lambda t: np.hypot(t.center[0] - die.center[0], t.center[1] - die.center[1]))
        assert model.classify(face_crop(scene.image, die.box))[0] == truth.value


def test_how_alike_two_values_are_is_learned(model: FaceModel) -> None:
    assert model.likeness[5, 3] > model.likeness[5, 4] > model.likeness[1, 2]
    assert all(0 < v < 1 for v in model.likeness.values())


def test_a_saved_model_knows_how_alike_its_faces_are(model: FaceModel, tmp_path: Path) -> None:
    model.save(tmp_path / "faces.npz")
    assert FaceModel.load(tmp_path / "faces.npz").likeness == pytest.approx(model.likeness)
