"""Read the dice in one camera frame: where each die is, what its top face shows, and how sure we are.

A wrong confident reading costs money at the table, so every doubt makes the reading ``unsure``
with the reason, and the table asks for a re-roll. The steps:

1. Find the dice twice: the learned finder (``finder``) boxes each top face, and the outlines
   (``outlines``) find each die's body against the table (a blank face has no pips to find).
   The network's dice are read first; with no count given, the outlines must find as many
   dice in the same places, or the roll is unsure. A camera well to the side, and faces learned
   from captures, read by the outlines alone (``_by_network``).
2. Read each die's face: the learned faces classifier (``classifier``: two small networks,
   their probabilities calibrated) on the die's crop, weighed against the pip count on the face
   scaled to ``FACE_PX`` (``pipcount``). A blank needs the count's positive evidence that
   nothing is on it; where the count could not read a face, the classifier reads alone only
   when very sure (``CLASSIFIER_ALONE``), else with the crop turned and mirrored or a model of
   another kind agreeing (``TURNED_ASKED``, ``SECOND_OPINION_SURE``).
3. Doubt what one box cannot tell: a glint taken for a 1's pip, a box on part of a die or on
   a side face, a die of another size or too near another, a die the network missed. Each
   check is a named bar with the DEV rolls it was chosen on in its docstring.
"""

from __future__ import annotations

import enum
import logging
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

from ..rules.dice import open_number
from .classifier import CLASSES, NOT_A_FACE, SYMMETRIES, builtin_feature_model, builtin_model, die_crop, symmetries
from .finder import FoundDie, builtin_finder, remembering_maps, shrunk, wholly_inside
from .marks import Mark
from .outlines import (
    NOT_SQUARE,
    RAGGED,
    body_mask,
    die_sized,
    empty_for,
    find_dice,
    region,
    shift,
    standing_out,
    table_look,
)
from .pipcount import FACE_MARGIN, MIDDLE_PIP_FACES, MarksSeen, at_middle, count_pips, face_marks, faint_middle
from .profile import LEARNED, Profile
from .quantiles import median
from .slant import disagreeing, leaning_apart
from .table_colours import dice_area, printed
from .topface import NO_ROUND_PIPS, RotatedBox, read_top_face

FACE_PX = 64
"""The side of the square crop a top face is scaled to for counting pips."""
MOST_DICE = 12
"""The most dice a frame holds when the caller does not say how many to expect (a game of many dice)."""
CLASSIFIER_ALONE = 0.999
"""The learned classifier reads a die the pip count could not read when it is at least this sure, in a box it may
read alone (``ALONE_FOUND_SURE``). Never a blank face: a blank needs the count's positive evidence
that nothing at all is on it. Judged die by die on the DEV scenes (stress 600000-600499, render.py 100000-100299,
byler 121-150) with the two built-in faces networks asked together: at 0.999 it read 798 dice alone, none wrong;
at 0.99 953, six wrong (0.6 %: a blank die's gloss spot as a 1, a real 4 as a 5, four boxes on no die), far more
than a roll's four dice can bear. Scene by scene the count of dice caught most of those, and 0.99 read 61 % of
the DEV stress scenes exactly against 49 %: a measure that hid the risk, and the bench's render.py scenes then
showed it (two blank dice's glare spots read as 1s at 0.99 and 0.998).

Tried again on 2026-11-28 (``tools/reader_dev_ab.py``, with the count): 0.995, a 1 still at 0.999 (a blank's gloss
spot). On 12,650 DEV rolls (every default set, wooden 654000-657999, stress 610000-612999) it read 365 more rolls
right and 4 newly wrong (wooden 651970, stress 612230, 612958, 612970): 1.1 % of the rolls it made ok, twice the
wrong-when-ok target. Die by die the dice read at 0.995-0.999 were wrong about as often as that bar allows (3 of
482, stress 600000-601499 and wooden 650000-651499), and one die decides a roll (612230: a box on part of a 4, read
as a 5); a die newly read also lets through a roll that its doubt had kept unsure for another die's error (651970:
a side face boxed as a die, read as a 1). Not kept. With 1s at 0.995 too, 2 of the first 247 rolls it made ok were
wrong (stress 600383 and wooden 651970: blanks read as 1s)."""
TURNED_ASKED = 1 - SYMMETRIES * (1 - CLASSIFIER_ALONE)
"""Where the built-in classifier gives a die the count could not read a face of two pips or more at least this (0.992),
but less than ``CLASSIFIER_ALONE``, it is asked again of the crop turned and mirrored (``turned_probabilities``),
and reads the die alone where its mean probability over the ``SYMMETRIES`` reaches ``CLASSIFIER_ALONE``. Below this
the mean cannot reach the bar: each of the eight must be at least this, the others giving at most 1.

A network errs on one crop partly by its pixels' accident, and the same face turned or mirrored errs otherwise. Die
by die on DEV (stress 600000-601499 and 610000-612499, wooden 650000-651499) 135 dice were read this way, none
wrong. Through the reader with the count (``tools/reader_dev_ab.py``) it read 22 more stress rolls right (of 4,000:
600000-601499, 610000-612499) and 32 more wooden ones (of 5,510: 650000-653509, 654000-655999), none wrong; render.py
100000-100299, byler 121-150 and dice-photos train did not change. With no count (stress 600000-601499, wooden
650000-653509), 1 more stress roll and 6 more wooden ones, none wrong. It costs 0.7 ms a stress DEV frame and
nothing measurable on a render.py one.

Not kept: asking 1s too (a 1's commonest error, a blank's gloss spot, is as symmetric as its pip, so turning it
adds no evidence against it; with 1s, stress 610824 went wrong: a real 1 read this way no longer hid the roll's blank
whose gloss spot was counted as a 1); and pooling the eight as the two networks are, by a renormalised geometric
mean, which is surer than its surest reading where each lays its doubt on another face (it read 315 dice, one
wrong: a fifth box beside a die, 612280, read as a 6)."""
SECOND_OPINION_SURE = 0.99
"""Where the count could not read a die and the networks are at least this sure of a face of two pips or more,
but short of ``CLASSIFIER_ALONE`` (turned and mirrored too), in a box they may read alone, the die is read if the
built-in gradient-feature model (``classifier.builtin_feature_model``), a learned model of another kind, puts its
first choice on that face and gives it more than all others together (``SECOND_OPINION_MAJORITY``): both kinds must
err alike. Not asked (``second_opinion``) where the face shows fewer marks than that face has pips, nor where a glint
could be its middle pip. 0.99 asks as much as a blank does (``BLANK_SURE``).

Die by die on the DEV dice where it was found (stress 600000-601499, wooden 650000-651499), the networks were right
on 97-98 % of such dice at 0.95-0.999, too few to read alone; where the gradient model agreed by majority, at 0.99,
on 138 of 139 (the other a box on no die). Through the reader with the count (``tools/reader_dev_ab.py``) on other DEV
rolls (stress 610000-612499, wooden 652000-653509 and 654000-655999) it read 18 more stress rolls right and 21 more
wooden ones, none wrong; byler 121-150 one more, dice-photos train five more, render.py 100000-100299 none. With no
count (stress 600000-601499, wooden 650000-651999), 5 more stress rolls and 6 more wooden ones, none wrong. It
costs 0.1 ms a stress DEV frame and nothing measurable on a render.py one. Without
its checks it read two of them wrong: stress 612230 (a box on part of a purple 4 showing three marks, a 5 to both
kinds) and wooden 655753 (a glint in the middle of a 2, a 3 to both, whose turned crops' mean is short of 0.99).

0.98 was tried on 2026-11-27, with the count, on every DEV set: 5 more stress rolls right (600000-601499), 8 more
wooden (650000-653509) and 2 more dice-photos train, but one of the latter newly ok and wrong (two_29: a 2's die
boxed on its front side face, a 4 to both kinds of model). Not kept."""
SECOND_OPINION_MAJORITY = 0.5
"""The gradient-feature model's share of the face it agrees on: more than every other face's together."""
MARKS_AGREE_SURE = 0.99
"""Where the count saw as many pip-like marks as the classifier's first face but could not read them as that face
(their layout off the face's pattern, or pips that differ from the face in colour more than in lightness), the
classifier reads the die if at least this sure, in a box it may read alone (``ALONE_FOUND_SURE``);
from one mark only where it lies as a 1's pip and looks like no glint (``MarksSeen.whole_face``): a blank's gloss spot
is one mark too. On DEV (stress 600000-600499, render.py 100000-100299, byler 121-150, count given) it read 12 more
dice, none wrong, and 2 more stress scenes exactly (288 -> 290 of 500); 0.95 read 17 and 0.9 read 21, none wrong
either: 0.99 asks as much as a blank does (``BLANK_SURE``). With any one mark allowed, a stress blank's gloss spot
was read as a 1.

One mark that is no glint, in the middle, was allowed on 2026-11-27: a 1's pip as light as its die, told from it by
colour alone (stress DEV 600540, red on purple; the classifier 0.9989 sure). Through the reader with the count
(``tools/reader_dev_ab.py``) it read 23 more stress rolls right (of 4,000: 600000-601499, 610000-612499) and 27
more wooden ones (of 5,510: 650000-653509, 654000-655999), none wrong and none lost; render.py 100000-100299, byler
121-150 and dice-photos train did not change. With no count, 3 more stress rolls (600000-601499) and 3 more
wooden ones (650000-653509), none wrong."""
ALONE_FOUND_SURE = 0.6
"""The network's score for a box the classifier reads alone: the side faces and table patches it boxed that the
classifier was sure held a face scored 0.53-0.57; few real dice score below (1.4 % of the DEV scenes).

An outline's box whose shape showed no problem (within ``max_aspect`` and ``min_squareness``, of the dice's size, and
not ragged where it stood alone) is read alone as the network's are. It was once kept from it, as such a box may
still take in a side face's pips; on DEV the classifier, asked where the count could not read a die, was right on
each of the 133 stress dice in such boxes it was 0.999 sure of (one wrong at 0.995). Read alone there, with the
count, 11 more stress rolls (600000-600499) and 96 more wooden ones (650000-652009, 674 -> 770 of 2,010) read right,
4 and 36 more with no count; no roll went wrong, and render.py 100000-100299, byler 121-150 and dice-photos train
did not change."""
ONE_MARK_SURE = 0.95
"""A count of one pip stands only where the classifier gives the 1 at least this: a gloss spot on a blank die
counts as one light pip. On the DEV dice at the network's boxes, the one blank counted as a 1 had the classifier
at 0.79; 0.99 turned away 31 of the 344 real 1s counted, 0.95 14. With the networks asked since 2026-11-26
(``cnn.BUILTIN_PATHS``) that blank has 0.63, and 0.95 turns away 18 of the 307 real 1s counted at the finder's
boxes (render.py 15, stress 3, byler 0).

It holds for a pip darker than the face too, though no gloss spot is darker: a count of one dark pip where the
classifier's first choice was the 1, not surely, was tried on 2026-11-27 (``tools/reader_dev_ab.py``, every DEV set,
with the count). It read 6 more wooden rolls and 1 dice-photos roll right, and 2 wrong: stress 601078, a 4 whose
box showed one dark pip, and dice-photos train dice_46. The bar guards against boxes off their dice as well."""
BLANK_SURE = 0.99
"""A face counted blank stands only where the classifier gives the blank at least this: nothing counted is no
proof of a plain face (pips too small, faint or near the body's colour read the same), so the classifier's word
must be strong, not merely its first choice. On the DEV dice at the network's boxes (stress 600000-600499,
render.py 100000-100299, byler 121-150), a stress 4 whose pips nothing found had the classifier at 0.95-0.99 for
a blank; 0.99 turns it away (and with it 10 of the 287 real blanks counted in boxes found surely). Simulated scene by
scene: render.py DEV 92.7 -> 91.3 % exact, stress 49.0 -> 48.8 % (the real reader, with the outlines' second
try: 95.0 -> 94.7 %, 49.0 -> 48.8 %). With the networks asked since 2026-11-26, no die counted blank on those
sets is another face, and 0.99 turns away 12 of the 288 real blanks counted in boxes found surely."""
FAILURES: Counter[str] = Counter()
"""Readings that failed on a bug, by exception type, since the program started (see ``read_dice``)."""
_log = logging.getLogger(__name__)


