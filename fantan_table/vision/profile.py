"""The dice reader's parameters, read from a TOML profile; every key has a default that suits pipped dice.

A profile file looks like ``calibration/profiles/default/profile.toml``, which is written from
:data:`KEYS`, where every key is declared once. A missing file, bad TOML, an unknown key or a bad
value is a :class:`ProfileError` naming the file and the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from ..errors import FantanError
from ..settings import Key, declare, example_file, read_settings, toml_value, values_file
from .classifier import FaceModel as FaceClassifier
from .faces import FaceModel

LEARNED: Final = "learned"
SHAPES: Final = "shapes"
FINDERS: Final = (LEARNED, SHAPES)


class ProfileError(FantanError, ValueError):
    """A profile that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Profile:
    work_width: int = 640
    """Frames are scaled to this width to find the dice (pips are counted at full resolution)."""
    finder: str = "learned"
    """How the dice are found: "learned" (the built-in network, any die size, any table; where the dice it finds
    cannot be read as a roll, the colour and outline thresholds below are tried too) or "shapes" (those thresholds
    alone)."""
    die_size: tuple[float, float] = (0.035, 0.12)
    """A die's top face side, as a share of the whole frame's width: smallest and largest."""
    max_aspect: float = 1.3
    """A die's top seen from above is square: a longer side over a shorter beyond this is cocked or stacked."""
    min_squareness: float = 0.7
    """How well a die fills a square box (1 = a filled square); below this it is not read."""
    min_solidity: float = 0.98
    """How crisp a die's outline is (area over its convex hull); below this its contrast with the table is too low."""
    blank_face: bool = True
    """Whether the dice have a blank face (piecepack's null). Ordinary d6 do not: anything die-shaped without
    pips is then something else on the table (a cable tag, a scrap of paper) and is left out."""
    pip_area: tuple[float, float] = (0.5, 2.3)
    """A pip's area, as a multiple of a standard pip on a die of the size found."""
    pip_contrast: float = 45.0
    """The least brightness difference (0-255) between a pip and its face."""
    pip_polarity: str = "auto"
    """"dark" pips on light dice, "light" pips on dark dice, or "auto" per die."""
    pattern_tolerance: float = 0.14
    """How far (in face widths) a pip may sit from where that face's pattern puts it."""
    top_face: tuple[float, float] = (0.6, 1.33)
    """A camera at a slant sees a side face too, so a die's top face fills only part of its box: the least
    share of the box it may fill along either side, and how much more one side may be squeezed than the other."""
    side_faces: bool = False
    """Whether the camera sees the dice's side faces with their pips (a camera well to the side of the table). A
    die is then also read by the round pips of its top face (see ``topface``), which stands when its outline is
    no square or its box holds other faces' pips; a box and top face that disagree make it unsure. Off, such
    a die is cocked or stacked."""
    body_lightness: float = 24.0
    """How much lighter than the table (Lab L, 0-255) a pixel must be to belong to a die."""
    body_colour: float = 16.0
    """How different in colour (Lab a/b distance) from the table a pixel must be to belong to a die."""
    body_darkness: float = 0.45
    """A pixel darker than this share of the table's lightness (and by ``body_lightness``) belongs to a die: a
    dark die on a light table. A shadow is darker with the table's colour too, but the room's light fills it
    in; under a single hard lamp shadows fall deeper, and calibration lowers this (0: off)."""
    roi: tuple[int, int, int, int] | None = None
    """x0, y0, x1, y1 in frame pixels: the only part of the frame where dice can be."""
    empty: np.ndarray | None = field(default=None, compare=False, repr=False)
    """A frame of the empty table (BGR), for finding dice by difference; from the profile's ``empty`` key."""
    faces: FaceModel | None = field(default=None, compare=False, repr=False)
    """Learned faces (dice without pips); from the profile's ``[faces] model`` key. None: count pips."""
    classifier: FaceClassifier | None = field(default=None, compare=False, repr=False)
    """The faces classifier trained for this table by calibration (``[faces] classifier``); None: the built-in."""
    contradicted: float = 0.6
    """A pip count the learned classifier gives less than this share of its faces' probability is unsure. A count
    is unsure anyway where the classifier's first choice is another face or no face, so the count then has at least
    1/7 of the faces' probability: only a higher share catches more (and costs more re-rolls). 0 turns off both
    checks of a count of two or more pips (a blank and a lone pip are checked still).

    A clear majority of the faces' probability: where the classifier is split between the count's face and another,
    the count may have taken a glint for a pip. Stress DEV 633094 (fresh seeds): a purple 2 with a glint between its
    pips 0.73 as strong as they, counted 3, the classifier 0.55 of a 3 and 0.44 of a 2, in a roll of four read ok
    and wrong. Of the dice read right by a count the classifier agreed with (with the count, about 16,000 on DEV:
    stress 600000-601499, 610000-612499 and 629000-633499, wooden 650000-653509 and 673000-675499, render.py
    100000-100299, byler 121-150, dice-photos train) the lowest shares were 0.64, 0.69 and 0.75, the rest above
    0.8. It was 0.05 (inert) until then."""
    source: str = "built-in defaults"

    def with_empty(self, frame: np.ndarray | None) -> Profile:
        return replace(self, empty=frame)


