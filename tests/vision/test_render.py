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


# -- real piecepack dice -------------------------------------------------------------------------------------
def test_piecepack_scenes_have_one_die_of_each_suit_and_are_repeatable() -> None:
    import numpy as np

    from fantan_table.vision.render import render_scene

    first = render_scene([0, 1, 2, 5], 11, style="piecepack")
    again = render_scene([0, 1, 2, 5], 11, style="piecepack")
    assert np.array_equal(first.image, again.image)
    assert sorted(d.style for d in first.dice) == [
        "piecepack-arms",
        "piecepack-crowns",
        "piecepack-moons",
        "piecepack-suns",
    ]


def test_piecepack_faces_blank_symbol_and_numerals() -> None:
    import numpy as np

    from fantan_table.vision.render import PIECEPACK_SUITS, piecepack_mark

    assert piecepack_mark(0, "suns").max() == 0  # the null face is blank
    aces = {suit: piecepack_mark(1, suit) > 0.5 for suit in PIECEPACK_SUITS}
    numerals = {v: piecepack_mark(v, "suns") > 0.5 for v in (2, 3, 4, 5)}
    marks = [*aces.values(), *numerals.values()]
    assert all(m.sum() > 0.03 * m.size for m in marks), "every mark covers a fair part of the face"
    for i, a in enumerate(marks):
        for b in marks[i + 1 :]:
            assert (a ^ b).sum() > 0.02 * a.size, "no two faces look alike"
    assert np.array_equal(numerals[3], piecepack_mark(3, "moons") > 0.5)  # numerals differ by colour only


def test_piecepack_marks_are_drawn_in_their_suits_colour() -> None:
    import numpy as np

    from fantan_table.vision.render import PIECEPACK_SUITS, render_scene

    scene = render_scene([2, 2, 2, 2], 5, style="piecepack", surface="felt", distractors=False)
    for die in scene.dice:
        x, y, r = int(die.center[0]), int(die.center[1]), int(die.side * 0.3)
        patch = scene.image[y - r : y + r, x - r : x + r].reshape(-1, 3).astype(float)
        darkest = patch[np.argsort(patch.sum(axis=1))[:20]].mean(axis=0)
        suit = die.style.removeprefix("piecepack-")
        nearest = min(PIECEPACK_SUITS, key=lambda s: np.linalg.norm(np.array(PIECEPACK_SUITS[s]) - darkest))
        assert nearest == suit, (suit, darkest)


def test_the_pip_reader_is_never_sure_of_a_piecepack_die_it_cannot_read() -> None:
    """Numerals and suit symbols are no pip pattern: without a calibrated profile the answer is 'unsure'."""
    import numpy as np

    from fantan_table.vision.reader import Status, read_dice
    from fantan_table.vision.render import random_faces, render_scene

    for i in range(40):
        values = random_faces(np.random.default_rng([i, 3]), 4, (0, 1, 2, 3, 4, 5))
        reading = read_dice(render_scene(values, 70_000 + i, style="piecepack").image, None, 4)
        if reading.status is Status.OK:
            assert sorted(reading.values) == sorted(values), (i, values, reading.values)
