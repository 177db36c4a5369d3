import cv2
import numpy as np
import pytest

from fantan_table.vision.render import DIE_STYLES, render_scene


def test_same_seed_same_picture_and_truth():
    a, b = render_scene([1, 2, 3, 0], 11), render_scene([1, 2, 3, 0], 11)
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    assert not np.array_equal(a.image, render_scene([1, 2, 3, 0], 12).image)


def test_truth_matches_what_was_asked():
    s = render_scene([6, 0, 5, 1], 3, size=(640, 480))
    assert s.values == (6, 0, 5, 1)
    assert s.image.shape == (480, 640, 3) and s.image.dtype == np.uint8
    for d in s.dice:
        assert 0 < d.center[0] < 640 and 0 < d.center[1] < 480
        assert d.style in DIE_STYLES


def test_touching_dice_do_touch():
    s = render_scene([1, 2, 3, 4], 5, touching=True)
    gaps = [
        np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) - (a.side + b.side) / 2
        for i, a in enumerate(s.dice)
        for b in s.dice[i + 1 :]
    ]
    assert min(gaps) < 0.45 * s.dice[0].side  # centres closer than two half-sides plus corner slack


def test_styles():
    assert {d.style for d in render_scene([1] * 4, 2, style="ivory").dice} == {"ivory"}
    assert "ivory" not in {d.style for d in render_scene([1] * 4, 2, style="colour").dice}
    dark = render_scene([1] * 4, 2, style="colour", surface="dark")
    assert "black" not in {d.style for d in dark.dice}  # a black die on black cloth cannot be seen


def test_distractors_are_drawn_away_from_the_dice():
    plain = render_scene([1, 1], 9, distractors=False, size=(640, 480))
    busy = render_scene([1, 1], 9, distractors=True, size=(640, 480))
    changed = cv2.absdiff(plain.image, busy.image).max(axis=2) > 40
    assert changed.sum() > 500  # a coin and a tile edge appeared


@pytest.mark.parametrize("values", [[7], [-1], [1, 2, 9]])
def test_impossible_faces_are_refused(values):
    with pytest.raises(ValueError, match="0 to 6 pips"):
        render_scene(values, 1)


def test_too_many_dice_for_the_picture_is_an_error():
    with pytest.raises(RuntimeError, match="could not place"):
        render_scene([1] * 40, 1, size=(320, 240), die_side=60)
