"""The cup watcher reads once the dice lie still after the cup, and never reads the same roll twice."""

from __future__ import annotations

from fantan_table.table.wiring.watcher import UNSURE_WAIT, CupWatcher
from fantan_table.vision.reader import Status

from .conftest import SPOTS, reading

CUP = reading(())
ROLL = reading((1, 2, 3, 4))


def test_dice_still_for_n_frames_decide() -> None:
    watcher = CupWatcher(still_frames=3)
    assert watcher.feed(CUP) is None
    assert watcher.feed(ROLL) is None and watcher.feed(ROLL) is None
    assert watcher.feed(ROLL) is ROLL


def test_moving_dice_start_the_count_again() -> None:
    watcher = CupWatcher(still_frames=2)
    rolling = reading((1, 2, 3, 4), spots=tuple((x + 40, y) for x, y in SPOTS))
    assert watcher.feed(rolling) is None and watcher.feed(ROLL) is None  # moved 40 px: not still yet
    assert watcher.feed(ROLL) is ROLL


def test_a_blurred_face_read_differently_is_not_still() -> None:
    watcher = CupWatcher(still_frames=2)
    blurred = reading((1, 2, None, 4), Status.UNSURE)
    assert watcher.feed(blurred) is None and watcher.feed(ROLL) is None and watcher.feed(ROLL) is ROLL


def test_after_deciding_it_waits_for_the_cup_again() -> None:
    watcher = CupWatcher(still_frames=1)
    assert watcher.feed(ROLL) is ROLL
    assert all(watcher.feed(ROLL) is None for _ in range(5))  # the same dice lying there: not a new roll
    assert watcher.feed(CUP) is None and watcher.feed(ROLL) is ROLL


def test_four_dice_read_unsure_are_decided_too_after_waiting_longer() -> None:
    """A cocked die is a reading to report (the table then asks for a re-roll), not a reason to wait forever; but
    settling dice read unsure too while blurred, so an unsure reading must hold UNSURE_WAIT times as long."""
    watcher = CupWatcher(still_frames=2)
    cocked = reading((1, 2, 3, None), Status.UNSURE, message="die at (1, 2): cocked or stacked")
    waits = UNSURE_WAIT * 2 - 1
    assert all(watcher.feed(cocked) is None for _ in range(waits)) and watcher.feed(cocked) is cocked


def test_settling_dice_read_unsure_then_ok_decide_on_the_still_frames() -> None:
    """The simulated camera's first frames after the lift are blurred and read unsure (a blurred pip is a mark
    not counted): they must not decide; the sharp frames after them do."""
    watcher = CupWatcher(still_frames=2)
    blurred = reading((1, 2, None, 4), Status.UNSURE, message="die at (1, 2): 2 pips counted, but 3 marks")
    assert watcher.feed(CUP) is None
    assert watcher.feed(blurred) is None and watcher.feed(blurred) is None
    assert watcher.feed(ROLL) is None and watcher.feed(ROLL) is ROLL


def test_a_coin_beside_the_cup_is_not_a_roll() -> None:
    watcher = CupWatcher(still_frames=2)
    coin = reading((0,), Status.UNSURE, message="found 1 dice, expected 4")
    assert all(watcher.feed(coin) is None for _ in range(20))
    assert watcher.feed(ROLL) is None and watcher.feed(ROLL) is ROLL
    assert watcher.feed(ROLL) is None and watcher.feed(coin) is None and watcher.armed
