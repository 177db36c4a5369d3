"""The top face read by its round pips, for a camera at a slant that sees the dice's side faces too."""

import random

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantan_table.vision.outlines import NOT_SQUARE, RAGGED
from fantan_table.vision.pipcount import count_pips
from fantan_table.vision.profile import SHAPES, Profile
from fantan_table.vision.reader import Status, _read_die, face_crop, read_dice
from fantan_table.vision.topface import ROUND, Mark, _between, marks_on_die, read_top_face

from .slanted import IVORY, face_texture, faces_around, random_die, slanted_die

SLANTED = Profile(side_faces=True, blank_face=False)


def _box(silhouette: np.ndarray):
    ys, xs = np.nonzero(silhouette)
    return cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))


@st.composite
def dice(draw):
    """(top, front, right) of a real die."""
    top = draw(st.integers(1, 6))
    front = draw(st.sampled_from(faces_around(top)))
    return top, front, draw(st.sampled_from(faces_around(top, front)))


def test_the_top_face_is_read_and_the_side_faces_pips_are_not():
    """80 dice drawn at random turns, seen from 56 to 72 degrees up. A few are unsure (a side face's flat pips
    blurred into one round mark); none is read wrong."""
    rng = random.Random(80)
    read = 0
    for _ in range(80):
        top, front, right = random_die(rng)
        picture, silhouette = slanted_die(top, (front, right), rng.uniform(3, 87), rng.uniform(56, 72))
        value, confidence, problem = read_top_face(picture, _box(silhouette), SLANTED)
        assert value in (None, top)
        assert (value is None) == (problem is not None) == (confidence == 0.0)
        read += value == top
    assert read >= 76


@settings(max_examples=60, deadline=None)
@given(die=dice(), turn=st.floats(3, 87), elevation=st.floats(45, 80))
def test_the_reader_never_takes_a_side_face_for_the_top(die, turn, elevation):
    """The die's box and its top face's round pips may each miss, and from lower down a side face's pips are
    nearly as round as the top face's: the die is then unsure, never read by a side face (below 45 degrees a
    side face is the roundest: a camera that low is out of scope)."""
    top, front, right = die
    picture, _ = slanted_die(top, (front, right), turn, elevation)
    die = read_dice(picture, SLANTED).dice[0]
    assert die.value in (None, top), die


@settings(max_examples=60, deadline=None)
@given(die=dice(), turn=st.floats(1, 89), elevation=st.floats(50, 85), edge=st.integers(0, 3), cut=st.floats(0, 0.5))
def test_a_slanted_die_cut_by_the_frames_edge_is_never_read_wrong(die, turn, elevation, edge, cut):
    """The frame's edge ``cut`` of a side into the die's outline, on any side: the top face or a side face cut."""
    top, front, right = die
    picture, silhouette = slanted_die(top, (front, right), turn, elevation)
    ys, xs = np.nonzero(silhouette)
    depth = round(cut * 56)  # slanted_die draws a 56-pixel die
    frame = [
        picture[ys.min() + depth :],
        picture[: ys.max() + 1 - depth],
        picture[:, xs.min() + depth :],
        picture[:, : xs.max() + 1 - depth],
    ][edge]
    assert all(d.value in (None, top) for d in read_dice(np.ascontiguousarray(frame), SLANTED).dice)


def test_without_side_faces_a_die_showing_its_sides_is_not_read_wrong():
    picture, _ = slanted_die(5, (6, 3), 45, 50)
    plain = read_dice(picture, Profile(blank_face=False))  # the classifier may read the top face's 5 alone
    assert plain.status is Status.UNSURE or plain.values == (5,)
    assert read_dice(picture, SLANTED).values == (5,)


def test_a_box_that_takes_in_a_side_faces_pips_leaves_the_count_in_doubt_and_the_top_face_reads_the_die():
    picture, _ = slanted_die(2, (1, 3), 26, 63)
    outlines = Profile(blank_face=False, finder=SHAPES)
    boxed = read_dice(picture, outlines).dice[0]  # the outline's box takes in the front's 1
    assert "1 pips counted, but 3 marks" in str(count_pips(face_crop(picture, boxed.box), outlines)[2])
    assert boxed.value in (None, 2)  # the count's doubt stands, unless the classifier is sure of the top face
    assert read_dice(picture, SLANTED).values == (2,)
    assert read_dice(picture, Profile(blank_face=False)).values in ((), (2,))  # by default: right or unsure


def test_a_die_not_square_for_its_sides_is_read_by_its_top_face():
    picture, _ = slanted_die(5, (6, 3), 45, 50)  # a box 8% longer than wide
    strict = {"blank_face": False, "max_aspect": 1.05}
    assert read_dice(picture, Profile(**strict, finder=SHAPES)).dice[0].problem == NOT_SQUARE  # the outline's doubt
    assert read_dice(picture, Profile(**strict)).status is Status.UNSURE  # in the network's box: unsure too
    assert read_dice(picture, Profile(**strict, side_faces=True)).values == (5,)
    stacked = "a different size from the other dice: cocked or stacked?"  # other doubts stay
    box = read_dice(picture, SLANTED).dice[0].box
    assert _read_die(picture, box, 1.0, SLANTED, stacked) == _read_die(picture, box, 1.0, Profile(), stacked)
    assert _read_die(picture, box, 1.0, SLANTED, stacked).problem == stacked


