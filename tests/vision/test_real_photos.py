"""The reader on a few real webcam photos (tests/data/dice-photos, with their licence in SOURCE.md).

These photos are hard for it (a slanted view, side faces, clutter), so what is held here is the
discipline: on real pictures it may say "unsure", but it must not be wrong when it is sure, and
it must keep reading the photos it reads today.
"""

from collections import Counter
from pathlib import Path

import cv2
import pytest

from fantan_table.vision.dataset import read_labels
from fantan_table.vision.outlines import CUT_BY_EDGE
from fantan_table.vision.profile import load_profile
from fantan_table.vision.reader import Status, read_dice

HERE = Path(__file__).resolve().parent
PHOTOS = HERE.parent / "data" / "dice-photos"
PROFILE = HERE.parents[1] / "calibration" / "profiles" / "dice-photos"
SAMPLES = read_labels(PHOTOS)
READ_TODAY = {
    "train_two_10.jpg",
    "train_three_1.jpg",  # one die split along its row of pips, joined again
    "train_three_36.jpg",
    "train_four_3.jpg",
    "train_four_25.jpg",
    "train_six_9.jpg",
    # side faces full of pips: read by the round pips of each die's top face
    "train_dice_17.jpg",
    "train_five_16.jpg",
    "train_four_43.jpg",
    "train_six_58.jpg",
    "train_dice_25.jpg",  # a faint die, its outline found again against the table right around it
    "valid_50.jpg",
    "valid_81.jpg",
    "valid_9.jpg",
}


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.image.name for s in SAMPLES])
def test_never_wrong_when_sure(sample):
    """As at the table, which always knows how many dice were rolled."""
    reading = read_dice(cv2.imread(str(sample.image)), load_profile(PROFILE), expect=len(sample.values))
    if reading.status is Status.OK:
        assert Counter(reading.values) == Counter(sample.values), reading


def test_reads_the_photos_it_reads_today():
    profile = load_profile(PROFILE)
    read = {
        s.image.name
        for s in SAMPLES
        if (r := read_dice(cv2.imread(str(s.image)), profile, expect=len(s.values))).status is Status.OK
        and Counter(r.values) == Counter(s.values)
    }
    assert read >= READ_TODAY, f"no longer read: {sorted(READ_TODAY - read)}"


def test_a_die_grazing_the_frames_edge_is_not_missed_without_a_count():
    """valid_62's 1 touches the top edge with a corner and its rim: it is read, not silently left out."""
    sample = next(s for s in SAMPLES if s.image.name == "valid_62.jpg")
    reading = read_dice(cv2.imread(str(sample.image)), load_profile(PROFILE))
    assert reading.status is Status.OK and Counter(reading.values) == Counter(sample.values)


ON_THE_CUT = 2
"""Pixels from a die's centre (as read from the whole photo, and rounded) to the column the photo is cut at."""


@pytest.mark.parametrize(("name", "cut_at"), [("train_four_43.jpg", 509), ("train_three_36.jpg", 427)])
def test_a_die_the_pictures_edge_cuts_in_half_leaves_a_roll_of_no_given_count_unsure(name, cut_at):
    """The photo cut through the middle of a die: the built-in reader's network sees it at the new edge, and the
    roll, read without it, would pay the wrong number (before, each read ok, with too few dice)."""
    sample = next(s for s in SAMPLES if s.image.name == name)
    whole = cv2.imread(str(sample.image))
    assert any(abs(d.center[0] - cut_at) < ON_THE_CUT for d in read_dice(whole).dice)  # a die's centre lies on the cut
    reading = read_dice(whole[:, :cut_at].copy())
    assert reading.status is Status.UNSURE
    assert reading.message == "a die cut by the right edge of the picture: roll the dice into view, or say how many"


def test_no_count_a_die_half_out_of_the_frame_leaves_the_roll_unsure():
    """train_dice_37: three 1s, one of them half out of the frame at the bottom. The outlines (read first, as the
    webcam sees side faces) left it out, and the roll was read as two 1s, sure."""
    reading = read_dice(cv2.imread(str(PHOTOS / "train_dice_37.jpg")), load_profile(PROFILE), expect=None)
    assert reading.status is Status.UNSURE
    assert [d.value for d in reading.dice if d.problem is None] == [1, 1]
    assert [round(d.center[1], -1) for d in reading.dice if d.problem == CUT_BY_EDGE] == [450]
