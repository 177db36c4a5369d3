"""A die is read only on positive evidence: blank only when nothing on its face stands out, never confident
and wrong whatever the die's colour, its pips' colour, or its size."""

import math

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fantan_table.vision.marks import FAINTEST_MARK
from fantan_table.vision.pipcount import count_pips
from fantan_table.vision.pips import PIP_LAYOUTS
from fantan_table.vision.profile import Profile
from fantan_table.vision.reader import Status, read_dice
from fantan_table.vision.render import random_faces, render_scene

from .drawn import pipped_face

FELT = (40, 110, 30)  # BGR: a green baize
SUIT_BODIES = [(40, 40, 190), (50, 140, 40), (170, 80, 30), (30, 30, 30), (40, 200, 230)]  # red green blue black yellow
WHITE = (240, 240, 240)


def _die(image, centre, side: float, angle: float, body, pip, value: int, pip_share: float) -> None:
    """A die seen from straight above: a rounded square of ``body`` with ``value`` pips of diameter ``pip_share``."""
    a = math.radians(angle)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2 @ turn.T + centre
    cv2.fillConvexPoly(image, np.round(corners * 16).astype(np.int32), body, cv2.LINE_AA, shift=4)
    for u, v in PIP_LAYOUTS[value]:
        p = np.array([(u - 0.5) * side, (v - 0.5) * side]) @ turn.T + centre
        r = pip_share * side / 2
        cv2.circle(image, tuple(np.round(p * 16).astype(int)), round(r * 16), pip, -1, cv2.LINE_AA, shift=4)


def _coloured_dice_on_felt(values, side: float, pip_share: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.full((960, 1280, 3), FELT, np.uint8)
    for k, value in enumerate(values):
        centre = (260 + 250 * k + rng.uniform(-20, 20), 480 + rng.uniform(-100, 100))
        body = SUIT_BODIES[int(rng.integers(len(SUIT_BODIES)))]
        _die(image, centre, side, rng.uniform(0, 90), body, WHITE, value, pip_share)
    image = cv2.GaussianBlur(image, (3, 3), 0)
    noisy = image.astype(np.float32) + rng.normal(0, 2, image.shape)
    ok, jpeg = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


FELT_SCENES = {
    "values": st.lists(st.integers(0, 6), min_size=4, max_size=4),
    "side": st.floats(50, 150),
    "pip_share": st.floats(0.09, 0.2),
    "seed": st.integers(0, 10_000),
}
"""Four coloured dice with white pips on felt: their faces, side in pixels, pip diameter as a share of the side."""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**FELT_SCENES)
@example(values=[3, 1, 1, 0], side=50.0, pip_share=0.125, seed=2960)  # a 3's corner pip left out of its box: a 2?
@example(values=[3, 1, 1, 0], side=50.0, pip_share=0.15625, seed=2960)  # the same, the classifier seeing no face
@example(values=[1, 1, 3, 1], side=50.0, pip_share=0.09375, seed=1041)  # the same, the classifier seeing a 2 too
def test_coloured_dice_with_white_pips_on_felt_read_right_or_unsure_never_blank(values, side, pip_share, seed):
    """The reported case: coloured dice on green felt, top-down, not touching, white pips. Each die the reader
    returns is right or unread; clear pips are never a blank face."""
    _read_right_or_unsure(values, side, pip_share, seed)