def test_a_pipless_scrap_beside_the_dice_is_no_die_when_no_face_is_blank():
    """A white cable tag with a line of print: not square, so not read; without a round pip, no die at all."""
    picture, _ = slanted_die(3, (1, 2), 30, 60)
    cv2.rectangle(picture, (60, 300), (150, 345), IVORY, -1)
    cv2.line(picture, (75, 322), (135, 322), (30, 30, 30), 3)
    assert read_dice(picture, Profile(blank_face=False, finder=SHAPES)).status is Status.UNSURE  # the tag: not square
    assert read_dice(picture, Profile(blank_face=False), expect=1).values == (3,)  # the network sees no die in it
    assert read_dice(picture, SLANTED, expect=1).values == (3,)
    assert read_dice(picture, SLANTED, expect=1).status is Status.OK
    with_blank = read_dice(picture, Profile(side_faces=True))  # piecepack dice have a blank face: still unsure
    assert with_blank.status is Status.UNSURE and len(with_blank.dice) == 2


@pytest.mark.parametrize("top", [1, 2, 5])
def test_a_faint_die_is_read_by_two_or_more_round_pips_in_a_faces_pattern(top):
    """Its outline is ragged against the table, so its box is in doubt: a face's pattern of round pips at their
    spacing is a die all the same, but one round pip could be any dark spot."""
    picture, silhouette = slanted_die(top, (3, 6) if top in (2, 5) else (2, 3), 30, 60)
    die = _read_die(picture, _box(silhouette), 1.0, SLANTED, RAGGED)
    assert (die.value, die.problem) == ((top, None) if top >= 2 else (None, RAGGED))


def test_the_top_faces_pips_are_round_and_the_side_faces_flat():
    picture, silhouette = slanted_die(4, (2, 3), 30, 60)  # turned this way, the front (2) and left (7 - 3) show
    marks = marks_on_die(picture, _box(silhouette), SLANTED, dark=True)
    round_ = [m for m in marks if m.roundness >= ROUND]
    assert len(round_) == 4
    assert len(marks) == 4 + 2 + 4
    # the side faces hang below the top face's middle, on the camera's side
    assert np.mean([m.center[1] for m in round_]) < min(m.center[1] for m in marks if m.roundness < ROUND)


def test_side_pips_nearly_as_round_as_the_top_faces_make_it_unsure():
    """Low down, the front face is turned to the camera as much as the top face: no clear top face."""
    picture, silhouette = slanted_die(4, (5, 6), 10, 42)
    assert read_top_face(picture, _box(silhouette), SLANTED)[0] is None


def test_a_pip_of_the_wrong_size_for_its_spacing_is_not_a_face():
    """Two round marks far apart for their size (two specks, not a 2) are no face."""
    picture = np.full((480, 640, 3), (95, 130, 160), np.uint8)
    die = cv2.resize(face_texture(0), (100, 100))
    for x, y in ((20, 20), (80, 80)):
        cv2.circle(die, (x, y), 3, (25, 25, 25), -1)
    picture[190:290, 270:370] = die
    value, _, problem = read_top_face(picture, ((320.0, 240.0), (100.0, 100.0), 0.0), SLANTED)
    assert value is None
    assert "spaced unlike a face's" in problem


def test_marks_cut_by_the_boxs_edge_are_not_pips():
    picture, silhouette = slanted_die(2, (1, 3), 80, 75)
    (cx, cy), (w, h), angle = _box(silhouette)
    narrow = ((cx, cy), (w * 0.55, h * 0.55), angle)  # a box through the middle of the 2's pips
    assert any(m.cut for m in marks_on_die(picture, narrow, SLANTED, dark=True))
    assert all(not m.cut for m in marks_on_die(picture, _box(silhouette), SLANTED, dark=True))


@pytest.mark.parametrize("polarity", ["dark", "auto"])
def test_light_dice_with_dark_pips_read_with_either_polarity(polarity):
    picture, silhouette = slanted_die(6, (2, 3), 60, 55)
    profile = Profile(side_faces=True, blank_face=False, pip_polarity=polarity)
    assert read_top_face(picture, _box(silhouette), profile)[0] == 6
    assert read_top_face(picture, _box(silhouette), Profile(side_faces=True, pip_polarity="light"))[0] is None


def _mark(x: float, y: float, roundness: float = 0.4) -> Mark:
    """A pip squeezed up and down (a face seen from a camera below the picture), 4 px across."""
    return Mark(np.array([x, y]), 12, np.diag([4.0, 4.0 * roundness**2]), False)


def test_round_pips_between_other_faces_pips_are_not_the_top_face():
    """Side faces hang from the top face's near edges: pips beyond the round ones, away from the camera, mean
    the round ones are no top face (a box that missed the die's far part, a side face turned to the camera)."""
    top = [_mark(100, 100, 0.9)]
    assert not _between(top, [_mark(90, 120), _mark(110, 125), _mark(85, 100)])  # all on the camera's side
    assert _between(top, [_mark(90, 120), _mark(110, 125), _mark(100, 80)])  # one beyond the top face
    assert not _between(top, [])