DEFAULT_FOLDER: Final = "calibration/profiles/default"
"""Where the repository keeps the built-in defaults written out (:func:`example`), every key explained."""


HEADER: Final = (
    "fantan-table dice-reader profile: the built-in defaults, written out.\n"
    "Every key is optional; a missing key keeps the value shown here.\n"
    f"`fantan-table read --profile {DEFAULT_FOLDER}` (or the folder of any other profile).\n"
    "Written by `fantan-table config --example profile` from the keys declared in fantan_table/vision/profile.py."
)

#: Every key a profile may hold, declared once: read and checked by :func:`load_profile`, written by
#: :func:`save_profile`, and written out with its meaning as calibration/profiles/default/profile.toml.
#: Their ranges are checked by ``_validate``: most are open (0 < x < 1) or tie two values (min < max).
KEYS: Final = declare(
    Key(
        "reader",
        "work_width",
        int,
        Profile.work_width,
        "Frames are scaled to this width to find the dice; pips are counted at full resolution.",
    ),
    Key(
        "dice",
        "finder",
        str,
        Profile.finder,
        '"learned": the built-in network finds the dice at any size on any table; where those cannot be read\n'
        'as a roll, the [table] and [dice] thresholds below are tried too. "shapes": those thresholds alone\n'
        "find the dice, by colour and outline.",
    ),
    Key(
        "dice",
        "size",
        "pair",
        Profile.die_size,
        "A die's top face, as a share of the frame's width: [smallest, largest].\n"
        "0.035-0.12 suits a 20 cm cup area seen whole by the camera.",
        attribute="die_size",
    ),
    Key(
        "dice",
        "max_aspect",
        float,
        Profile.max_aspect,
        "A die's top is square from above: a longer side over a shorter beyond this is a cocked or stacked die.",
    ),
    Key(
        "dice",
        "min_squareness",
        float,
        Profile.min_squareness,
        "How well a die fills a square box (1 = a filled square); below this it is not read.",
    ),
    Key(
        "dice",
        "min_solidity",
        float,
        Profile.min_solidity,
        "How crisp a die's outline is (area over its convex hull); below this it is too faint against the table.",
    ),
    Key(
        "dice",
        "blank",
        bool,
        Profile.blank_face,
        "Whether a face of the dice is blank (piecepack's null, read as 0). For ordinary d6 (1-6) say false: "
        "a die-shaped thing without pips is then left out (a cable tag, a scrap of paper), never read as 0.",
        attribute="blank_face",
    ),
    Key(
        "pips",
        "area",
        "pair",
        Profile.pip_area,
        "A pip's area, as a multiple of a standard pip on a die of the size found: [smallest, largest].",
        attribute="pip_area",
    ),
    Key(
        "pips",
        "contrast",
        float,
        Profile.pip_contrast,
        "The least brightness difference (0-255) between a pip and its face.",
        attribute="pip_contrast",
    ),
    Key(
        "pips",
        "polarity",
        str,
        Profile.pip_polarity,
        '"dark" pips on light dice, "light" pips on dark dice, or "auto" to look for both.',
        attribute="pip_polarity",
    ),
    Key(
        "pips",
        "pattern_tolerance",
        float,
        Profile.pattern_tolerance,
        "How far (in face widths) a pip may sit from where its face's pattern puts it.",
    ),
    Key(
        "pips",
        "top_face",
        "pair",
        Profile.top_face,
        "A camera at a slant sees a side face of each die too, so its top face fills only part of the die's box: "
        "[least share of the box it fills along either side, how much more one side may be squeezed than the "
        "other]. A camera looking straight down needs little; the shared dice photos (a webcam at a slant) need "
        "[0.45, 2.0].",
    ),
    Key(
        "pips",
        "side_faces",
        bool,
        Profile.side_faces,
        "Whether the camera sees the dice's side faces with their pips (a camera well to the side, at least 45 "
        "degrees above the table). A die is then also read by its top face's pips, which are the roundest (the "
        "side faces' are squeezed flat), and is unsure when that and its box disagree. Off, a die showing its "
        "sides is unsure.",
    ),
    Key(
        "table",
        "body_lightness",
        float,
        Profile.body_lightness,
        "How much lighter than the table (Lab lightness, 0-255) a pixel must be to count as a die.",
    ),
    Key(
        "table",
        "body_colour",
        float,
        Profile.body_colour,
        "How different in colour (Lab a/b distance) from the table a pixel must be to count as a die.",
    ),
    Key(
        "table",
        "body_darkness",
        float,
        Profile.body_darkness,
        "A pixel darker than this share of the table's lightness counts as a die (a dark die on a light\n"
        "table): deeper than a shadow falls while the room's light fills it in. 0 turns it off.",
    ),
    Key(
        "table",
        "roi",
        "box",
        Profile.roi,
        "Optional: only look for dice inside this box of the frame, in pixels [x0, y0, x1, y1].",
        shown="[200, 100, 1080, 860]",
    ),
    Key(
        "table",
        "empty",
        str,
        None,
        "Optional: a picture of the empty table (next to this file), to find dice by what changed.",
        shown='"empty.png"',
    ),
    Key(
        "faces",
        "model",
        str,
        None,
        "Optional: learned faces for dice without pips (next to this file, from `fantan-table calibrate`).",
        shown='"faces.npz"',
        attribute="faces",
    ),
    Key(
        "faces",
        "classifier",
        str,
        None,
        "Optional: a faces classifier of your own, from `fantan-table train-faces --out` (next to this\n"
        "file); without it the built-in classifier is used.",
        shown='"classifier.npz"',
    ),
    Key(
        "faces",
        "contradicted",
        float,
        Profile.contradicted,
        "A pip count is unsure where the learned classifier's first choice is another face, or no face, or\n"
        "where it gives the count less than this share of its faces' probability (at least 1/7 when the\n"
        "count is its first choice, so only more catches more; 0.6 asks a clear majority, as a glint\n"
        "counted as a pip leaves it split). 0 turns both checks off (a blank and a lone pip are checked\n"
        "still); below 1.",
    ),
)


