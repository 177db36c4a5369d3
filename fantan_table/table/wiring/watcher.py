"""When to read the dice by itself: once the cup is gone and the dice have lain still for a few frames.

The watcher sees the reader's result for every frame after *no more bets*. It starts unarmed: dice
already lying there when betting closed are last round's (or the banker's, put down early), never a
roll. A frame without the expected number of dice is the cup (which hides them; a coin or a tile
edge may still show) and arms it. Then the expected number of dice, showing the same values in the same places for
``still_frames`` frames in a row, are the roll, and that frame decides, whatever the reader thinks
of it (a cocked die is an unsure reading to record, not a reason to wait); an unsure reading must hold
twice as long, since settling dice, blurred, read unsure until they lie still. After deciding it waits
to see the cup again, so a re-roll is never the old dice read twice. Any other count never decides
by itself: a die hidden or off the table is for the banker to call with *read*.
"""

from __future__ import annotations

import math

from ...vision.reader import Reading, Status

STILL = 0.15
"""A die has not moved when its centre moved less than this share of its side between two frames."""


UNSURE_WAIT = 2
"""An unsure reading must stay the same this many times longer than an ok one to decide: dice still settling
(blurred by their motion) read unsure, and waiting a few frames more costs nothing where a re-roll costs a round."""


class CupWatcher:
    def __init__(self, still_frames: int = 3, expect: int = 4) -> None:
        self.still_frames, self.expect = still_frames, expect
        self.armed = True
        self._previous: Reading | None = None
        self._streak = 0

    def arm(self) -> None:
        """Read the next still dice without waiting for the cup (the table resumed with betting closed: the cup
        may have come off before the restart; dice lying as last round's still ask SHAKEN?)."""
        self.armed, self._previous, self._streak = True, None, 0

    def disarm(self) -> None:
        """Wait for the cup to come down before the next reading (bets just closed, or a reading was taken)."""
        self.armed, self._previous, self._streak = False, None, 0

    def feed(self, reading: Reading) -> Reading | None:
        """The reading to record, once the dice have been still long enough; otherwise None."""
        if len(reading.dice) != self.expect:
            self.armed, self._previous, self._streak = True, None, 0
            return None
        if not self.armed:
            return None
        self._streak = self._streak + 1 if _alike(reading, self._previous) else 1
        self._previous = reading
        if self._streak >= (self.still_frames if reading.status is Status.OK else UNSURE_WAIT * self.still_frames):
            self.disarm()
            return reading
        return None


def _alike(a: Reading, b: Reading | None) -> bool:
    if b is None or len(a.dice) != len(b.dice) or a.status != b.status:
        return False
    unmatched = list(b.dice)
    for die in a.dice:
        side = max(die.box[1])
        near = [d for d in unmatched if d.value == die.value and math.dist(d.center, die.center) < STILL * side]
        if not near:
            return False
        unmatched.remove(near[0])
    return True
