"""Medians and percentiles of the reader's small arrays, as numpy gives them, without numpy's cost per call.

Reading a die takes about ten medians and percentiles of a crop's pixels. numpy's general functions spend more
time checking their arguments than partitioning a few thousand values (a percentile about 30 microseconds a call
against 5, a median 10-20 against 5): together most of a millisecond of each frame. These take the same
partition and interpolate as numpy's "linear" method does, in the same number types, so they give numpy's values
(numpy 2.0-2.3 interpolate a float32 percentile a little differently, in its last places);
``tests/vision/test_quantiles.py`` holds them to it. Inputs are the reader's: not empty, no NaN.
"""

from __future__ import annotations

import math

import numpy as np


def median(values: np.ndarray) -> float:
    """The median of all of ``values`` (not empty, no NaN): ``float(np.median(values))``."""
    flat = np.asarray(values).ravel()
    half = flat.size // 2
    if flat.size % 2:
        return float(np.partition(flat, half)[half])
    part = np.partition(flat, (half - 1, half))
    return float(_middle(part[half - 1], part[half]))


def column_medians(rows: np.ndarray) -> np.ndarray:
    """The median of each column of a 2-D array (not empty, no NaN): ``np.median(rows, axis=0)``."""
    columns = np.ascontiguousarray(np.asarray(rows).T)  # a third faster to partition than strided columns
    half = columns.shape[1] // 2
    if columns.shape[1] % 2:
        middle = np.partition(columns, half, axis=1)[:, half]
        return middle.astype(np.float64) if _integer(middle) else middle
    part = np.partition(columns, (half - 1, half), axis=1)
    return np.asarray(_middle(part[:, half - 1], part[:, half]))


def percentile(values: np.ndarray, q: float) -> float:
    """The ``q``-th percentile (0 to 100) of all of ``values`` (not empty, no NaN), interpolated linearly between
    the two values either side as numpy's default method does: ``float(np.percentile(values, q))``."""
    flat = np.asarray(values).ravel()
    at = (flat.size - 1) * (q / 100)
    below = math.floor(at)
    above = min(below + 1, flat.size - 1)
    part = np.partition(flat, (below, above))
    low, high = part[below], part[above]
    step = high - low  # in the array's own type, as numpy subtracts
    if _integer(flat):
        low, high, step = float(low), float(high), float(step)
    share = at - below
    # numpy's _lerp, in the array's float type: from the nearer end, so a share of 1 gives the upper value exactly
    return float(low + step * share if share < 0.5 else high - step * (1 - share))


def _middle(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The mean of the two middle values as np.mean takes it: floats keep their type, integers become float64."""
    if _integer(low):
        return (np.asarray(low, np.float64) + np.asarray(high, np.float64)) / 2
    return np.asarray((low + high) / 2)


def _integer(values: np.ndarray | np.generic) -> bool:
    return bool(np.issubdtype(np.asarray(values).dtype, np.integer))