class Status(enum.Enum):
    OK = "ok"
    UNSURE = "unsure"
    ERROR = "error"


@dataclass(frozen=True)
class DieReading:
    value: int | None
    """Pips on the top face, or ``None`` when they could not be read."""
    center: tuple[float, float]
    box: RotatedBox
    """``((cx, cy), (w, h), angle)`` in frame pixels, as OpenCV's rotated rectangles."""
    confidence: float
    problem: str | None = None

    def doubted(self, problem: str) -> DieReading:
        """This die unread, for ``problem``: a check after its reading found it wanting."""
        return DieReading(None, self.center, self.box, 0.0, problem)


@dataclass(frozen=True)
class Reading:
    status: Status
    dice: tuple[DieReading, ...]
    message: str = ""

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice if d.value is not None)

    @property
    def total(self) -> int | None:
        return sum(self.values) if self.status is Status.OK else None

    @property
    def open_number(self) -> int | None:
        return open_number(self.values) if self.status is Status.OK else None


def read_dice(image: np.ndarray | None, profile: Profile | None = None, expect: int | None = None) -> Reading:
    """Read every die in a BGR frame. With ``expect``, any other number of dice is ``unsure``.

    Never raises: a picture that breaks the reader is a bug, but the table must go on (the banker enters the
    dice by hand), so it becomes an ``error`` reading; it is logged with its traceback and counted in
    ``FAILURES`` so that it stays visible."""
    profile = profile or Profile()
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        return Reading(Status.ERROR, (), "not a colour picture (expected an 8-bit BGR frame)")
    if image.size == 0:
        return Reading(Status.ERROR, (), f"an empty {image.shape[1]}x{image.shape[0]} picture: check the camera")
    try:
        return _read_dice(np.ascontiguousarray(image), profile, expect)
    except Exception as exc:  # the last line of defence: every cause found is fixed where it happens
        FAILURES[type(exc).__name__] += 1
        _log.warning("the dice reader failed on a %dx%d picture", image.shape[1], image.shape[0], exc_info=True)
        what = f"{type(exc).__name__}: {next(iter(str(exc).strip().splitlines()), '')}"
        return Reading(Status.ERROR, (), f"the reader failed ({what}), a bug: roll again or enter the dice by hand")


def _read_dice(image: np.ndarray, profile: Profile, expect: int | None) -> Reading:
    frame, origin = region(image, profile)
    if frame.size == 0:
        return Reading(
            Status.ERROR,
            (),
            f"the region of interest {profile.roi} lies outside the {image.shape[1]}x{image.shape[0]} frame",
        )
    with remembering_maps():  # the network looks at the frame once, whichever checks ask it
        reading = _read_roll(image, frame, origin, profile, expect)
        if reading.status is Status.OK and _by_network(profile):
            if expect is None:
                reading = _unless_missed(frame, origin, reading, profile)
            else:
                reading = _unless_stood_in(frame, origin, reading, profile)
                reading = _unless_lost_when_turned(frame, origin, reading)
            reading = _unless_faces_beside_disagree(frame, origin, reading)
    if reading.status is not Status.OK or profile.side_faces:  # (a die's box holds its side faces there)
        return reading
    doubt = _too_near(reading.dice) or _odd_size(reading.dice) or _seen_from_two_sides(frame, origin, reading.dice)
    return Reading(Status.UNSURE, reading.dice, doubt) if doubt else reading


def _by_network(profile: Profile) -> bool:
    """Whether the profile reads the network's dice first.

    Faces learned from captures were learned from crops of the outlines' boxes: only those boxes suit them. A camera
    well to the side (side_faces) sees side faces as large as the top: the network, taught on cameras within 35
    degrees of straight down, may box one, where the outlines' top-face reading tells them apart."""
    return profile.finder == LEARNED and profile.faces is None and not profile.side_faces


def _read_roll(
    image: np.ndarray, frame: np.ndarray, origin: tuple[int, int], profile: Profile, expect: int | None
) -> Reading:
    """The roll in ``frame`` (``image``'s region of interest), by the network's dice or their outlines or both."""
    network = _by_network(profile)
    if network:
        learned = _reading(frame, origin, _found_by_network(frame, expect), profile, expect)
        if learned.status is Status.OK and expect is not None:
            return learned
    shapes = _reading(frame, origin, _found_by_shapes(image, frame, profile, expect), profile, expect)
    if not network:
        if expect is None and shapes.status is Status.OK:
            # no count to check it against: a die whose outline was missed would go unnoticed (dice-photos train,
            # side faces on: 8 of the 9 rolls read sure and wrong held too few dice; the network found more in 8)
            return _outnumbered(shapes, len(_found_by_network(frame, None)[0]))
        return shapes
    if learned.status is Status.OK:
        # no count to check it against: a blank die the network missed, or a plain coin it took for one, would
        # go unnoticed; the outlines must find as many dice, none of them apart from the network's
        if len(shapes.dice) == len(learned.dice):
            return _unless_outlined_elsewhere(learned, shapes)
        return Reading(
            Status.UNSURE,
            learned.dice,
            f"the network finds {len(learned.dice)} dice, their outlines {len(shapes.dice)}: say how many",
        )
    if shapes.status is Status.OK:
        if expect is not None:
            return shapes
        # the same with no count to check against: dice the network found but could not read (byler DEV photo
        # IMG_20191209_100039: six dice, two unreadable, four outlines read) must not vanish from the roll, nor
        # may outlines the network saw no die in join it (a checked cloth's squares read as plain dice)
        if _same_places(shapes.dice, learned.dice):
            return shapes
        elsewhere = " elsewhere" if len(shapes.dice) == len(learned.dice) else ""
        return Reading(
            Status.UNSURE,
            shapes.dice,
            f"their outlines read {len(shapes.dice)} dice, the network finds {len(learned.dice)}{elsewhere}: say how"
            " many",
        )
    merged = _merged(learned, shapes, expect)
    if merged is not None:
        # with no count, the network's dice with a few of their outlines' are checked as the network's own roll
        return merged if expect is not None else _unless_outlined_elsewhere(merged, shapes)
    # neither could read the roll: the network's reason, unless it missed dice its outlines found
    if expect is None:
        return learned if len(learned.dice) >= len(shapes.dice) else shapes
    return learned if len(learned.dice) == expect or len(shapes.dice) != expect else shapes


MISSED_FACE_SURE = 0.8
"""With no count given, a peak of the network's too weak to be a die (from ``FILL_FOUND`` to its threshold), a side
or more from every die read, where the classifier sees a face with pips at least this surely, leaves the roll
unsure: a die the network found weakly and its outlines missed too would go unnoticed. Blank faces are left out: a
coin or a patch of table looks the same (``BLANK_FOUND_SURE``).

Studied on rolls read ok with no count. On a first drawing of wooden dice (stress seeds 650000-650149, grained much
as ``stress_scene(wooden=True)`` now draws them) it turned the one wrong roll (a 4 found at 0.48, the classifier
sure of it) unsure and none of the 16 right; the wooden dice as now drawn show no such roll. On DEV (stress
600000-600499: 137 rolls, render.py 100000-100299: 278, byler 121-150: 9) it turned none. On dice-photos train
(which the network learned) it turned 2 of 138 right rolls, a cable's tag printed "120" taken for a 6. On DEV and
the wooden dice any bar from 0.5 to 0.95 did the same.

Weaker peaks were tried too, on 2026-11-27, and cost more than they saved. With no count, 5 of the 264 wooden rolls
read ok on fresh DEV seeds (654000-655999) were wrong. In 4 of them the network missed a large die (three
plain-grained 2s and a blank), its peaks there 0.24 at most. Peaks down to 0.15, of the dice's own size
(``SAME_SIZE``), turned 2 of those 5 unsure. They also turned 7 right rolls of 2,116 unsure (every DEV set, and the
fresh stress and wooden seeds): polka dots read as a 5, and 3 of the 138 dice-photos train rolls, at the pictures'
edges."""


TURNED_FOUND = 1.0
"""With no count given, the network looks again at the picture turned a quarter (``DiceFinder.find_turned``): a
die it finds there at least this share of its threshold (1: as surely as a die it finds at all), a side or more from
every die read, where the classifier sees a face (blank or not) at least ``MISSED_FACE_SURE``, leaves the roll
unsure. The network is not the same net turned: a die it scored 0.40-0.46 it found turned at 0.51-0.91.

Of the 5 wrong wooden rolls read with no count on DEV (650000-653509, 656000-657999), 4 held a large die the
network and its outlines both missed (a walnut 2 and two blanks on light wood, a 4 on grained wood); the turned look
found each, the classifier sure of its face, and turned all 4 unsure (the fifth, 652865, is a die misread). It
turned 8 of 1,733 right rolls unsure (``tools/reader_dev_ab.py --no-count``, every default DEV set, wooden
656000-657999 and stress 612000-612999): dice-photos train's cable tag, wooden 650244's finger and other plain
things the classifier took for blank dice. Without the classifier's word, the coins, fingers and rulers' marks the
turned look boxed made 31 of the 1,230 right rolls of the default sets unsure. A frame read with no count costs one more
look of the network (6.4 ms on one core, 1280x960, when cv2.dnn ran it; about 4 ms on ONNX Runtime). With a count, the
missing die shows unless something else made up the count: ``_unless_stood_in`` looks there too, where the network
half saw a die."""


