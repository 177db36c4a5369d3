"""The outlines' finder (``outlines``): what it takes for a die at the frame's edge, and a faint die found again."""

import cv2
import numpy as np
import pytest

from fantan_table.vision import outlines
from fantan_table.vision.profile import Profile


# -- what reaching the frame's edge may be ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("box", "cut"),
    [
        ((0, 0, 40, 20), True),  # half a die, its whole side along the edge
        ((0, 0, 40, 12), True),  # 0.3 of one
        ((0, 0, 40, 10), False),  # less: a crumb
        ((0, 0, 140, 30), False),  # a sleeve along the edge
        ((0, 0, 30, 90), False),  # a finger reaching in
    ],
)
def test_what_reaching_the_edge_may_be_a_die_cut_by_it(box, cut):
    """For dice of side 40, regions along the top edge."""
    x, y, w, h = box
    mask = np.zeros((200, 300), bool)
    mask[y : y + h, x + 100 : x + 100 + w] = True
    shape = outlines._Shape.of(mask)
    assert outlines._cut_die(shape, 40.0, 300, 200, contact=w) is cut


# -- a faint die found again against the table around it -----------------------------------------------
def _pale_die_on(table_light: np.ndarray, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(Lab frame, the die's true silhouette): a pale die with four pips on a table whose lightness per pixel
    is ``table_light``, with camera noise."""
    rng = np.random.default_rng(seed)
    light = table_light.astype(np.float32).copy()
    die = np.zeros(light.shape, np.uint8)
    corners = cv2.boxPoints(((120.0, 100.0), (56.0, 56.0), 25.0)).astype(np.int32)
    cv2.fillConvexPoly(die, corners, 1)
    light[die == 1] = 190
    for dx, dy in ((-14, -14), (14, -14), (-14, 14), (14, 14)):
        cv2.circle(light, (120 + dx, 100 + dy), 5, 40, -1)
    light += rng.normal(0, 6, light.shape)
    grey = np.clip(light, 0, 255).astype(np.uint8)
    return cv2.cvtColor(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), cv2.COLOR_BGR2Lab), die.astype(bool)


def _faint_part(lab: np.ndarray) -> tuple[np.ndarray, tuple[int, int, np.ndarray], outlines._Shape]:
    """What a table model too light for this spot finds of the die: its brightest pixels, a ragged blob."""
    mask = ((lab[..., 0] > 200) * 255).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h, _ = stats[i]
    part = labels[y : y + h, x : x + w] == i
    return mask, (int(x), int(y), part), outlines._Shape.of(part, (int(x), int(y)))


def test_a_faint_die_is_found_whole_against_the_table_right_around_it():
    lab, die = _pale_die_on(np.full((200, 240), 150, np.uint8))
    mask, blob, shape = _faint_part(lab)
    assert shape.solidity < 0.8 and shape.area < 0.8 * np.count_nonzero(die)  # ragged, and much of it missing
    (x, y, part), again = outlines._against_table_around(lab, mask, blob, shape, 90.0, Profile())
    found = np.zeros(die.shape, bool)
    found[y : y + part.shape[0], x : x + part.shape[1]] = part
    assert again.solidity > 0.95
    assert np.count_nonzero(found & die) >= 0.95 * np.count_nonzero(die)
    assert np.count_nonzero(found & ~die) <= 0.05 * np.count_nonzero(die)


def test_a_faint_blob_on_a_table_as_light_as_the_die_nearby_stays_as_it_was():
    """Where the table itself gets as light as the die, there is no outline to find: nothing is made up."""
    ramp = np.tile(np.linspace(110, 230, 240), (200, 1))
    lab, _ = _pale_die_on(ramp)
    mask, blob, shape = _faint_part(lab)
    kept, kept_shape = outlines._against_table_around(lab, mask, blob, shape, 90.0, Profile())
    assert kept is blob and kept_shape is shape
