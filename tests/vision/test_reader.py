import copy
import math
import pickle
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fantan_table.vision import outlines, pipcount, reader
from fantan_table.vision.pipcount import count_pips
from fantan_table.vision.profile import SHAPES, Profile
from fantan_table.vision.reader import Status, face_crop, read_dice
from fantan_table.vision.render import render_scene

from .conftest import close_to, finder_of
from .drawn import pipped_face


def values_of(reading):
    return sorted(reading.values)


# -- whole readings ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("style", ["ivory", "colour"])
def test_blank_face_next_to_a_six_reads_0_and_6(scene, seed, style):
    """Regression: a blank face has no pips to find it by, and a six beside it must not lend it any."""
    s = scene([0, 6], seed, style=style, touching=True)
    reading = read_dice(s.image, expect=2)
    assert reading.status is Status.OK, reading.message
    assert values_of(reading) == [0, 6]


@pytest.mark.parametrize("seed", range(3))
def test_dice_without_a_blank_face_leave_out_what_has_no_pips(scene, seed):
    """Ordinary d6 have no blank face: a pipless die-shaped thing is not one of them, and is never read as 0."""
    s = scene([0, 6, 2], seed, style="ivory", touching=False)
    d6 = Profile(blank_face=False)
    assert values_of(read_dice(s.image, Profile(), expect=3)) == [0, 2, 6]
    reading = read_dice(s.image, d6, expect=2)
    assert reading.status is Status.OK, reading.message
    assert values_of(reading) == [2, 6]


@pytest.mark.parametrize("surface", ["felt", "wood", "dark"])
@pytest.mark.parametrize("style", ["ivory", "colour", "mixed"])
def test_reads_four_dice_on_every_surface_and_style(scene, surface, style):
    s = scene([5, 0, 3, 6], 40, surface=surface, style=style, touching=False, distractors=True)
    reading = read_dice(s.image, expect=4)
    assert reading.status is Status.OK, reading.message
    assert values_of(reading) == [0, 3, 5, 6]
    assert reading.total == 14 and reading.open_number == 2
    for die in reading.dice:
        assert close_to(die.center, [d.center for d in s.dice], 0.2 * s.dice[0].side)
        assert 0.5 <= die.confidence <= 1


@pytest.mark.parametrize("seed", range(6))
def test_touching_dice_are_told_apart(scene, seed):
    s = scene([1, 2, 4, 5], 100 + seed, touching=True)
    reading = read_dice(s.image, expect=4)
    assert reading.status is Status.OK, reading.message
    assert values_of(reading) == [1, 2, 4, 5]


@pytest.mark.parametrize("count", [3, 5])
def test_any_other_count_than_expected_is_unsure(scene, count):
    s = scene([2] * count, 7, touching=False)
    reading = read_dice(s.image, expect=4)
    assert reading.status is Status.UNSURE
    assert f"found {count} dice, expected 4" in reading.message
    assert reading.total is None and reading.open_number is None


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), turn=st.integers(1, 3), mirror=st.booleans())
@example(seed=3211, turn=1, mirror=True)  # upright the outlines read the roll; turned, a faint third mark on the 2
def test_rotating_or_mirroring_never_changes_the_reading(seed, turn, mirror):
    rng = np.random.default_rng(seed)
    s = render_scene([int(v) for v in rng.integers(0, 7, 4)], seed, size=(960, 960))
    image = np.ascontiguousarray(np.rot90(s.image, turn))
    if mirror:
        image = np.ascontiguousarray(image[:, ::-1])
    # a die's outline has no up, but a box's turn moves its crop's pixels, and a faint mark may count one way and
    # not the other (seed 3211); the network learned from upright and mirrored pictures alike, but a turn may move
    # a peak across its threshold: either may be sure one way and unsure the other, never sure of two rolls
    for profile in (Profile(finder=SHAPES), Profile()):
        for reading in (read_dice(s.image, profile, expect=4), read_dice(image, profile, expect=4)):
            if reading.status is Status.OK:
                assert Counter(reading.values) == Counter(s.values)


def test_a_coin_and_a_tile_edge_are_not_dice(scene):
    s = scene([4, 1], 3, distractors=True, touching=False, size=(960, 720))
    reading = read_dice(s.image, expect=2)
    assert reading.status is Status.OK, reading.message
    assert values_of(reading) == [1, 4]