def _unless_missed(frame: np.ndarray, origin: tuple[int, int], reading: Reading, profile: Profile) -> Reading:
    """The roll read with no count, unsure where the network saw a die that no die read explains: one cut by the
    frame's edge, a face with pips found weakly, or a face it finds in the picture turned (``TURNED_FOUND``).

    A die that rolled partly out of the camera's view (or of the region of interest) is on the table, but it cannot
    be read, and the roll is not whole without it; with a count, the missing die already leaves the roll unsure.
    The network was taught that a cut die is no die, so it finds few. Rolls it read right with no count (dice-photos
    train, which it learned; byler 121-150, render.py 100000-100099 and stress 600000-600199, DEV), each picture cut
    so that its edge runs through one die, were read ok without that die: with a quarter of the die cut off 490 of
    682 before, 355 now; cut through the middle 453 of 654 before, 426 now; with three quarters cut off 402 of 619
    before, 389 now. Of the uncut rolls read right with no count (those sets, wooden 650000-653509, stress
    600000-601499, render.py 100000-100299) it turned 3 of 1,207 unsure: a tile reaching in over the edge in wooden
    651078 and render.py 100267, and in wooden 653234 a die drawn mostly outside the frame, which the renderer does
    not count."""
    finder = builtin_finder()
    read = _places_read(reading, origin)
    unexplained = [die for die in finder.find(frame, FILL_FOUND) if not _explained(die, read)]
    cut = [die.box for die in unexplained if not wholly_inside(die.box, frame.shape)]
    if cut:
        seen = "picture" if profile.roi is None else "region of interest"
        return Reading(
            Status.UNSURE,
            reading.dice,
            f"a die cut by the {_edge_cutting(cut[0], frame.shape)} edge of the {seen}: roll the dice into view, or"
            " say how many",
        )
    weak = [die.box for die in unexplained if die.score < finder.threshold]
    weakly = _face_surely_seen(frame, weak, profile, blank=False)  # a coin or a patch of table is as plain
    if weakly is not None:
        where, face = weakly
        return Reading(
            Status.UNSURE,
            reading.dice,
            f"the network weakly sees a {face} at {_in_picture(where, origin)}, no die read: a die missed? say how"
            " many",
        )
    return _unless_found_turned(frame, origin, reading, read, profile, blank=True, advice="a die missed? say how many")


def _unless_stood_in(frame: np.ndarray, origin: tuple[int, int], reading: Reading, profile: Profile) -> Reading:
    """The roll read with a count, unsure where the network finds a face with pips in the picture turned that no die
    read explains (``TURNED_FOUND``): a die it missed, whose place in the count a side face or a patch of table
    took. It looks again only where it left a peak of at least ``FILL_FOUND`` that no die read explains, wholly in
    the picture: a die it half saw.

    Wooden DEV 653461: a clear black 6, 118 px across, the network scored 0.26-0.42 in parts; the count of four was
    made up by a side face of another die, read as a 3, 0.998 sure. Turned a quarter, the network found the 6 at
    0.65. 653290 the same (a green 6; a side face read as a 1). Through the reader with the count, every default
    DEV set (``tools/reader_dev_ab.py``): both became unsure, and 3 of 2,805 right rolls (a 3, a 5 and a 1 seen
    where no die lies whole); on fresh DEV seeds (wooden 654000-657999, stress 610000-611999: 2,779 right rolls, 2
    wrong) it changed none. Blanks are left out: tried first on every roll of the default sets, the turned look's
    blanks (a finger, a coin, a patch of table) made 21 more right rolls unsure and no wrong one. Asking the
    classifier at the weak peaks as well, as with no count, saved no other roll and lost 11 more right ones."""
    read = _places_read(reading, origin)
    if not any(
        wholly_inside(die.box, frame.shape) and not _explained(die, read)
        for die in builtin_finder().find(frame, FILL_FOUND)
    ):
        return reading
    advice = "a die missed, and a side face read in its place? roll again"
    return _unless_found_turned(frame, origin, reading, read, profile, blank=False, advice=advice)


WEAKLY_FOUND = 0.55
"""With a count given, a die read from a peak of the network's under this score is looked at again in the picture
turned a quarter (``TURNED_SHARE``). Real dice mostly score 0.7-0.9: on fresh DEV seeds, 8.5 % of the wooden rolls
read ok and 0.8 % of the stress ones held a die under 0.55, so the second look costs little time."""
TURNED_SHARE = 0.4
"""A die found under ``WEAKLY_FOUND`` that the network, in the picture turned a quarter, finds at less than this
share of its score (or not at all) leaves the roll unsure: a top face is a die's at any turn, and the network's two
looks at real dice agree (``DiceFinder.find_turned``), while a side face it boxed weakly may vanish when turned.

Wooden DEV 658563 and 658754 (fresh seeds): a camera 32 degrees off straight down; the network missed a die's top
face and boxed its side face instead (0.46 and 0.54; turned, 0.12 and 0.19), which read as a 1, and the roll of
four was ok and wrong. Chosen on the dice of rolls read ok with the count on wooden 658000-659999 and stress
614000-615499: among the pairs tried (0.5-0.6 under 0.3-0.5 of the score), 0.55 and 0.4 turned both wrong rolls
unsure and 2 of 829 right wooden rolls (0 of 915 stress); a bar on the turned score alone (under 0.1) lost 17.
Checked through the reader with the count (``tools/reader_dev_ab.py``): on every default DEV set it turned 2 of
2,805 right rolls unsure (stress 600222, wooden 651739) and left its 2 wrong rolls (other faults); on fresh seeds
(wooden 660000-661999, stress 616000-617499: 1,738 right rolls, none wrong) it changed none."""


def _unless_lost_when_turned(frame: np.ndarray, origin: tuple[int, int], reading: Reading) -> Reading:
    """The roll read with a count, unsure where a die the network found weakly, it barely finds in the picture
    turned (``WEAKLY_FOUND``, ``TURNED_SHARE``)."""
    finder = builtin_finder()
    peaks = [found for found in finder.find(frame, FILL_FOUND) if found.score < WEAKLY_FOUND]
    weak = [
        (die, centre, side, found.score)
        for die, (centre, side) in zip(reading.dice, _places_read(reading, origin), strict=True)
        for found in peaks
        if math.dist(found.box[0], centre) < SAME_DIE * side
    ]
    if not weak:
        return reading
    least = TURNED_SHARE * FILL_FOUND  # no weaker turned peak could stand for a die read
    turned = finder.find_turned(frame, least)
    for die, centre, side, score in weak:
        again = max((t.score for t in turned if math.dist(t.box[0], centre) < SAME_DIE * side), default=0.0)
        if again < TURNED_SHARE * score:
            where = f"({die.center[0]:.0f}, {die.center[1]:.0f})"
            seen = f"at {again:.2f}" if again else f"under {least:.2f}"
            return Reading(
                Status.UNSURE,
                reading.dice,
                f"the network finds the die at {where} weakly ({score:.2f}), and in the picture turned a quarter"
                f" {seen}: a side face? roll again",
            )
    return reading


FACE_BESIDE = 0.3
"""A peak of the network's within a side of a die read (from ``SAME_DIE`` to ``ANOTHER_DIE`` sides from its centre,
and nearer it than any other die read), scoring at least this share of the die's own peak, is a second face of that
die: a side face, where the network boxed the top face. It shows which way the die's side faces lie, as ``slant``
measures it from the die's colour, and the side faces of every die lie towards one place, the nadir
(``slant.leaning_apart``). Where two dice's second faces lie on sides no one camera shows, one of the boxes is a side
face and its second face the die's top: the roll is unsure.

A webcam at a slant shows a die's front face larger than its top. dice-photos train dice_46 in warmer light
(``tools/reader_dev_ab.py --perturb warm``, DEV): a 1 boxed on its 5-pip front face (0.60), its top face's peak
(0.40) above it, beside two dice whose second faces lie below them; read ok and wrong with the count. Stress DEV
621952 and wooden DEV 658337 (fresh seeds) the same, and dice-photos train two_29 as ``SECOND_OPINION_SURE`` at 0.98
read it (a trial, not kept). Chosen on the rolls read ok with the count of dice-photos
train and byler 121-150, each also perturbed the 11 ways, stress 600000-601499 and wooden 650000-651499 (4,237 right
rolls): 81 held two dice or more with a second face of at least 0.3 of their own, and in every one those faces lay
within 60 degrees of one way. Through the reader (``tools/reader_dev_ab.py``): no right roll lost on every default
DEV set with the count and without, nor on dice-photos train and byler 121-150 perturbed the 11 ways (with the
count); dice_46 warm turned unsure. A second face no other die's contradicts says nothing: a roll of one die,
or one die with a second face, is read as before (dice_8 mirrored and three_33 lighter still read wrong so)."""


def _unless_faces_beside_disagree(frame: np.ndarray, origin: tuple[int, int], reading: Reading) -> Reading:
    """The roll, unsure where the second faces the network sees beside the dice read (``FACE_BESIDE``) lie on sides
    no one camera shows: one die's box is on a side face."""
    if len(reading.dice) < 2:
        return reading
    read = _places_read(reading, origin)
    # one look at the peaks, down to the least a second face can score (every die is read from FILL_FOUND up)
    peaks = builtin_finder().find(frame, FACE_BESIDE * FILL_FOUND)
    nearest = [min(range(len(read)), key=lambda j: math.dist(p.box[0], read[j][0])) for p in peaks]
    leans: dict[int, np.ndarray] = {}
    for i, (centre, side) in enumerate(read):
        own = [p.score for p in peaks if p.score >= FILL_FOUND and math.dist(p.box[0], centre) < SAME_DIE * side]
        if not own:
            continue  # an outline's box the network saw no die in: nothing to weigh a second face against
        beside = [
            p
            for p, near in zip(peaks, nearest, strict=True)
            if near == i
            and SAME_DIE * side <= math.dist(p.box[0], centre) < ANOTHER_DIE * side
            and p.score >= FACE_BESIDE * max(own)
        ]
        if beside:
            second = max(beside, key=lambda p: p.score).box[0]
            way = np.array([second[0] - centre[0], second[1] - centre[1]])
            leans[i] = way / np.linalg.norm(way)
    boxes = [shift(d.box, (-origin[0], -origin[1])) for d in reading.dice]
    which = leaning_apart(frame.shape, boxes, leans)
    if not which:
        return reading
    where = ", ".join(f"({reading.dice[i].center[0]:.0f}, {reading.dice[i].center[1]:.0f})" for i in which)
    return Reading(
        Status.UNSURE,
        reading.dice,
        f"the network sees second faces beside the dice at {where} on sides no one camera shows: a side face boxed"
        " as a die? roll again",
    )


