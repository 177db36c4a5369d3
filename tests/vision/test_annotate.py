"""The picture a person checks: every label sits on its own dark box, readable on any photo and OpenCV."""

import numpy as np

from fantan_table.vision.annotate import _AMBER, annotate
from fantan_table.vision.reader import DieReading, Reading, Status


def test_the_verdict_is_written_on_a_dark_box_even_on_a_white_picture():
    white = np.full((480, 640, 3), 255, np.uint8)
    die = DieReading(None, (320.0, 240.0), ((320.0, 240.0), (60.0, 60.0), -90.0), 0.0, "a doubt")
    out = annotate(white, Reading(Status.UNSURE, (die,), "die at (320, 240): a doubt"))
    banner = out[4:34, 4:300]
    dark = np.all(banner < 40, axis=2).mean()
    amber = np.all(np.abs(banner.astype(int) - _AMBER) < 40, axis=2).mean()
    assert dark > 0.5 and amber > 0.01  # text in the verdict's colour on black, not white on white
