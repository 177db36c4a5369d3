from contextlib import AbstractContextManager
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from fantan_table.vision import quantiles
from fantan_table.vision.quantiles import column_medians, median, percentile

_NUMPY = tuple(int(part) for part in np.__version__.split(".")[:2])
FLOAT32_EXACT = not (2, 0) <= _NUMPY < (2, 4)
"""numpy 2.0-2.3 interpolate a float32 percentile a little differently (q over a float32 100): the last places
may differ there, nowhere else."""

_TYPES = st.sampled_from([np.uint8, np.int16, np.float32, np.float64])


@st.composite
def _pixels(draw, ndim: int = 1) -> np.ndarray:
    """Arrays like the reader's: lightness and colour values (ties common), of any length from one."""
    dtype = draw(_TYPES)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        elements = st.integers(max(info.min, -300), min(info.max, 300))
    else:
        elements = st.floats(-300, 300, width=32 if dtype == np.float32 else 64)
    shape = draw(st.integers(1, 300)) if ndim == 1 else (draw(st.integers(1, 100)), draw(st.integers(1, 3)))
    return draw(hnp.arrays(dtype, shape, elements=elements))


def _same(got: float | np.ndarray, expected: float | np.ndarray, dtype: np.dtype) -> bool:
    if FLOAT32_EXACT or dtype != np.float32:
        return bool(np.array_equal(got, expected))
    return bool(np.allclose(got, expected, rtol=1e-4, atol=1e-4))


def _sorting(sort: bool) -> AbstractContextManager[object]:
    """The middle values found by a full sort (numpy 2's way) or by a partition (numpy 1's): alike either way."""
    return mock.patch.object(quantiles, "_SORT_IS_QUICKER", sort)


@given(_pixels(), st.floats(0, 100), st.booleans())
def test_percentile_is_numpys(values, q, sort):
    with _sorting(sort):
        assert _same(percentile(values, q), float(np.percentile(values, q)), values.dtype)


@given(_pixels(), st.booleans())
def test_median_is_numpys(values, sort):
    with _sorting(sort):
        assert median(values) == float(np.median(values))


@given(_pixels(ndim=2), st.booleans())
def test_column_medians_are_numpys_in_value_and_type(rows, sort):
    expected = np.median(rows, axis=0)
    with _sorting(sort):
        got = column_medians(rows)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected)


def test_one_integer_column_of_even_length_keeps_its_shape():
    assert column_medians(np.array([[0], [2]], np.uint8)).shape == (1,)
    assert column_medians(np.array([[0], [2]], np.uint8))[0] == 1.0


def test_a_two_dimensional_array_is_taken_whole():
    image = np.arange(12, dtype=np.int16).reshape(3, 4)
    assert median(image) == 5.5
    assert percentile(image, 100) == 11.0
    assert percentile(image, 0) == 0.0


@pytest.mark.parametrize("q", [0, 25, 50, 99.5, 100])
def test_one_value_is_every_percentile(q):
    assert percentile(np.array([7], np.uint8), q) == 7.0
