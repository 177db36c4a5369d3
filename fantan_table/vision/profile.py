"""The dice reader's parameters, read from a TOML profile; every key has a default that suits pipped dice.

A profile file looks like ``calibration/profiles/default/profile.toml``. A missing file, bad
TOML, an unknown key or a bad value is a :class:`ProfileError` naming the file and the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..tomlfile import check, read_toml
from .faces import FaceModel


class ProfileError(ValueError):
    """A profile that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Profile:
    work_width: int = 640
    """Frames are scaled to this width to find the dice (pips are counted at full resolution)."""
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
    roi: tuple[int, int, int, int] | None = None
    """x0, y0, x1, y1 in frame pixels: the only part of the frame where dice can be."""
    empty: np.ndarray | None = field(default=None, compare=False, repr=False)
    """A frame of the empty table (BGR), for finding dice by difference; from the profile's ``empty`` key."""
    faces: FaceModel | None = field(default=None, compare=False, repr=False)
    """Learned faces (dice without pips); from the profile's ``[faces] model`` key. None: count pips."""
    source: str = "built-in defaults"

    def with_empty(self, frame: np.ndarray | None) -> Profile:
        return replace(self, empty=frame)


#: (section, key) in the file -> (field of Profile, the kind of value it takes)
_KEYS: dict[tuple[str, str], tuple[str, Any]] = {
    ("reader", "work_width"): ("work_width", int),
    ("dice", "size"): ("die_size", "pair"),
    ("dice", "max_aspect"): ("max_aspect", float),
    ("dice", "min_squareness"): ("min_squareness", float),
    ("dice", "min_solidity"): ("min_solidity", float),
    ("dice", "blank"): ("blank_face", bool),
    ("pips", "area"): ("pip_area", "pair"),
    ("pips", "contrast"): ("pip_contrast", float),
    ("pips", "polarity"): ("pip_polarity", str),
    ("pips", "pattern_tolerance"): ("pattern_tolerance", float),
    ("pips", "top_face"): ("top_face", "pair"),
    ("pips", "side_faces"): ("side_faces", bool),
    ("table", "body_lightness"): ("body_lightness", float),
    ("table", "body_colour"): ("body_colour", float),
    ("table", "roi"): ("roi", "box"),
    ("table", "empty"): ("empty", str),
    ("faces", "model"): ("faces", str),
}
_SECTIONS = list(dict.fromkeys(section for section, _ in _KEYS))


def load_profile(path: str | Path | None) -> Profile:
    """Read a profile file (or a folder holding ``profile.toml``); ``None`` gives the defaults."""
    if path is None:
        return Profile()
    path = Path(path)
    if path.is_dir():
        path = path / "profile.toml"
    data = read_toml(path, ProfileError, "profile file (give a profile.toml, or its folder)")
    values: dict[str, Any] = {"source": str(path)}
    empty_frame = None
    for table, entries in data.items():
        if table not in _SECTIONS:
            raise ProfileError(
                f"{path}: unknown section [{table}]; sections are {', '.join(f'[{k}]' for k in _SECTIONS)}"
            )
        if not isinstance(entries, dict):
            raise ProfileError(f"{path}: {table} must be a section [{table}]")
        for key, value in entries.items():
            where = f"{path}: [{table}] {key}"
            if (table, key) not in _KEYS:
                takes = ", ".join(k for section, k in _KEYS if section == table)
                raise ProfileError(f"{where}: unknown key; [{table}] takes {takes}")
            name, kind = _KEYS[(table, key)]
            if name == "empty":
                empty_frame = _read_empty(path.parent / check(value, kind, where, ProfileError), where)
            elif name == "faces":
                values["faces"] = _read_faces(path.parent / check(value, kind, where, ProfileError), where)
            else:
                values[name] = check(value, kind, where, ProfileError)
    profile = Profile(**values)
    _validate(profile, path)
    return profile.with_empty(empty_frame)


def _validate(p: Profile, path: Path) -> None:
    roi = p.roi
    limits = [  # (key, whether the value is out of range, what it must be)
        ("[reader] work_width", not 160 <= p.work_width <= 4096, "160 to 4096"),
        ("[dice] size", not 0 < p.die_size[0] < p.die_size[1] < 1, "two shares of the frame width, 0 < min < max < 1"),
        ("[dice] max_aspect", not 1 <= p.max_aspect <= 3, "between 1 and 3"),
        ("[dice] min_squareness", not 0 < p.min_squareness < 1, "between 0 and 1"),
        ("[dice] min_solidity", not 0 < p.min_solidity <= 1.1, "between 0 and 1.1"),
        ("[pips] area", not 0 < p.pip_area[0] < p.pip_area[1], "0 < min < max"),
        ("[pips] contrast", not 0 < p.pip_contrast < 255, "between 0 and 255"),
        ("[pips] polarity", p.pip_polarity not in ("auto", "dark", "light"), '"auto", "dark" or "light"'),
        ("[pips] pattern_tolerance", not 0 < p.pattern_tolerance < 0.5, "between 0 and 0.5"),
        (
            "[pips] top_face",
            not (0.2 <= p.top_face[0] <= 1 and 1 <= p.top_face[1] <= 3),
            "[least share 0.2 to 1, squeeze 1 to 3]",
        ),
        ("[table] body_lightness", not 0 < p.body_lightness < 255, "between 0 and 255"),
        ("[table] body_colour", not 0 < p.body_colour < 255, "between 0 and 255"),
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


def _read_empty(file: Path, where: str) -> np.ndarray:
    frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
    if frame is None:
        raise ProfileError(f"{where}: cannot read the empty-table picture {file}")
    return frame


def save_profile(profile: Profile, folder: Path, empty: str | None = None, faces: str | None = None) -> Path:
    """Write ``profile`` as ``folder/profile.toml``; ``empty`` and ``faces`` name files already in ``folder``."""
    sections: dict[str, list[str]] = {}
    for (section, key), (name, _) in _KEYS.items():
        if name == "empty":
            value: Any = empty
        elif name == "faces":
            value = faces
        else:
            value = getattr(profile, name)
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, tuple):
            text = "[" + ", ".join(repr(v) for v in value) + "]"
        elif isinstance(value, str):
            text = f'"{value}"'
        else:
            text = repr(value)
        sections.setdefault(section, []).append(f"{key} = {text}")
    body = "\n\n".join(f"[{section}]\n" + "\n".join(lines) for section, lines in sections.items())
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "profile.toml"
    path.write_text(
        f"# Written by fantan-table calibrate; every key is explained in calibration/profiles/default.\n\n{body}\n",
        encoding="utf-8",
    )
    return path