@pytest.mark.slow
@settings(
    max_examples=1000, derandomize=False, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(**FELT_SCENES)
def test_felt_scenes_explored_afresh_each_run(values, side, pip_share, seed):
    """As above, with new scenes every run (CI's profile draws the same 40 each time): the two examples above were
    found by such runs. `make bench` runs it; a failure prints the scene to add as an ``@example``."""
    _read_right_or_unsure(values, side, pip_share, seed)


def _read_right_or_unsure(values: list[int], side: float, pip_share: float, seed: int) -> None:
    reading = read_dice(_coloured_dice_on_felt(values, side, pip_share, seed), expect=4)
    read = sorted(d.value for d in reading.dice if d.value is not None)
    if reading.status is Status.OK:
        assert read == sorted(values)
    assert read.count(0) <= values.count(0)


def _delta_e(one, other) -> float:
    lab = cv2.cvtColor(np.array([[one, other]], np.uint8), cv2.COLOR_BGR2Lab).astype(float)[0]
    lab[:, 0] *= 100 / 255
    return float(np.linalg.norm(lab[0] - lab[1]))


def _face(body, px: int = 96) -> np.ndarray:
    return np.full((px, px, 3), body, np.uint8)


def _textured_and_glossy(face: np.ndarray, seed: int) -> np.ndarray:
    """Fine grain all over (wood, plastic) and a broad soft sheen across the face."""
    rng = np.random.default_rng(seed)
    px = face.shape[0]
    grain = cv2.GaussianBlur(rng.normal(0, 3, face.shape[:2]).astype(np.float32), (0, 0), 0.8)
    yy, xx = np.mgrid[0:px, 0:px]
    sheen = 35 * np.exp(-((xx - 0.35 * px) ** 2 + (yy - 0.4 * px) ** 2) / (2 * (0.3 * px) ** 2))
    out = face.astype(np.float32) + (grain + sheen)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_plain_face_reads_0_with_texture_and_gloss_and_unsure_with_one_faint_mark():
    for body in SUIT_BODIES + [(200, 225, 235)]:
        plain = _textured_and_glossy(_face(body), seed=sum(body))
        assert count_pips(plain, Profile())[:1] == (0,), body
        marked = plain.copy()
        faint = tuple(int(c) - 25 for c in body)  # a faint smudge, darker than the face, a pip's size
        cv2.circle(marked, (60, 34), 7, faint, -1, cv2.LINE_AA)
        value, confidence, problem = count_pips(marked, Profile())
        assert value is None and confidence == 0 and problem is not None, body


def test_a_white_spot_in_the_middle_of_a_blank_coloured_face_is_unsure():
    """A glint where a one's pip would be: on a die with white pips it may be the pip. Bench scenes 266 and 544
    (once read exactly) have one; the rest of each scene reads right."""
    for index in (266, 544):
        values = random_faces(np.random.default_rng([index, 7]), 4, (0, 1, 2, 3, 4, 5, 6))
        s = render_scene(values, 500_000 + index)
        reading = read_dice(s.image, expect=4)
        if reading.status is Status.OK:  # the network's box, the count and the classifier all see a blank
            assert sorted(reading.values) == sorted(s.values)
            continue
        assert reading.status is Status.UNSURE and "mark" in reading.message
        unread = [d for d in reading.dice if d.value is None]
        assert len(unread) == 1
        assert sorted(d.value for d in reading.dice if d.value is not None) == sorted(list(s.values))[1:]


@settings(max_examples=1000, deadline=None)
@given(
    value=st.integers(0, 6),
    body=st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
    pip=st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
    pip_share=st.floats(0.09, 0.2),
    px=st.sampled_from([25, 40, 64, 120, 200]),
)
# black pips crowding a small dark red 6: their soft rims pulled the body's median towards them, and no mark showed
@example(value=6, body=(0, 0, 31), pip=(0, 1, 0), pip_share=0.19921875, px=25)
def test_a_face_of_any_colour_is_never_read_as_another_value(value, body, pip, pip_share, px):
    """Any body colour, any pip colour (even barely different from the body), pips 9-20 % of a side, faces
    25-200 px: the count is right or unsure, never another number."""
    face = cv2.resize(pipped_face(px, body, pip, value, pip_share), (64, 64), interpolation=cv2.INTER_AREA)
    got, _, problem = count_pips(face, Profile())
    # pips barely apart from their face stand out less than FAINTEST_MARK once averaged over a spot a small pip
    # fills: such a face looks plain (a limit, said in marks.py), and no real die's pips are that faint
    invisible = _delta_e(body, pip) < 2 * FAINTEST_MARK
    assert got in (None, value) or (got == 0 and invisible), (got, problem)
