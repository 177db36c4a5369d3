import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fantan_table.vision.pips import PIP_LAYOUTS, pattern_error, shifted_pattern_error, similar_pattern_fit


@pytest.mark.parametrize("value", range(7))
@pytest.mark.parametrize("turn", [0, 1, 2, 3])
@pytest.mark.parametrize("mirror", [False, True])
def test_every_face_fits_its_own_pattern_however_it_lies(value, turn, mirror):
    pts = np.array(PIP_LAYOUTS[value], dtype=float).reshape(-1, 2) - 0.5
    pts = np.rot90(np.eye(2), turn) @ pts.T if len(pts) else pts.T
    pts = pts.T * (np.array([-1, 1]) if mirror else 1) + 0.5
    assert pattern_error(value, pts) < 1e-9


@pytest.mark.parametrize("value", range(1, 7))
def test_wrong_count_never_fits(value):
    pts = np.array(PIP_LAYOUTS[value], dtype=float)
    assert pattern_error(value - 1, pts) == float("inf")


def test_pips_out_of_place_do_not_fit():
    assert pattern_error(2, np.array([[0.27, 0.27], [0.73, 0.27]])) > 0.3  # a side's worth, not a diagonal
    assert pattern_error(1, np.array([[0.27, 0.27]])) > 0.3  # a lone pip must sit in the middle


@given(st.integers(1, 6), st.floats(-0.03, 0.03), st.floats(-0.03, 0.03))
def test_small_shifts_give_small_errors(value, dx, dy):
    pts = np.array(PIP_LAYOUTS[value], dtype=float) + [dx, dy]
    assert pattern_error(value, pts) <= np.hypot(dx, dy) + 1e-9


def _layout(value: int) -> np.ndarray:
    return np.array(PIP_LAYOUTS[value], dtype=float)


@given(
    st.integers(2, 6),
    st.floats(0.3, 0.9),
    st.floats(1.0, 2.5),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(-0.12, 0.12),
    st.floats(-0.12, 0.12),
    st.integers(0, 3),
)
def test_a_top_face_in_part_of_its_box_fits_when_shifted(value, least, squeeze, a, b, dx, dy, turn):
    """A die at a slant: its top face smaller than the box, off its middle, squeezed along the view."""
    pips = _layout(value)
    for _ in range(turn):
        pips = np.column_stack([1 - pips[:, 1], pips[:, 0]])
    sx = least + 0.01 + a * (1.08 - least)  # within the allowed shares (up to 1.09), squeezed less than allowed
    sy = min(1.09, max(least + 0.01, sx * (1 / squeeze + 0.01 + b * (squeeze - 1 / squeeze - 0.02))))
    assume(max(sx / sy, sy / sx) <= 0.99 * squeeze)
    moved = (pips - 0.5) * np.array([sx, sy]) + 0.5 + np.array([dx, dy])
    assert shifted_pattern_error(value, moved, least, squeeze) < 1e-6


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
@pytest.mark.parametrize(("least", "squeeze"), [(0.6, 1.33), (0.45, 2.0)])
def test_shifted_faces_must_not_be_turned_or_shrunk_too_far(value, least, squeeze):
    pips = _layout(value) - 0.5
    turn = np.radians(30)
    turned = pips @ np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]).T + 0.5
    assert shifted_pattern_error(value, turned, least, squeeze) > 0.05
    smaller = pips * (least - 0.05) + 0.5  # a far smaller face: side-face pips
    assert shifted_pattern_error(value, smaller, least, squeeze) == float("inf")
    squeezed = pips * np.array([1.0, 1 / squeeze - 0.05]) + 0.5
    assert shifted_pattern_error(value, squeezed, least, squeeze) == float("inf")


def test_two_pips_side_by_side_are_not_a_two_however_shifted():
    assert shifted_pattern_error(2, np.array([[0.3, 0.5], [0.7, 0.5]]), 0.45, 2.0) > 0.1
    assert shifted_pattern_error(1, np.array([[0.3, 0.3]]), 0.45, 2.0) == float("inf")  # one pip fits anywhere


@given(
    st.integers(2, 6),
    st.floats(0.0, 2 * np.pi),
    st.floats(5.0, 200.0),
    st.booleans(),
    st.floats(-500, 500),
    st.floats(-500, 500),
)
def test_a_face_turned_scaled_and_moved_as_a_whole_fits(value, turn, width, mirror, x, y):
    pips = _layout(value) - 0.5
    pips = pips * ([-1.0, 1.0] if mirror else 1.0)
    c, s = np.cos(turn), np.sin(turn)
    found = pips @ np.array([[c, s], [-s, c]]) * width + [x, y]
    error, fitted = similar_pattern_fit(value, np.random.default_rng(value).permutation(found))
    assert error < 1e-6
    assert fitted == pytest.approx(width)


def test_a_similar_fit_needs_the_faces_own_pattern():
    stretched = [similar_pattern_fit(4, np.array([[0, 0], [k, 0], [0, 1], [k, 1]]))[0] for k in (1.0, 1.5, 2.0)]
    assert stretched[0] < 1e-9 < stretched[1] < stretched[2]  # a 4 stretched to a rectangle fits ever worse
    assert stretched[2] > 0.1
    off_middle = [similar_pattern_fit(5, np.vstack([_layout(4), [[0.5 + d, 0.5]]]))[0] for d in (0.0, 0.1, 0.3)]
    assert off_middle[0] < 1e-9 < off_middle[1] < off_middle[2]  # a 5 whose middle pip is ever further off
    assert off_middle[2] > 0.2


@pytest.mark.parametrize("value", range(1, 7))
def test_a_similar_fit_of_one_pip_or_a_wrong_count_is_no_fit(value):
    assert similar_pattern_fit(value, _layout(value)[:1])[0] == float("inf")
    assert similar_pattern_fit(value % 6 + 1, _layout(value))[0] == float("inf")
