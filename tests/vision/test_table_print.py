"""A printed table (a plaid, a checkered mat): its die-sized patches are the table's, never dice."""

import cv2
import numpy as np
import pytest

from fantan_table.vision.pips import PIP_LAYOUTS, PIP_RADIUS
from fantan_table.vision.reader import Status, read_dice
from fantan_table.vision.table_colours import dice_area, printed

SIDE = 64
"""The drawn dice's side in pixels, on a 1280 x 960 frame."""
BASE, TEAL, BROWN = (110, 130, 95), (180, 175, 85), (45, 70, 95)
"""BGR: a grey-green cloth with teal and brown squares printed on it, as a plaid mat."""
IVORY = (215, 235, 240)


def _printed_table(seed: int) -> np.ndarray:
    """A cloth printed with rows of die-sized squares, alternately teal and brown, a little noise over it."""
    rng = np.random.default_rng(seed)
    frame = np.empty((960, 1280, 3), np.uint8)
    frame[:] = BASE
    pitch = 2 * SIDE
    shift = int(rng.integers(pitch))
    for row, y in enumerate(range(-pitch, 960 + pitch, pitch)):
        for col, x in enumerate(range(-pitch, 1280 + pitch, pitch)):
            colour = TEAL if (row + col) % 2 else BROWN
            cv2.rectangle(frame, (x + shift, y + shift), (x + shift + SIDE, y + shift + SIDE), colour, -1)
    noise = rng.normal(0, 3, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def _draw_die(frame: np.ndarray, centre: tuple[int, int], value: int) -> None:
    """An ivory die seen from above with black pips, on a plain square of the cloth (its shadow's bed)."""
    cx, cy = centre
    half = SIDE // 2
    cv2.rectangle(frame, (cx - half - 12, cy - half - 12), (cx + half + 12, cy + half + 12), BASE, -1)
    cv2.rectangle(frame, (cx - half, cy - half), (cx + half, cy + half), IVORY, -1)
    for u, v in PIP_LAYOUTS[value]:
        centre_px = (round(cx - half + u * SIDE), round(cy - half + v * SIDE))
        cv2.circle(frame, centre_px, round(PIP_RADIUS * SIDE), (30, 30, 30), -1, cv2.LINE_AA)


def _ivory(frame: np.ndarray) -> np.ndarray:
    """Where the drawn dice's faces are (their body colour)."""
    return np.all(np.abs(frame.astype(int) - IVORY) < 12, axis=2)


@pytest.mark.parametrize("seed", range(3))
def test_dice_on_a_printed_table_are_read_without_its_patches(seed):
    """Regression: each square of the print stood out from the table's median like a die (63 dice were found for
    2, most read as blank). Its colours cover more of the frame than any dice could: they are the table's."""
    frame = _printed_table(seed)
    _draw_die(frame, (480, 400), 3)
    _draw_die(frame, (760, 560), 5)
    reading = read_dice(frame, expect=2)
    assert reading.status is Status.OK, reading.message
    assert sorted(reading.values) == [3, 5]


def test_a_print_is_flagged_and_a_die_is_not():
    """The print's colours are common in the frame; a die's, however many dice, are not."""
    frame = _printed_table(0)
    _draw_die(frame, (480, 400), 3)
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    table = np.empty_like(lab)
    table[:] = cv2.cvtColor(np.uint8([[BASE]]), cv2.COLOR_BGR2Lab)[0, 0]
    found = printed(lab, table, 24.0, 16.0, dice_area(4, SIDE))
    assert found[_ivory(frame)].max() == 0, "the die's face is no print"
    square = cv2.cvtColor(np.uint8([[TEAL]]), cv2.COLOR_BGR2Lab)[0, 0]
    teal = np.all(np.abs(lab.astype(int) - square) < 8, axis=2)
    assert found[teal].mean() > 250, "the teal squares are the table's print"


def test_a_plain_table_has_no_print():
    """On a plain cloth nothing but the dice stands out, and the dice are few: nothing is print."""
    frame = np.full((480, 640, 3), BASE, np.uint8)
    _draw_die(frame, (200, 200), 6)
    _draw_die(frame, (400, 300), 2)
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    table = np.empty_like(lab)
    table[:] = cv2.cvtColor(np.uint8([[BASE]]), cv2.COLOR_BGR2Lab)[0, 0]
    found = printed(lab, table, 24.0, 16.0, dice_area(2, SIDE))
    assert found[_ivory(frame)].max() == 0, "the dice's faces are no print"
    assert found[5:50, 5:50].min() == 255, "the cloth itself is the table's (it stands out from nothing)"


def test_only_the_pixels_counted_make_a_look_common():
    """Many dice alike make their own colour common; counted away from them, it is no print (the teal still is)."""
    frame = _printed_table(0)
    centres = [(240 + 130 * k, 420 + 60 * (k % 2)) for k in range(7)]
    for centre in centres:
        _draw_die(frame, centre, 0)
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2Lab)
    table = np.empty_like(lab)
    table[:] = cv2.cvtColor(np.uint8([[BASE]]), cv2.COLOR_BGR2Lab)[0, 0]
    few = dice_area(1, SIDE)  # as if one die were expected: seven faces cover more than one could
    assert printed(lab, table, 24.0, 16.0, few)[_ivory(frame)].mean() > 250
    away = np.ones(frame.shape[:2], np.uint8)
    for cx, cy in centres:
        away[cy - SIDE : cy + SIDE, cx - SIDE : cx + SIDE] = 0
    found = printed(lab, table, 24.0, 16.0, few, away)
    assert found[_ivory(frame)].max() == 0, "the dice's faces are no print once counted away from the dice"
    square = cv2.cvtColor(np.uint8([[TEAL]]), cv2.COLOR_BGR2Lab)[0, 0]
    assert found[np.all(np.abs(lab.astype(int) - square) < 8, axis=2)].mean() > 250, "the teal is the print still"