def _unless_found_turned(
    frame: np.ndarray,
    origin: tuple[int, int],
    reading: Reading,
    read: Sequence[tuple[tuple[float, float], float]],
    profile: Profile,
    blank: bool,
    advice: str,
) -> Reading:
    """The roll, unsure where the network finds a die in the picture turned a quarter (``TURNED_FOUND``), wholly
    in the picture, that no die read explains (``read``: ``_places_read``), and the classifier sees a face there (a
    blank too, if ``blank``); its message ends with ``advice``."""
    finder = builtin_finder()
    turned = [
        die.box
        for die in finder.find_turned(frame, TURNED_FOUND * finder.threshold)
        if wholly_inside(die.box, frame.shape) and not _explained(die, read)
    ]
    when_turned = _face_surely_seen(frame, turned, profile, blank=blank)
    if when_turned is None:
        return reading
    where, face = when_turned
    shown = "blank" if face == 0 else face
    said = f"the network sees a {shown} at {_in_picture(where, origin)} in the picture turned, no die read"
    return Reading(Status.UNSURE, reading.dice, f"{said}: {advice}")


def _places_read(reading: Reading, origin: tuple[int, int]) -> list[tuple[tuple[float, float], float]]:
    """Each die read's centre in the region's pixels (the network's), and its side."""
    return [((d.center[0] - origin[0], d.center[1] - origin[1]), max(d.box[1])) for d in reading.dice]


def _face_surely_seen(
    frame: np.ndarray, boxes: Sequence[RotatedBox], profile: Profile, blank: bool
) -> tuple[tuple[float, float], int] | None:
    """The centre of the first box where the classifier sees a face (a blank too, if ``blank``) at least
    ``MISSED_FACE_SURE``, and that face; None where it sees none so surely (or there are no boxes)."""
    if not boxes:
        return None
    for box, p in zip(boxes, faces_probabilities(frame, boxes, profile), strict=True):
        first = int(np.argmax(p))
        face = CLASSES[first]
        if face is not None and (blank or face != 0) and float(p[first]) >= MISSED_FACE_SURE:
            return box[0], face
    return None


def _in_picture(centre: tuple[float, float], origin: tuple[int, int]) -> str:
    """A centre in the region's pixels, written as where it lies in the whole picture."""
    return f"({centre[0] + origin[0]:.0f}, {centre[1] + origin[1]:.0f})"


def _explained(die: FoundDie, read: Sequence[tuple[tuple[float, float], float]]) -> bool:
    """Whether a die the network found lies within a side of a die read (``read``: each one's centre and side):
    dice do not overlap, so a peak that near is part of that die (a side face at a slant)."""
    return any(math.dist(die.box[0], centre) < max(side, *die.box[1]) for centre, side in read)


def _edge_cutting(box: RotatedBox, shape: tuple[int, ...]) -> str:
    """The edge of a ``shape`` frame that a box runs furthest over: "left", "right", "top" or "bottom"."""
    corners = cv2.boxPoints(box)
    over = {
        "left": -corners[:, 0].min(),
        "right": corners[:, 0].max() - shape[1],
        "top": -corners[:, 1].min(),
        "bottom": corners[:, 1].max() - shape[0],
    }
    return max(over, key=lambda edge: over[edge])


def _outnumbered(shapes: Reading, found: int) -> Reading:
    """The outlines' reading, unsure if the network found more dice than it holds."""
    outlined = len(shapes.dice)
    if found <= outlined:
        return shapes
    return Reading(
        Status.UNSURE, shapes.dice, f"their outlines read {outlined} dice, the network finds {found}: say how many"
    )


ANOTHER_DIE = 1.0
"""An outline at least this many sides (of the larger box) from every die the network read is another die, not one of
theirs: dice do not overlap, so the centres of two dice lie a side or more apart."""


TWO_DICE_LONG = 2.0
"""An outline whose box is at least this many times as long as the die the network read nearest to it holds more
than that die: two dice touching side by side make an outline two sides long, while one die's outline, its side
faces included, is at most sqrt(2) sides long at any slant of the camera (cos + sin of the slant <= sqrt(2)): the
bar is geometry's, not fitted.

On wooden DEV with no count (stress seeds 650000-652009), 6 of the 7 rolls read ok and wrong were a die missed among
touching ones, the outlines as many by chance, one of them a blob over several dice (2.1 to 3.2 times the nearest
die's side). This turned those 6 unsure, with 12 of the 208 right ones; on DEV stress (600000-600499) 4 of 133 right
(clutter outlined next to a die), on render.py 100000-100299, byler 121-150 and dice-photos train none."""


def _unless_outlined_elsewhere(learned: Reading, shapes: Reading) -> Reading:
    """The network's roll (with no count, also one that took a die it could not read from its outlines), unsure if
    one of its outlines' dice lies ``ANOTHER_DIE`` or more from every die it read, or is ``TWO_DICE_LONG`` times as
    long as the die read nearest it.

    Dice do not overlap: an outline that far from them all is another die (or something else), not one of theirs,
    even when the counts agree by chance. On wooden DEV dice (stress seeds 650000-650509, a look the network was
    not taught) the network read 4 rolls ok and wrong with no count: dice missed among touching ones, blank dice
    missed, each time the outlines as many by chance, one of them on the missed die or elsewhere. This turned all
    4 unsure, with 4 of 49 right ones; on dice-photos train it turned its one wrong roll (an extra die) and none of
    103 right; on DEV stress 4 of 137 right, render.py and byler none. Asking for the very same dice, one to one
    within ``SAME_DIE`` (as ``_same_places``), had turned 7 of 137 right DEV stress rolls (as drawn before the
    renderer's noise fix) unsure."""
    for outline in shapes.dice:
        x, y = outline.center
        if not any(_sides_apart(outline, d) < ANOTHER_DIE for d in learned.dice):
            return Reading(
                Status.UNSURE,
                learned.dice,
                f"their outlines see a die at ({x:.0f}, {y:.0f}) where the network read none: say how many",
            )
        # a die read lies within a side of this outline (above), so there is a nearest one
        nearest = min(learned.dice, key=lambda d: math.dist(d.center, outline.center))
        if max(outline.box[1]) >= TWO_DICE_LONG * max(nearest.box[1]):
            return Reading(
                Status.UNSURE,
                learned.dice,
                f"their outlines see something two dice long at ({x:.0f}, {y:.0f}): dice touching? say how many",
            )
    return learned


SAME_DIE = 0.5
"""Two readings' dice are the same die when their centres lie within this share of a side: dice do not overlap,
so two dice's centres lie a side or more apart."""


def _sides_apart(a: DieReading, b: DieReading) -> float:
    """How far apart two dice's centres lie, in the longest side of their two boxes (neither box may be empty)."""
    return math.dist(a.center, b.center) / max(*a.box[1], *b.box[1])


def _same_places(dice: Sequence[DieReading], others: Sequence[DieReading]) -> bool:
    """Whether two readings hold the same dice: as many, each within ``SAME_DIE`` of a side of one of the others."""
    if len(dice) != len(others):
        return False
    left = list(others)
    for die in dice:
        near = [d for d in left if _sides_apart(d, die) < SAME_DIE]
        if len(near) != 1:
            return False
        left.remove(near[0])
    return True


def _merged(learned: Reading, shapes: Reading, expect: int | None) -> Reading | None:
    """The network's roll with each die it could not read taken from its outlines' reading, or None.

    Neither reading holds the whole roll, but together they may: each die stands on the evidence of one finder
    read without doubt. The network must have found the dice in the roll (the count, or without one as many as
    the outlines), and each die it could not read must be one of the outlines' dice, read without a problem.

    A face the network doubted as plain (``PLAIN_DOUBT``) is not taken from the outlines as blank: they outline a
    plain square of table as readily as a blank die, so they are no second witness to it. Where they see pips on
    that die, they add evidence, and it is taken.

    The case: on wooden DEV dice (stress 650000-652009, with the count), two squares of a checked cloth, found weakly
    by the network and outlined as dice, read as two blank dice and the roll as ok and wrong (651960). Refusing them
    turned that roll unsure. On DEV (stress 600000-600499, those wooden dice, render.py 100000-100299, byler
    121-150, dice-photos train) it lost 4 of the 1,574 rolls read right with the count (blank dice the network
    found at 0.64 to 0.69: stress 1, wooden 3) and 3 of the 786 with no count (stress 1, wooden 2)."""
    if len(learned.dice) != (expect if expect is not None else len(shapes.dice)) or not learned.dice:
        return None
    dice: list[DieReading] = []
    for die in learned.dice:
        if die.value is not None and die.problem is None:
            dice.append(die)
            continue
        near = [d for d in shapes.dice if math.dist(d.center, die.center) < SAME_DIE * max(die.box[1])]
        if len(near) != 1 or near[0].value is None or near[0].problem is not None or near[0] in dice:
            return None
        if die.problem == PLAIN_DOUBT and near[0].value == 0:
            return None
        dice.append(near[0])
    return Reading(Status.OK, tuple(dice), "")


_Box = tuple[RotatedBox, str | None, float | None]
_Found = tuple[list[_Box], float, float]
"""The boxes found (with any problem seen in a die's shape, and the network's score for a box of its own), the
scale they are given at, and a die's height in the frame (dice are listed row by row)."""
BLANK_FOUND_SURE = 0.7
"""A die the network found reads blank only if it found it at least this sure: a plain patch of table, a side
face or a coin it took for a die reads blank too. On DEV stress and render.py scenes it kept 87 % of the blank
dice and 3 of 34 such patches (the network's threshold, 0.5, kept all).

Where no face is blank (``Profile.blank_face`` false: ordinary d6) a plain face is no die, found surely or not, and
is left out; until 2026-11-28 one found weakly stayed as a doubt and left the roll unsure. d6 stress DEV scenes
(``faces`` 1-6, seeds 600000-600999 and wooden 650000-650999) read with such a profile: with the count 3 more wooden
rolls right, none lost or wrong; with no count, none moved."""
PLAIN_DOUBT = "a plain face the network was not sure is a die: a blank die, or a patch of table?"
NOTHING_COUNTED_BUT = "no pips counted, but the learned classifier sees {}"
"""A count of none against the classifier's first choice: a face with pips, or no face at all."""
NO_FACE = NOTHING_COUNTED_BUT.format("not a face")
"""A box of the network's that reads so, with a count given and more boxes than it, is no die: on the DEV stress
scenes where the network boxed more than the dice rolled (50 of 500), 29 of the 69 boxes on no die read so and
none of the 197 on a die. Left out, 5 more scenes read exactly (57.6 % against 56.6 %) and none wrong. Leaving
out the weakest boxes instead read 17 more, but drops a die whenever one more lies on the table than the count."""


DROPPED_APART = 0.9
"""A box left out as no die (``NO_FACE``) to meet the count is a guess that the other boxes are the dice; it is made
only where no two of them lie nearer than this many sides. Touching dice lie a side apart, a little less seen at a
slant (0.91 at 25 degrees off straight down, where the gap between them is foreshortened); a die and its own side
face lie nearer. Wooden DEV 653533: a blank die was found at 0.59 and read as no face, and the box left out; a side
face of another die, 0.82 sides from its top face (just over ``APART``), read as a 6 at 1.0, and the roll was ok
and wrong. Of the 115 right rolls read so with the count (stress 600000-601499 and 610000-612999, wooden
650000-651999 and 654000-656999) the nearest two dice kept lay 0.99 sides apart or more: none lost."""