def example() -> str:
    """calibration/profiles/default/profile.toml as it must read: every key, its meaning and its default."""
    return example_file(HEADER, {}, KEYS)


def load_profile(path: str | Path | None) -> Profile:
    """Read a profile file (or a folder holding ``profile.toml``); ``None`` gives the defaults."""
    if path is None:
        return Profile()
    path = Path(path)
    if path.is_dir():
        path = path / "profile.toml"
    given = read_settings(path, KEYS, ProfileError, "profile file (give a profile.toml, or its folder)")
    values: dict[str, Any] = {"source": str(path)}
    empty_frame = None
    for (section, name), value in given.items():
        where = f"{path}: [{section}] {name}"
        if name == "empty":
            empty_frame = _read_empty(path.parent / value, where)
        elif name == "model":
            values["faces"] = _read_faces(path.parent / value, where)
        elif name == "classifier":
            values["classifier"] = _read_classifier(path.parent / value, where)
        else:
            values[KEYS[(section, name)].attribute or name] = value
    profile = Profile(**values)
    _validate(profile, path)
    return profile.with_empty(empty_frame)


def _validate(p: Profile, path: Path) -> None:
    roi = p.roi
    limits = [  # (key, whether the value is out of range, what it must be)
        ("[reader] work_width", not 160 <= p.work_width <= 4096, "160 to 4096"),
        ("[dice] finder", p.finder not in FINDERS, '"learned" or "shapes"'),
        ("[dice] size", not 0 < p.die_size[0] < p.die_size[1] < 1, "two shares of the frame width, 0 < min < max < 1"),
        ("[dice] max_aspect", not 1 <= p.max_aspect <= 3, "between 1 and 3"),
        ("[dice] min_squareness", not 0 < p.min_squareness < 1, "between 0 and 1"),
        ("[dice] min_solidity", not 0 < p.min_solidity <= 1.1, "between 0 and 1.1"),
        ("[pips] area", not 0 < p.pip_area[0] < p.pip_area[1], "0 < min < max"),
        ("[pips] contrast", not 0 < p.pip_contrast < 255, "between 0 and 255"),
        ("[pips] polarity", p.pip_polarity not in ("auto", "dark", "light"), '"auto", "dark" or "light"'),
        ("[pips] pattern_tolerance", not 0 < p.pattern_tolerance < 0.5, "between 0 and 0.5"),
        ("[faces] contradicted", not 0 <= p.contradicted < 1, "from 0 to below 1"),
        (
            "[pips] top_face",
            not (0.2 <= p.top_face[0] <= 1 and 1 <= p.top_face[1] <= 3),
            "[least share 0.2 to 1, squeeze 1 to 3]",
        ),
        ("[table] body_lightness", not 0 < p.body_lightness < 255, "between 0 and 255"),
        ("[table] body_colour", not 0 < p.body_colour < 255, "between 0 and 255"),
        ("[table] body_darkness", not 0 <= p.body_darkness < 1, "at least 0 and below 1"),
        (
            "[table] roi",
            roi is not None and not (0 <= roi[0] < roi[2] and 0 <= roi[1] < roi[3]),
            "x0 < x1 and y0 < y1, not negative",
        ),
    ]
    for key, bad, must_be in limits:
        if bad:
            raise ProfileError(f"{path}: {key}: out of range, must be {must_be}")


