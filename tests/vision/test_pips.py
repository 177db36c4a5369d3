import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.vision.pips import PIP_LAYOUTS, pattern_error


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