FILL_FOUND = 0.35
"""With a count given and fewer dice found at the network's threshold, its next strongest peaks down to this score
make up the count. On DEV (stress 600000-600499, byler 121-150) the network found too few dice in 35 scenes; the
peaks so added were all dice in 16 of them, not all in 6 (a side face, a patch of table), and too few in 13. The
reader then read 3 more scenes exactly and none wrong, at 0.25 as at 0.35. A box found so weakly never reads blank
(``BLANK_FOUND_SURE``) nor by the classifier alone (``ALONE_FOUND_SURE``).

The strongest peaks make up the count even where one lies nearer a die found than a side: wooden DEV 653290 took a
side face's peak (0.47, 0.86 sides from its die's top face) over a die's (0.45), and read ok and wrong. Tried on
2026-11-27 (``tools/reader_dev_ab.py``, with the count), and not kept: passing over a peak less than a side from a
stronger one read that roll right and 3 more wooden rolls, but lost stress 600222 (dice touching, 0.99 sides
apart); less than 0.9 sides lost stress 611812 (0.88 sides apart, a die in front of another) and gained nothing
on stress 610000-612499 and wooden 654000-655999. Taking every peak from this score on, and letting a count too
high leave the roll unsure, turned 653290 unsure and 2 unsure rolls right, but 10 right rolls unsure: of the 300
rolls where fewer peaks than the count reach the threshold and more reach this score (stress 600000-601499 and
610000-612499, wooden 650000-653509 and 654000-655999)."""


def _found_by_network(frame: np.ndarray, expect: int | None) -> _Found:
    finder = builtin_finder()
    least = None if expect is None else min(FILL_FOUND, finder.threshold)
    peaks = [die for die in finder.find(frame, least) if wholly_inside(die.box, frame.shape)]
    found = [die for die in peaks if die.score >= finder.threshold]
    if expect is not None and len(found) < expect <= len(peaks):
        strongest = sorted(peaks, key=lambda die: -die.score)[:expect]
        found = [die for die in peaks if die in strongest]
    boxes: list[_Box] = [(die.box, None, die.score) for die in found]
    return boxes, 1.0, median(np.array([die.box[1][0] for die in found])) if found else 1.0


def _found_by_shapes(image: np.ndarray, frame: np.ndarray, profile: Profile, expect: int | None) -> _Found:
    scale = min(1.0, profile.work_width / image.shape[1])  # sizes are shares of the whole frame, region or not
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame
    die_min, die_max = (share * image.shape[1] * scale for share in profile.die_size)
    empty = empty_for(profile, image, small.shape)
    mask, lab = body_mask(small, empty, profile, (die_min, die_max), expect or MOST_DICE)
    cut = expect is None and not _by_network(profile)  # the network's reading has its own check
    found = find_dice(lab, mask, die_min, die_max, profile, cut=cut)
    boxes: list[_Box] = [(box, problem, None) for box, problem in found]
    return boxes, scale, die_max / scale


def _reading(
    frame: np.ndarray, origin: tuple[int, int], found: _Found, profile: Profile, expect: int | None
) -> Reading:
    boxes, scale, row_height = found
    full_boxes = [_unscaled(box, scale) for box, _, _ in boxes]
    # the classifier learned top faces filling their box: a box of the outlines that holds side faces too is not
    # for it (the learned finder's box is the top face alone); nor are faces learned from captures
    weighed = profile.faces is None and not profile.side_faces
    probabilities = faces_probabilities(frame, full_boxes, profile) if weighed and boxes else [None] * len(boxes)
    dice = [
        _read_die(frame, box, scale, profile, problem, p, score)
        for (box, problem, score), p in zip(boxes, probabilities, strict=True)
    ]
    # a plain face is all a patch of table, a side face or a coin the network took for a die can show (where no
    # face is blank, a plain face is no die at all: left out below)
    dice = [
        d.doubted(PLAIN_DOUBT)
        if d.value == 0 and score is not None and score < BLANK_FOUND_SURE and profile.blank_face
        else d
        for d, (_, _, score) in zip(dice, boxes, strict=True)
    ]
    scores = [score for _, _, score in boxes]
    dice = _blanks_on_print(frame, dice, scores, profile, expect)
    dice = _weak_boxes(dice, scores)
    if weighed and all(score is not None for _, _, score in boxes):  # the network's boxes, drawn tight to a top face
        dice = _short_boxes_read_again(frame, dice, profile)
    if weighed and profile.blank_face:  # a glint read as a 1 is a blank die's; dice with no blank face have none
        dice = _ones_read_again(frame, dice, profile)
    if weighed:
        dice = _ones_read_moved(frame, dice, profile)
    if expect is not None and len(dice) > expect:
        # more dice than the count: a box of the network's with no pips and no face to the classifier is no die,
        # unless two of the dice kept lie as near as a die and its own side face (DROPPED_APART)
        kept = [d for d, (_, _, score) in zip(dice, boxes, strict=True) if score is None or d.problem != NO_FACE]
        if len(kept) == len(dice) or all(_sides_apart(a, b) >= DROPPED_APART for a, b in combinations(kept, 2)):
            dice = kept
    if not profile.blank_face:
        dice = [d for d in dice if d.value != 0]  # no face of these dice is blank: not a die
    dice.sort(key=lambda d: (round(d.center[1] / row_height), d.center[0]))
    dice = [
        DieReading(
            d.value, (d.center[0] + origin[0], d.center[1] + origin[1]), shift(d.box, origin), d.confidence, d.problem
        )
        for d in dice
    ]
    reasons = [f"die at ({d.center[0]:.0f}, {d.center[1]:.0f}): {d.problem}" for d in dice if d.problem]
    if not dice:
        reasons.append("no dice found")
    elif expect is not None and len(dice) != expect:
        reasons.insert(0, f"found {len(dice)} dice, expected {expect}")
    if reasons:
        return Reading(Status.UNSURE, tuple(dice), "; ".join(reasons))
    return Reading(Status.OK, tuple(dice), "")


APART = 0.8
"""Two dice lie at least this many sides apart, centre to centre: dice do not overlap, so their top faces' (or
outlines') centres lie a side or more apart (a little less in a slanted view, or where a box is a little off). On
DEV rolls read ok with a count (stress 600000-600499, render.py 100000-100299, byler 121-150) the nearest two lay
0.87 sides apart, and with no count no roll was lost to it either; on wooden dice (stress 650020, DEV), a side face
boxed 0.7 sides from its die's top face, by the network and by the outlines alike, was read as a 1, and the roll,
with a 6 missing, as ok.

Measured again on 2026-11-27, with today's finder, the margin is thinner: right rolls read with the count hold
pairs 0.82 sides apart (stress 600713, 601179), and 0.9 turned 23 right rolls unsure (9 stress, 14 wooden) before
the run was stopped, 4,470 rolls in. So a side face boxed 0.82 sides from its die's top face (stress 611664, read
with no count as five dice, all ok) passes."""


SAME_SIZE = 0.65
"""The dice of a roll are one set, alike in size: in a roll of three or more, no die's box is smaller than this share
of the middle one's side (a slanted camera makes the nearer dice look larger, but little across a cup's throw). On
DEV rolls read ok (stress 600000-600499, render.py 100000-100299, byler 121-150, with a count or without) the
smallest lay at 0.74 of the middle; on wooden dice (stress 650197, DEV) a box on part of a 2, 0.62 of the middle,
was read as a 1 and the roll as ok."""


WEAK_SAME_SIZE = 0.7
"""A box the network found weakly (below its threshold: taken to make up the count, ``FILL_FOUND``) reads only if
its side is at least this share of the middle die's, in a roll of three or more. The network's doubt and a small
box together point to part of a die: a side face, or one half of a face. On wooden DEV dice (stress
650000-652509, with the count) two rolls read ok and wrong so: a weak box (0.41, 0.39) on a blank die's side face
and on half of a 2, each at 0.67-0.68 of the middle die's side, read as a 1, just above ``SAME_SIZE``. Weak boxes
of real dice in right rolls were 0.68 (one, dice-photos train 31) and 0.75 or more of the middle. With 0.7 it
turned both wrong rolls unsure and lost that one of the 2,355 right rolls read with the count on DEV (stress
600000-601499, render.py 100000-100299, byler 121-150, dice-photos train, the wooden dice above); 0.85 lost 5."""


PRINTED_FACE = 0.5
"""A plain face in a box of the network's is a patch of the table's print, not a blank die, where at least this
share of it is print: it stands out from the table's look around it in a way that more of the frame away from the
dice shows than all the dice could cover (``table_colours.printed``), in patches that could hold a die's face. A
checked, plaid or patterned mat has plain, die-sized patches; wooden DEV 657487 read a teal check of a diamond mat
as a blank die, all ok. Half: a die's face is one colour, so a blank die shows the table at most at its corners,
where the box may be loose, and a patch of table is table all over. Only the table away from the dice found, and
only where it stands out, is counted: dice of one wood, together larger than ``dice_area`` allows with their side
faces and shadows, made their own colour common (wooden DEV 656706 and 657591, a blank among them); and a beech
blank that stood out from a gingham cloth by little more than the margins (wooden DEV 650162) took the cloth's own
light and dark squares, which do not stand out, for print like it."""
PRINT_SIDE_PX = 16
"""The largest die's side, in pixels, in the picture its face is judged in (``finder.shrunk``). A face of 16 pixels
holds some 170 inside its rim, enough to tell half of them, and a print that matters (checks, stripes, a plaid:
patches a die's size) is far coarser than a pixel there. Judged at the outlines' working size (``work_width``),
the check took more than twice as long (render.py DEV frames with a blank: 6 ms against 2.5, line-profiled)."""
AROUND_A_DIE = 2.0
"""How many times its top face's box a die's body, side faces and shadow lie within, seen by a camera over the
table (``table_colours.SIDE_FACES_SEEN``: side faces together no larger than the top face)."""
ON_PRINT = "a plain face like the table's print all over the frame: a patch of the print, not a blank die?"


