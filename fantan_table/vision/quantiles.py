"""Medians and percentiles of the reader's small arrays, as numpy gives them, without numpy's cost per call.

Reading a die takes about ten medians and percentiles of a crop's pixels. numpy's general functions spend more
time checking their arguments than partitioning a few thousand values (a percentile about 30 microseconds a call
against 5, a median 10-20 against 5): together most of a millisecond of each frame. These take the same
partition and interpolate as numpy's "linear" method does, in the same number types, so they give numpy's values
(numpy 2.0-2.3 interpolate a float32 percentile a little differently, in its last places);
``tests/vision/test_quantiles.py`` holds them to it. Inputs are the reader's: not empty, no NaN.

The middle values come from a partition or a full sort, whichever is quicker on this numpy: the same values either
way. numpy 2 sorts with vector instructions where the processor has them, and sorts the reader's arrays of a few
thousand pixel values, with their many ties, two to three times faster than it partitions them (this machine,
2026-12-02, numpy 2.4: a crop's column medians 14 us against 40); numpy 1's sort is plain, and slower than its
partition on them (numpy 1.24, the Pi's, on the same machine: 76 us against 46).
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np

_SORT_IS_QUICKER: Final = int(np.__version__.split(".")[0]) >= 2
"""Whether a full sort beats a partition at finding middle values (see above)."""


def median(values: np.ndarray) -> float:
    """The median of all of ``values`` (not empty, no NaN): ``float(np.median(values))``."""
    flat = np.asarray(values).ravel()
    half = flat.size // 2
    if flat.size % 2:
        return float(_ordered(flat, half)[half])
    part = _ordered(flat, (half - 1, half))
    return float(_middle(part[half - 1], part[half]))


def column_medians(rows: np.ndarray) -> np.ndarray:
    """The median of each column of a 2-D array (not empty, no NaN): ``np.median(rows, axis=0)``."""
    columns = np.ascontiguousarray(np.asarray(rows).T)  # a third faster to partition than strided columns
    half = columns.shape[1] // 2
    if columns.shape[1] % 2:
        middle = _ordered(columns, half)[:, half]
        return middle.astype(np.float64) if _integer(middle) else middle
    part = _ordered(columns, (half - 1, half))
    return np.asarray(_middle(part[:, half - 1], part[:, half]))


def percentile(values: np.ndarray, q: float) -> float:
    """The ``q``-th percentile (0 to 100) of all of ``values`` (not empty, no NaN), interpolated linearly between
    the two values either side as numpy's default method does: ``float(np.percentile(values, q))``."""
    flat = np.asarray(values).ravel()
    at = (flat.size - 1) * (q / 100)
    below = math.floor(at)
    above = min(below + 1, flat.size - 1)
    part = _ordered(flat, (below, above))
    low, high = part[below], part[above]
    step = high - low  # in the array's own type, as numpy subtracts
    if _integer(flat):
        low, high, step = float(low), float(high), float(step)
    share = at - below
    # numpy's _lerp, in the array's float type: from the nearer end, so a share of 1 gives the upper value exactly
    return float(low + step * share if share < 0.5 else high - step * (1 - share))


def _ordered(values: np.ndarray, kth: int | tuple[int, int]) -> np.ndarray:
    """``values`` (along their last axis) with the ``kth`` smallest in their sorted places: sorted whole where that is
    quicker (``_SORT_IS_QUICKER``), else partitioned about them."""
    return np.sort(values, axis=-1) if _SORT_IS_QUICKER else np.partition(values, kth, axis=-1)


def _middle(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The mean of the two middle values as np.mean takes it: floats keep their type, integers become float64."""
    if _integer(low):
        return (np.asarray(low, np.float64) + np.asarray(high, np.float64)) / 2
    return np.asarray((low + high) / 2)


def _integer(values: np.ndarray | np.generic) -> bool:
    return bool(np.issubdtype(np.asarray(values).dtype, np.integer))