def _read_faces(file: Path, where: str) -> FaceModel:
    try:
        return FaceModel.load(file)
    except (OSError, ValueError, KeyError) as exc:
        raise ProfileError(f"{where}: cannot read the learned faces {file}: {exc}") from None


def _read_classifier(file: Path, where: str) -> FaceClassifier:
    try:
        return FaceClassifier.load(file)
    except ValueError as exc:  # FaceModelError: its message says how to retrain
        raise ProfileError(f"{where}: {exc}") from None


def _read_empty(file: Path, where: str) -> np.ndarray:
    if not file.is_file():  # asked first: OpenCV would print a warning of its own above our message
        raise ProfileError(f"{where}: no empty-table picture {file}: take one with `fantan-table capture empty`")
    frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
    if frame is None:
        raise ProfileError(f"{where}: cannot read the empty-table picture {file}")
    return frame


def key_of(attribute: str) -> str:
    """The profile key (``[dice] size``) that holds the profile's field ``attribute``: what a person edits."""
    for (section, name), key in KEYS.items():
        if (key.attribute or key.name) == attribute:
            return f"[{section}] {name}"
    raise KeyError(f"no profile key holds {attribute!r}")


def change_text(attribute: str, old: Any, new: Any) -> str:
    """A change of the profile's field ``attribute`` as a person finds it in ``profile.toml``: its key and TOML
    values (``[dice] size: [0.035, 0.12] -> [0.026, 0.081]``), not the field's Python name."""
    return f"{key_of(attribute)}: {toml_value(old)} -> {toml_value(new)}"


def save_profile(
    profile: Profile,
    folder: Path,
    empty: str | None = None,
    faces: str | None = None,
    classifier: str | None = None,
) -> Path:
    """Write ``profile`` as ``folder/profile.toml``; ``empty``, ``faces`` and ``classifier`` name files already in
    ``folder``."""
    # keys that name a file beside the profile, not a value
    files = {"empty": empty, "model": faces, "classifier": classifier}
    values = {
        where: files[key.name] if key.name in files else getattr(profile, key.attribute or key.name)
        for where, key in KEYS.items()
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "profile.toml"
    path.write_text(
        values_file(f"Written by fantan-table calibrate; every key is explained in {DEFAULT_FOLDER}.", KEYS, values),
        encoding="utf-8",
    )
    return path