def _blanks_on_print(
    frame: np.ndarray, dice: list[DieReading], scores: Sequence[float | None], profile: Profile, expect: int | None
) -> list[DieReading]:
    """The dice, with each blank in a box of the network's (its ``scores`` not None) that is a patch of the table's
    print (``PRINTED_FACE``) unsure. The outlines' boxes need no such check: they leave the print out first. Nor do
    dice with no blank face: there a blank is no die at all, and ``_reading`` leaves it out (an unsure die would
    leave the roll unsure)."""
    if not profile.blank_face:
        return dice
    blanks = [
        i for i, (die, score) in enumerate(zip(dice, scores, strict=True)) if score is not None and die.value == 0
    ]
    if not blanks:
        return dice
    largest = max(1.0, *(max(die.box[1]) for die in dice))
    shrink = min(1.0, PRINT_SIDE_PX / largest)
    height, width = frame.shape[:2]
    small = shrunk(frame, (max(1, round(width * shrink)), max(1, round(height * shrink)))) if shrink < 1 else frame
    scale = small.shape[1] / width
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2Lab)
    side = scale * largest
    table = np.full(lab.shape[:2], 1, np.uint8)
    for die in dice:  # the table is what lies away from every die found, their side faces and shadows too
        _fill_box(table, die.box, scale, AROUND_A_DIE, 0)
    pixels = dice_area(max(len(dice), expect or 0), side)
    look = table_look(lab, side)
    stands_out = standing_out(lab, look, profile)
    # print is what stands out from the table's look around it: the rest of the table, its grain and noise, is not
    print_ = printed(lab, look, profile.body_lightness, profile.body_colour, pixels, table & (stands_out > 0))
    # patches of print that could hold a die's face
    print_ = die_sized(cv2.bitwise_and(print_, stands_out), (1 - 2 * FACE_MARGIN) * side)
    checked = list(dice)
    for i in blanks:
        on_face = _fill_box(np.zeros(print_.shape, np.uint8), dice[i].box, scale, 1 - 2 * FACE_MARGIN, 1)
        if on_face.any() and np.count_nonzero(print_[on_face > 0]) >= PRINTED_FACE * np.count_nonzero(on_face):
            checked[i] = DieReading(None, dice[i].center, dice[i].box, 0.0, ON_PRINT)
    return checked


def _fill_box(mask: np.ndarray, box: RotatedBox, scale: float, grown: float, value: int) -> np.ndarray:
    """``mask`` with ``box`` (frame pixels), scaled by ``scale`` and grown ``grown`` times about its centre, set to
    ``value``."""
    (cx, cy), (w, h), turn = box
    scaled = ((cx * scale, cy * scale), (w * scale * grown, h * scale * grown), turn)
    cv2.fillConvexPoly(mask, np.round(cv2.boxPoints(scaled)).astype(np.int32), value)
    return mask


WEAK_APART = DROPPED_APART
"""A box the network found weakly (below its threshold: taken to make up the count, ``FILL_FOUND``) reads only where
it lies at least this many sides from every other die: touching dice lie a side apart, a little less at a slant
(``DROPPED_APART``), and a die's own side face nearer. dice-photos train dice_46 (DEV), mirrored and shrunk to 0.6
(``tools/reader_dev_ab.py``'s perturbations, two at a time): a webcam at a slant, five 1s; the network found the
top die's front face (a 5) at 0.41, 0.82 sides below its top face, and missed another die, so the count of five was
met and the roll read ok and wrong. (Unperturbed and in warmer light, ``_unless_faces_beside_disagree`` catches it.)

Tried at 0.95, with the count, through the reader: on every default DEV set (stress 600000-601499, wooden
650000-653509, render.py 100000-100299, byler 121-150, dice-photos train) and on fresh seeds (stress 636000-636999,
wooden 678300-678999, steep 620000-620999) it changed no right or wrong roll, only the reasons of unsure ones; 0.9
doubts fewer still. With no count the network's weak peaks are not taken."""


def _weak_boxes(dice: list[DieReading], scores: Sequence[float | None]) -> list[DieReading]:
    """The dice, with any the network found weakly (below its threshold) unread where it is smaller than
    ``WEAK_SAME_SIZE`` of the middle one (in a roll of three or more) or nearer than ``WEAK_APART`` sides to another
    die. A die doubted already keeps its own problem."""
    if all(score is None for score in scores):  # the outlines' boxes: the network not asked
        return dice
    least = builtin_finder().threshold
    middle = _middle_side(dice)
    out = []
    for k, (die, score) in enumerate(zip(dice, scores, strict=True)):
        if score is not None and score < least and die.problem is None:
            share = max(die.box[1]) / middle if middle is not None else math.inf
            nearest = min((_sides_apart(die, other) for j, other in enumerate(dice) if j != k), default=math.inf)
            if share < WEAK_SAME_SIZE:
                die = die.doubted(f"found weakly, and {share:.0%} the others' size: part of a die?")
            elif nearest < WEAK_APART:
                die = die.doubted(f"found weakly, {nearest:.2f} sides from another die: its side face?")
        out.append(die)
    return out


SHORT_BOX = 0.85
"""A die's box under this share of the middle die's side is read again by the classifier in a box that size. A
set's dice are one size, and the camera's perspective varies their boxes by a tenth or so; a box shorter than that
may have left part of its die out (a 3's corner pip: a 2). Only these: each re-read is one more call of the
networks."""


def _short_boxes_read_again(frame: np.ndarray, dice: list[DieReading], profile: Profile) -> list[DieReading]:
    """The dice, with any read in a box shorter than ``SHORT_BOX`` of the middle die's side unread where the
    classifier, in a box of the middle die's side about the same centre, sees another face first. For the network's
    boxes: the outlines' hold shadows and side faces, and vary in size with them.

    A 3 on felt whose box the finder drew short of a corner pip, counted 2 and read by the classifier as a 2 too in
    that box (``tests/vision/test_reader_safety.py``, found by Hypothesis), is a 3 to it in a box the others' size.
    On DEV with the count (stress 600000-601499, wooden 650000-653509, render.py 100000-100299, byler 121-150,
    dice-photos train) it changed no roll read, right or wrong; asked of the outlines' boxes too, it lost 3 right
    rolls."""
    middle = _middle_side(dice)
    if middle is None:
        return dice
    short = [k for k, d in enumerate(dice) if d.value is not None and max(d.box[1]) < SHORT_BOX * middle]
    if not short:
        return dice
    grown = [(dice[k].box[0], (middle, middle), dice[k].box[2]) for k in short]
    out = list(dice)
    for k, p in zip(short, faces_probabilities(frame, grown, profile), strict=True):
        best = CLASSES[int(np.argmax(p))]
        if best != dice[k].value:
            die = dice[k]
            seen = "no face" if best is None else f"a {best}"
            share = max(die.box[1]) / middle
            problem = f"its box {share:.0%} the others' size; in a box their size the classifier sees {seen}"
            out[k] = die.doubted(problem)
    return out


ONE_GROWN = 1.15
"""How much larger than its own box, about the same centre, a 1 like a glint is read again in (``ONE_GROWN_SURE``).
Of the boxes tried on DEV for the 1s like a glint read ok (1.15 and 0.87 times as large, shifted by 0.15 of a side
each way, turned 45 degrees), this one lost the fewest real 1s (5 of 416 under 0.95) while the four blanks' 1 fell
under 0.95 in it."""
ONE_GROWN_SURE = 0.95
"""A die read as a 1 whose strongest mark looks like a glint (lighter than the face, no more colourful) stands only
where the classifier, asked again in a box ``ONE_GROWN`` times its own about the same centre, still gives the 1 at
least this. A gloss spot in the middle of a blank die is one light mark of a pip's size; the count takes it for a
1's pip, and the classifier too gives the 1 0.976-0.999 in the die's own box, over ``ONE_MARK_SURE`` (and, read alone,
``CLASSIFIER_ALONE``). Neither the spot's shape, softness nor strength told it from a real 1's pip on DEV. In the
larger box the classifier gave those four blanks' 1 0.64-0.94, and 5 of 416 real 1s like a glint less than 0.95
(stress 610000-613999, wooden 650000-651499, render.py 100000-100299). Read through the reader on DEV with the count
(stress 600000-601499 and 610000-613999, wooden 650000-653509, render.py, byler 121-150, dice-photos train:
``tools/reader_dev_ab.py``), it turned those 4 stress rolls read ok and wrong unsure, and 10 right rolls too
(stress 8 of 3,180, wooden 2 of 1,324). With no count (stress 610000-611999, wooden 650000-650999, render.py,
byler, dice-photos train) it turned 1 wrong roll unsure (611676) and 1 right one (of 483 stress). A real 1 unsure
costs a roll; a blank paid as a 1 costs money."""


def _ones_read_again(frame: np.ndarray, dice: list[DieReading], profile: Profile) -> list[DieReading]:
    """The dice, with any read as a 1 whose mark looks like a glint (``_glint_like``) unread where the classifier, in
    a box ``ONE_GROWN`` times as large about the same centre, gives the 1 less than ``ONE_GROWN_SURE``. Every kind
    of box: a blank's glint was read as a 1 in an outline's box as in the network's. A dark 1 is never asked: a
    glint is never darker than its face. A short box that ``_short_boxes_read_again`` let stand is grown from its
    own size."""
    ones = [k for k, d in enumerate(dice) if d.value == 1 and _glint_like(face_crop(frame, d.box))]
    if not ones:
        return dice
    grown = [(d.box[0], (d.box[1][0] * ONE_GROWN, d.box[1][1] * ONE_GROWN), d.box[2]) for d in (dice[k] for k in ones)]
    out = list(dice)
    for k, p in zip(ones, faces_probabilities(frame, grown, profile), strict=True):
        one = float(p[CLASSES.index(1)])
        if one < ONE_GROWN_SURE:
            out[k] = dice[k].doubted(
                f"read as a 1, but in a box {ONE_GROWN:g} times as large the classifier gives the 1 {one:.1%}:"
                " a glint on a blank?"
            )
    return out


ONE_MOVED = 0.2
"""How far a die read as a 1 is boxed again off its centre, in sides along each of its box's sides (towards each
corner in turn), in a box ``ONE_GROWN`` times the middle die's side (or its own, if larger): a box drawn on one pip
of a larger face shows that face's other pips so (``ONE_MOVED_SURE``). The network draws large dice's boxes short
(wooden DEV 662391: 137-151 pixels for dice of 171), and a box the middle one's size showed too little of the
other pip there."""
ONE_MOVED_SURE = 0.99
"""A die read as a 1 stands only where the classifier, in each box ``ONE_MOVED`` off its centre, gives every face of
two pips or more less than this. A 1's pip is its face's middle: moved towards any corner, its box shows one pip off
its middle, no other face's pattern.

Wooden DEV 662391 and stress DEV 618770 (fresh seeds): the network boxed one pip of a 2, the box 0.81 and 0.84 of
the middle die's side (above ``SAME_SIZE``; in a box the middle die's size about the same centre, still a 1), and
the roll of four read ok and wrong. Moved towards the other pip, the box showed a 2 to the classifier at
1.0. Chosen on the 1s of rolls read right with the count (stress 600000-600999: 388; wooden 650000-650999: 228):
none reached 0.99 for another face in a moved box; 0.95 lost 3, 0.8 lost 8. Through the reader with the count
(``tools/reader_dev_ab.py``): on every default DEV set it lost no right roll and turned wooden 652865, read ok and
wrong so (a 2 read as a 1), right; on fresh seeds (wooden 662000-662999, stress 618000-618999) it turned both
wrong rolls above unsure or right, and lost no right roll. With no count, on every default DEV set, it turned
652865 right and lost nothing. It costs four more crops for the classifier per 1 read: on render.py DEV frames
(one core) 20.1 against 18.4 ms a frame. Only short boxes hold one pip (those three were 0.76-0.84 of the middle
die's side), but 0.84 lies too near ``SHORT_BOX`` to bar the rest on."""