def test_cocked_die_is_unsure(scene):
    """A die leaning on something shows a long, thin top from above: never read as a face."""
    s = scene([3, 3], 5, touching=False, style="ivory", surface="felt", size=(960, 720))
    image = s.image.copy()
    (cx, cy), half = s.dice[0].center, int(s.dice[0].side)
    x0, y0 = int(cx) - half, int(cy) - half
    patch = image[y0 : y0 + 2 * half, x0 : x0 + 2 * half].copy()
    image[y0 : y0 + 2 * half, x0 : x0 + 2 * half] = np.median(image[:20, :20].reshape(-1, 3), axis=0)
    squashed = cv2.resize(patch, (2 * half, half))
    image[y0 + half // 2 : y0 + half // 2 + half, x0 : x0 + 2 * half] = squashed
    reading = read_dice(image, expect=2)
    assert reading.status is Status.UNSURE
    assert any(why in reading.message for why in ("not square", "size", "cocked")), reading.message


def test_not_a_picture_is_an_error():
    assert read_dice(None).status is Status.ERROR
    assert read_dice(np.zeros((10, 10), np.uint8)).status is Status.ERROR
    reading = read_dice(np.zeros((100, 100, 3), np.uint8), Profile(roi=(200, 200, 300, 300)))
    assert reading.status is Status.ERROR and "region of interest" in reading.message


def test_empty_table_gives_no_dice():
    reading = read_dice(np.full((480, 640, 3), 90, np.uint8))
    assert reading.status is Status.UNSURE and reading.message == "no dice found"


# -- dice at the frame's edge --------------------------------------------------------------------------
def _cut_by_the_top_edge(index: int, depth: float) -> tuple[np.ndarray, int]:
    """(frame, value): a die drawn alone, turned a quarter turn ``index`` times, with the frame's top edge
    ``depth`` of a side from its centre (0.5 is the face's edge for a die square to the frame)."""
    rng = np.random.default_rng([index, 31])
    value = int(rng.integers(0, 7))
    s = render_scene([value], 4_000 + index, size=(640, 480), style=("ivory", "colour")[index % 2], distractors=False)
    image, (cx, cy) = s.image, s.dice[0].center
    for _ in range(index % 4):  # np.rot90 turns anticlockwise: the centre goes with it
        cx, cy = cy, image.shape[1] - 1 - cx
        image = np.rot90(image)
    top = round(cy - depth * s.dice[0].side)
    assert top > 0
    return np.ascontiguousarray(image[top:]), value


def test_a_die_grazing_the_frames_edge_is_read():
    """Only a corner or the rim over the edge (the middle 0.62-0.75 of a side in): it is a die, and read."""
    read = 0
    for i in range(24):
        frame, value = _cut_by_the_top_edge(i, 0.62 + 0.13 * (i % 4) / 3)
        reading = read_dice(frame)
        assert [d.value for d in reading.dice] in ([value], []), i
        read += [d.value for d in reading.dice] == [value]
    assert read >= 22


@settings(max_examples=80, deadline=None)
@given(index=st.integers(0, 10_000), depth=st.floats(0.2, 0.75))
def test_a_die_cut_by_the_frames_edge_is_never_read_wrong(index, depth):
    """Cut through its pips, it is left out or unsure; never read by the pips left."""
    frame, value = _cut_by_the_top_edge(index, depth)
    assert all(d.value in (None, value) for d in read_dice(frame).dice)


def _two_dice_one_cut(seed: int, depth: float) -> tuple[np.ndarray, int] | None:
    """(frame, value of the whole die): two dice two sides apart or more, the frame's top edge ``depth`` of a side
    below the upper one's centre (0: half of it in view), the lower one wholly in view; None where they lie
    otherwise."""
    values = [int(v) for v in np.random.default_rng([seed, 37]).integers(1, 7, 2)]
    s = render_scene(values, 5_000 + seed, size=(640, 480), style=("ivory", "colour")[seed % 2], distractors=False)
    upper, lower = sorted(s.dice, key=lambda d: d.center[1])
    top = round(upper.center[1] + depth * upper.side)
    apart = math.dist(upper.center, lower.center) >= 2 * upper.side
    if not apart or lower.center[1] - top < 1.2 * lower.side or top < 1:
        return None
    return np.ascontiguousarray(s.image[top:]), lower.value


@pytest.mark.parametrize("depth", [-0.2, 0.0, 0.1])
@pytest.mark.parametrize("profile", [Profile(finder=SHAPES), Profile(side_faces=True)], ids=["outlines", "side faces"])
def test_no_count_the_outlines_leave_a_roll_with_a_die_cut_by_the_edge_unsure(profile, depth):
    """Where the outlines read first, with no count, a die from 0.4 to 0.7 in view makes the roll unsure, not one
    die short and sure; the whole die's reading stays. (0.3 in view, most are missed: past the shaded rim, their
    outline holds less than ``CUT_DIE_AREA``'s least.)"""
    cases = [case for seed in range(24) if (case := _two_dice_one_cut(seed, depth)) is not None]
    assert len(cases) >= 8
    for frame, value in cases:
        reading = read_dice(frame, profile)
        assert reading.status is Status.UNSURE, reading
        assert [d.problem for d in reading.dice if d.problem] == [outlines.CUT_BY_EDGE]
        assert [d.value for d in reading.dice if d.problem is None] == [value]


def test_a_die_sized_card_along_the_frames_edge_is_no_blank_die(scene):
    """A pale square whose whole side lies along the edge may be anything cut off there, not a die grazing it."""
    s = scene([2, 5, 6], 12, size=(640, 480), style="ivory", distractors=False, touching=False)
    image = s.image.copy()
    side = s.dice[0].side
    x = next(x for x in np.linspace(side, 640 - side, 40) if all(abs(d.center[0] - x) > 1.5 * side for d in s.dice))
    card = cv2.boxPoints(((float(x), 0.4 * side), (side, side), 2.0)).astype(np.int32)
    cv2.fillConvexPoly(image, card, (200, 225, 235), cv2.LINE_AA)
    reading = read_dice(image, expect=3)
    assert reading.status is Status.OK, reading.message
    assert values_of(reading) == [2, 5, 6]


# -- the profile's region of interest and empty-table frame ---------------------------------------------
def test_region_of_interest_limits_where_dice_are_looked_for(scene):
    s = scene([2, 5], 21, touching=False, distractors=False, size=(960, 720))
    (x, y) = s.dice[0].center
    roi = (int(x - 80), int(y - 80), int(x + 80), int(y + 80))
    reading = read_dice(s.image, Profile(roi=roi), expect=1)
    assert reading.status is Status.OK, reading.message
    assert reading.values == (s.dice[0].value,)
    assert abs(reading.dice[0].center[0] - x) < 10 and abs(reading.dice[0].center[1] - y) < 10


def test_empty_table_frame_finds_dice_on_a_busy_table(scene):
    """A table with a big light patch (a cloth's print, a sheet of paper): without the empty frame it is
    taken for something; with it, only what changed is looked at."""
    s = scene([1, 4, 6], 8, touching=False, distractors=False, surface="felt", size=(960, 720))
    empty = render_scene([], 8, surface="felt", size=(960, 720), distractors=False).image
    table = empty.copy()
    for frame in (table, image := s.image.copy()):
        cv2.rectangle(frame, (30, 30), (150, 110), (200, 220, 230), -1)  # a patch the size of a couple of dice
    del table
    outlines = Profile(finder=SHAPES)  # the empty frame is the outline finder's aid; the network needs none
    with_empty = read_dice(image, outlines.with_empty(_with_patch(empty)), expect=3)
    assert with_empty.status is Status.OK, with_empty.message
    assert values_of(with_empty) == [1, 4, 6]
    without = read_dice(image, outlines, expect=3)
    assert without.status is Status.UNSURE
    assert values_of(read_dice(image, expect=3)) == [1, 4, 6]


def _with_patch(frame):
    frame = frame.copy()
    cv2.rectangle(frame, (30, 30), (150, 110), (200, 220, 230), -1)
    return frame


# -- pips on one face -----------------------------------------------------------------------------------
@pytest.mark.parametrize("value", range(7))
@pytest.mark.parametrize("style", ["ivory", "red", "black"])
def test_count_pips_on_a_face(value, style):
    s = render_scene(
        [value], 30 + value, style="ivory" if style == "ivory" else "colour", size=(480, 480), distractors=False
    )
    die = s.dice[0]
    crop = face_crop(s.image, (die.center, (die.side, die.side), die.angle))
    got, confidence, problem = count_pips(crop, Profile())
    assert problem is None and got == value and confidence > 0.5


def _drawn_face(value: int, glare_on: int | None, px: int = 96) -> np.ndarray:
    """An ivory face with black pips at their layout places, a bright highlight over one pip if asked."""
    from fantan_table.vision.pips import PIP_LAYOUTS, PIP_RADIUS

    face = np.full((px, px, 3), (200, 225, 235), np.uint8)
    for k, (u, v) in enumerate(PIP_LAYOUTS[value]):
        centre = (round(u * px), round(v * px))
        cv2.circle(face, centre, round(PIP_RADIUS * px), (30, 30, 30), -1, cv2.LINE_AA)
        if k == glare_on:  # a highlight a little off the pip's middle, leaving a dark crescent
            spot = (centre[0] + round(0.2 * PIP_RADIUS * px), centre[1] - round(0.2 * PIP_RADIUS * px))
            cv2.circle(face, spot, round(0.75 * PIP_RADIUS * px), (250, 250, 250), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(face, (3, 3), 0)


@pytest.mark.parametrize("value", [1, 3, 4, 5, 6])
def test_a_dark_pip_with_glare_on_it_still_counts(value):
    """Glare hollows a dark pip into a ring; a five with its middle pip glared must never read as a four."""
    for k in range(value):
        got, _, problem = count_pips(_drawn_face(value, glare_on=k), Profile())
        assert (got, problem) == (value, None), f"glare on pip {k}"


def _blue_face(value: int, px: int = 96) -> np.ndarray:
    """A blue face with white pips at their layout places."""
    from fantan_table.vision.pips import PIP_LAYOUTS, PIP_RADIUS

    face = np.full((px, px, 3), (170, 70, 30), np.uint8)
    for u, v in PIP_LAYOUTS[value]:
        cv2.circle(face, (round(u * px), round(v * px)), round(PIP_RADIUS * px), (235, 235, 235), -1, cv2.LINE_AA)
    return face


def test_light_pips_joined_by_a_thin_bridge_are_pips_and_a_light_blotch_is_not():
    bridged = _blue_face(6)
    cv2.line(bridged, (26, 26), (26, 70), (235, 235, 235), 5)  # glow joining a column of three: too large for one
    assert count_pips(cv2.GaussianBlur(bridged, (3, 3), 0), Profile())[0] == 6
    blotch = _blue_face(4)
    cv2.circle(blotch, (48, 48), 20, (235, 235, 235), -1)  # three pips wide: glare over the face, or a cocked die
    got, _, problem = count_pips(cv2.GaussianBlur(blotch, (3, 3), 0), Profile())
    assert got is None and problem is not None and "too large" in problem


@pytest.mark.parametrize(
    ("index", "whole"), [(2032, True), (2046, True), (2405, True), (2598, False), (3080, True), (3297, True)]
)
def test_a_glint_joining_light_pips_is_not_one_big_mark(index, whole):
    """Scenes rendered like make bench's, past its 2,000: a glint on a coloured six, white like its pips, joins
    two of them into one mark too large for a pip (each was unsure). Opened, the glow's bridge falls away: every
    six is read, and every die read is right. The scene is read whole, but for 2598, whose lone white pip is left
    unsure as a possible gloss spot."""
    from fantan_table.vision.render import random_faces

    values = random_faces(np.random.default_rng([index, 7]), 4, (0, 1, 2, 3, 4, 5, 6))
    s = render_scene(values, 500_000 + index)
    reading = read_dice(s.image, expect=4)
    assert "too large" not in reading.message
    assert values_of(reading).count(6) == list(s.values).count(6) > 0
    assert not Counter(values_of(reading)) - Counter(s.values), reading.message
    if whole:
        assert reading.status is Status.OK, reading.message


@pytest.mark.parametrize("index", [941, 947, 1193, 1674, 1181, 1247, 1829, 691, 762, 346, 196])
def test_benchmark_scenes_once_missed_read_exactly(index):
    """From make bench's synthetic set: a faint coin on wood taken for a die (737 ... 1674), a dark pip with
    glare on it left out of its face's pattern (1181, 1247, 1829), two dice of one colour pressed together with
    no seam showing (691, 762), every die touching another and a tile's edge (346), the end of a tile
    at the frame's edge, cut apart by size, taken for a blank die grazing the edge (196; 312 also has a black die's
    1, see the next test). Each was unsure; each now reads exactly, and the same every time (cutting dice by size
    must not depend on a random start)."""
    from fantan_table.vision.render import random_faces

    values = random_faces(np.random.default_rng([index, 7]), 4, (0, 1, 2, 3, 4, 5, 6))
    s = render_scene(values, 500_000 + index)
    reading = read_dice(s.image, expect=4)
    assert reading.status is Status.OK, reading.message
    assert values_of(reading) == sorted(s.values)
    assert read_dice(s.image, expect=4) == reading


@pytest.mark.parametrize("index", [737, 312])
def test_a_lone_light_pip_on_a_black_die_is_read_right_or_unsure(index):
    """Scenes from above with a black die showing a 1 (737 was read wrong before one pip needed the classifier's
    word): a gloss spot on a blank black die counts as one pip too, and the faces networks, taught on stress
    scenes whose blank dice often carry one, give such a 1 only 0.7-0.95. Unsure costs a roll; a blank paid as a 1
    costs money."""
    from fantan_table.vision.render import random_faces

    values = random_faces(np.random.default_rng([index, 7]), 4, (0, 1, 2, 3, 4, 5, 6))
    scene = render_scene(values, 500_000 + index)
    reading = read_dice(scene.image, expect=4)
    assert 1 in scene.values
    if reading.status is Status.OK:
        assert sorted(reading.values) == sorted(scene.values)
    else:
        assert "one pip counted" in reading.message


def test_one_pip_counted_stands_only_where_the_classifier_is_sure_of_a_one():
    one = (1, 1.0, None)
    assert (
        reader._with_classifier(one, _probabilities(p1=reader.ONE_MARK_SURE, p0=1 - reader.ONE_MARK_SURE), 0.05) == one
    )
    value, _, problem = reader._with_classifier(one, _probabilities(p1=0.9, p0=0.1), 0.05)
    assert value is None and "gloss spot" in problem
    value, _, _ = reader._with_classifier(one, _probabilities(p1=0.5, none=0.5), 0.05)  # not among the faces alone
    assert value is None


@pytest.mark.parametrize("px", [25, 40, 64])
@pytest.mark.parametrize("table", [(40, 110, 40), (200, 200, 200), (30, 60, 120)])
def test_a_die_whose_pips_are_near_its_colour_is_never_read_blank(px, table):
    """Hypothesis's find (test_reader_safety): black pips crowding a dark red 6, 25 px across, which the count
    once saw no mark on. Right or unsure, on any table."""
    face = pipped_face(px, (0, 0, 31), (0, 1, 0), 6, 0.199)
    frame = np.full((480, 640, 3), table, np.uint8)
    frame[200 : 200 + px, 300 : 300 + px] = face
    reading = read_dice(frame, expect=1)
    assert reading.status is not Status.OK or reading.values == (6,), reading


def test_the_classifier_reads_alone_only_a_sure_face_with_marks_in_a_box_it_may():
    """Pips too small or blurred to count: the classifier reads the die alone where it may (``alone``: not a box
    the network found weakly) and is sure of a face with marks; never a blank."""
    uncounted = (None, 0.0, "pips smaller than this profile's")
    sure_five = _probabilities(p5=reader.CLASSIFIER_ALONE, p6=1 - reader.CLASSIFIER_ALONE)
    assert reader._with_classifier(uncounted, sure_five, 0.05, alone=True) == (5, reader.CLASSIFIER_ALONE, None)
    assert reader._with_classifier(uncounted, sure_five, 0.05, alone=False) == uncounted
    assert reader._with_classifier(uncounted, _probabilities(p5=0.98, p6=0.02), 0.05, alone=True) == uncounted
    assert reader._with_classifier(uncounted, _probabilities(p0=1.0), 0.05, alone=True) == uncounted
    assert reader._with_classifier(uncounted, _probabilities(none=1.0), 0.05, alone=True) == uncounted


def test_nothing_counted_where_the_classifier_sees_pips_is_no_count_at_all():
    """Stress DEV 600100: a white 2 on an ivory die, no pip counted, a 2 to the classifier at 0.99997. "Nothing" is
    no evidence of a plain face there, so the die is read as one the count could not read: by the classifier
    alone where it may and is sure, else unsure; never a 1 (a blank's gloss spot), never a blank against it."""
    blank = (0, 1.0, None)
    sure_two = _probabilities(p2=reader.CLASSIFIER_ALONE, p3=1 - reader.CLASSIFIER_ALONE)
    assert reader._with_classifier(blank, sure_two, 0.05, alone=True) == (2, reader.CLASSIFIER_ALONE, None)
    unsure = (None, 0.0, "no pips counted, but the learned classifier sees 2")
    assert reader._with_classifier(blank, sure_two, 0.05, alone=False) == unsure  # a weak box: a side face?
    assert reader._with_classifier(blank, _probabilities(p2=0.98, p0=0.02), 0.05, alone=True) == unsure
    sure_one = _probabilities(p1=1.0)
    assert reader._with_classifier(blank, sure_one, 0.05, alone=True) == (
        None,
        0.0,
        "no pips counted, but the learned classifier sees 1",
    )


def _turned(share: float, asked: list[float], face: int = 5):
    """A stand-in for the classifier asked of a crop's symmetries: ``share`` for ``face``; notes each call."""

    def ask() -> np.ndarray:
        asked.append(share)
        return _probabilities(**{f"p{face}": share, "none": 1 - share})

    return ask


def test_a_face_all_but_sure_is_read_alone_where_its_turned_crops_make_it_sure():
    """Short of ``CLASSIFIER_ALONE`` but ``TURNED_ASKED`` sure of a face of two pips or more where the count could
    not tell: the classifier is asked of the crop turned and mirrored, and their mean must reach the bar."""
    uncounted = (None, 0.0, "pips smaller than this profile's")
    all_but = _probabilities(p5=reader.TURNED_ASKED, p6=1 - reader.TURNED_ASKED)
    asked: list[float] = []
    sure = reader.CLASSIFIER_ALONE
    assert reader._with_classifier(uncounted, all_but, 0.05, alone=True, turned=_turned(sure, asked)) == (5, sure, None)
    assert reader._with_classifier(uncounted, all_but, 0.05, alone=True, turned=_turned(0.998, asked)) == uncounted
    assert asked == [sure, 0.998]


@pytest.mark.parametrize(
    ("probabilities", "alone", "expected"),
    [
        ({"p5": 0.995, "p6": 0.005}, False, None),  # a box it may not read alone: a side face?
        ({"p5": 0.98, "p6": 0.02}, True, None),  # less sure than TURNED_ASKED
        ({"p5": float(np.nextafter(reader.TURNED_ASKED, 0)), "p6": 0.008}, True, None),  # the mean cannot reach it
        ({"p5": 0.999, "p6": 0.001}, True, (5, 0.999, None)),  # sure already: read as it lies
        ({"p1": 0.995, "p0": 0.005}, True, None),  # one mark: a glint looks alike turned or mirrored
        ({"p0": 0.995, "p1": 0.005}, True, None),  # a blank is never read alone
        ({"none": 0.995, "p1": 0.005}, True, None),  # nor no face
    ],
)
def test_only_a_face_of_pips_all_but_sure_in_a_box_it_may_read_alone_is_turned(probabilities, alone, expected):
    uncounted = (None, 0.0, "pips smaller than this profile's")
    asked: list[float] = []
    best = max(probabilities, key=probabilities.get)
    face = 5 if best == "none" else int(best[1:])
    got = reader._with_classifier(
        uncounted, _probabilities(**probabilities), 0.05, alone=alone, turned=_turned(1.0, asked, face)
    )
    assert got == (expected or uncounted) and asked == []


def test_a_count_that_stands_or_marks_that_agree_ask_nothing_turned():
    asked: list[float] = []
    all_but = _probabilities(p5=reader.TURNED_ASKED, p6=1 - reader.TURNED_ASKED)
    counted = (5, 0.9, None)
    assert reader._with_classifier(counted, all_but, 0.05, alone=True, turned=_turned(1.0, asked)) == counted
    five_marks = (None, 0.0, pipcount.MarksSeen(5, "pips that do not form a face's pattern"))
    read = reader._with_classifier(five_marks, all_but, 0.05, alone=True, turned=_turned(1.0, asked))
    assert read == (5, reader.TURNED_ASKED, None) and asked == []  # read by its marks (MARKS_AGREE_SURE) as before


def test_turned_crops_never_read_alone_a_face_with_more_pips_than_marks_lying_as_a_whole_face():
    words = "mark(s) on a face where no pips stand out by lightness: not plain"
    read = (None, 0.0, pipcount.MarksSeen(4, words, whole_face=True))
    all_but_six = _probabilities(p6=reader.TURNED_ASKED, p4=1 - reader.TURNED_ASKED)
    asked: list[float] = []
    assert reader._with_classifier(read, all_but_six, 0.05, alone=True, turned=_turned(1.0, asked, 6)) == read
    assert asked == []  # whatever the turned crops said, a 6 from four marks lying as a 4's is refused


def _second(probabilities: dict[str, float], asked: list[str]):
    """A stand-in for the gradient-feature model's reading of the die; notes each call."""

    def ask(value: int) -> np.ndarray:
        asked.append(f"second {value}")
        return _probabilities(**probabilities)

    return ask


@pytest.mark.parametrize(
    ("second", "read"),
    [
        ({"p5": 0.51, "p6": 0.49}, True),  # its first choice, more than all others together
        ({"p5": 0.5, "p6": 0.3, "none": 0.2}, False),  # its first choice, but no more than the others together
        ({"p6": 0.9, "p5": 0.1}, False),  # another face
        ({"none": 0.6, "p5": 0.4}, False),  # no face
    ],
)
def test_a_face_the_networks_are_all_but_sure_of_is_read_where_the_gradient_model_agrees(second, read):
    """Short of ``CLASSIFIER_ALONE`` (turned too) but ``SECOND_OPINION_SURE`` sure of a face of two pips or more
    where the count could not tell: read if the gradient-feature model's first choice is that face, by majority."""
    uncounted = (None, 0.0, "pips smaller than this profile's")
    sure = reader.SECOND_OPINION_SURE
    all_but = _probabilities(p5=sure, p6=1 - sure)
    asked: list[str] = []
    got = reader._with_classifier(
        uncounted, all_but, 0.05, alone=True, turned=_turned(0.995, []), second=_second(second, asked)
    )
    assert got == ((5, sure, None) if read else uncounted) and asked == ["second 5"]


@pytest.mark.parametrize(("turned_mean", "read"), [(0.995, True), (float(np.nextafter(0.99, 0)), False)])
def test_where_the_crop_was_turned_its_mean_must_reach_the_second_opinions_bar(turned_mean, read):
    """Asked again turned and mirrored and short of ``CLASSIFIER_ALONE``: the gradient model is asked only where
    the mean is still ``SECOND_OPINION_SURE``, and a die it reads has the mean as its confidence."""
    uncounted = (None, 0.0, "pips smaller than this profile's")
    all_but = _probabilities(p5=0.998, p6=0.002)
    turned: list[float] = []
    asked: list[str] = []
    got = reader._with_classifier(
        uncounted, all_but, 0.05, alone=True, turned=_turned(turned_mean, turned), second=_second({"p5": 1.0}, asked)
    )
    assert turned == [turned_mean]
    assert (got, asked) == (((5, turned_mean, None), ["second 5"]) if read else (uncounted, []))


@pytest.mark.parametrize(
    ("probabilities", "alone", "seen", "expected"),
    [
        ({"p5": 0.995, "p6": 0.005}, False, None, None),  # a box it may not read alone: a side face?
        ({"p5": float(np.nextafter(reader.SECOND_OPINION_SURE, 0)), "p6": 0.0101}, True, None, None),  # short
        ({"p5": 0.999, "p6": 0.001}, True, None, (5, 0.999, None)),  # sure already: read as it lies
        ({"p1": 0.995, "p0": 0.005}, True, None, None),  # one mark: a blank's gloss spot fools both kinds alike
        ({"p0": 0.995, "p1": 0.005}, True, None, None),  # a blank is never read alone
        ({"none": 0.995, "p1": 0.005}, True, None, None),  # nor no face
        ({"p5": 0.995, "p6": 0.005}, True, pipcount.MarksSeen(5, "pips that do not form a face's pattern"), "marks"),
        ({"p6": 0.995, "p4": 0.005}, True, pipcount.MarksSeen(4, "lie as a 4's", whole_face=True), None),  # vetoed
    ],
)
def test_only_a_face_of_pips_all_but_sure_in_a_box_it_may_read_alone_asks_the_gradient_model(
    probabilities, alone, seen, expected
):
    uncounted = (None, 0.0, seen or "pips smaller than this profile's")
    asked: list[str] = []
    best = max(probabilities, key=probabilities.get)
    face = 5 if best == "none" else int(best[1:])
    got = reader._with_classifier(
        uncounted,
        _probabilities(**probabilities),
        0.05,
        alone=alone,
        turned=_turned(0.99, [], face),
        second=_second({f"p{face}": 1.0}, asked),
    )
    if expected == "marks":  # read by its marks (MARKS_AGREE_SURE) as before
        expected = (face, probabilities[best], None)
    assert got == (expected or uncounted) and asked == []


def _yellow_pipped_face(value: int, glint: bool = False) -> np.ndarray:
    """A dark blue die's top face with ``value`` yellow pips, and a white glint in its middle if ``glint``."""
    face = pipped_face(reader.FACE_PX, (110, 60, 20), (40, 200, 230), value, 0.16)
    if glint:
        cv2.circle(face, (reader.FACE_PX // 2, reader.FACE_PX // 2), 4, (245, 245, 245), -1, cv2.LINE_AA)
    return face


def _face_frame(face: np.ndarray) -> tuple[np.ndarray, tuple]:
    frame = np.full((240, 320, 3), (70, 70, 70), np.uint8)
    frame[88:152, 128:192] = face
    return frame, ((160.0, 120.0), (64.0, 64.0), 0.0)


@pytest.mark.parametrize(
    ("value", "shown", "glint", "asked"),
    [
        (5, 5, False, True),  # as many marks as the face has pips
        (5, 3, False, False),  # fewer marks than pips: a box on part of a die? (stress DEV 612230)
        (5, 4, True, False),  # a glint in the middle of a 4
        (3, 2, True, False),  # ... and of a 2 (wooden DEV 655753)
        (4, 4, True, True),  # a 4 has no middle pip: a glint there is no pip of it
    ],
)
def test_the_gradient_model_is_asked_only_where_the_marks_could_be_the_faces_pips(value, shown, glint, asked):
    frame, box = _face_frame(_yellow_pipped_face(shown, glint))
    face = face_crop(frame, box)
    found = pipcount.face_marks(face)
    assert len(found) == shown + glint and reader._glint_in_the_middle(found, Profile()) == glint  # as drawn
    got = reader.second_opinion(frame, box, face, value, Profile())
    assert (got is not None) == asked
    if asked:
        from fantan_table.vision.classifier import builtin_feature_model, die_crop

        np.testing.assert_allclose(got, builtin_feature_model().probabilities(die_crop(frame, box)[None])[0])


def test_marks_too_weak_beside_the_others_are_no_pips():
    """The ``value`` strongest marks must each be at least ``SECOND_OPINION_ALIKE`` of their median strength: a
    box on part of a die shows its pips and perhaps a stray mark or a side face's, not another pip."""
    from fantan_table.vision.marks import Mark

    def marks(*strengths: float) -> list[Mark]:
        return [Mark(0.5, 0.5, s, False, False) for s in strengths]

    assert reader.SECOND_OPINION_ALIKE == 0.7
    assert reader._as_many_marks(marks(40, 38, 36, 30), 4)
    assert not reader._as_many_marks(marks(40, 38, 36, 18), 4)  # the fourth less than half their median (37)
    assert reader._as_many_marks(marks(40, 38, 36, 25.9), 4)  # 0.7 of it: alike enough
    assert not reader._as_many_marks(marks(51, 49, 33, 27), 4)  # 622724: two pips and a side face's two marks
    assert not reader._as_many_marks(marks(40, 38, 36), 4)
    assert reader._as_many_marks(marks(40, 38, 36, 27, 5), 4)  # the fifth, a speck, is not asked for


def test_stress_dev_a_box_slid_over_a_side_face_is_not_read_by_the_second_opinion():
    """622724 through the reader, with the count: the 5 at (941, 511), boxed at (929, 526) with two marks of its
    side face, was read as a 4."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(622724)
    reading = read_dice(scene.image, None, 4)
    assert sorted(scene.values) == [1, 3, 5, 5]
    assert reading.status is not Status.OK or sorted(reading.values) == [1, 3, 5, 5]


def test_a_white_3_or_5_is_not_read_by_the_second_opinion():
    """White pips look like glints: a white middle pip and a glint on a white 2 cannot be told apart."""
    white = pipped_face(reader.FACE_PX, (110, 60, 20), (245, 245, 245), 5, 0.16)
    frame, box = _face_frame(white)
    face = face_crop(frame, box)
    assert reader.second_opinion(frame, box, face, 5, Profile()) is None
    four = pipped_face(reader.FACE_PX, (110, 60, 20), (245, 245, 245), 4, 0.16)
    frame, box = _face_frame(four)
    assert reader.second_opinion(frame, box, face_crop(frame, box), 4, Profile()) is not None


def test_only_the_builtin_networks_are_asked_of_a_turned_crop_or_seconded(monkeypatch):
    """A table's own model learned no mirror images, and the gradient-feature model's word was weighed against the
    built-in networks': ``_read_die`` gives neither to a table's own model."""
    import dataclasses

    offered: list[object] = []

    def with_classifier(read, probabilities, contradicted, alone=False, turned=None, second=None):
        offered.append((turned, second))
        return read

    monkeypatch.setattr(reader, "_with_classifier", with_classifier)
    box = ((332.0, 232.0), (64.0, 64.0), 0.0)
    all_but = _probabilities(p5=0.995, p6=0.005)
    reader._read_die(_scene_with_a_one(), box, 1.0, Profile(), None, all_but, 0.9)
    own = dataclasses.replace(Profile(), classifier=SimpleNamespace(probabilities=lambda crops: None))
    reader._read_die(_scene_with_a_one(), box, 1.0, own, None, all_but, 0.9)
    assert all(map(callable, offered[0])) and offered[1] == (None, None)


def test_turned_probabilities_average_the_builtin_classifiers_reading_of_each_symmetry():
    """The die's crop read in each of its eight symmetries: the mean of the eight, the upright reading given."""
    from fantan_table.vision.classifier import builtin_model, die_crop, symmetries

    scene = render_scene((3, 5, 2, 6), 700_123)
    die = scene.dice[0]
    box = (die.center, (die.side, die.side), die.angle)
    each = builtin_model().probabilities(symmetries(die_crop(scene.image, box)))
    got = reader.turned_probabilities(scene.image, box, each[0])
    np.testing.assert_allclose(got, each.mean(axis=0), rtol=1e-4, atol=1e-9)
    np.testing.assert_allclose(got.sum(), 1.0)
    assert np.all(got <= each.max(axis=0) + 1e-9)  # no surer of any face than its surest reading
    # the upright reading given is the one averaged, once: another moves the mean by an eighth of the difference
    other = np.roll(each[0], 1)
    moved = reader.turned_probabilities(scene.image, box, other) - got
    np.testing.assert_allclose(moved, (other - each[0]) / 8, rtol=1e-4, atol=1e-9)


@pytest.mark.parametrize(
    "seen",
    [
        pipcount.MarksSeen(4, "pips that do not form a face's pattern"),
        pipcount.MarksSeen(4, "mark(s) on a face where no pips stand out by lightness: not plain"),
    ],
)
def test_as_many_marks_as_the_classifiers_face_has_pips_read_it_where_it_is_all_but_sure(seen):
    """The count saw four pip-like marks and could not read them as a 4 (off the pattern, or pips that differ
    from the face in colour, not lightness): a classifier ``MARKS_AGREE_SURE`` of a 4 reads the die."""
    assert seen == f"4 {seen[2:]}" and seen.marks == 4  # a problem in words as any other
    for copied in (pickle.loads(pickle.dumps(seen)), copy.deepcopy(seen)):  # readings cross processes
        assert (copied, copied.marks) == (seen, 4)
    read = (None, 0.0, seen)
    sure_four = _probabilities(p4=reader.MARKS_AGREE_SURE, p5=1 - reader.MARKS_AGREE_SURE)
    assert reader._with_classifier(read, sure_four, 0.05, alone=True) == (4, reader.MARKS_AGREE_SURE, None)
    assert reader._with_classifier(read, sure_four, 0.05, alone=False) == read  # a weak box: a side face?
    assert reader._with_classifier(read, _probabilities(p4=0.98, p5=0.02), 0.05, alone=True) == read
    assert reader._with_classifier(read, _probabilities(p5=0.995, p4=0.005), 0.05, alone=True) == read  # 4 marks, a 5
    # the same words without the count of marks (an outline's problem, a top face's) are no such evidence
    assert reader._with_classifier((None, 0.0, str(seen)), sure_four, 0.05, alone=True) == (None, 0.0, str(seen))


def test_one_printed_mark_in_the_middle_is_read_as_a_one_where_the_classifier_all_but_agrees():
    """Stress DEV 600540: a red pip on a purple die, as light as it, one mark to the count, in a 1's place; the
    classifier gave the 1 0.9989. A mark that is no glint there is a 1's pip, read as the marks of other faces
    are; one that may be a glint is a blank's gloss spot as often (stress DEV 600383), and stays unsure."""
    words = "mark(s) on a face where no pips stand out by lightness: not plain"
    printed = (None, 0.0, pipcount.MarksSeen(1, words, whole_face=True))
    sure_one = _probabilities(p1=reader.MARKS_AGREE_SURE, p0=1 - reader.MARKS_AGREE_SURE)
    assert reader._with_classifier(printed, sure_one, 0.05, alone=True) == (1, reader.MARKS_AGREE_SURE, None)
    assert reader._with_classifier(printed, sure_one, 0.05, alone=False) == printed  # a weak box: a side face?
    assert reader._with_classifier(printed, _probabilities(p1=0.98, p0=0.02), 0.05, alone=True) == printed
    glint = (None, 0.0, pipcount.MarksSeen(1, words))
    assert reader._with_classifier(glint, sure_one, 0.05, alone=True) == glint
    # a 3 or a 5 needs its corner pips, which are not there
    sure_three = _probabilities(p3=1.0)
    value, _, problem = reader._with_classifier(printed, sure_three, 0.05, alone=True)
    assert value is None and problem == f"1 {words}; they lie as a 1's pips, but the learned classifier sees 3"


def test_marks_laid_out_as_a_whole_face_refuse_the_classifier_alone_a_face_with_more_pips():
    """Green pips on light wood differ from it in colour alone: four such marks lie as a 4's pips. The classifier,
    sure of a 6 (the grain's stripes taken for its middle pips, wooden DEV 652001), may not read it alone: a 6's
    middle pips are not there. Fewer pips than marks stay the classifier's to read (a side face's pip may add a
    mark), and so do marks off a face's layout (faint pips missed)."""
    words = "mark(s) on a face where no pips stand out by lightness: not plain"
    whole = pipcount.MarksSeen(4, words, whole_face=True)
    for copied in (pickle.loads(pickle.dumps(whole)), copy.deepcopy(whole)):
        assert (copied, copied.marks, copied.whole_face) == (whole, 4, True)
    read = (None, 0.0, whole)
    sure_six = _probabilities(p6=reader.CLASSIFIER_ALONE, p4=1 - reader.CLASSIFIER_ALONE)
    value, _, problem = reader._with_classifier(read, sure_six, 0.05, alone=True)
    assert value is None and problem == f"4 {words}; they lie as a 4's pips, but the learned classifier sees 6"
    sure_three = _probabilities(p3=reader.CLASSIFIER_ALONE, p4=1 - reader.CLASSIFIER_ALONE)
    assert reader._with_classifier(read, sure_three, 0.05, alone=True) == (3, reader.CLASSIFIER_ALONE, None)
    sure_four = _probabilities(p4=reader.CLASSIFIER_ALONE, p6=1 - reader.CLASSIFIER_ALONE)
    assert reader._with_classifier(read, sure_four, 0.05, alone=True) == (4, reader.CLASSIFIER_ALONE, None)
    scattered = (None, 0.0, pipcount.MarksSeen(4, words))
    assert reader._with_classifier(scattered, sure_six, 0.05, alone=True) == (6, reader.CLASSIFIER_ALONE, None)


GREEN_PIP = (170, 90, 160)
"""Lab: as light as light wood (170, 140, 160), and more colourful."""
GLINT = (178, 134, 146)
"""Lab: a little lighter than light wood and greyer, as a gloss spot on it; too little lighter to count as a pip."""


@pytest.mark.parametrize(
    ("places", "colour", "whole"),
    [
        ([(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)], GREEN_PIP, True),
        ([(0.2, 0.5), (0.4, 0.5), (0.6, 0.5), (0.8, 0.5)], GREEN_PIP, False),  # in a row: no face's
        ([(0.40, 0.3), (0.74, 0.3), (0.40, 0.7), (0.74, 0.7)], GREEN_PIP, False),  # a 4 shifted and squeezed
        ([(0.5, 0.5)], GREEN_PIP, True),  # one printed mark in the middle: a 1's pip
        ([(0.5, 0.5)], GLINT, False),  # one mark there that looks like a glint: a 1, or a blank's gloss spot
    ],
)
def test_the_count_says_whether_marks_by_colour_alone_lie_as_a_whole_face(places, colour, whole):
    """Pips as light as the body, told apart by colour alone, are marks, not counted pips: the count says how
    many it saw and whether they lie exactly as that many pips of a face do (a layout shifted and squeezed, as a
    slanted view shows one, fits stray marks more easily). One mark is a whole face only where it is no glint."""
    from fantan_table.vision.pips import PIP_RADIUS

    def lab_to_bgr(lightness: int, a: int, b: int) -> list[int]:
        return cv2.cvtColor(np.uint8([[[lightness, a, b]]]), cv2.COLOR_Lab2BGR)[0, 0].tolist()

    px = reader.FACE_PX
    face = np.full((px, px, 3), lab_to_bgr(170, 140, 160), np.uint8)  # light wood
    for u, v in places:
        pip = (round(u * px), round(v * px))
        cv2.circle(face, pip, round(0.8 * PIP_RADIUS * px), lab_to_bgr(*colour), -1, cv2.LINE_AA)
    value, _, problem = count_pips(face, Profile())
    assert value is None and isinstance(problem, pipcount.MarksSeen)
    assert (problem.marks, problem.whole_face) == (len(places), whole)


def test_a_clear_four_on_grained_wood_is_not_read_as_a_six():
    """Wooden DEV 652001: four green pips on light, grained wood. Both built-in networks are 0.999 sure of a 6;
    the four marks lie as a 4's pips, so that die, and the roll, may be unsure but never a 6."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(652001, wooden=True)
    reading = read_dice(scene.image, None, 4)
    assert sorted(scene.values) == [2, 2, 2, 4]
    assert reading.status is not Status.OK or sorted(reading.values) == [2, 2, 2, 4]
    assert 6 not in reading.values


def test_squares_of_a_checked_cloth_are_not_read_as_blank_dice():
    """Wooden DEV 651960: a 1 and a 2 with faint green pips go unseen; two plain squares of the checked cloth, which
    the network doubted as dice and the outlines outlined, made up the count as two blanks, read ok and wrong."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(651960, wooden=True)
    reading = read_dice(scene.image, None, 4)
    assert sorted(scene.values) == [1, 2, 5, 6]
    assert reading.status is not Status.OK or sorted(reading.values) == [1, 2, 5, 6]


@pytest.mark.parametrize(("seed", "rolled"), [(653461, [1, 4, 6, 6]), (653290, [3, 3, 4, 6])])
def test_a_side_face_does_not_stand_in_for_a_die_the_network_half_saw(seed, rolled):
    """Wooden DEV 653461 and 653290: a clear 6 the network scored under its threshold, the count of four made up by
    another die's side face, read sure: ok and wrong, until the network looked at the picture turned."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(seed, wooden=True)
    reading = read_dice(scene.image, None, 4)
    assert sorted(scene.values) == rolled
    assert reading.status is not Status.OK or sorted(reading.values) == rolled


@pytest.mark.parametrize("value", [3, 5])
def test_a_light_middle_pip_fainter_than_the_others_leaves_the_count_unsure(value):
    """Stress DEV 611984: two white pips on a black die and a glint between them, counted as a 3 (the glint 0.61 as
    strong as the pips) and read sure, the classifier agreeing. A middle pip as strong as the others stands, and so
    does a faint dark one: glare hollows a black pip (``test_a_dark_pip_with_glare_on_it_still_counts``), and no
    glint is dark."""
    from fantan_table.vision.marks import Mark, Marks
    from fantan_table.vision.pips import PIP_LAYOUTS

    def counted(middle_strength: float, light: bool) -> tuple[int | None, float, str | None]:
        pips = tuple(
            Mark(u, v, middle_strength if (u, v) == (0.5, 0.5) else 60.0, False, light) for u, v in PIP_LAYOUTS[value]
        )
        found = tuple(sorted(pips, key=lambda m: -m.strength))
        return pipcount._checked_by_marks((value, 1.0, None), Marks(found, 10.0), Profile())

    faint = 60.0 * pipcount.MIDDLE_PIP_SHARE - 0.1
    assert counted(60.0 * pipcount.MIDDLE_PIP_SHARE, light=True) == (value, 1.0, None)
    assert counted(faint, light=False) == (value, 1.0, None)
    assert counted(faint, light=True) == (
        None,
        0.0,
        f"{value} pips counted, but the middle one, light, stands out less than the others: a glint?",
    )


@pytest.mark.parametrize(
    ("glint", "colour", "seen"),
    [
        (0.5, False, 5),  # as strong as half a pip: a mark of the face
        (0.49, False, 4),  # a faint glint: no pip
        (0.3, True, 5),  # light pips on a dark die (glints to the marks, all of them): nothing to weigh against
    ],
)
def test_a_faint_glint_is_not_one_of_the_marks_seen(glint, colour, seen):
    """Wooden DEV 659574: red pips on oak that stand out in colour, not lightness, so the count saw none, and a
    glint in the middle half as strong as they. The classifier saw a 5 at 0.9995 and, as the count's marks lay as
    a 5's, read it alone: the glint was taken for the fifth pip. A glint standing out less than half as much as the
    face's other marks (the midpoint between face and pip) is no pip."""
    from fantan_table.vision.marks import Mark, Marks
    from fantan_table.vision.pips import PIP_LAYOUTS

    corners = [Mark(u, v, 36.0, colour, colour) for u, v in PIP_LAYOUTS[4]]
    found = (*corners, Mark(0.5, 0.5, 36.0 * glint, True, True))
    _, _, problem = pipcount._checked_by_marks((0, 1.0, None), Marks(found, 10.0), Profile())
    assert isinstance(problem, pipcount.MarksSeen)
    assert (problem.marks, problem.whole_face) == (seen, True)


def test_wooden_dev_a_glint_between_a_fours_red_pips_is_not_read_as_a_five():
    """659574 through the reader, with the count."""
    from fantan_table.vision.stress import stress_scene

    reading = read_dice(stress_scene(659574, wooden=True).image, expect=4)
    assert reading.status is Status.UNSURE
    assert "they lie as a 4's pips, but the learned classifier sees 5" in reading.message


@pytest.mark.parametrize(
    ("value", "middle", "doubted"),
    [
        (3, 0.6, True),  # a glint between a 2's white pips, weaker than they: no middle pip
        (5, 0.6, True),
        (3, 0.8, False),  # as strong as a pip: one
        (5, 1.0, False),
        (2, 0.6, False),  # no middle pip to doubt
        (1, 0.6, False),  # a 1's glint is ``_ones_read_again``'s to doubt
        (None, 0.6, False),
    ],
)
def test_a_three_or_five_read_by_the_classifier_alone_needs_a_middle_pip_as_strong_as_the_others(
    value, middle, doubted
):
    """Stress DEV 618326: the count read nothing (a mark near the box's edge), and the classifier, alone, took two
    white pips on a black die with a weaker glint between them for a 3."""
    px = reader.FACE_PX
    body, white = np.array((40, 30, 30)), np.array((245, 245, 245))
    face = pipped_face(px, body.tolist(), white.tolist(), 4 if value == 5 else 2, 0.16)
    glint = (body + middle * (white - body)).round().astype(int).tolist()
    cv2.circle(face, (px // 2, px // 2), round(0.08 * px), glint, -1, cv2.LINE_AA)
    assert reader._glint_as_middle_pip(face, value, Profile()) is doubted


def test_stress_dev_a_glint_between_two_white_pips_read_alone_is_no_three():
    """618326 through the reader, with the count: the 2 at (617, 470) is not read as a 3. The classifier was 0.998
    sure, short of reading alone, and since ``SECOND_OPINION_ALIKE`` the second opinion is not asked either (the
    glint stands out 0.64 as much as the pips); ``_glint_as_middle_pip`` holds a surer classifier to the same."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(618326)
    reading = read_dice(scene.image, None, 4)
    assert sorted(scene.values) == [2, 3, 6, 6]
    assert reading.status is Status.UNSURE
    two = min(reading.dice, key=lambda d: math.dist(d.center, (617, 470)))
    assert math.dist(two.center, (617, 470)) < 10 and two.value is None


@pytest.mark.parametrize("larger", [2, 3, 4, 5, 6])
def test_a_one_boxed_on_one_pip_of_a_larger_face_is_unread_and_a_real_one_stands(larger):
    """Wooden DEV 662391, stress DEV 618770: the network boxed one pip of a 2, and the classifier read a 1. Moved
    off the pip towards the face's other pips, the box shows the larger face; a real 1's does not."""
    from fantan_table.vision.pips import PIP_LAYOUTS

    side, row = 80, 200
    frame = np.full((400, 600, 3), (40, 110, 30), np.uint8)  # green felt
    for value, x in ((larger, 150), (1, 300), (5, 450)):
        frame[row - side // 2 : row + side // 2, x - side // 2 : x + side // 2] = pipped_face(
            side, (225, 235, 240), (30, 30, 30), value, 0.16
        )
    u, v = PIP_LAYOUTS[larger][0]
    pip = (150 - side / 2 + u * side, row - side / 2 + v * side)
    dice = [
        reader.DieReading(1, pip, (pip, (45.0, 45.0), 0.0), 1.0, None),  # the box on one pip
        reader.DieReading(1, (300.0, row), ((300.0, row), (80.0, 80.0), 0.0), 1.0, None),
        reader.DieReading(5, (450.0, row), ((450.0, row), (80.0, 80.0), 0.0), 1.0, None),
    ]
    out = reader._ones_read_moved(frame, dice, Profile())
    assert out[0].value is None
    assert out[0].problem == (
        f"read as a 1, but in its box moved off its pip the classifier sees a {larger}: a box on one pip of a larger"
        " face?"
    )
    assert out[1:] == dice[1:]


def test_wooden_dev_a_box_on_one_pip_of_a_large_two_is_not_read_as_a_one():
    """662391 through the reader, with the count: the network's boxes of these 171-pixel dice are short (137-151),
    and its box on the 2's lower pip, 104 pixels, was read as a 1 (OpenCV 5; on 4.6 the scene, drawn a little
    differently, reads right)."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(662391, wooden=True)
    reading = read_dice(scene.image, None, 4)
    assert sorted(scene.values) == [2, 3, 3, 3]
    assert reading.status is not Status.OK or sorted(reading.values) == [2, 3, 3, 3]


def test_a_glint_between_a_twos_white_pips_is_not_read_as_a_three():
    """Stress DEV 611984 through the reader, with the count: the 2 whose glint was counted a middle pip."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(611984)
    reading = read_dice(scene.image, None, 4)
    assert sorted(scene.values) == [1, 2, 2, 5]
    assert reading.status is not Status.OK or sorted(reading.values) == [1, 2, 2, 5]


def test_one_mark_never_reads_a_one_by_agreeing_with_the_classifier():
    """A gloss spot off the middle of a blank is one pip-like mark; a DEV stress blank was read as 1 so."""
    read = (None, 0.0, pipcount.MarksSeen(1, "pips that do not form a face's pattern"))
    sure_one = _probabilities(p1=reader.CLASSIFIER_ALONE - 0.0001, p0=1 - reader.CLASSIFIER_ALONE + 0.0001)
    assert reader._with_classifier(read, sure_one, 0.05, alone=True) == read


def test_the_count_says_how_many_marks_it_saw_off_a_faces_pattern():
    """Four dark pips in a row are no face's pattern: the count says so, and how many it saw."""
    from fantan_table.vision.pips import PIP_RADIUS

    px = reader.FACE_PX
    face = np.full((px, px, 3), 230, np.uint8)
    for u in (0.2, 0.4, 0.6, 0.8):
        cv2.circle(face, (round(u * px), px // 2), round(PIP_RADIUS * px), (20, 20, 20), -1, cv2.LINE_AA)
    value, _, problem = count_pips(face, Profile())
    assert value is None and isinstance(problem, pipcount.MarksSeen) and problem.marks == 4
    assert problem == "4 pips that do not form a face's pattern"


def test_a_box_the_network_was_not_sure_of_is_not_read_by_the_classifier_alone(monkeypatch):
    """Side faces and table patches the network boxed scored under ``ALONE_FOUND_SURE`` on DEV."""

    from fantan_table.vision.finder import FoundDie

    scene = render_scene([5], 51_000, size=(640, 480), die_side=70, style="ivory", touching=False, distractors=False)
    die = scene.dice[0]
    box = ((die.center[0], die.center[1]), (die.side, die.side), die.angle)
    monkeypatch.setattr(reader, "count_pips", lambda face, profile: (None, 0.0, "pips too blurred to count"))
    for score, read in [(reader.ALONE_FOUND_SURE, 5), (reader.ALONE_FOUND_SURE - 0.01, None)]:
        found = [FoundDie(box, score)]
        monkeypatch.setattr(reader, "builtin_finder", lambda found=found: finder_of(found))
        reading = reader._reading(scene.image, (0, 0), reader._found_by_network(scene.image, 1), Profile(), 1)
        assert [d.value for d in reading.dice] == [read]


def test_dark_marks_smaller_than_the_profiles_pips_say_what_to_do():
    """A 4 whose dark pips are 0.6 of the built-in profile's radius: not read, and the problem says how to fix it."""
    from fantan_table.vision.pips import PIP_LAYOUTS, PIP_RADIUS

    px = reader.FACE_PX
    face = np.full((px, px, 3), 230, np.uint8)
    for u, v in PIP_LAYOUTS[4]:
        cv2.circle(face, (round(u * px), round(v * px)), round(0.6 * PIP_RADIUS * px), (20, 20, 20), -1, cv2.LINE_AA)
    assert count_pips(face, Profile()) == (None, 0.0, pipcount.SMALL_DARK_MARKS)
    assert "fantan-table calibrate" in pipcount.SMALL_DARK_MARKS
    assert count_pips(face, Profile(pip_area=(0.25, 2.3)))[0] == 4  # as calibration would set them


def test_a_clean_outlines_box_is_read_by_the_classifier_alone(monkeypatch):
    """An outline's box with no problem in its shape may be read by the classifier alone, as the network's found
    surely (on DEV it was right on every die in such a box it was 0.999 sure of); one with a problem may not."""
    scene = render_scene([5], 51_000, size=(640, 480), die_side=70, style="ivory", touching=False, distractors=False)
    monkeypatch.setattr(reader, "count_pips", lambda face, profile: (None, 0.0, "pips too blurred to count"))
    found = reader._found_by_shapes(scene.image, scene.image, Profile(), 1)
    assert [problem for _, problem, _ in found[0]] == [None]  # an outline's box (no score), its shape clean
    reading = reader._reading(scene.image, (0, 0), found, Profile(), 1)
    assert (reading.status, reading.values) == (Status.OK, (5,)), reading
    (box, _, _), *_ = found[0]
    ragged = ([(box, outlines.RAGGED, None)], found[1], found[2])
    assert [d.value for d in reader._reading(scene.image, (0, 0), ragged, Profile(), 1).dice] == [None]


def _dark_dice_on_a_light_table(values: tuple[int, ...], shadow: bool = False) -> np.ndarray:
    """Black dice with white pips, 70 px, on a pale grey table; with ``shadow``, a die-sized patch of the table's
    own colour at 60 % of its light beside each die, as a lamp's shadow with the room's light filling it in."""
    from fantan_table.vision.pips import PIP_LAYOUTS, PIP_RADIUS

    frame = np.full((480, 640, 3), 205, np.uint8)
    side = 70
    for i, value in enumerate(values):
        x0, y0 = 60 + 140 * i, 180
        if shadow:
            cv2.rectangle(frame, (x0 + 20, y0 + 20), (x0 + side + 20, y0 + side + 20), (123, 123, 123), -1)
        cv2.rectangle(frame, (x0, y0), (x0 + side, y0 + side), (25, 25, 25), -1)
        for u, v in PIP_LAYOUTS[value]:
            centre = (round(x0 + u * side), round(y0 + v * side))
            cv2.circle(frame, centre, round(PIP_RADIUS * side), (235, 235, 235), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(frame, (3, 3), 0)


def test_dark_dice_on_a_light_table_are_found_and_read():
    """Found by being far darker than the table (the byler photos' black dice on a white tray were not found)."""
    reading = read_dice(_dark_dice_on_a_light_table((3, 5, 1, 6)), Profile(), expect=4)
    assert reading.status is Status.OK and sorted(reading.values) == [1, 3, 5, 6]
    outlines = Profile(body_darkness=0, finder=SHAPES)  # the outlines find dark dice only by their darkness
    assert read_dice(_dark_dice_on_a_light_table((3, 5, 1, 6)), outlines, 4).status is not Status.OK


def test_a_shadow_of_the_tables_own_colour_is_no_die():
    """A shadow at 60 % of the table's light (the room fills it in) is not taken for a die, nor joined to one."""
    reading = read_dice(_dark_dice_on_a_light_table((2, 4, 6, 3), shadow=True), Profile(), expect=4)
    assert reading.status is Status.OK and sorted(reading.values) == [2, 3, 4, 6]


def _probabilities(**given: float) -> np.ndarray:
    """Classifier output over CLASSES from {"p3": 0.9, "none": 0.1}-style keywords."""
    from fantan_table.vision.classifier import CLASSES

    return np.array([given.get("none" if c is None else f"p{c}", 0.0) for c in CLASSES])


def test_a_count_the_classifier_gives_less_than_contradicted_among_its_faces_is_unsure():
    """Its first choice, but with less than a profile's higher ``contradicted`` of the faces' probability."""
    counted = (3, 0.9, None)
    shared = _probabilities(p3=0.28, p2=0.27, p5=0.25, none=0.2)  # 35 % of the faces' probability
    assert reader._with_classifier(counted, shared, 0.3) == counted
    value, _, problem = reader._with_classifier(counted, shared, 0.4)
    assert value is None and problem == "3 pips counted, the learned classifier only 35% sure of it among the faces"
    assert reader._with_classifier(counted, _probabilities(p3=0.01, p2=0.99), 0.0) == counted  # 0: off


def test_a_count_the_classifier_is_split_on_is_unsure_by_default():
    """Stress DEV 633094's purple 2, its glint counted as a middle pip: the classifier 0.55 of a 3, 0.44 of a 2.
    The default asks a clear majority; a count the classifier gives most of its faces' probability stands."""
    counted = (3, 0.63, None)
    split = _probabilities(p3=0.552, p2=0.439, none=0.009)
    value, _, problem = reader._with_classifier(counted, split, Profile().contradicted)
    assert value is None and problem == "3 pips counted, the learned classifier only 56% sure of it among the faces"
    assert reader._with_classifier(counted, split, 0.5) == counted  # a bare majority is not enough to doubt it
    clear = _probabilities(p3=0.64, p2=0.35, none=0.01)  # the lowest share of a right die on DEV
    assert reader._with_classifier(counted, clear, Profile().contradicted) == counted


def test_a_dev_roll_with_a_glint_counted_as_a_pip_is_unsure():
    """Through the whole reader with the count: stress DEV 633094 read ok and wrong (a 2 read as a 3) while the
    default ``contradicted`` was 0.05. The network's boxes already doubt the 2 (the classifier sees a 2 first there);
    the outlines' box, read next, gave the split count that stood."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(633094)
    reading = read_dice(scene.image, expect=4)
    assert reading.status is Status.UNSURE
    without = read_dice(scene.image, Profile(contradicted=0.05), expect=4)
    if without.status is Status.OK:  # nothing else doubts the roll on this OpenCV: the split classifier must
        assert sorted(without.values) != sorted(scene.values)  # what it guards against
        assert "3 pips counted, " in reading.message  # the 2 (at about (530, 515)) is the doubted die


@pytest.mark.parametrize(
    ("probabilities", "seen"),
    [
        (dict(p2=0.5, p3=0.45, p5=0.05), None),  # its first choice: the count stands
        (dict(p3=0.68, p2=0.2, none=0.12), "3"),  # test_reader_safety's black 3 boxed short of a pip, counted 2
        (dict(p3=0.45, p2=0.4, p5=0.15), "3"),  # its first choice, barely: still another face
        (dict(none=0.53, p3=0.33, p2=0.14), "not a face"),  # the same 3 drawn with larger pips
        (dict(p0=0.6, p2=0.4), "0"),
    ],
)
def test_a_count_stands_only_where_it_is_the_classifiers_first_choice(probabilities, seen):
    """Where the classifier sees another face, or no face, the two readers disagree: however much the classifier
    leaves to the count, the die is unsure."""
    counted = (2, 0.56, None)
    read = reader._with_classifier(counted, _probabilities(**probabilities), 0.05)
    assert read == (counted if seen is None else (None, 0.0, f"2 pips counted, but the learned classifier sees {seen}"))
    assert reader._with_classifier(counted, _probabilities(**probabilities), 0.0) == counted  # 0: the checks off


@pytest.mark.parametrize("probabilities", [dict(p3=0.04, p2=0.01, none=0.95), dict(none=1.0)])
def test_a_count_where_the_classifier_sees_no_face_is_unsure(probabilities):
    """No face first is a disagreement too (a count was once weighed among the faces alone, and stood here: a side
    face boxed on wooden DEV 652837 read as a 2); so is it where no pips were counted."""
    counted = (3, 0.9, None)
    unsure = (None, 0.0, "3 pips counted, but the learned classifier sees not a face")
    assert reader._with_classifier(counted, _probabilities(**probabilities), 0.05) == unsure
    assert reader._with_classifier(counted, _probabilities(**probabilities), 0.0) == counted  # the checks off
    blank = (0, 1.0, None)
    value, _, problem = reader._with_classifier(blank, _probabilities(p0=0.04, none=0.96), 0.05)
    assert value is None and problem == "no pips counted, but the learned classifier sees not a face"


def test_a_blank_stands_only_where_the_classifier_too_sees_a_blank_first():
    """byler IMG_20191208_112556: faint red pips on a small dark blue die, none counted; the network gave the 5
    0.62 and a blank 0.065, above the veto's 0.05, and the die was read ok as 0: nothing counted is no proof."""
    blank = (0, 1.0, None)
    value, _, problem = reader._with_classifier(blank, _probabilities(p0=0.065, p4=0.163, p5=0.62, none=0.152), 0.05)
    assert value is None and problem == "no pips counted, but the learned classifier sees 5"
    sure = _probabilities(p0=reader.BLANK_SURE, p5=(1 - reader.BLANK_SURE) / 2, none=(1 - reader.BLANK_SURE) / 2)
    assert reader._with_classifier(blank, sure, 0.05) == blank
    only_blank = _probabilities(p0=reader.BLANK_SURE, none=1 - reader.BLANK_SURE)
    assert reader._with_classifier(blank, only_blank, 0.05) == blank
    # first choice, but not sure enough (BLANK_SURE)
    value, _, problem = reader._with_classifier(blank, _probabilities(p0=0.9, p6=0.1), 0.05)
    assert value is None and "faint pips" in problem
    value, _, problem = reader._with_classifier(blank, _probabilities(p0=0.4, p6=0.6), 0.05)
    assert value is None and "sees 6" in problem


def _die(value: int | None, x: float, problem: str | None = None, side: float = 20.0) -> reader.DieReading:
    return reader.DieReading(
        value, (x, 10.0), ((x, 10.0), (side, side), 0.0), 1.0 if value is not None else 0.0, problem
    )


def _two_finders(monkeypatch, readings: dict[str, reader.Reading]) -> None:
    """The network's reading and the outlines' are ``readings["network"]`` and ``readings["outlines"]``."""
    monkeypatch.setattr(reader, "_found_by_network", lambda frame, expect: "network")
    monkeypatch.setattr(reader, "_found_by_shapes", lambda image, frame, profile, expect: "outlines")
    monkeypatch.setattr(reader, "_reading", lambda frame, origin, found, profile, expect: readings[found])


def test_dice_the_network_found_do_not_vanish_from_a_roll_of_no_given_count(monkeypatch):
    """byler DEV photo IMG_20191209_100039: the network found six dice and could not read two; the outlines found
    and read the other four. With no count given, four read ok would have paid a roll of six."""

    learned = reader.Reading(
        Status.UNSURE, (_die(5, 10.0), _die(None, 40.0), _die(3, 70.0)), "die at (40, 10): unreadable"
    )
    outlined = reader.Reading(Status.OK, (_die(5, 10.0), _die(3, 70.0)))
    _two_finders(monkeypatch, {"network": learned, "outlines": outlined})
    frame = np.zeros((100, 100, 3), np.uint8)
    unsure = read_dice(frame, Profile(), None)
    assert unsure.status is Status.UNSURE and "the network finds 3" in unsure.message
    assert read_dice(frame, Profile(), 2) == outlined  # a count given: it checks the outlines' reading itself


@pytest.mark.parametrize("profile", [Profile(side_faces=True), Profile(finder=SHAPES)])
def test_a_roll_the_outlines_alone_read_is_unsure_where_the_network_finds_more_dice(monkeypatch, profile):
    """dice-photos train, side faces on, no count: 8 of the 9 rolls read ok and wrong held too few dice, and the
    network found more dice than the outlines in 8 of the 9. Profiles that read by the outlines alone still count
    with it."""
    outlined = reader.Reading(Status.OK, (_die(5, 10.0), _die(3, 70.0)))
    boxes: list = []
    monkeypatch.setattr(reader, "_found_by_network", lambda frame, expect: (boxes, 1.0, 1.0))
    monkeypatch.setattr(reader, "_found_by_shapes", lambda image, frame, profile, expect: "outlines")
    monkeypatch.setattr(reader, "_reading", lambda frame, origin, found, profile, expect: outlined)
    frame = np.zeros((100, 100, 3), np.uint8)
    boxes[:] = ["a box"] * 3
    unsure = read_dice(frame, profile, None)
    assert unsure.status is Status.UNSURE and unsure.dice == outlined.dice
    assert unsure.message == "their outlines read 2 dice, the network finds 3: say how many"
    assert read_dice(frame, profile, 2) == outlined  # a count given checks the reading itself
    boxes[:] = ["a box"] * 2
    assert read_dice(frame, profile, None) == outlined
    boxes[:] = ["a box"]  # the network missing a die the outlines read is no doubt about the outlines
    assert read_dice(frame, profile, None) == outlined


UNREADABLE = "pips too blurred to count"


@pytest.mark.parametrize(
    ("learned", "outlined", "expect", "merged"),
    [
        # the die the network could not read is one the outlines read: the roll stands, each die on one finder
        ([_die(5, 10), _die(None, 40, UNREADABLE), _die(3, 70)], [_die(4, 41), _die(2, 70, UNREADABLE)], 3, [5, 4, 3]),
        ([_die(5, 10), _die(None, 40, UNREADABLE)], [_die(5, 10), _die(4, 41), _die(1, 70, UNREADABLE)], None, None),
        ([_die(5, 10), _die(None, 40, UNREADABLE)], [_die(5, 10), _die(4, 41)], None, [5, 4]),
        # a plain face the network doubted: the outlines' pips there are taken, their blank is not (they outline
        # a plain square of table as readily: wooden 651960); a blank is taken where the network saw no plain face
        ([_die(5, 10), _die(None, 40, reader.PLAIN_DOUBT)], [_die(3, 38)], 2, [5, 3]),
        ([_die(5, 10), _die(None, 40, reader.PLAIN_DOUBT)], [_die(0, 38)], 2, None),
        ([_die(5, 10), _die(None, 40, UNREADABLE)], [_die(0, 38)], 2, [5, 0]),
        # the outlines read that die with a doubt, not at all, or as two: nothing to merge
        ([_die(5, 10), _die(None, 40, UNREADABLE)], [_die(4, 41, "not square")], 2, None),
        ([_die(5, 10), _die(None, 40, UNREADABLE)], [_die(5, 10)], 2, None),
        ([_die(5, 10), _die(None, 40, UNREADABLE)], [_die(4, 36), _die(4, 44)], 2, None),
        ([_die(5, 10), _die(None, 40, UNREADABLE)], [_die(4, 51)], 2, None),  # more than half a side away
        # the network found another number of dice than were rolled
        ([_die(5, 10), _die(None, 40, UNREADABLE)], [_die(4, 41)], 3, None),
        # two dice the network could not read may not both be one die of the outlines
        ([_die(None, 30, UNREADABLE), _die(None, 36, UNREADABLE)], [_die(4, 33)], 2, None),
    ],
)
def test_a_die_the_network_could_not_read_is_taken_from_the_outlines_only_when_they_read_it(
    monkeypatch, learned, outlined, expect, merged
):
    """Neither reading holds the roll, but the network found every die and could not read some that the outlines
    read without a doubt: on DEV it read 5 more scenes of 830 whole (stress 2, render.py 1, byler 2), none wrong."""
    learned_reading = reader.Reading(Status.UNSURE, tuple(learned), "die at (40, 10): unreadable")
    outlined_reading = reader.Reading(Status.UNSURE, tuple(outlined), "a die: unreadable")
    monkeypatch.setattr(reader, "_found_by_network", lambda frame, expect: "network")
    monkeypatch.setattr(reader, "_found_by_shapes", lambda image, frame, profile, expect: "outlines")
    monkeypatch.setattr(
        reader,
        "_reading",
        lambda frame, origin, found, profile, expect: learned_reading if found == "network" else outlined_reading,
    )
    reading = read_dice(np.zeros((100, 100, 3), np.uint8), Profile(), expect)
    if merged is None:
        assert reading.status is Status.UNSURE
    else:
        assert reading.status is Status.OK and list(reading.values) == merged and reading.message == ""
        assert all(d.problem is None for d in reading.dice)


@pytest.mark.parametrize(
    ("expect", "scores"),
    [
        (4, [0.9, 0.8, 0.6, 0.4]),  # one die short of the count: the strongest weaker peak makes it up
        (None, [0.9, 0.8, 0.6]),  # no count: the threshold alone
        (3, [0.9, 0.8, 0.6]),
        (2, [0.9, 0.8, 0.6]),  # more than the count: the reading will say so
        (5, [0.9, 0.8, 0.6]),  # too few peaks even so: the dice found surely, and the count will say unsure
    ],
)
def test_weaker_peaks_make_up_a_count_the_network_fell_short_of(monkeypatch, expect, scores):
    from fantan_table.vision.finder import FoundDie

    def peak(x: float, score: float) -> FoundDie:
        return FoundDie(((x, 100.0), (40.0, 40.0), 0.0), score)

    peaks = [peak(50, 0.8), peak(150, 0.4), peak(250, 0.9), peak(350, reader.FILL_FOUND - 0.01), peak(450, 0.6)]
    monkeypatch.setattr(reader, "builtin_finder", lambda: finder_of(peaks))
    boxes, _, _ = reader._found_by_network(np.zeros((200, 500, 3), np.uint8), expect)
    assert sorted((score for _, _, score in boxes), reverse=True) == scores


@pytest.mark.parametrize(
    ("problems", "scores", "expect", "values"),
    [
        # one box more than the count, with no pips and no face to the classifier: no die
        ([None, None, reader.NO_FACE, None, None], [0.9] * 5, 4, [1, 2, 4, 5]),
        # no count to go by, or boxes of the outlines: a doubt, as any
        ([None, None, reader.NO_FACE, None, None], [0.9] * 5, None, None),
        ([None, None, reader.NO_FACE, None, None], [None] * 5, 4, None),
        # still more dice than the count, or another doubt about the extra box
        ([None, None, reader.NO_FACE, None, None, None], [0.9] * 6, 4, None),
        ([None, None, "no pips counted, but the learned classifier sees 2", None, None], [0.9] * 5, 4, None),
        # as many boxes as the count: one is unreadable, never left out
        ([None, reader.NO_FACE, None, None], [0.9] * 4, 4, None),
    ],
)
def test_a_box_beyond_the_count_that_shows_no_face_is_no_die(monkeypatch, problems, scores, expect, values):
    """On DEV stress scenes with more boxes than dice, 29 of 69 boxes on no die read so and none of 197 on a die."""
    reading = _read_in_a_row(monkeypatch, [60.0 * v for v in range(1, len(problems) + 1)], problems, scores, expect)
    if values is None:
        assert reading.status is Status.UNSURE
    else:
        assert reading.status is Status.OK and list(reading.values) == values


@pytest.mark.parametrize(
    ("apart", "status"),
    [
        (reader.DROPPED_APART - 0.05, Status.UNSURE),  # as near as a die and its own side face: no box is left out
        (reader.DROPPED_APART + 0.05, Status.OK),  # touching dice seen at a slant: the box left out, as ever
    ],
)
def test_a_box_is_left_out_only_where_the_dice_kept_lie_apart(monkeypatch, apart, status):
    """Wooden DEV 653533: a blank die read as no face was left out, and a side face 0.82 sides from its die's top face
    read as a 6 took its place in a roll read ok."""
    xs = [50.0, 150.0, 250.0, 350.0, 350.0 + apart * ROW_SIDE]
    reading = _read_in_a_row(monkeypatch, xs, [None, None, reader.NO_FACE, None, None], [0.9] * 5, 4)
    assert reading.status is status
    assert len(reading.dice) == (4 if status is Status.OK else 5)


ROW_SIDE = 40.0


def _read_in_a_row(
    monkeypatch, xs: list[float], problems: list[str | None], scores: list[float | None], expect: int | None
):
    """``_reading`` of boxes ``ROW_SIDE`` across at ``xs`` along one row, each read as its place in the row (1, 2 ...)
    or, where its ``problems`` names one, unread for it; ``scores`` are the network's (None: the outlines' boxes)."""
    readings = iter(
        reader.DieReading(None if p else v, (x, 50.0), ((x, 50.0), (ROW_SIDE, ROW_SIDE), 0.0), 0.0 if p else 1.0, p)
        for v, (x, p) in enumerate(zip(xs, problems, strict=True), 1)
    )
    monkeypatch.setattr(reader, "faces_probabilities", lambda frame, boxes, profile: [None] * len(boxes))
    monkeypatch.setattr(reader, "_read_die", lambda *args: next(readings))
    monkeypatch.setattr(reader, "_ones_read_moved", lambda frame, dice, profile: dice)  # no classifier to ask here
    boxes = [(((x, 50.0), (ROW_SIDE, ROW_SIDE), 0.0), None, s) for x, s in zip(xs, scores, strict=True)]
    frame = np.zeros((100, round(max(xs) + ROW_SIDE), 3), np.uint8)
    return reader._reading(frame, (0, 0), (boxes, 1.0, ROW_SIDE), Profile(), expect)


def _missed_setup(monkeypatch, weak_score: float, weak_at: tuple[float, float], seen: int | None, sure: float):
    """A roll of two dice read ok at x = 50 and 250, the network's strong peaks on them and one weaker peak at
    ``weak_at``, where the classifier sees ``seen`` this ``sure``."""
    from fantan_table.vision.classifier import CLASSES
    from fantan_table.vision.finder import FoundDie

    def peak(centre: tuple[float, float], score: float) -> FoundDie:
        return FoundDie((centre, (40.0, 40.0), 0.0), score)

    monkeypatch.setattr(
        reader,
        "builtin_finder",
        lambda: finder_of([peak((50, 100), 0.9), peak((250, 100), 0.8), peak(weak_at, weak_score)]),
    )
    asked = []

    def probabilities(frame, boxes, profile):
        asked.extend(boxes)
        p = np.full(len(CLASSES), (1 - sure) / (len(CLASSES) - 1))
        p[CLASSES.index(seen)] = sure
        return np.array([p] * len(boxes))

    monkeypatch.setattr(reader, "faces_probabilities", probabilities)
    dice = tuple(
        reader.DieReading(v, (x, 100.0), ((x, 100.0), (40.0, 40.0), 0.0), 1.0) for v, x in ((3, 50.0), (5, 250.0))
    )
    return reader.Reading(Status.OK, dice), asked


def test_no_count_a_weak_peak_the_classifier_sees_a_face_in_makes_the_roll_unsure(monkeypatch):
    """The wooden-dice study's wrong roll: a 4 the network found at 0.48 and its outlines missed, no count to
    tell; the classifier was sure of the 4."""
    ok, asked = _missed_setup(monkeypatch, 0.45, (150.0, 100.0), 4, reader.MISSED_FACE_SURE)
    reading = reader._unless_missed(np.zeros((200, 400, 3), np.uint8), (0, 0), ok, Profile())
    assert reading.status is Status.UNSURE and reading.dice == ok.dice
    assert "sees a 4 at (150, 100)" in reading.message and "say how many" in reading.message
    assert [box[0] for box in asked] == [(150.0, 100.0)]


def test_the_missed_die_is_named_where_it_lies_in_the_whole_frame(monkeypatch):
    """Inside a region of interest the reading's dice lie in frame pixels, the network's peaks in the region's."""
    ok, _ = _missed_setup(monkeypatch, 0.45, (150.0, 100.0), 4, 0.99)
    shifted = tuple(
        reader.DieReading(d.value, (d.center[0] + 30, d.center[1] + 20), outlines.shift(d.box, (30, 20)), 1.0)
        for d in ok.dice
    )
    reading = reader._unless_missed(
        np.zeros((200, 400, 3), np.uint8), (30, 20), reader.Reading(Status.OK, shifted), Profile()
    )
    assert reading.status is Status.UNSURE and "at (180, 120)" in reading.message


@pytest.mark.parametrize(("seen", "face"), [(2, "2"), (0, "blank")])
def test_no_count_a_die_the_network_finds_only_in_the_picture_turned_leaves_the_roll_unsure(monkeypatch, seen, face):
    """Wooden DEV 650546: a walnut 2 the network scored 0.40 and its outlines missed, read with no count as three
    dice, all ok. In the picture turned a quarter the network found it (0.51), and the classifier saw a 2 there;
    652368's missed blank, a blank."""
    from fantan_table.vision.finder import FoundDie

    ok, asked = _missed_setup(monkeypatch, 0.2, (150.0, 100.0), seen, reader.MISSED_FACE_SURE)  # too weak to ask
    dice = [FoundDie(((50.0, 100.0), (40.0, 40.0), 0.0), 0.9), FoundDie(((250.0, 100.0), (40.0, 40.0), 0.0), 0.8)]
    frame = np.zeros((200, 400, 3), np.uint8)
    missed = FoundDie(((150.0, 100.0), (40.0, 40.0), 0.0), reader.TURNED_FOUND * 0.5)
    monkeypatch.setattr(reader, "builtin_finder", lambda: finder_of(dice, turned=[*dice, missed]))
    reading = reader._unless_missed(frame, (0, 0), ok, Profile())
    assert reading.status is Status.UNSURE and reading.dice == ok.dice
    assert f"sees a {face} at (150, 100) in the picture turned" in reading.message and "say how many" in reading.message
    assert [box[0] for box in asked] == [(150.0, 100.0)]


def test_no_count_what_the_network_finds_in_the_picture_turned_must_be_a_face_found_surely(monkeypatch):
    """A coin, a finger or a ruler's marks the turned look boxed: the classifier sees no face there (DEV wooden
    650138, 650279, stress 600300). Nor is a peak under the network's threshold, one on a die read, or one cut by
    the picture's edge a die missed."""
    from fantan_table.vision.finder import FoundDie

    dice = [FoundDie(((50.0, 100.0), (40.0, 40.0), 0.0), 0.9), FoundDie(((250.0, 100.0), (40.0, 40.0), 0.0), 0.8)]
    frame = np.zeros((200, 400, 3), np.uint8)
    ok, asked = _missed_setup(monkeypatch, 0.2, (150.0, 100.0), None, 1.0)
    missed = FoundDie(((150.0, 100.0), (40.0, 40.0), 0.0), 0.9)
    monkeypatch.setattr(reader, "builtin_finder", lambda: finder_of(dice, turned=[*dice, missed]))
    assert reader._unless_missed(frame, (0, 0), ok, Profile()) is ok and len(asked) == 1
    ok, asked = _missed_setup(monkeypatch, 0.2, (150.0, 100.0), 4, 1.0)
    for other in (
        FoundDie(missed.box, reader.TURNED_FOUND * 0.5 - 0.01),
        FoundDie(((80.0, 100.0), (40.0, 40.0), 0.0), 0.9),
        FoundDie(((395.0, 100.0), (40.0, 40.0), 0.0), 0.9),
    ):
        monkeypatch.setattr(reader, "builtin_finder", lambda other=other: finder_of(dice, turned=[*dice, other]))
        assert reader._unless_missed(frame, (0, 0), ok, Profile()) is ok
    assert not asked


def _stood_in_setup(monkeypatch, half_seen_at: tuple[float, float], seen: int | None, sure: float):
    """A roll of two dice read ok with a count at x = 50 and 250, the network half seeing a die (a peak of
    ``FILL_FOUND``) at ``half_seen_at``, and in the picture turned finding one at (150, 100), where the classifier
    sees ``seen`` this ``sure``."""
    from fantan_table.vision.finder import FoundDie

    ok, asked = _missed_setup(monkeypatch, reader.FILL_FOUND, half_seen_at, seen, sure)
    dice = [FoundDie(((50.0, 100.0), (40.0, 40.0), 0.0), 0.9), FoundDie(((250.0, 100.0), (40.0, 40.0), 0.0), 0.8)]
    half_seen = FoundDie((half_seen_at, (40.0, 40.0), 0.0), reader.FILL_FOUND)
    missed = FoundDie(((150.0, 100.0), (40.0, 40.0), 0.0), reader.TURNED_FOUND * 0.5)
    monkeypatch.setattr(reader, "builtin_finder", lambda: finder_of([*dice, half_seen], turned=[*dice, missed]))
    return ok, asked


def test_with_a_count_a_face_the_network_finds_only_in_the_picture_turned_leaves_the_roll_unsure(monkeypatch):
    """Wooden DEV 653461: a clear 6 the network scored 0.26-0.42 in parts, the count of four made up by another
    die's side face read as a 3, sure. Turned a quarter, the network found the 6 (0.65)."""
    ok, asked = _stood_in_setup(monkeypatch, (140.0, 110.0), 6, reader.MISSED_FACE_SURE)
    reading = reader._unless_stood_in(np.zeros((200, 400, 3), np.uint8), (0, 0), ok, Profile())
    assert reading.status is Status.UNSURE and reading.dice == ok.dice
    assert reading.message == (
        "the network sees a 6 at (150, 100) in the picture turned, no die read: a die missed, and a side face read in"
        " its place? roll again"
    )
    assert [box[0] for box in asked] == [(150.0, 100.0)]


@pytest.mark.parametrize(
    ("half_seen_at", "seen", "sure", "asked"),
    [
        ((140.0, 110.0), 0, 1.0, True),  # a blank: a finger, a coin or a patch of table looks the same
        ((140.0, 110.0), 6, reader.MISSED_FACE_SURE - 0.05, True),  # a face, but not surely
        ((85.0, 100.0), 6, 1.0, False),  # the half-seen peak less than a side from a die read: part of it
        ((390.0, 100.0), 6, 1.0, False),  # the half-seen peak cut by the picture's edge
    ],
)
def test_with_a_count_the_picture_turned_is_looked_at_only_where_a_die_was_half_seen(
    monkeypatch, half_seen_at, seen, sure, asked
):
    """With a count, a missed die shows only where something else took its place; the network looks again where it
    left a peak no die read explains, wholly in the picture, and blanks it sees there do not count."""
    ok, boxes = _stood_in_setup(monkeypatch, half_seen_at, seen, sure)
    assert reader._unless_stood_in(np.zeros((200, 400, 3), np.uint8), (0, 0), ok, Profile()) is ok
    assert bool(boxes) == asked


def _two_dice_found(monkeypatch, score: float, turned_score: float | None):
    """A roll of two dice read ok at x = 50 and 250, the network finding the second at ``score``; in the picture
    turned, at ``turned_score`` (None: not at all). Returns the roll and the turned looks taken."""
    from fantan_table.vision.finder import FoundDie

    def peak(x: float, at: float) -> FoundDie:
        return FoundDie(((x, 100.0), (40.0, 40.0), 0.0), at)

    plain = [peak(50.0, 0.9), peak(250.0, score)]
    turned = [peak(50.0, 0.9)] + ([] if turned_score is None else [peak(252.0, turned_score)])
    stand_in = finder_of(plain, turned=turned)
    looks = []
    find_turned = stand_in.find_turned
    stand_in.find_turned = lambda frame, least=None: looks.append(least) or find_turned(frame, least)
    monkeypatch.setattr(reader, "builtin_finder", lambda: stand_in)
    dice = tuple(
        reader.DieReading(v, (x, 100.0), ((x, 100.0), (40.0, 40.0), 0.0), 1.0) for v, x in ((3, 50.0), (1, 250.0))
    )
    return reader.Reading(Status.OK, dice), looks


@pytest.mark.parametrize(("turned_score", "seen"), [(0.19, "at 0.19"), (None, "under 0.14")])
def test_with_a_count_a_die_found_weakly_and_lost_when_turned_leaves_the_roll_unsure(monkeypatch, turned_score, seen):
    """Wooden DEV 658754: the network boxed a side face (0.54) where it missed the die's top face; turned a quarter,
    it found it at 0.19. The side face read as a 1, and the roll of four as ok."""
    ok, looks = _two_dice_found(monkeypatch, 0.54, turned_score)
    reading = reader._unless_lost_when_turned(np.zeros((200, 400, 3), np.uint8), (0, 0), ok)
    assert reading.status is Status.UNSURE and reading.dice == ok.dice
    assert reading.message == (
        f"the network finds the die at (250, 100) weakly (0.54), and in the picture turned a quarter {seen}: a side"
        " face? roll again"
    )
    assert len(looks) == 1


@pytest.mark.parametrize(
    ("score", "turned_score", "looked"),
    [
        (reader.WEAKLY_FOUND, 0.0, False),  # found surely enough: no second look
        (0.54, reader.TURNED_SHARE * 0.54, True),  # found again as surely as it takes
        (0.4, 0.7, True),  # more surely when turned
    ],
)
def test_with_a_count_dice_found_again_when_turned_stand(monkeypatch, score, turned_score, looked):
    ok, looks = _two_dice_found(monkeypatch, score, turned_score)
    assert reader._unless_lost_when_turned(np.zeros((200, 400, 3), np.uint8), (0, 0), ok) is ok
    assert bool(looks) == looked


def test_the_turned_look_matches_dice_read_in_a_region_of_interest(monkeypatch):
    """The network looks at the region; the dice read lie in the picture's pixels."""
    ok, _ = _two_dice_found(monkeypatch, 0.54, None)
    shifted = reader.Reading(
        Status.OK,
        tuple(reader.DieReading(d.value, (d.center[0] + 30, d.center[1] + 20), d.box, 1.0) for d in ok.dice),
    )
    assert reader._unless_lost_when_turned(np.zeros((200, 400, 3), np.uint8), (30, 20), shifted).status is Status.UNSURE


def test_wooden_dev_rolls_with_a_side_face_found_weakly_are_unsure():
    """Through the whole reader with the count (fresh DEV seeds): the box found weakly lies nearer its neighbour than
    touching dice do (658563, ``WEAK_APART``), or vanishes in the picture turned a quarter (658754)."""
    from fantan_table.vision.stress import stress_scene

    for seed, why in ((658563, "sides from another die: its side face?"), (658754, "in the picture turned a quarter")):
        reading = read_dice(stress_scene(seed, wooden=True).image, expect=4)
        assert reading.status is Status.UNSURE, seed
        assert why in reading.message and "side face?" in reading.message, seed


def test_a_die_found_weakly_nearer_another_than_touching_dice_lie_is_unread():
    sure, near, touching = _die(1, 100.0, side=40.0), _die(5, 135.0, side=40.0), _die(2, 240.0, side=40.0)
    threshold = reader.builtin_finder().threshold
    weak = threshold - 0.1
    dice = reader._weak_boxes([sure, near, touching], [0.9, weak, 0.9])
    assert dice[0] == sure and dice[2] == touching
    assert dice[1].value is None and dice[1].problem == "found weakly, 0.88 sides from another die: its side face?"
    assert reader._weak_boxes([sure, near], [0.9, threshold]) == [sure, near]  # found surely: a die
    assert reader._weak_boxes([sure, _die(5, 140.0, side=40.0)], [0.9, weak])[1].value == 5  # a side apart
    assert reader._weak_boxes([sure, near], [None, None]) == [sure, near]  # the outlines' boxes


def test_dev_photo_a_side_face_found_weakly_below_its_top_face_leaves_the_roll_unsure(monkeypatch):
    """dice-photos train dice_46 (tests/data), mirrored and shrunk to 0.6: five 1s at a slant. The network found the
    top die's front face (a 5) weakly, just below its top face, and missed another die: the count was met."""
    from fantan_table.vision.perturb import PERTURBATIONS

    photo = cv2.imread(str(Path(__file__).resolve().parent.parent / "data" / "dice-photos" / "train_dice_46.jpg"))
    picture = PERTURBATIONS["smaller"](PERTURBATIONS["mirrored"](photo))
    reading = read_dice(picture, expect=5)
    assert reading.status is Status.UNSURE
    with monkeypatch.context() as unguarded:
        unguarded.setattr(reader, "WEAK_APART", 0.0)
        without = read_dice(picture, expect=5)
    if without.status is Status.OK:  # nothing else doubts the roll on this OpenCV: the rule must
        assert sorted(without.values) != [1] * 5  # what it guards against
        assert "found weakly, 0.82 sides from another die: its side face?" in reading.message


# -- second faces beside the dice: which way their side faces lie -----------------------------------------------
def _with_second_faces(monkeypatch, faces):
    """A roll of dice read at (100, 100), (300, 100) and (500, 100), side 40, each found at 0.8, and the network's
    peaks beside them: ``faces`` maps a die's index to its second face's offset (in sides) and score."""
    from fantan_table.vision.finder import FoundDie

    xs = (100.0, 300.0, 500.0)
    peaks = [FoundDie(((x, 100.0), (40.0, 40.0), 0.0), 0.8) for x in xs]
    for i, ((dx, dy), score) in faces.items():
        peaks.append(FoundDie(((xs[i] + 40 * dx, 100.0 + 40 * dy), (40.0, 40.0), 0.0), score))
    monkeypatch.setattr(reader, "builtin_finder", lambda: finder_of(peaks))
    values = (5, 1, 1)
    dice = tuple(
        reader.DieReading(v, (x, 100.0), ((x, 100.0), (40.0, 40.0), 0.0), 1.0) for v, x in zip(values, xs, strict=True)
    )
    return reader.Reading(Status.OK, dice)


FRAME = np.zeros((400, 600, 3), np.uint8)


def test_second_faces_on_sides_no_camera_shows_leave_the_roll_unsure(monkeypatch):
    """dice-photos train dice_46 in warmer light (DEV): a webcam at a slant; the network boxed a die's front face (a
    5) over its top face (a 1) above it, while the other dice's second faces, their front faces, lie below them."""
    ok = _with_second_faces(monkeypatch, {0: ((0.0, -0.7), 0.6), 1: ((0.1, 0.75), 0.3)})
    reading = reader._unless_faces_beside_disagree(FRAME, (0, 0), ok)
    assert reading.status is Status.UNSURE and reading.dice == ok.dice
    assert reading.message == (
        "the network sees second faces beside the dice at (100, 100), (300, 100) on sides no one camera shows: a side"
        " face boxed as a die? roll again"
    )


@pytest.mark.parametrize(
    "faces",
    [
        {0: ((0.0, 0.7), 0.6), 1: ((0.1, 0.75), 0.3), 2: ((-0.1, 0.7), 0.5)},  # all towards a camera below the frame
        {0: ((0.7, 0.0), 0.6), 2: ((-0.7, 0.0), 0.6)},  # towards a camera over (300, 100): each way, one place
        {0: ((0.0, -0.7), 0.6), 1: ((0.1, 0.75), reader.FACE_BESIDE * 0.8 - 0.01)},  # too weak to be a face
        {0: ((0.0, -0.7), 0.6), 1: ((0.1, 0.45), 0.6)},  # within the die itself: its own box, not a second face
        {0: ((0.0, -0.7), 0.6)},  # one die's second face: nothing to weigh it against
    ],
    ids=["one way", "towards one place", "weak", "inside", "one"],
)
def test_second_faces_one_camera_could_show_leave_the_roll_as_it_was(monkeypatch, faces):
    ok = _with_second_faces(monkeypatch, faces)
    assert reader._unless_faces_beside_disagree(FRAME, (0, 0), ok) is ok


def test_second_faces_are_weighed_in_a_region_of_interest(monkeypatch):
    """The network looks at the region; the dice read lie in the picture's pixels."""
    ok = _with_second_faces(monkeypatch, {0: ((0.0, -0.7), 0.6), 1: ((0.1, 0.75), 0.3)})
    shifted = reader.Reading(
        Status.OK,
        tuple(
            reader.DieReading(d.value, (d.center[0] + 30, d.center[1] + 20), outlines.shift(d.box, (30, 20)), 1.0)
            for d in ok.dice
        ),
    )
    assert reader._unless_faces_beside_disagree(FRAME, (30, 20), shifted).status is Status.UNSURE


def test_dev_rolls_with_a_side_face_boxed_over_a_top_face_are_unsure(monkeypatch):
    """Through the whole reader with the count: stress DEV 621952 and wooden DEV 658337 read ok and wrong so. On
    OpenCV 4.6 the pip count already doubts 658337 for another reason; 621952 is the second faces' on both ends."""
    from fantan_table.vision.stress import stress_scene

    caught = 0
    for seed, wooden in ((621952, False), (658337, True)):
        scene = stress_scene(seed, wooden=wooden)
        reading = read_dice(scene.image, expect=4)
        assert reading.status is Status.UNSURE, seed
        with monkeypatch.context() as unguarded:
            unguarded.setattr(reader, "_unless_faces_beside_disagree", lambda frame, origin, roll: roll)
            without = read_dice(scene.image, expect=4)
        if without.status is Status.OK:  # nothing else doubts the roll on this OpenCV: the second faces must
            assert sorted(without.values) != sorted(scene.values), seed  # what they guard against
            assert "second faces beside the dice" in reading.message, seed
            caught += 1
    assert caught >= 1


@pytest.mark.parametrize(
    ("expect", "asked"), [(None, ["_unless_missed"]), (2, ["_unless_stood_in", "_unless_lost_when_turned"])]
)
def test_a_roll_read_ok_by_the_network_is_checked_for_a_missed_die_with_a_count_and_without(monkeypatch, expect, asked):
    ok, _ = _missed_setup(monkeypatch, 0.2, (150.0, 100.0), None, 1.0)
    monkeypatch.setattr(reader, "_read_roll", lambda *args: ok)
    called = []
    for name in ("_unless_missed", "_unless_stood_in", "_unless_lost_when_turned"):
        monkeypatch.setattr(reader, name, lambda *args, name=name: called.append(name) or ok)
    reader._read_dice(np.zeros((200, 400, 3), np.uint8), Profile(), expect)
    assert called == asked


@pytest.mark.parametrize(
    ("score", "at", "seen", "sure", "asked"),
    [
        (0.45, (150.0, 100.0), 0, 1.0, True),  # a plain face: a coin or a patch of table looks the same
        (0.45, (150.0, 100.0), None, 1.0, True),  # not a face
        (0.45, (150.0, 100.0), 4, reader.MISSED_FACE_SURE - 0.05, True),  # a face, but not surely
        (reader.FILL_FOUND - 0.01, (150.0, 100.0), 4, 1.0, False),  # too weak a peak to be a die at all
        (0.45, (85.0, 100.0), 4, 1.0, False),  # less than a side from a die read: part of it (a side face)
        (reader.FILL_FOUND - 0.01, (390.0, 100.0), 4, 1.0, False),  # cut by the frame's edge, but no die found
        (0.9, (15.0, 100.0), 4, 1.0, False),  # cut by the edge, but less than a side from a die read: part of it
    ],
)
def test_no_count_other_weak_peaks_leave_the_roll_as_read(monkeypatch, score, at, seen, sure, asked):
    ok, boxes = _missed_setup(monkeypatch, score, at, seen, sure)
    assert reader._unless_missed(np.zeros((200, 400, 3), np.uint8), (0, 0), ok, Profile()) is ok
    assert bool(boxes) == asked


@pytest.mark.parametrize(
    ("score", "at", "edge"),
    [
        (reader.FILL_FOUND, (390.0, 100.0), "right"),  # found weakly: the classifier is not asked of a cut face
        (0.9, (390.0, 100.0), "right"),
        (0.9, (150.0, 5.0), "top"),
        (0.9, (150.0, 205.0), "bottom"),  # its centre below the picture, a strip of its face in it
        (0.9, (-5.0, 100.0), "left"),
    ],
)
def test_no_count_a_die_cut_by_the_pictures_edge_makes_the_roll_unsure(monkeypatch, score, at, edge):
    """A die that rolled half out of the camera's view is on the table: with no count, a roll read without it pays
    the wrong number (dice-photos train's dice_37 was labelled with a die the frame's edge cuts)."""
    ok, asked = _missed_setup(monkeypatch, score, at, 4, 1.0)
    reading = reader._unless_missed(np.zeros((200, 400, 3), np.uint8), (0, 0), ok, Profile())
    assert reading.status is Status.UNSURE and reading.dice == ok.dice
    assert reading.message == f"a die cut by the {edge} edge of the picture: roll the dice into view, or say how many"
    assert not asked


@pytest.mark.parametrize(("at", "status"), [((365.0, 100.0), Status.UNSURE), ((15.0, 100.0), Status.OK)])
def test_a_die_cut_by_the_edge_of_a_region_of_interest_is_cut_by_the_frames_edge(monkeypatch, at, status):
    """The network looks at the region alone: a die its edge cuts is as unreadable as one the picture's edge cuts.
    The dice read lie in frame pixels: a cut peak 35 region pixels from the first die read is part of it."""
    ok, _ = _missed_setup(monkeypatch, 0.9, at, 4, 1.0)
    shifted = reader.Reading(
        Status.OK,
        tuple(
            reader.DieReading(d.value, (d.center[0] + 30, d.center[1]), outlines.shift(d.box, (30, 0)), 1.0)
            for d in ok.dice
        ),
    )
    region = np.zeros((200, 370, 3), np.uint8)
    reading = reader._unless_missed(region, (30, 0), shifted, Profile(roi=(30, 0, 400, 200)))
    assert reading.status is status
    if status is Status.UNSURE:
        assert reading.message == (
            "a die cut by the right edge of the region of interest: roll the dice into view, or say how many"
        )


def test_the_edge_named_is_the_one_the_box_runs_furthest_over():
    """A box over a corner is named by the edge it crosses most; a box longer than wide, by its corners."""
    assert reader._edge_cutting(((5.0, 190.0), (40.0, 40.0), 0.0), (200, 400)) == "left"  # 15 over it, 10 the bottom
    assert reader._edge_cutting(((12.0, 196.0), (40.0, 40.0), 0.0), (200, 400)) == "bottom"  # 8 and 16
    assert reader._edge_cutting(((395.0, 20.0), (40.0, 40.0), 0.0), (200, 400)) == "right"
    assert reader._edge_cutting(((200.0, -5.0), (40.0, 40.0), 0.0), (200, 400)) == "top"  # its centre outside
    # its centre nearer the top, but only its end over an edge, the left
    assert reader._edge_cutting(((25.0, 15.0), (60.0, 20.0), 0.0), (200, 400)) == "left"


def test_a_cut_die_is_named_before_a_weak_face(monkeypatch):
    """Both would leave the roll unsure; the cut die is the surer cause, and the classifier is not asked."""
    from fantan_table.vision.finder import FoundDie

    ok, asked = _missed_setup(monkeypatch, 0.45, (150.0, 100.0), 4, 1.0)
    peaks = reader.builtin_finder().find(None, 0.0)
    cut = FoundDie(((395.0, 100.0), (40.0, 40.0), 0.0), 0.9)
    monkeypatch.setattr(reader, "builtin_finder", lambda: finder_of([*peaks, cut]))
    reading = reader._unless_missed(np.zeros((200, 400, 3), np.uint8), (0, 0), ok, Profile())
    assert reading.message.startswith("a die cut by the right edge of the picture") and not asked


@pytest.mark.parametrize(
    ("profile", "expect", "status"),
    [
        (Profile(), None, Status.UNSURE),
        (Profile(), 2, Status.OK),  # the count already says whether a die is missing
        (Profile(finder=SHAPES), None, Status.OK),  # the outlines' own check: the network's dice found surely
    ],
)
def test_only_a_roll_the_network_read_with_no_count_looks_for_missed_dice(monkeypatch, profile, expect, status):
    ok, _ = _missed_setup(monkeypatch, 0.45, (150.0, 100.0), 4, 1.0)
    monkeypatch.setattr(reader, "_read_roll", lambda *args: ok)
    assert read_dice(np.zeros((200, 400, 3), np.uint8), profile, expect).status is status


def test_dice_only_the_outlines_see_do_not_join_a_roll_of_no_given_count(monkeypatch):
    """Wooden dice DEV (stress 650113, before the renderer's noise was fixed): the network found 4 dice and could not
    read them all; the outlines took a checked cloth's squares for plain dice and read 98, ok."""
    learned = reader.Reading(Status.UNSURE, (_die(5, 10.0), _die(None, 40.0)), "die at (40, 10): unreadable")
    outlined = reader.Reading(Status.OK, (_die(5, 10.0), _die(4, 40.0), _die(0, 70.0)))
    _two_finders(monkeypatch, {"network": learned, "outlines": outlined})
    frame = np.zeros((100, 100, 3), np.uint8)
    unsure = read_dice(frame, Profile(), None)
    assert unsure.status is Status.UNSURE and unsure.dice == outlined.dice
    assert unsure.message == "their outlines read 3 dice, the network finds 2: say how many"
    assert read_dice(frame, Profile(), 3) == outlined  # a count given checks the reading itself


@pytest.mark.parametrize(
    ("apart", "near"),
    [(0.7, True), (reader.APART - 0.01, True), (reader.APART + 0.01, False), (1.0, False), (3.0, False)],
)
def test_two_dice_nearer_than_a_side_are_no_two_dice(apart, near):
    """Dice do not overlap. Wooden dice DEV (stress 650020): a side face boxed 0.7 sides from its die's top face was
    read as a 1, and the roll, a 6 missing, ok."""
    dice = [_die(2, 10.0), _die(4, 10.0 + 20.0 * apart), _die(3, 100.0)]
    doubt = reader._too_near(dice)
    assert (doubt is not None) == near
    if near:
        where = f"(10, 10) and ({10 + 20 * apart:.0f}, 10)"
        assert doubt == f"dice at {where} lie {apart:.2f} of a side apart: a side face boxed as a die?"


@pytest.mark.parametrize(
    ("profile", "expect", "status"),
    [
        (Profile(), 3, Status.UNSURE),
        (Profile(), None, Status.UNSURE),
        (Profile(finder=SHAPES), 3, Status.UNSURE),  # the outlines can box a side face too
        (Profile(side_faces=True), 3, Status.OK),  # there a die's box holds its side faces: touching boxes come near
    ],
)
def test_a_roll_with_two_dice_too_near_is_unsure_whichever_finder_read_it(monkeypatch, profile, expect, status):
    near = reader.Reading(Status.OK, (_die(2, 10.0), _die(1, 24.0), _die(3, 100.0)))
    monkeypatch.setattr(reader, "_read_roll", lambda *args: near)
    monkeypatch.setattr(reader, "_unless_missed", lambda frame, origin, reading, profile: reading)
    reading = read_dice(np.zeros((100, 200, 3), np.uint8), profile, expect)
    assert reading.status is status and reading.dice == near.dice
    if status is Status.UNSURE:
        assert "a side face boxed as a die?" in reading.message


def test_no_count_the_outlines_reading_must_hold_the_network_dice_not_only_as_many(monkeypatch):
    """The network's dice at 10, 40 and 70 (the one at 70 unread), the outlines' at 10, 40 and a cloth's square at
    120: as many dice, but not the same ones; the outlines' reading would pay a roll nobody threw. Where the network
    read its dice itself, the outlines' dice need only lie near its own (a side face or shadow moves an outline)."""
    learned = reader.Reading(
        Status.UNSURE, (_die(5, 10.0), _die(3, 40.0), _die(None, 70.0)), "die at (70, 10): unreadable"
    )
    outlined = reader.Reading(Status.OK, (_die(5, 10.0), _die(3, 40.0), _die(0, 120.0)))
    readings = {"network": learned, "outlines": outlined}
    _two_finders(monkeypatch, readings)
    monkeypatch.setattr(reader, "_unless_missed", lambda frame, origin, reading, profile: reading)
    frame = np.zeros((100, 200, 3), np.uint8)
    unsure = read_dice(frame, Profile(), None)
    assert unsure.status is Status.UNSURE and unsure.dice == outlined.dice
    assert unsure.message == "their outlines read 3 dice, the network finds 3 elsewhere: say how many"
    readings["outlines"] = reader.Reading(Status.OK, (_die(5, 12.0), _die(3, 38.0), _die(2, 71.0)))
    assert read_dice(frame, Profile(), None) == readings["outlines"]  # the same dice, a little off: they stand
    readings["network"] = reader.Reading(Status.OK, (_die(5, 10.0), _die(3, 40.0), _die(2, 70.0)))
    readings["outlines"] = reader.Reading(Status.UNSURE, (_die(None, 8.0), _die(None, 45.0), _die(None, 79.0)))
    assert read_dice(frame, Profile(), None) == readings["network"]  # each outline within a side of a die read
    readings["outlines"] = outlined
    unsure = read_dice(frame, Profile(), None)
    assert unsure.status is Status.UNSURE and unsure.dice == readings["network"].dice
    assert unsure.message == "their outlines see a die at (120, 10) where the network read none: say how many"


@pytest.mark.parametrize("merged", [False, True])
def test_no_count_an_outline_two_dice_long_by_a_die_the_network_read_is_dice_touching(monkeypatch, merged):
    """Wooden DEV 651573: four small dice touching in a cluster; the network found and read one, the outlines one
    blob over all four, as many by chance. One die's outline, side faces and all, is at most sqrt(2) sides long;
    two dice side by side make one two sides long (``TWO_DICE_LONG``). Also where the network's roll took a die
    from the outlines (wooden DEV 651444). Here two dice are read, the blob by the first."""
    unread = _die(None, 70.0, UNREADABLE)
    network = (_die(1, 10.0), unread) if merged else (_die(1, 10.0), _die(4, 70.0))
    learned = (
        reader.Reading(Status.UNSURE, network, "die at (70, 10): unreadable")
        if merged
        else reader.Reading(Status.OK, network)
    )
    blob = _die(None, 20.0, outlines.RAGGED, side=reader.TWO_DICE_LONG * 20.0)
    readings = {"network": learned, "outlines": reader.Reading(Status.UNSURE, (blob, _die(4, 70.0)))}
    _two_finders(monkeypatch, readings)
    monkeypatch.setattr(reader, "_unless_missed", lambda frame, origin, reading, profile: reading)
    frame = np.zeros((100, 200, 3), np.uint8)
    unsure = read_dice(frame, Profile(), None)
    assert unsure.status is Status.UNSURE
    assert unsure.message == "their outlines see something two dice long at (20, 10): dice touching? say how many"
    assert read_dice(frame, Profile(), 2).status is Status.OK  # with a count, the count checks the roll
    readings["outlines"] = reader.Reading(
        Status.UNSURE, (_die(None, 20.0, outlines.RAGGED, side=reader.TWO_DICE_LONG * 20.0 - 1), _die(4, 70.0))
    )
    assert read_dice(frame, Profile(), None).status is Status.OK  # one die's outline with its side faces


def test_no_count_an_outline_apart_from_every_die_the_network_read_is_a_die_it_may_have_missed(monkeypatch):
    """Wooden DEV 650484: four touching dice, the network found and read two; the outlines saw a die on one it
    missed and one blob over the other three, two dice as well. A side from every die read, the first is no die of
    the network's: the roll may hold more. An outline a large blob spans is near enough (but see
    ``test_no_count_an_outline_two_dice_long_by_a_die_the_network_read_is_dice_touching``)."""
    learned = reader.Reading(Status.OK, (_die(1, 120.0, side=20.0), _die(5, 100.0, side=20.0)))
    readings = {"network": learned, "outlines": reader.Reading(Status.UNSURE, (_die(None, 35.0), _die(None, 95.0)))}
    _two_finders(monkeypatch, readings)
    monkeypatch.setattr(reader, "_unless_missed", lambda frame, origin, reading, profile: reading)
    frame = np.zeros((100, 200, 3), np.uint8)
    unsure = read_dice(frame, Profile(), None)
    assert unsure.status is Status.UNSURE and "a die at (35, 10) where the network read none" in unsure.message
    assert read_dice(frame, Profile(), 2) == learned  # with a count, the count checks the roll
    readings["outlines"] = reader.Reading(Status.UNSURE, (_die(None, 70.0, side=39.0), _die(None, 120.0)))
    assert read_dice(frame, Profile(), None) == learned  # a blob 39 across, its centre 30 from the 5: near
    readings["outlines"] = reader.Reading(Status.UNSURE, (_die(None, 55.0, side=70.0), _die(None, 120.0)))
    unsure = read_dice(frame, Profile(), None)  # near too, but 70 across: more than the dice read there
    assert unsure.status is Status.UNSURE and "two dice long at (55, 10)" in unsure.message
    readings["outlines"] = reader.Reading(Status.UNSURE, (_die(None, 55.0), _die(None, 120.0)))
    assert read_dice(frame, Profile(), None).status is Status.UNSURE  # a die's outline 45 from the 5: apart
    readings["network"] = reader.Reading(Status.OK, (_die(1, 190.0), _die(5, 100.0, side=70.0)))
    assert read_dice(frame, Profile(), None) == readings["network"]  # the network's box 70 across: near


def test_a_weak_peak_near_a_die_read_inside_a_region_of_interest_is_that_die(monkeypatch):
    """The reading's dice lie in frame pixels, the network's peaks in the region's: compared in the region's."""
    ok, asked = _missed_setup(monkeypatch, 0.45, (85.0, 100.0), 4, 1.0)
    shifted = tuple(
        reader.DieReading(d.value, (d.center[0] + 100, d.center[1]), outlines.shift(d.box, (100, 0)), 1.0)
        for d in ok.dice
    )
    reading = reader.Reading(Status.OK, shifted)
    assert reader._unless_missed(np.zeros((200, 400, 3), np.uint8), (100, 0), reading, Profile()) is reading
    assert not asked


@pytest.mark.parametrize(
    ("sides", "scores", "unread"),
    [
        # found weakly (below the network's threshold) and small: part of a die (wooden DEV 651842, 652494)
        ([40, 40, 40, 40 * reader.WEAK_SAME_SIZE - 0.5], [0.9, 0.9, 0.9, 0.4], [3]),
        ([40, 40, 40, 40 * reader.WEAK_SAME_SIZE + 0.5], [0.9, 0.9, 0.9, 0.4], []),
        ([40, 40, 40, 27], [0.9, 0.9, 0.9, 0.9], []),  # as small but found surely: SAME_SIZE's to judge
        ([40, 40, 40, 27], [0.9, 0.9, 0.9, None], []),  # an outline's box: no score
        ([40, 20], [0.9, 0.4], []),  # two dice: which is the odd one?
        ([40, 40, 40, 27, 27], [0.4, 0.9, 0.9, 0.4, 0.9], [3]),  # weak at full size, or small and sure: read
    ],
)
def test_a_small_box_the_network_found_weakly_is_not_read(monkeypatch, sides, scores, unread):
    monkeypatch.setattr(reader, "builtin_finder", lambda: SimpleNamespace(threshold=0.5))
    dice = [_die(v, 100.0 * v, side=side) for v, side in enumerate(sides, 1)]
    out = reader._weak_boxes(dice, scores)
    assert [i for i, d in enumerate(out) if d.value is None] == unread
    for i in unread:
        assert out[i].problem is not None and out[i].problem.endswith("the others' size: part of a die?")
    assert [d for i, d in enumerate(out) if i not in unread] == [d for i, d in enumerate(dice) if i not in unread]


def test_the_outlines_boxes_never_ask_for_the_network(monkeypatch):
    """The weak-box check leaves the outlines' boxes (no scores) without loading the network's files."""

    def no_network():
        raise AssertionError("the network was asked")

    monkeypatch.setattr(reader, "builtin_finder", no_network)
    dice = [_die(1, 100.0), _die(2, 200.0), _die(3, 300.0, side=10.0)]
    assert reader._weak_boxes(dice, [None, None, None]) == dice


def test_a_die_doubted_already_keeps_its_own_problem(monkeypatch):
    monkeypatch.setattr(reader, "builtin_finder", lambda: SimpleNamespace(threshold=0.5))
    dice = [_die(1, 100.0), _die(2, 200.0), _die(None, 300.0, "pips too blurred to count", side=10.0)]
    assert reader._weak_boxes(dice, [0.9, 0.9, 0.4]) == dice


@pytest.mark.parametrize("seed", [651842, 652494])
def test_a_side_face_or_half_a_face_boxed_weakly_is_not_read_as_a_one(seed):
    """Wooden DEV: a weak box on a blank die's side face (651842) and on half of a 2 (652494) read as a 1 each."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(seed, wooden=True)
    reading = read_dice(scene.image, None, 4)
    assert reading.status is not Status.OK or sorted(reading.values) == sorted(scene.values)


def test_a_side_face_boxed_and_counted_where_the_classifier_sees_no_face_is_unsure():
    """Wooden DEV 652837: the network boxed a die's side face, two pips on it, and the count read a 2 where the
    classifier saw no face; the roll read ok as 2 4 1 4 (truth 1 4 4 4)."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(652837, wooden=True)
    reading = read_dice(scene.image, None, 4)
    assert reading.status is Status.UNSURE
    assert "2 pips counted, but the learned classifier sees not a face" in reading.message


@pytest.mark.parametrize(
    ("sides", "odd"),
    [
        ([40, 40, 40, 24], True),  # 0.6 of the others: a box on part of a die (wooden dice DEV, stress 650197)
        ([40, 40, 40, 40 * reader.SAME_SIZE - 0.5], True),
        ([40, 40, 40, 40 * reader.SAME_SIZE + 0.5], False),
        ([40, 44, 36, 32], False),  # a slanted camera's nearer dice look larger
        ([40, 20], False),  # two dice: which is the odd one?
    ],
)
def test_a_die_far_smaller_than_the_others_of_its_roll_is_doubted(sides, odd):
    dice = [_die(v, 100.0 * v, side=side) for v, side in enumerate(sides, 1)]
    doubt = reader._odd_size(dice)
    assert (doubt is not None) == odd
    if odd:
        assert doubt.startswith(f"die at ({100 * len(sides)}, 10) is ") and doubt.endswith("part of a die?")


@pytest.mark.parametrize(("profile", "status"), [(Profile(), Status.UNSURE), (Profile(side_faces=True), Status.OK)])
def test_a_roll_with_a_die_far_smaller_than_the_others_is_unsure(monkeypatch, profile, status):
    roll = reader.Reading(Status.OK, tuple(_die(v, 100.0 * v, side=s) for v, s in enumerate([40, 40, 40, 24], 1)))
    monkeypatch.setattr(reader, "_read_roll", lambda *args: roll)
    reading = read_dice(np.zeros((100, 500, 3), np.uint8), profile, 4)
    assert reading.status is status and reading.dice == roll.dice


@pytest.mark.parametrize(
    ("sides", "seen", "reread"),
    [
        ([48, 49, 48, 34], 3, True),  # test_reader_safety's 3 boxed short of a corner pip, counted 2
        ([48, 49, 48, 34], None, True),  # no face in the larger box either: no 2 there
        ([48, 49, 48, 34], 2, False),  # a 2 in the larger box too: it stands
        ([48, 49, 48, 41], 3, False),  # 0.85 of the others' side: within perspective's spread, not asked
        ([48, 34], 3, False),  # two dice: neither is the odd one
    ],
)
def test_a_die_in_a_short_box_is_read_again_in_a_box_the_others_size(monkeypatch, sides, seen, reread):
    """A box under ``SHORT_BOX`` of the middle die's side is read again, about its centre, at that side; where the
    classifier sees another face first, the die is unread."""
    from fantan_table.vision.classifier import CLASSES

    asked = []

    def probabilities(frame, boxes, profile):
        asked.extend(boxes)
        return np.array([np.eye(len(CLASSES))[CLASSES.index(seen)]] * len(boxes))

    monkeypatch.setattr(reader, "faces_probabilities", probabilities)
    dice = [_die(1, 60.0 * k, side=float(side)) for k, side in enumerate(sides[:-1])] + [_die(2, 300.0, side=sides[-1])]
    out = reader._short_boxes_read_again(np.zeros((100, 400, 3), np.uint8), dice, Profile())
    if len(sides) >= 3 and sides[-1] < reader.SHORT_BOX * 48:
        assert asked == [((300.0, 10.0), (48.0, 48.0), 0.0)]
    else:
        assert not asked
    if reread:
        what = "no face" if seen is None else f"a {seen}"
        assert out[-1] == reader.DieReading(
            None,
            (300.0, 10.0),
            dice[-1].box,
            0.0,
            f"its box 71% the others' size; in a box their size the classifier sees {what}",
        )
        assert out[:-1] == dice[:-1]
    else:
        assert out == dice


@pytest.mark.parametrize(("p1", "stands"), [(reader.ONE_GROWN_SURE, True), (0.94, False), (0.5, False)])
def test_a_one_like_a_glint_is_read_again_in_a_larger_box(monkeypatch, p1, stands):
    """Each die read as a 1 whose mark looks like a glint, and only those, is read again about the same centre in a
    box ``ONE_GROWN`` times as large (both sides of an outline's box); under ``ONE_GROWN_SURE`` there it is
    unread."""
    asked = []

    def probabilities(frame, boxes, profile):
        asked.extend(boxes)
        return np.array([_probabilities(p1=p1, p0=1 - p1)] * len(boxes))

    monkeypatch.setattr(reader, "faces_probabilities", probabilities)
    monkeypatch.setattr(reader, "_glint_like", lambda face: True)
    outline = reader.DieReading(1, (200.0, 10.0), ((200.0, 10.0), (40.0, 30.0), 12.0), 0.9, None)
    dice = [_die(3, 0.0, side=40.0), _die(1, 100.0, side=40.0), outline, _die(None, 300.0, "faint", side=40.0)]
    out = reader._ones_read_again(np.zeros((100, 400, 3), np.uint8), dice, Profile())
    grown = 40.0 * reader.ONE_GROWN
    assert asked == [((100.0, 10.0), (grown, grown), 0.0), ((200.0, 10.0), (grown, 30.0 * reader.ONE_GROWN), 12.0)]
    if stands:
        assert out == dice
    else:
        assert [d.value for d in out] == [3, None, None, None]
        assert out[1].box == dice[1].box and out[1].problem.startswith("read as a 1, but in a box 1.15 times as large")
        assert f"{p1:.1%}" in out[1].problem


def test_a_one_unlike_a_glint_and_a_roll_without_a_one_ask_no_more(monkeypatch):
    monkeypatch.setattr(reader, "faces_probabilities", lambda *args: pytest.fail("asked"))
    dice = [_die(v, 50.0 * v, side=40.0) for v in (2, 3, 0)]
    assert reader._ones_read_again(np.zeros((100, 400, 3), np.uint8), dice, Profile()) == dice
    ones = [_die(1, 50.0, side=40.0)]  # a black frame: no mark at all, so none like a glint
    assert reader._ones_read_again(np.zeros((100, 400, 3), np.uint8), ones, Profile()) == ones


@pytest.mark.parametrize(
    ("pip", "glint_like"),
    [((255, 255, 255), True), ((200, 170, 140), True), ((0, 220, 255), False), ((20, 20, 20), False)],
)
def test_a_light_mark_no_more_colourful_than_the_face_is_glint_like(pip, glint_like):
    """White or a paler blue on a blue die is how a glint looks; a yellow pip is more colourful, a black one darker."""
    assert reader._glint_like(pipped_face(64, (150, 80, 20), pip, 1, 0.16)) is glint_like
    assert reader._glint_like(np.full((64, 64, 3), (150, 80, 20), np.uint8)) is False


def test_only_a_one_whose_pip_is_light_as_a_glint_is_asked_again(monkeypatch):
    """The dice's own crops, in a frame as ``_reading`` has it: a white pip on a blue die is asked about again in a
    box 1.15 times its own, a black pip is not (a glint is never darker than its face)."""
    asked = []

    def probabilities(frame, boxes, profile):
        asked.extend(boxes)
        return np.array([_probabilities(p1=0.5, p0=0.5)] * len(boxes))

    monkeypatch.setattr(reader, "faces_probabilities", probabilities)
    frame = np.full((200, 400, 3), (40, 110, 40), np.uint8)
    frame[60:124, 60:124] = pipped_face(64, (150, 80, 20), (255, 255, 255), 1, 0.16)
    frame[60:124, 260:324] = pipped_face(64, (150, 80, 20), (20, 20, 20), 1, 0.16)
    white, black = (reader.DieReading(1, (x, 92.0), ((x, 92.0), (64.0, 64.0), 0.0), 1.0, None) for x in (92.0, 292.0))
    out = reader._ones_read_again(frame, [white, black], Profile())
    assert asked == [((92.0, 92.0), (64.0 * reader.ONE_GROWN, 64.0 * reader.ONE_GROWN), 0.0)]
    assert out[0].value is None and "50.0%" in out[0].problem and out[1] == black


@pytest.mark.parametrize("blank_face", [True, False])
def test_only_dice_with_a_blank_face_are_asked_about_a_glint(monkeypatch, blank_face):
    """A glint read as a 1 is a blank die's: a profile whose dice have no blank face is not asked."""
    calls = []
    monkeypatch.setattr(reader, "_ones_read_again", lambda frame, dice, profile: calls.append(1) or dice)
    read_dice(_scene_with_a_one(), Profile(blank_face=blank_face), 1)
    assert bool(calls) is blank_face


@pytest.mark.parametrize(("seed", "wooden"), [(610066, False), (652790, True)])
def test_a_die_the_networks_are_all_but_sure_of_reads_where_the_gradient_model_agrees(monkeypatch, seed, wooden):
    """DEV rolls with one die the count could not read, which the networks gave 0.99-0.999 and the gradient-feature
    model the same face first: the roll reads right, and stays unsure without that second opinion. (Stress 610696
    was one; its faint glint no longer counts among the marks, which then agree with the networks.)"""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(seed, wooden=wooden)
    reading = read_dice(scene.image, None, 4)
    assert reading.status is Status.OK and sorted(reading.values) == sorted(scene.values), reading
    monkeypatch.setattr(reader, "SECOND_OPINION_SURE", 1.01)
    assert read_dice(scene.image, None, 4).status is Status.UNSURE


@pytest.mark.parametrize(("seed", "wooden"), [(612230, False), (655753, True)])
def test_the_gradient_models_word_is_not_asked_where_marks_cannot_be_the_face(seed, wooden):
    """DEV rolls the second opinion read ok and wrong without its checks: a box on part of a purple 4 showing three
    marks read as a 5 (612230, with OpenCV 5; with 4.6 the networks are less sure of it), and a wooden 2 with a glint
    in its middle read as a 3 (655753; the mean of its turned crops is short of the bar)."""
    from fantan_table.vision.stress import stress_scene

    reading = read_dice(stress_scene(seed, wooden=wooden).image, None, 4)
    assert reading.status is Status.UNSURE, reading


def _scene_with_a_one() -> np.ndarray:
    frame = np.full((480, 640, 3), (40, 110, 40), np.uint8)
    frame[200:264, 300:364] = pipped_face(64, (230, 230, 230), (20, 20, 20), 1, 0.2)
    return frame


@pytest.mark.parametrize("seed", [612962, 613425])
def test_a_glint_in_the_middle_of_a_blank_is_read_again_and_doubted(seed):
    """The rolls the rule turns unsure itself (the next test's others are unsure by other checks now)."""
    from fantan_table.vision.stress import stress_scene

    reading = read_dice(stress_scene(seed).image, None, 4)
    assert reading.status is Status.UNSURE and "a glint on a blank?" in reading.message, reading


@pytest.mark.parametrize(
    ("seed", "expect"), [(610434, 4), (611676, 4), (612962, 4), (613425, 4), (611676, None), (612962, None)]
)
def test_a_glint_on_a_blank_is_not_read_as_a_one(seed, expect):
    """Stress DEV rolls once read ok and wrong: a blank die (red, brown, blue, black) whose gloss spot, in the middle
    of its face, was counted as one light pip (or read by the classifier alone) and the die read as a 1."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(seed)
    reading = read_dice(scene.image, None, expect)
    assert 0 in scene.values
    assert reading.status is not Status.OK or sorted(reading.values) == sorted(scene.values), reading


@pytest.mark.parametrize(("seed", "wooden"), [(610311, False), (610508, False), (651152, True)])
def test_a_die_the_classifier_is_all_but_sure_of_reads_where_its_turned_crops_make_it_sure(monkeypatch, seed, wooden):
    """DEV rolls with one die the count could not read, which the classifier gave 0.998-0.999 as it lay: averaged
    over its crop turned and mirrored the face reaches ``CLASSIFIER_ALONE``, and the roll reads right. Without that
    second look (nor the gradient-feature model's word, which reads 610311 too) it stays unsure."""
    from fantan_table.vision.stress import stress_scene

    scene = stress_scene(seed, wooden=wooden)
    reading = read_dice(scene.image, None, 4)
    assert reading.status is Status.OK and sorted(reading.values) == sorted(scene.values), reading
    monkeypatch.setattr(reader, "TURNED_ASKED", 1.0)
    monkeypatch.setattr(reader, "SECOND_OPINION_SURE", 1.01)
    assert read_dice(scene.image, None, 4).status is Status.UNSURE