def _ones_read_moved(frame: np.ndarray, dice: list[DieReading], profile: Profile) -> list[DieReading]:
    """The dice, with any read as a 1 unread where the classifier sees a face of more pips in its box moved off the
    1's pip (``ONE_MOVED``, ``ONE_MOVED_SURE``): a box on one pip of a larger face."""
    ones = [k for k, d in enumerate(dice) if d.value == 1]
    if not ones:
        return dice
    middle = _middle_side(dice) or 0.0
    moved = []
    for k in ones:
        (cx, cy), (w, h), angle = dice[k].box
        side = ONE_GROWN * max(middle, w, h)
        turn = math.radians(angle)
        along, across = (math.cos(turn), math.sin(turn)), (-math.sin(turn), math.cos(turn))
        for du, dv in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            dx = (du * along[0] + dv * across[0]) * ONE_MOVED * side
            dy = (du * along[1] + dv * across[1]) * ONE_MOVED * side
            moved.append(((cx + dx, cy + dy), (side, side), angle))
    probabilities = np.asarray(faces_probabilities(frame, moved, profile)).reshape(len(ones), 4, -1)
    larger = (2, 3, 4, 5, 6)
    columns = [CLASSES.index(v) for v in larger]
    out = list(dice)
    for k, p in zip(ones, probabilities, strict=True):
        seen = p[:, columns]
        if seen.max() >= ONE_MOVED_SURE:
            face = larger[int(np.unravel_index(np.argmax(seen), seen.shape)[1])]
            out[k] = dice[k].doubted(
                f"read as a 1, but in its box moved off its pip the classifier sees a {face}: a box on one pip of a"
                " larger face?"
            )
    return out


def _glint_like(face: np.ndarray) -> bool:
    """Whether the strongest mark on a face (a 1's one pip) is lighter than the face and no more colourful."""
    marks = face_marks(face)
    return bool(marks) and marks[0].highlight


def _odd_size(dice: Sequence[DieReading]) -> str | None:
    """A doubt for a die far smaller than the others of its roll (``SAME_SIZE``): a box on part of a die."""
    middle = _middle_side(dice)
    if middle is None:
        return None
    small = min(dice, key=lambda d: max(d.box[1]))
    share = max(small.box[1]) / middle
    if share >= SAME_SIZE:
        return None
    return f"die at ({small.center[0]:.0f}, {small.center[1]:.0f}) is {share:.0%} the others' size: part of a die?"


def _middle_side(dice: Sequence[DieReading]) -> float | None:
    """The middle (median) of the dice's box sides, what ``SAME_SIZE``, ``WEAK_SAME_SIZE`` and ``SHORT_BOX`` are
    shares of; None for fewer than three dice, where no die stands out as the odd one."""
    if len(dice) < 3:
        return None
    return median(np.array([max(d.box[1]) for d in dice], np.float64))


def _too_near(dice: Sequence[DieReading]) -> str | None:
    """A doubt for the first two dice found nearer than ``APART`` sides: one may be the other's side face."""
    for a, b in combinations(dice, 2):
        apart = _sides_apart(a, b)
        if apart < APART:
            where = f"({a.center[0]:.0f}, {a.center[1]:.0f}) and ({b.center[0]:.0f}, {b.center[1]:.0f})"
            return f"dice at {where} lie {apart:.2f} of a side apart: a side face boxed as a die?"
    return None


def _seen_from_two_sides(frame: np.ndarray, origin: tuple[int, int], dice: Sequence[DieReading]) -> str | None:
    """A doubt for dice whose side faces show as no one camera shows them (``slant``): one box is a side face.
    ``frame`` is the profile's region of the picture (its table), at ``origin`` in the picture the dice are in."""
    which = disagreeing(frame, [shift(d.box, (-origin[0], -origin[1])) for d in dice])
    if not which:
        return None
    where = ", ".join(f"({dice[i].center[0]:.0f}, {dice[i].center[1]:.0f})" for i in which)
    return f"the dice at {where} show their side faces as no one camera could: a side face boxed as a die?"


# -- faces and pips ----------------------------------------------------------------------------------------
def face_crop(frame: np.ndarray, box: RotatedBox, scale: float = 1.0, px: int = FACE_PX) -> np.ndarray:
    """The top face in ``box`` (given in a copy scaled by ``scale``) as a ``px`` x ``px`` crop of ``frame``."""
    (cx, cy), (w, h), angle = box
    a = math.radians(angle)
    c = np.array([cx, cy]) / scale
    ex = np.array([math.cos(a), math.sin(a)]) * w / scale
    ey = np.array([-math.sin(a), math.cos(a)]) * h / scale
    src = np.array([c - ex / 2 - ey / 2, c + ex / 2 - ey / 2, c - ex / 2 + ey / 2], dtype=np.float32)
    dst = np.array([[0, 0], [px, 0], [0, px]], dtype=np.float32)
    return cv2.warpAffine(
        frame, cv2.getAffineTransform(src, dst), (px, px), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def face_probabilities(frame: np.ndarray, box: RotatedBox, profile: Profile) -> np.ndarray:
    """The learned classifier's calibrated probabilities (over ``classifier.CLASSES``) for the die in ``box``
    (full-frame pixels): the profile's own model when it names one, else the built-in model."""
    return faces_probabilities(frame, [box], profile)[0]


def faces_probabilities(frame: np.ndarray, boxes: Sequence[RotatedBox], profile: Profile) -> np.ndarray:
    """``face_probabilities`` of every box at once (one call of the network costs about what four single ones do)."""
    model = profile.classifier or builtin_model()
    return np.asarray(model.probabilities(np.stack([die_crop(frame, box) for box in boxes])))


def turned_probabilities(frame: np.ndarray, box: RotatedBox, upright: np.ndarray) -> np.ndarray:
    """The built-in classifier's probabilities for the die in ``box``, averaged over its crop's eight symmetries
    (quarter turns, mirrored or not: each shows the same face); ``upright`` are those of the crop as it is, already
    asked. An average is no surer than its surest reading, so it is held to the bar of one (a geometric mean,
    renormalised, is not: eight readings 99 % sure that each lay their doubt on another face pool to well over
    99.9 %)."""
    others = np.asarray(builtin_model().probabilities(symmetries(die_crop(frame, box))[1:]))
    return np.asarray(np.vstack([upright[None], others]).mean(axis=0))


def second_opinion(
    frame: np.ndarray, box: RotatedBox, face: np.ndarray, value: int, profile: Profile
) -> np.ndarray | None:
    """The built-in gradient-feature model's probabilities for the die in ``box`` (``face``: its top face as the count
    saw it), a learned model of another kind than the networks; None where asking would prove nothing: the face
    shows fewer pip-like marks than ``value`` has pips (``_as_many_marks``), or ``value`` has a middle pip and the
    mark there looks like a glint (``_glint_in_the_middle``)."""
    found = face_marks(face)
    if not _as_many_marks(found, value) or (value in MIDDLE_PIP_FACES and _glint_in_the_middle(found, profile)):
        return None
    return np.asarray(builtin_feature_model().probabilities(die_crop(frame, box)[None])[0])


SECOND_OPINION_ALIKE = 0.7
"""The share of their median strength that each of the marks the second opinion reads as pips must reach: the
share ``MIDDLE_PIP_SHARE`` asks of a middle pip. The midpoint between face and pip (``PIP_MIDPOINT``) tells a pip
from dust, but a box partly off its die takes in marks of the side face beside it, weaker than the top face's pips
and not mere dust. Stress DEV 622724 (fresh seeds): the box of a 5 slid over its side face and showed two of its
pips and two printed marks of the side face, 0.64 and 0.78 as strong; the count read nothing, the networks and the
gradient-feature model a 4 (0.994), and the roll of four was ok and wrong. (It refuses 618326's glint too, 0.64 as
strong as the 2's pips: ``_glint_as_middle_pip``.)

Through the reader with the count (``tools/reader_dev_ab.py``): on every default DEV set it turned 1 of 2,807 right
rolls unsure (wooden 650831) and changed no other; on fresh seeds (stress 619000-619999 and 621500-622999, wooden
663000-663999) 622724 unsure and 1 of 1,957 right rolls (stress 622305)."""


def _as_many_marks(found: Sequence[Mark], value: int) -> bool:
    """Whether the face shows ``value`` marks alike enough to be its pips: the ``value`` strongest each at least
    ``SECOND_OPINION_ALIKE`` of their median strength. A box on part of a die shows fewer (stress DEV 612230: three
    marks of a purple 4, a 5 to both kinds of model), or the side face's weaker marks besides (stress DEV 622724)."""
    strongest = sorted((m.strength for m in found), reverse=True)[:value]
    return len(strongest) == value and strongest[-1] >= SECOND_OPINION_ALIKE * median(np.array(strongest))


def _glint_in_the_middle(found: Sequence[Mark], profile: Profile) -> bool:
    """Whether a mark in the face's middle looks like a glint (lighter than the face and no more colourful): one
    there adds a middle pip, a 2 becoming a 3 or a 4 a 5, to both kinds of model alike (wooden DEV 655753, which the
    turned crops' mean now refuses as well). White pips look so too, and nothing else on one mark tells them apart
    (``_glint_like``), so a white 3 or 5 is not read this way: on DEV that cost 3 of 42 right rolls."""
    return any(m.highlight and at_middle(m, profile) for m in found)


def _unscaled(box: RotatedBox, scale: float) -> RotatedBox:
    (cx, cy), (w, h), angle = box
    return (cx / scale, cy / scale), (w / scale, h / scale), angle


def _read_die(
    frame: np.ndarray,
    box: RotatedBox,
    scale: float,
    profile: Profile,
    problem: str | None,
    probabilities: np.ndarray | None = None,
    found_score: float | None = None,
) -> DieReading:
    """One die in ``box``; ``probabilities`` are the learned classifier's for it, where it is to weigh the count.
    ``found_score`` is the network's score for a box it found (None for an outline's box): the classifier reads
    alone in an outline's box whose shape showed no ``problem`` and in the network's found surely
    (``ALONE_FOUND_SURE``), not in a weak one (a side face or a patch of table)."""
    full_box = _unscaled(box, scale)
    center = full_box[0]
    by_top_face = profile.side_faces and profile.faces is None
    if problem and by_top_face and (problem == NOT_SQUARE or not profile.blank_face):
        value, confidence, top_problem = read_top_face(frame, full_box, profile)
        if top_problem == NO_ROUND_PIPS and not profile.blank_face:
            return DieReading(0, center, full_box, 1.0, None)  # nothing pip-like: no die, where no face is blank
        # side faces make a die's outline no square; a faint die's outline is ragged, but two or more round pips
        # in a face's pattern at their spacing are a die whatever its outline (one pip could be any dark spot)
        if problem == NOT_SQUARE or (problem == RAGGED and (value or 0) >= 2):
            return DieReading(value, center, full_box, confidence, None if value is not None else problem)
    if problem:
        return DieReading(None, center, full_box, 0.0, problem)
    face = face_crop(frame, box, scale)
    read = profile.faces.classify if profile.faces is not None else lambda f: count_pips(f, profile)
    value, confidence, face_problem = read(face)
    counted = value
    if by_top_face:
        value, confidence, face_problem = _with_top_face(
            (value, confidence, face_problem), read_top_face(frame, full_box, profile)
        )
    if probabilities is not None:
        upright = probabilities  # not None: mypy does not carry that narrowing into the lambda
        value, confidence, face_problem = _with_classifier(
            (value, confidence, face_problem),
            probabilities,
            profile.contradicted,
            alone=found_score is None or found_score >= ALONE_FOUND_SURE,
            # asked of the built-in networks alone: a table's own model learned no mirror images
            turned=None if profile.classifier is not None else lambda: turned_probabilities(frame, full_box, upright),
            second=None
            if profile.classifier is not None
            else lambda v: second_opinion(frame, full_box, face, v, profile),
        )
        if value != counted and _glint_as_middle_pip(face, value, profile):
            problem = (
                f"read as a {value} by the classifier alone, but its middle mark, light, stands out less than the"
                " others: a glint?"
            )
            return DieReading(None, center, full_box, 0.0, problem)
    return DieReading(value, center, full_box, confidence, face_problem)


def _glint_as_middle_pip(face: np.ndarray, value: int | None, profile: Profile) -> bool:
    """Whether the classifier, reading a 3 or a 5 the count did not (or not so), took a glint for its middle pip: of
    the face's ``value`` strongest marks, the middle one is light and stands out less than ``MIDDLE_PIP_SHARE`` of
    the others, as the count itself doubts it (``faint_middle``).

    Stress DEV 618326 (fresh seeds): two white pips on a black die, and a pinkish glint between them 0.64 as
    strong. The count found a mark near the box's edge and read nothing; the classifier, 0.998 sure of a 3, read
    it alone, and the roll of four was ok and wrong. Through the reader with the count (``tools/reader_dev_ab.py``):
    on every default DEV set it turned 2 of 2,807 right rolls unsure (wooden 650294 and 652544, a 5 and a 3 whose
    middle pips stood out 0.68 and 0.64 as much as the others: no share parts them from the glint) and no wrong
    one; on fresh seeds (wooden 662000-662999, stress 618000-618999) it turned 618326 unsure and no right roll.
    (618326's 3 came from the second opinion, which ``SECOND_OPINION_ALIKE`` now refuses there too; this rule holds
    a classifier sure enough to read alone to the same.)"""
    if value not in MIDDLE_PIP_FACES or value == 1:
        return False  # a 1's glint is the business of ``_ones_read_again``
    found = face_marks(face)[:value]  # strongest first
    return len(found) == value and faint_middle(found, profile)


def _with_classifier(
    read: tuple[int | None, float, str | None],
    probabilities: np.ndarray,
    contradicted: float,
    alone: bool = False,
    turned: Callable[[], np.ndarray] | None = None,
    second: Callable[[int], np.ndarray | None] | None = None,
) -> tuple[int | None, float, str | None]:
    """The pip count, unless the learned classifier, which sees the whole crop rather than the marks the count
    picked out, sees another face first: the two fail differently (a blurred pip the count missed, a tile's edge
    taken for a blank die), so their disagreement is a doubt.

    A count of pips stands only where the classifier's own first choice is that face: each reads the die its own
    way, and where one sees another face, or no face at all, one of them is wrong. (A count was once doubted only
    where the classifier gave it less than ``contradicted`` among the faces alone, so that a clean die unlike those
    it learned from could still be read by its pips. That spared no right roll on DEV and let through a 3 whose box
    the finder drew short of a corner pip, counted 2 where the classifier saw a 3 or no face first:
    ``tests/vision/test_reader_safety.py``.) ``contradicted`` 0 turns off this check and the share below it. A blank
    face has no evidence of its own: "nothing counted" is no proof of a plain face (small or faint pips the count
    missed read the same), so a blank stands only where the classifier, too, sees a blank face, and surely
    (``BLANK_SURE``).

    One pip is the weakest count (a gloss spot makes one): it needs the classifier ``ONE_MARK_SURE`` of it. Where
    the count could not read the die at all (pips too small or too blurred to count), a classifier at least
    ``CLASSIFIER_ALONE`` sure of a face with marks reads it alone, if ``alone`` (a box the network found surely,
    or a clean outline's); at least ``MARKS_AGREE_SURE`` sure where the count saw as many marks as that face's pips.
    Short of ``CLASSIFIER_ALONE`` but at least ``TURNED_ASKED`` sure of a face of two pips or more, and not read by
    the marks, ``turned`` (the mean probabilities over the crop's symmetries; None for a table's own model) is
    asked, and reads it alone, with that mean as its confidence, if that reaches ``CLASSIFIER_ALONE``. Never a 1:
    a blank's gloss spot is as symmetric as a 1's pip. Short of ``CLASSIFIER_ALONE``, turned or not, but at least
    ``SECOND_OPINION_SURE`` (the turned mean too, where it was asked), ``second`` (the gradient-feature model's
    probabilities, or None where it is not to be asked; None for a table's own model) reads it where its first
    choice is that face, by majority; never a 1.

    Nothing counted where the classifier sees a face of two pips or more is read as no count at all: the count
    finds no pips that are faint, or differ from the face in colour more than in lightness (stress DEV 600100, a
    white 2 on an ivory die, 119 px across), and "nothing" is then no more evidence of a plain face than of any
    other. A 1 stays unsure: a blank's gloss spot looks like one to the classifier too. Through the reader with the
    count (``tools/reader_dev_ab.py``) it read 11 more stress rolls right (of 4,000: 600000-601499,
    610000-612499) and 10 more wooden ones (of 5,510: 650000-653509, 654000-655999), none wrong, and many more dice
    in rolls left unsure by another; render.py 100000-100299, byler 121-150 and dice-photos train did not change.
    With no count, one more stress roll (600000-601499), none wrong.

    Never alone a face with more pips than marks the count saw where they lie exactly as the pips of a face with
    that many (``MarksSeen.whole_face``: pips that differ from the face in colour alone): the pips it needs
    besides are not there. Wooden DEV 652001, four green pips on light grained wood, was a 6 to both built-in
    networks at 0.999. Fewer pips than marks stay the classifier's to read: a side face's pip may add a mark.
    With a count and without, on wooden DEV (stress seeds 650000-652009), stress 600000-600499, render.py
    100000-100299, byler 121-150 and dice-photos train, it turned that one wrong roll unsure and lost no right one."""
    counted = read[0]
    best = CLASSES[int(np.argmax(probabilities))]
    if counted == 0 and best not in (None, 0, 1):  # (a 1 is a blank's gloss spot as often)
        read, counted = (None, 0.0, NOTHING_COUNTED_BUT.format(best)), None
    if counted is None:
        p_best = float(probabilities[CLASSES.index(best)])
        seen = read[2] if isinstance(read[2], MarksSeen) else None
        by_marks = (  # one mark only where it is no glint (whole_face)
            alone
            and seen is not None
            and seen.marks == best
            and (seen.marks > 1 or seen.whole_face)
            and p_best >= MARKS_AGREE_SURE
        )
        if alone and best is not None and best != 0:
            vetoed = seen is not None and seen.whole_face and best > seen.marks
            sure = p_best
            may_ask_again = best != 1 and not (by_marks or vetoed)  # a 1's glint fools every look alike
            if turned is not None and may_ask_again and TURNED_ASKED <= p_best < CLASSIFIER_ALONE:
                sure = float(turned()[CLASSES.index(best)])
            if sure >= CLASSIFIER_ALONE:
                if vetoed and seen is not None:
                    lie_as = f"they lie as a {seen.marks}'s pips"
                    return None, 0.0, f"{seen}; {lie_as}, but the learned classifier sees {best}"
                return best, sure, None  # the count could not tell; the classifier, sure, reads it alone
            if second is not None and may_ask_again and SECOND_OPINION_SURE <= sure < CLASSIFIER_ALONE:
                other = second(best)  # more than half its probability on a face makes that face its first choice
                if other is not None and other[CLASSES.index(best)] > SECOND_OPINION_MAJORITY:
                    return best, sure, None  # two kinds of learned model agree
        if by_marks:
            return best, p_best, None  # as many marks as the face has pips, though not in its pattern
        return read
    if counted == 0:
        if best != 0:
            return None, 0.0, NO_FACE if best is None else NOTHING_COUNTED_BUT.format(best)
        blank = float(probabilities[CLASSES.index(0)])
        if blank < BLANK_SURE:
            return None, 0.0, f"no pips counted, the learned classifier only {blank:.0%} sure of a blank: faint pips?"
        return read
    one = float(probabilities[CLASSES.index(1)])  # not among the faces alone: a gloss spot may be no face at all
    if counted == 1 and one < ONE_MARK_SURE:
        return None, 0.0, f"one pip counted, the learned classifier only {one:.0%} sure of it: a gloss spot on a blank?"
    if contradicted == 0:
        return read
    if best != counted:
        shown = "not a face" if best is None else str(best)
        return None, 0.0, f"{counted} pips counted, but the learned classifier sees {shown}"
    share = float(probabilities[CLASSES.index(counted)]) / (1.0 - float(probabilities[NOT_A_FACE]))
    if share < contradicted:
        return None, 0.0, f"{counted} pips counted, the learned classifier only {share:.0%} sure of it among the faces"
    return read


def _with_top_face(
    boxed: tuple[int | None, float, str | None], top: tuple[int | None, float, str | None]
) -> tuple[int | None, float, str | None]:
    """One reading from the die's box and one from its top face's round pips: either stands alone when the other
    could not read the die; two values must agree."""
    if top[0] is None:
        return boxed
    if boxed[0] is None:
        # one round pip is the weakest reading of a top face (any dark spot, a blurred face's one clear pip): it
        # stands alone only where the box is no square, never against a box whose crop was read and doubted
        return boxed if top[0] == 1 else top
    if boxed[0] != top[0]:
        return None, 0.0, f"its box shows {boxed[0]}, its top face's round pips {top[0]}: a side face's pips?"
    return boxed
