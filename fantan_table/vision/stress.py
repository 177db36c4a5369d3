"""A hard synthetic "stress" set: dice seen by a pinhole camera on varied tables, with exact labels.

The everyday renderer (``render.py``) draws flat squares on three cloths; a reader can learn its
look by heart. Here every scene draws, from its seed, what differs between real tables: dice
25-200 px across of many body and pip colours, pips 9-20 % of a side, round or squarish, laid out
a little unevenly; a camera at some height and tilt whose perspective shows the side faces (with
their pips) of dice away from the centre; light from any direction with a colour cast, shadows,
gloss spots and vignetting; felt, wood, mats, cloth and patterned tables; coins, tile edges, a cup
rim, cables, paper and fingers; lens, motion and focus blur, sensor noise and JPEG. Dice lie
touching or apart at any angle, and a die cut in half by the frame's edge may lie beside them.
On request the dice are of wood, the grain drawn on every face, or the camera looks at a steep
slant, as a phone held across the table does (``steep``).

The truth is exact because it is computed, not measured: each die's value, its top face's corners,
centre and rotated box, and its axis-aligned box in the frame. ``training_crops`` cuts labelled
face crops and "not a face" crops out of such scenes for a learned classifier.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from .pips import PIP_LAYOUTS
from .reader import face_crop
from .render import PIECEPACK_BODY, PIECEPACK_SUITS, add_noise, overlap_area, piecepack_mark, slide_until_touching
from .topface import RotatedBox

Colour = tuple[int, int, int]
_Drawer = Callable[[np.ndarray, "np.random.Generator | None"], None]
"""Draws a distractor: as 255 on a uint8 mask (no generator), or in colour on the float picture."""

#: Die bodies (BGR). "translucent" bodies let the table show through a little.
BODIES: Final[dict[str, Colour]] = {
    "white": (242, 244, 244),
    "ivory": (196, 226, 238),
    "red": (40, 40, 190),
    "green": (60, 140, 40),
    "blue": (165, 85, 25),
    "yellow": (40, 200, 235),
    "black": (34, 32, 30),
    "orange": (30, 120, 230),
    "purple": (120, 45, 105),
    "suns": PIECEPACK_SUITS["suns"],
    "crowns": PIECEPACK_SUITS["crowns"],
    "arms": PIECEPACK_SUITS["arms"],
}
WOODS: Final[dict[str, Colour]] = {
    "beech": (110, 170, 215),
    "oak": (95, 150, 190),
    "walnut": (70, 115, 165),
}
"""Wooden dice's bodies (``stress_scene(wooden=True)``): the colour of the wood, its grain drawn on top."""
GRAIN_DEPTH: Final = (0.04, 0.12)
"""How much the grain's stripes are lighter and darker than the wood's own colour (a share of it)."""
GRAIN_STRIPES: Final = (4.0, 12.0)
"""Stripes of grain across a face; each face is cut across the grain at its own angle."""
GRAIN_WAVER: Final = 6.0
"""How far the stripes waver: a smooth random field (blurred over an eighth of the face, so a few bends across it)
times this, in stripes; it moves a stripe by about a seventh of its width."""
GRAIN_SPECKLE: Final = 0.05
"""The wood's pores: fine speckle (blurred over about a pixel) of this share of its colour."""
PIP_COLOURS: Final[dict[str, Colour]] = {
    "black": (25, 25, 25),
    "white": (245, 245, 245),
    "red": (40, 40, 200),
    "blue": (170, 70, 20),
    "gold": (40, 170, 215),
    "green": (50, 140, 30),
}
TABLES: Final = ("felt", "wood", "mat", "cloth", "pattern")
DISTRACTORS: Final = ("coin", "tile", "cup", "cable", "paper", "finger")
FRAME_SIZES: Final = ((1280, 960), (1280, 720), (1920, 1080), (1024, 768), (640, 480))

DIE_PX: Final = (25.0, 200.0)
"""A die's side in the frame (at the picture's centre), pixels: from a far phone to a close webcam."""
ROOM_FOR_FOUR: Final = 0.2
"""The largest die's side as a share of the frame's shorter side when four dice must fit (less for more dice)."""
PIP_SHARE: Final = (0.09, 0.20)
"""A pip's diameter as a share of the face's side."""
TILT_DEG: Final = (0.0, 35.0)
"""The camera's tilt away from straight down: beyond about 35 degrees the far dice's top faces are slivers."""
MAX_VIEW_DEG: Final = 50.0
"""A counted die is seen at most this far from straight above: a camera over a table does not look along it."""
STEEP_TILT_DEG: Final = (40.0, 60.0)
"""The tilt of a camera at a steep slant (``steep``), a phone held across the table: past 45 degrees a die's side
face turned to the camera looks squarer than its top, which a camera over the table never shows."""
STEEP_MAX_VIEW_DEG: Final = 75.0
"""How far from straight above such a camera sees a counted die: the far dice of a steep view are seen along the
table more than ``MAX_VIEW_DEG``, their top faces not yet slivers."""
JPEG_QUALITY: Final = (50, 95)
MIN_CONTRAST: Final = 45.0
"""Least Lab distance between a die's body and its pips: below it a person could not read the die either."""
MIN_BODY_CONTRAST: Final = 22.0
"""Least Lab distance between a die's body and the table's mean colour, so a die stays visible to a person."""
DRILL_SHADE: Final = 0.4
DRILL_SHADE_SHIFT: Final = 0.35
"""A drilled pip's crescent of shade: how dark, and how far (a share of the pip's radius) the wall's shadow reaches."""
GLOSS_MAX: Final = 0.65
"""The brightest gloss spot, as a share of the way to white: a pip under it fades but can still be seen."""
NOT_A_FACE: Final = -1
"""The label of a crop that shows no die's top face (table, distractor, half a die, two dice)."""

_EDGE: Final = 100.0
"""A die's edge in world units; the table is the plane z = 0."""


@dataclass(frozen=True)
class StressDie:
    value: int
    kind: str
    """"pips" (a d6, or a d6 with a blank face) or "piecepack-<suit>"."""
    body: str
    marks: str
    """The pips' (or the piecepack marks') colour name."""
    pip_share: float
    top: tuple[tuple[float, float], ...]
    """The top face's four corners in frame pixels."""
    center: tuple[float, float]
    """The top face's centre in frame pixels."""
    top_box: RotatedBox
    """The top face's rotated box, as the reader's boxes are given."""
    box: tuple[int, int, int, int]
    """x0, y0, x1, y1 around everything seen of the die (side faces too), clipped to the frame."""
    side_px: float
    """The top face's mean side in pixels."""
    side_faces: int
    """How many side faces show more than a sliver."""
    cut: bool
    """True for a die cut by the frame's edge: drawn, but not one of the scene's counted dice."""
    gloss: bool
    """A gloss spot lies on the top face (perhaps over a pip)."""


@dataclass(frozen=True)
class StressScene:
    image: np.ndarray
    """BGR uint8, as the camera gave it (after JPEG when ``jpeg_quality`` is set)."""
    dice: tuple[StressDie, ...]
    seed: int
    table: str
    tilt_deg: float
    fov_deg: float
    light_elevation_deg: float
    blur: str
    noise: float
    jpeg_quality: int | None
    distractors: tuple[tuple[str, tuple[int, int, int, int]], ...]
    """What else lies on the table, and its box (x0, y0, x1, y1)."""
    touching: bool

    @property
    def counted(self) -> tuple[StressDie, ...]:
        """The dice wholly in the frame: the ones a reader must read."""
        return tuple(d for d in self.dice if not d.cut)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.counted)


def stress_scene(
    seed: int,
    *,
    count: int = 4,
    size: tuple[int, int] | None = None,
    piecepack: bool = False,
    faces: tuple[int, ...] | None = None,
    wooden: bool = False,
    steep: bool = False,
) -> StressScene:
    """Draw ``count`` dice (plus perhaps a die cut by the edge) from ``seed``; the same seed gives the same scene.

    Pipped dice are d6 (1-6) or d6 with a blank (0-5); ``faces`` limits the values shown on top.
    ``piecepack`` draws piecepack dice (blank, suit-symbol ace, numerals 2-5) instead. ``wooden`` draws pipped
    dice of wood (``WOODS``), the grain on every face: a look none of the learned networks was taught. ``steep``
    tilts the camera ``STEEP_TILT_DEG`` (every scene), a view none of them was taught either; otherwise three
    scenes in four are tilted up to ``TILT_DEG``, and the rest look straight down.
    """
    if not 1 <= count <= 12:
        raise ValueError(f"a stress scene has 1 to 12 dice (got {count})")
    if piecepack and wooden:
        raise ValueError("wooden dice are pipped dice: piecepack dice are not drawn of wood")
    rng = np.random.default_rng([seed, 16])
    width, height = size or FRAME_SIZES[0 if rng.random() < 0.5 else int(rng.integers(len(FRAME_SIZES)))]
    if width < 160 or height < 120:
        raise ValueError(f"a stress scene is at least 160x120 (got {width}x{height})")
    camera = _Camera.random(rng, width, height, count, steep)
    light = _Light.random(rng)
    table_kind = TABLES[int(rng.integers(len(TABLES)))]
    image, table_colour = _table(rng, table_kind, width, height)
    dice = _place(rng, camera, count, piecepack, faces, table_colour, wooden)
    touching = any(d.touching for d in dice)
    for die in dice:
        _shadow(rng, image, camera, light, die)
    names = _distractors(rng, image, camera, dice)
    for die in sorted(dice, key=lambda d: -float(np.linalg.norm(d.centre - camera.position))):
        _draw_die(rng, image, camera, light, die)
    _light_the_frame(rng, image, light)
    blur = _blur(rng, image, min(d.side_px * d.pip_share for d in dice))
    noise = float(rng.uniform(1, 7))
    add_noise(rng, image, noise)
    out = np.clip(image, 0, 255).astype(np.uint8)
    quality = int(rng.integers(JPEG_QUALITY[0], JPEG_QUALITY[1] + 1)) if rng.random() < 0.85 else None
    if quality is not None:
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return StressScene(
        out,
        tuple(d.truth(camera) for d in dice),
        seed,
        table_kind,
        round(math.degrees(camera.tilt), 2),
        round(camera.fov_deg, 2),
        round(math.degrees(light.elevation), 2),
        blur,
        round(noise, 2),
        quality,
        names,
        touching,
    )


# -- the camera ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Camera:
    """A pinhole camera: world point P -> pixel (f x / z + cx, f y / z + cy) with (x, y, z) = R (P - position)."""

    rotation: np.ndarray
    position: np.ndarray
    focal: float
    principal: np.ndarray
    width: int
    height: int
    tilt: float
    fov_deg: float
    max_view_deg: float
    """How far from straight above a counted die may be seen."""

    @classmethod
    def random(cls, rng: np.random.Generator, width: int, height: int, count: int, steep: bool = False) -> _Camera:
        fov = float(rng.uniform(45, 78))
        focal = width / 2 / math.tan(math.radians(fov) / 2)
        tilted = rng.random() < 0.75  # drawn first, as ever: a seed's everyday scene stays the same
        tilt = math.radians(rng.uniform(*(STEEP_TILT_DEG if steep else TILT_DEG))) if tilted or steep else 0.0
        roll = rng.uniform(0, 2 * math.pi)
        # straight down: camera x = world x, camera y = world -y, optical axis = world -z
        down = np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1]], float)
        pitch = np.array([[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]])
        spin = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
        rotation = spin @ pitch @ down
        # a die of DIE_PX (log-uniform) where the optical axis meets the table, smaller when the frame is crowded
        high = min(DIE_PX[1], ROOM_FOR_FOUR * min(width, height) * math.sqrt(4 / max(count, 4)))
        low = min(DIE_PX[0], high / 2)
        side = math.exp(rng.uniform(math.log(low), math.log(high)))
        distance = focal * _EDGE / side
        position = -distance * rotation.T @ np.array([0.0, 0.0, 1.0]) + np.array([0, 0, _EDGE])
        principal = np.array([width / 2, height / 2]) + rng.uniform(-0.02, 0.02, 2) * (width, height)
        max_view = STEEP_MAX_VIEW_DEG if steep else MAX_VIEW_DEG
        return cls(rotation, position, focal, principal, width, height, tilt, fov, max_view)

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = (points - self.position) @ self.rotation.T
        return np.asarray(cam[:, :2] / cam[:, 2:3] * self.focal + self.principal)

    def on_table(self, pixel: np.ndarray, z: float = 0.0) -> np.ndarray:
        """The point at height ``z`` that the ray through ``pixel`` meets."""
        ray = self.rotation.T @ np.array([*(pixel - self.principal) / self.focal, 1.0])
        return np.asarray(self.position + ray * (z - self.position[2]) / ray[2])


@dataclass(frozen=True)
class _Light:
    towards: np.ndarray
    """Unit vector from the table towards the light."""
    elevation: float
    strength: float
    cast: np.ndarray
    """Per-channel (BGR) gain: a warm lamp, daylight, a cool screen."""

    @classmethod
    def random(cls, rng: np.random.Generator) -> _Light:
        elevation = math.radians(rng.uniform(30, 85))
        azimuth = rng.uniform(0, 2 * math.pi)
        towards = np.array(
            [math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation), math.sin(elevation)]
        )
        cast = 1 + rng.uniform(-0.12, 0.12, 3)
        return cls(towards, elevation, float(rng.uniform(0.7, 1.25)), cast)


# -- the dice -----------------------------------------------------------------------------------------------
_FACE_AXES: Final = (
    # (normal, canvas right, canvas down) of the die's top and four sides, before the die's turn
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, -1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, -1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, -1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
)
_CORNERS: Final = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


@dataclass
class _Die:
    value: int
    sides: tuple[int, int, int, int]
    kind: str
    body: str
    body_colour: np.ndarray
    marks: str
    mark_colour: np.ndarray
    translucent: bool
    pip_share: float
    square_pips: bool
    drilled: bool
    """Pips drilled into the face: the drill hole's wall throws a crescent of shade inside each pip."""
    spread: float
    corner: float
    centre: np.ndarray
    """The die's centre in the world."""
    yaw: float
    touching: bool
    cut: bool
    side_px: float = 0.0
    gloss: bool = False
    grain: bool = False
    """Wood: the grain is drawn on every face."""

    def face_corners(self, face: int) -> np.ndarray:
        """Face ``face``'s corners in the world, in canvas order (0,0), (1,0), (1,1), (0,1)."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        normal, right, down = (turn @ np.array(v, float) for v in _FACE_AXES[face])
        middle = self.centre + normal * _EDGE / 2
        return np.array([middle + (right * (u - 0.5) + down * (v - 0.5)) * _EDGE for u, v in _CORNERS])

    def footprint(self) -> np.ndarray:
        return self.face_corners(0)[:, :2].astype(np.float32)

    def truth(self, camera: _Camera) -> StressDie:
        top = camera.project(self.face_corners(0))
        seen = np.vstack([camera.project(self.face_corners(f)) for f in range(5) if _faces_camera(self, f, camera)])
        x0, y0 = np.clip(np.floor(seen.min(axis=0)), 0, None)
        x1, y1 = np.minimum(np.ceil(seen.max(axis=0)), (camera.width - 1, camera.height - 1))
        (cx, cy), (w, h), angle = cv2.minAreaRect(top.astype(np.float32))
        return StressDie(
            self.value,
            self.kind,
            self.body,
            self.marks,
            round(self.pip_share, 4),
            tuple((round(float(x), 2), round(float(y), 2)) for x, y in top),
            (round(float(top[:, 0].mean()), 2), round(float(top[:, 1].mean()), 2)),
            ((float(cx), float(cy)), (float(w), float(h)), float(angle)),
            (int(x0), int(y0), int(x1), int(y1)),
            round(self.side_px, 2),
            sum(
                _face_area(camera.project(self.face_corners(f))) > 0.08 * _face_area(top)
                for f in range(1, 5)
                if _faces_camera(self, f, camera)
            ),
            self.cut,
            self.gloss,
        )


def _faces_camera(die: _Die, face: int, camera: _Camera) -> bool:
    middle = die.face_corners(face).mean(axis=0)
    return float(np.dot(middle - die.centre, camera.position - middle)) > 0


def _mean_side(quad: np.ndarray) -> float:
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def _face_area(quad: np.ndarray) -> float:
    return float(abs(cv2.contourArea(quad.astype(np.float32))))


def _lab_distances(colour: np.ndarray, others: list[np.ndarray]) -> np.ndarray:
    """Distances in Lab (OpenCV's float Lab, L 0-100) from ``colour`` to each of ``others``: how different they look."""
    pixels = np.clip(np.array([colour, *others], np.float32), 0, 255).reshape(1, -1, 3) / 255
    lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return np.asarray(np.linalg.norm(lab[1:] - lab[0], axis=1))


def _new_die(
    rng: np.random.Generator,
    piecepack_suit: str | None,
    faces: tuple[int, ...] | None,
    table_colour: np.ndarray,
    wooden: bool,
) -> _Die:
    if piecepack_suit is not None:
        sides_of = (0, 1, 2, 3, 4, 5)
        body_name, body = "piecepack", np.array(PIECEPACK_BODY, float)
        marks, mark = piecepack_suit, np.array(PIECEPACK_SUITS[piecepack_suit], float)
        kind = f"piecepack-{piecepack_suit}"
    else:
        sides_of = (1, 2, 3, 4, 5, 6) if rng.random() < 0.6 else (0, 1, 2, 3, 4, 5)
        kind = "pips"
        bodies = WOODS if wooden else BODIES
        for _ in range(100):
            body_name = list(bodies)[int(rng.integers(len(bodies)))]
            body = np.array(bodies[body_name], float) * rng.uniform(0.88, 1.1)
            if _lab_distances(body, [table_colour])[0] >= MIN_BODY_CONTRAST:
                break
        contrast = _lab_distances(body, [np.array(c, float) for c in PIP_COLOURS.values()])
        readable = [n for n, d in zip(PIP_COLOURS, contrast, strict=True) if d >= MIN_CONTRAST]
        # most dice have black or white pips; coloured pips are the exception
        weights = np.array([1.0 if n in ("black", "white") else 0.25 for n in readable])
        marks = readable[int(rng.choice(len(readable), p=weights / weights.sum()))]
        mark = np.array(PIP_COLOURS[marks], float)
    options = faces if faces is not None else sides_of
    value = int(options[int(rng.integers(len(options)))])
    if value not in sides_of:
        sides_of = (0, 1, 2, 3, 4, 5) if value == 0 else (1, 2, 3, 4, 5, 6)
    opposite = sides_of[-1] + sides_of[0] - value
    around = [v for v in sides_of if v not in (value, opposite)]
    rng.shuffle(around)
    pip_share = float(rng.uniform(*PIP_SHARE))
    return _Die(
        value,
        (around[0], around[1], around[2], around[3]),
        kind,
        body_name,
        body,
        marks,
        mark,
        piecepack_suit is None and rng.random() < 0.12,
        pip_share,
        bool(rng.random() < 0.3),
        bool(rng.random() < 0.5),
        float(rng.uniform(max(0.2, 1.2 * pip_share), 0.28)),  # big pips need room: pips of a six never touch
        float(rng.uniform(0.06, 0.2)),
        np.zeros(3),
        float(rng.uniform(0, 2 * math.pi)),
        False,
        False,
        grain=wooden,
    )


def _place(
    rng: np.random.Generator,
    camera: _Camera,
    count: int,
    piecepack: bool,
    faces: tuple[int, ...] | None,
    table_colour: np.ndarray,
    wooden: bool,
) -> list[_Die]:
    """Lay the dice where a lifted cup leaves them, none overlapping, all wholly in the frame; maybe one more cut."""
    suits = [list(PIECEPACK_SUITS)[k] for k in rng.permutation(len(PIECEPACK_SUITS))]
    touching = rng.random() < 0.4
    size = np.array([camera.width, camera.height], float)
    cluster = size / 2 + rng.uniform(-0.15, 0.15, 2) * size
    dice: list[_Die] = []
    for i in range(count):
        die = _new_die(rng, suits[i % len(suits)] if piecepack else None, faces, table_colour, wooden)
        for attempt in range(300):
            spread = 0.3 + 0.5 * attempt / 300  # widen the search when the cup's spot is crowded
            if touching and dice and attempt < 150:
                other = dice[int(rng.integers(len(dice)))]
                way = rng.normal(size=2)
                outline = die.footprint() - die.centre[:2].astype(np.float32)
                at = slide_until_touching(
                    other.centre[:2], way / np.linalg.norm(way), outline, [d.footprint() for d in dice], _EDGE
                )
                if at is None:
                    continue
                die.centre = np.array([at[0], at[1], _EDGE / 2])
                die.touching = other.touching = True
            else:
                pixel = cluster + rng.uniform(-1, 1, 2) * spread * size / 2
                die.centre = camera.on_table(pixel, _EDGE / 2)
                die.touching = False
            if _inside(die, camera, 2.0) and not any(overlap_area(die.footprint(), d.footprint()) > 1 for d in dice):
                break
        else:
            raise RuntimeError(f"could not place die {i + 1} of {count} in the {camera.width}x{camera.height} frame")
        die.side_px = _mean_side(camera.project(die.face_corners(0)))
        dice.append(die)
    if rng.random() < 0.15:
        _add_cut_die(rng, camera, dice, faces, table_colour, wooden)
    return dice


def _add_cut_die(
    rng: np.random.Generator,
    camera: _Camera,
    dice: list[_Die],
    faces: tuple[int, ...] | None,
    table_colour: np.ndarray,
    wooden: bool,
) -> None:
    """A die more than half outside the frame: drawn, labelled as cut, not counted."""
    die = _new_die(rng, None, faces, table_colour, wooden)
    die.cut = True
    edge = int(rng.integers(4))
    for _ in range(50):
        along = rng.uniform(0.1, 0.9)
        pixel = np.array(
            [
                (along * camera.width, 0),
                (camera.width, along * camera.height),
                (along * camera.width, camera.height),
                (0, along * camera.height),
            ][edge],
            float,
        )
        die.centre = camera.on_table(pixel, _EDGE / 2)
        top = camera.project(die.face_corners(0))
        inside = np.clip(top, 0, (camera.width, camera.height))
        share = _face_area(inside) / max(_face_area(top), 1e-6)
        if 0.15 < share < 0.5 and not any(overlap_area(die.footprint(), d.footprint()) > 1 for d in dice):
            die.side_px = _mean_side(top)
            dice.append(die)
            return


def _inside(die: _Die, camera: _Camera, margin: float) -> bool:
    """The whole die is in the frame, and seen no more steeply than the camera allows (``MAX_VIEW_DEG``, or
    ``STEEP_MAX_VIEW_DEG``) from straight above."""
    points = np.vstack([camera.project(die.face_corners(f)) for f in range(5)])
    ray = camera.position - die.centre
    seen_from_above = math.degrees(math.acos(ray[2] / np.linalg.norm(ray))) <= camera.max_view_deg
    return bool(
        seen_from_above
        and (points.min(axis=0) > margin).all()
        and (points.max(axis=0) < (camera.width - margin, camera.height - margin)).all()
    )


# -- the table ----------------------------------------------------------------------------------------------
_FELTS: Final = ((50, 100, 30), (40, 80, 20), (110, 60, 25), (40, 40, 120), (45, 30, 90), (60, 60, 60))
_WOODS: Final = ((95, 145, 190), (60, 95, 135), (40, 60, 95), (150, 190, 215))
_CLOTH_PATTERNS: Final = ("checks", "stripes", "dots")


def _table(rng: np.random.Generator, kind: str, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """The empty table as a float BGR picture, and its mean colour.

    The table's look is drawn at half size and scaled up (it is smooth), then the fine grain is added at full size.
    """
    h, w = (height + 1) // 2, (width + 1) // 2
    img = np.empty((h, w, 3), np.float32)
    y, x = np.arange(h, dtype=np.float32)[:, None] * 2, np.arange(w, dtype=np.float32)[None, :] * 2
    turn = rng.uniform(0, math.pi)
    along, across = x * math.cos(turn) + y * math.sin(turn), -x * math.sin(turn) + y * math.cos(turn)
    grain = 3.0
    if kind == "felt":
        img[:] = np.array(_FELTS[int(rng.integers(len(_FELTS)))], np.float32) * rng.uniform(0.8, 1.2)
        grain = float(rng.uniform(4, 10))  # fibres
    elif kind == "wood":
        img[:] = np.array(_WOODS[int(rng.integers(len(_WOODS)))], np.float32) * rng.uniform(0.85, 1.1)
        waves = 4 * np.sin(along * rng.uniform(0.002, 0.008) + rng.uniform(0, 6))
        rings = np.sin(across * rng.uniform(0.04, 0.15) + waves) + 0.5 * np.sin(across * rng.uniform(0.3, 0.6))
        plank = rng.uniform(120, 400)
        seams = (np.abs((across % plank) - plank / 2) > plank / 2 - 1.5).astype(np.float32)
        img *= (1 + 0.07 * rings - 0.35 * seams)[..., None]
    elif kind == "mat":
        tint = rng.uniform(-12, 12, 3) if rng.random() < 0.5 else np.zeros(3)
        img[:] = (rng.uniform(70, 160) + tint).astype(np.float32)
        if rng.random() < 0.25:  # a cutting mat's grid
            step = rng.uniform(30, 90)
            lines = (np.minimum(x % step, y % step) < 2).astype(np.float32)
            img *= (1 + 0.35 * lines)[..., None]
    elif kind == "cloth":
        img[:] = rng.uniform(205, 240) + rng.uniform(-6, 6, 3).astype(np.float32)
        folds = np.sin(along * rng.uniform(0.005, 0.015) + rng.uniform(0, 6))
        img *= (1 + 0.06 * folds)[..., None]
    else:
        first = rng.uniform(30, 230, 3).astype(np.float32)
        second = rng.uniform(30, 230, 3).astype(np.float32)
        cell = rng.uniform(20, 120)
        pattern = _CLOTH_PATTERNS[int(rng.integers(len(_CLOTH_PATTERNS)))]
        if pattern == "checks":
            share = ((np.floor(along / cell) + np.floor(across / cell)) % 2 + (np.floor(along / cell) % 2)) / 3
        elif pattern == "stripes":
            share = np.broadcast_to(across % cell < cell / 2, (h, w))
        else:
            share = np.hypot(along % cell - cell / 2, across % cell - cell / 2) < cell * 0.22
        share = cv2.GaussianBlur(share.astype(np.float32), (0, 0), 0.6)
        img[:] = first * (1 - share[..., None]) + second * share[..., None]
    small = rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
    blotches = cv2.resize(cv2.GaussianBlur(small, (0, 0), 2), (w, h))
    img *= (1 + 0.04 * blotches)[..., None]
    mean = np.array(cv2.mean(img)[:3])
    full = cv2.resize(img, (width, height), interpolation=cv2.INTER_LINEAR)
    add_noise(rng, full, grain)
    return full, mean


# -- light and shadow ---------------------------------------------------------------------------------------
def _window(points: np.ndarray, pad: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    x0, y0 = np.maximum(np.floor(points.min(axis=0) - pad), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0) + pad), (shape[1], shape[0])).astype(int)
    return int(x0), int(y0), int(max(x1, x0)), int(max(y1, y0))


def _shadow(rng: np.random.Generator, image: np.ndarray, camera: _Camera, light: _Light, die: _Die) -> None:
    """The die's cast shadow (its corners pushed along the light onto the table) and its contact shade."""
    top = die.face_corners(0)
    corners = np.vstack([top, top - np.array([0, 0, _EDGE])])
    cast = corners - corners[:, 2:3] / light.towards[2] * light.towards
    points = camera.project(np.vstack([cast, corners[4:]]))
    pad = 0.4 * die.side_px
    x0, y0, x1, y1 = _window(points, pad, image.shape)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    hull = cv2.convexHull((points - (x0, y0)).astype(np.float32))
    cv2.fillPoly(mask, [np.round(hull * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, float(rng.uniform(0.03, 0.15)) * die.side_px))
    strength = float(rng.uniform(0.2, 0.55))
    image[y0:y1, x0:x1] *= (1 - strength * mask)[..., None]


def _light_the_frame(rng: np.random.Generator, image: np.ndarray, light: _Light) -> None:
    """The light's strength and colour, its fall-off across the table, and the lens's vignette."""
    h, w = image.shape[:2]
    v, u = np.mgrid[-0.5 : 0.5 : _COARSE * 1j, -0.5 : 0.5 : _COARSE * 1j].astype(np.float32)
    slope = rng.normal(size=2) * 0.2
    vignette = float(rng.uniform(0, 0.45))
    gain = light.strength * (1 + slope[0] * u + slope[1] * v) * (1 - vignette * (u * u + v * v) * 2)
    smooth = cv2.resize((gain[..., None] * light.cast).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(image, smooth, dst=image)


_COARSE: Final = 33
"""Light varies slowly across the frame: it is worked out on this many points a side, then scaled up."""


def _blur(rng: np.random.Generator, image: np.ndarray, smallest_pip: float) -> str:
    """Lens softness, camera shake or a missed focus; never so much that the smallest pips melt away."""
    kind = ("none", "lens", "motion", "defocus")[int(rng.choice(4, p=(0.3, 0.35, 0.2, 0.15)))]
    if kind == "lens":
        sigma = float(rng.uniform(0.3, max(0.35, min(1.6, 0.35 * smallest_pip))))
        cv2.GaussianBlur(image, (0, 0), sigma, dst=image)
        return f"lens {sigma:.2f}"
    if kind == "motion":
        length = float(rng.uniform(2, max(2.5, min(9.0, 0.9 * smallest_pip))))
        size = int(math.ceil(length)) | 1
        kernel = np.zeros((size, size), np.float32)
        a = rng.uniform(0, math.pi)
        end = np.array([math.cos(a), math.sin(a)]) * length / 2
        c = size // 2
        cv2.line(
            kernel,
            (int(round(c - end[0])), int(round(c - end[1]))),
            (int(round(c + end[0])), int(round(c + end[1]))),
            1.0,
            1,
            cv2.LINE_AA,
        )
        cv2.filter2D(image, -1, kernel / kernel.sum(), dst=image)
        return f"motion {length:.1f}"
    if kind == "defocus":
        radius = float(rng.uniform(1, max(1.2, min(3.5, 0.45 * smallest_pip))))
        size = 2 * int(math.ceil(radius)) + 1
        kernel = np.zeros((size, size), np.float32)
        cv2.circle(kernel, (size // 2, size // 2), int(round(radius)), 1.0, -1, cv2.LINE_AA)
        cv2.filter2D(image, -1, kernel / kernel.sum(), dst=image)
        return f"defocus {radius:.1f}"
    return "none"


# -- drawing a die ------------------------------------------------------------------------------------------
def _draw_die(rng: np.random.Generator, image: np.ndarray, camera: _Camera, light: _Light, die: _Die) -> None:
    visible = [f for f in range(5) if _faces_camera(die, f, camera)]
    quads = {f: camera.project(die.face_corners(f)) for f in visible}
    outline = np.vstack(list(quads.values()))
    x0, y0, x1, y1 = _window(outline, 2, image.shape)
    if x1 <= x0 or y1 <= y0:
        return
    view = image[y0:y1, x0:x1]
    origin = np.array([x0, y0], float)
    # the body between the faces: the silhouette with rounded corners, in the shade of its rounded edges
    body = np.zeros(view.shape[:2], np.uint8)
    cv2.fillPoly(
        body,
        [np.round(cv2.convexHull((outline - origin).astype(np.float32)) * 16).astype(np.int32)],
        255,
        cv2.LINE_AA,
        shift=4,
    )
    radius = max(1, int(die.corner * die.side_px * 0.6))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    alpha = cv2.morphologyEx(body, cv2.MORPH_OPEN, disc).astype(np.float32) / 255
    _lay(view, np.broadcast_to((die.body_colour * 0.62).astype(np.float32), view.shape), alpha * _opacity(die))
    ambient = float(rng.uniform(0.45, 0.65))
    for f in visible:
        lit = ambient + (1 - ambient) * max(0.0, float(np.dot(_outward(die, f), light.towards)))
        n = int(np.clip(die.side_px * 1.3, 32, 260))
        colour, cover = _face_canvas(rng, die, f, n, lit)
        quad = (quads[f] - origin).astype(np.float32)
        square = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32)
        warp = cv2.getPerspectiveTransform(square, quad)
        size = (view.shape[1], view.shape[0])
        colour = cv2.warpPerspective(colour, warp, size, flags=cv2.INTER_LINEAR)
        cover = cv2.warpPerspective(cover, warp, size, flags=cv2.INTER_LINEAR)
        _lay(view, colour, cover)


def _outward(die: _Die, face: int) -> np.ndarray:
    middle = die.face_corners(face).mean(axis=0)
    return np.asarray((middle - die.centre) / np.linalg.norm(middle - die.centre))


def _opacity(die: _Die) -> float:
    return 0.78 if die.translucent else 1.0


def _lay(view: np.ndarray, colour: np.ndarray, alpha: np.ndarray) -> None:
    a = alpha[..., None]
    view[:] = view * (1 - a) + colour * a


def _face_canvas(rng: np.random.Generator, die: _Die, face: int, n: int, lit: float) -> tuple[np.ndarray, np.ndarray]:
    """One face, upright on an ``n`` x ``n`` canvas: its colour and how much it covers (rounded corners)."""
    value = die.value if face == 0 else die.sides[face - 1]
    cover = np.zeros((n, n), np.float32)
    r = die.corner * n
    cv2.rectangle(cover, (int(r), 0), (n - int(r), n), 1.0, -1)
    cv2.rectangle(cover, (0, int(r)), (n, n - int(r)), 1.0, -1)
    for cx, cy in ((r, r), (n - r, r), (r, n - r), (n - r, n - r)):
        cv2.circle(cover, (int(cx), int(cy)), int(r), 1.0, -1, cv2.LINE_AA)
    # the rounded edges turn away from the light: a darker rim
    rim = cv2.GaussianBlur(1 - cv2.erode(cover, np.ones((3, 3), np.uint8), iterations=max(1, n // 14)), (0, 0), n / 30)
    shade = lit * (1 - 0.3 * rim) * (1 + rng.normal(0, 0.03) * (np.arange(n, dtype=np.float32) / n - 0.5))[None, :]
    colour = np.empty((n, n, 3), np.float32)
    colour[:] = die.body_colour.astype(np.float32)
    if die.grain:
        colour *= grain(rng, n)[..., None]
    marks = _marks(die, value, n, rng)
    colour = colour * (1 - marks[..., None]) + die.mark_colour.astype(np.float32) * marks[..., None]
    if die.drilled and die.kind == "pips":
        step = DRILL_SHADE_SHIFT * die.pip_share / 2 * n
        moved = cv2.warpAffine(marks, np.array([[1, 0, step], [0, 1, step]], np.float32), (n, n))
        colour *= (1 - DRILL_SHADE * np.clip(marks - moved, 0, 1))[..., None]
    colour *= shade[..., None]
    if rng.random() < (0.45 if face == 0 else 0.15):  # gloss: a bright blurred spot, sometimes right on a pip
        die.gloss = die.gloss or face == 0
        spot = np.zeros((n, n), np.float32)
        centre = (int(rng.uniform(0.15, 0.85) * n), int(rng.uniform(0.15, 0.85) * n))
        axes = (max(1, int(rng.uniform(0.04, 0.15) * n)), max(1, int(rng.uniform(0.03, 0.1) * n)))
        cv2.ellipse(spot, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1, cv2.LINE_AA)
        spot = cv2.GaussianBlur(spot, (0, 0), max(0.5, 0.03 * n)) * float(rng.uniform(0.25, GLOSS_MAX))
        colour += (255 - colour) * spot[..., None]
    cover *= np.maximum(marks, _opacity(die))
    return colour, cover


def grain(rng: np.random.Generator, n: int) -> np.ndarray:
    """Wood's grain on an ``n`` x ``n`` face: a factor about 1 (``GRAIN_DEPTH``), in wavering stripes across it at
    a random angle (``GRAIN_STRIPES``), with a little fine speckle."""
    v, u = np.mgrid[0:n, 0:n].astype(np.float32) / n
    angle = rng.uniform(0, math.pi)
    across = u * math.cos(angle) + v * math.sin(angle)
    bends = cv2.GaussianBlur(rng.normal(0, 1, (n, n)).astype(np.float32), (0, 0), max(1.0, n / 8))
    stripes = np.sin(2 * math.pi * (across * rng.uniform(*GRAIN_STRIPES) + GRAIN_WAVER * bends))
    speckle = cv2.GaussianBlur(rng.normal(0, GRAIN_SPECKLE, (n, n)).astype(np.float32), (0, 0), 0.7)
    return np.asarray((1 + rng.uniform(*GRAIN_DEPTH) * stripes) * (1 + speckle), np.float32)


def _marks(die: _Die, value: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """Where the face's pips (or piecepack mark) are, as a 0..1 mask on the canvas."""
    if die.kind.startswith("piecepack-"):
        return np.asarray(cv2.resize(piecepack_mark(value, die.marks), (n, n), interpolation=cv2.INTER_AREA))
    marks = np.zeros((n, n), np.float32)
    radius = die.pip_share / 2 * n
    for u, v in PIP_LAYOUTS[value]:
        # the layout's spread differs between makers, and no pip sits exactly where the drawing says
        px = (0.5 + (u - 0.5) / 0.23 * die.spread + rng.normal(0, 0.008)) * n
        py = (0.5 + (v - 0.5) / 0.23 * die.spread + rng.normal(0, 0.008)) * n
        if die.square_pips:
            k = radius * 0.55
            cv2.rectangle(marks, (int(px - k), int(py - radius)), (int(px + k), int(py + radius)), 1.0, -1, cv2.LINE_AA)
            cv2.rectangle(marks, (int(px - radius), int(py - k)), (int(px + radius), int(py + k)), 1.0, -1, cv2.LINE_AA)
            for dx in (-1, 1):
                for dy in (-1, 1):
                    cv2.circle(marks, (int(px + dx * k), int(py + dy * k)), int(radius - k), 1.0, -1, cv2.LINE_AA)
        else:
            cv2.circle(
                marks,
                (int(round(px * 16)), int(round(py * 16))),
                int(round(radius * 16)),
                1.0,
                -1,
                cv2.LINE_AA,
                shift=4,
            )
    return marks


# -- things that are not dice -------------------------------------------------------------------------------
_SKIN: Final = ((120, 150, 205), (95, 125, 180), (60, 85, 130), (45, 60, 95))


def _distractors(
    rng: np.random.Generator, image: np.ndarray, camera: _Camera, dice: list[_Die]
) -> tuple[tuple[str, tuple[int, int, int, int]], ...]:
    """Up to four things that are not dice, each kept clear of every die: their names and boxes (x0, y0, x1, y1)."""
    h, w = image.shape[:2]
    side = float(np.median([d.side_px for d in dice]))
    keep_clear = np.zeros((h, w), np.uint8)
    for die in dice:
        points = np.vstack([camera.project(die.face_corners(f)) for f in range(5)])
        cv2.fillPoly(keep_clear, [cv2.convexHull(points.astype(np.float32)).astype(np.int32)], 255)
    keep_clear = cv2.dilate(keep_clear, np.ones((3, 3), np.uint8), iterations=max(1, int(0.3 * side)))
    chosen = [DISTRACTORS[int(k)] for k in rng.choice(len(DISTRACTORS), size=int(rng.integers(0, 5)), replace=False)]
    drawn = []
    for name in chosen:
        for _ in range(30):
            shape = np.zeros((h, w), np.uint8)
            draw = _DRAW[name](rng, side, w, h)
            draw(shape, None)
            x, y, bw, bh = cv2.boundingRect(shape)
            if bw and bh and not np.any(shape & keep_clear):
                draw(image, rng)
                drawn.append((name, (x, y, x + bw, y + bh)))
                break
    return tuple(drawn)


def _colour_or_mask(target: np.ndarray, colour: Colour | np.ndarray) -> tuple[float, ...]:
    """Distractors draw themselves twice: as 255 on a uint8 mask to test for room, then in colour."""
    return (255.0,) if target.dtype == np.uint8 else tuple(float(c) for c in colour)


def _coin(rng: np.random.Generator, side: float, w: int, h: int) -> _Drawer:
    r = side * rng.uniform(0.45, 0.85)
    c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    axes = (int(r), int(r * rng.uniform(0.85, 1)))
    angle = float(rng.uniform(0, 180))
    metal = np.array([(170, 170, 175), (60, 150, 195), (60, 100, 170)][int(rng.integers(3))], float)

    def draw(target: np.ndarray, paint: np.random.Generator | None) -> None:
        cv2.ellipse(target, c, axes, angle, 0, 360, _colour_or_mask(target, metal), -1, cv2.LINE_AA)
        if paint is not None:
            inner = (max(1, int(axes[0] * 0.82)), max(1, int(axes[1] * 0.82)))
            cv2.ellipse(target, c, inner, angle, 0, 360, tuple(0.75 * metal), max(1, int(r * 0.06)), cv2.LINE_AA)
            cv2.ellipse(
                target, c, (inner[0] // 2, inner[1] // 3), angle + 30, 0, 360, tuple(0.85 * metal), -1, cv2.LINE_AA
            )

    return draw


def _tile(rng: np.random.Generator, side: float, w: int, h: int) -> _Drawer:
    """A piecepack tile, mostly outside the frame: its edge and corner reach in."""
    size = side * rng.uniform(2.5, 4.5)
    edge = int(rng.integers(4))
    along = rng.uniform(0.1, 0.9)
    centre = [
        (along * w, -0.25 * size),
        (w + 0.25 * size, along * h),
        (along * w, h + 0.25 * size),
        (-0.25 * size, along * h),
    ][edge]
    corners = cv2.boxPoints((centre, (size, size), float(rng.uniform(0, 90)))).astype(np.int32)
    face = np.array([(200, 215, 222), (235, 238, 240), (90, 140, 190)][int(rng.integers(3))], float)

    def draw(target: np.ndarray, paint: np.random.Generator | None) -> None:
        cv2.fillPoly(target, [corners], _colour_or_mask(target, face), cv2.LINE_AA)
        if paint is not None:
            cv2.polylines(target, [corners], True, tuple(0.6 * face), max(1, int(side * 0.05)), cv2.LINE_AA)

    return draw


def _cup(rng: np.random.Generator, side: float, w: int, h: int) -> _Drawer:
    """The dice cup's rim, lying at the frame's edge."""
    radius = side * rng.uniform(3, 6)
    edge = int(rng.integers(4))
    along = rng.uniform(0.1, 0.9)
    out = radius * rng.uniform(0.4, 0.9)
    centre = [(along * w, -out), (w + out, along * h), (along * w, h + out), (-out, along * h)][edge]
    c = (int(centre[0]), int(centre[1]))
    thickness = max(2, int(side * rng.uniform(0.25, 0.6)))
    body = np.array([(30, 30, 32), (40, 60, 110), (150, 150, 150), (30, 30, 120)][int(rng.integers(4))], float)

    def draw(target: np.ndarray, paint: np.random.Generator | None) -> None:
        cv2.circle(target, c, int(radius), _colour_or_mask(target, body), thickness, cv2.LINE_AA)
        if paint is not None:
            cv2.circle(
                target,
                c,
                int(radius - thickness * 0.3),
                tuple(np.minimum(255, body * 1.6 + 30)),
                max(1, thickness // 6),
                cv2.LINE_AA,
            )

    return draw


def _cable(rng: np.random.Generator, side: float, w: int, h: int) -> _Drawer:
    start, bend, end = rng.uniform((0, 0), (w, h), (3, 2))
    t = np.linspace(0, 1, 40)[:, None]
    curve = ((1 - t) ** 2 * start + 2 * t * (1 - t) * bend + t * t * end).astype(np.int32)
    thickness = max(2, int(side * rng.uniform(0.08, 0.2)))
    sheath = np.array([(25, 25, 25), (230, 230, 230), (120, 120, 120)][int(rng.integers(3))], float)

    def draw(target: np.ndarray, paint: np.random.Generator | None) -> None:
        cv2.polylines(target, [curve], False, _colour_or_mask(target, sheath), thickness, cv2.LINE_AA)
        if paint is not None:
            cv2.polylines(
                target,
                [curve - (0, thickness // 4)],
                False,
                tuple(np.minimum(255, sheath + 60)),
                max(1, thickness // 4),
                cv2.LINE_AA,
            )

    return draw


def _paper(rng: np.random.Generator, side: float, w: int, h: int) -> _Drawer:
    centre = rng.uniform((0, 0), (w, h))
    size = side * rng.uniform(1.2, 3)
    angles = np.sort(rng.uniform(0, 2 * math.pi, int(rng.integers(4, 7))))
    points = (
        centre + np.stack([np.cos(angles), np.sin(angles)], axis=1) * size * rng.uniform(0.6, 1, (len(angles), 1))
    ).astype(np.int32)
    sheet = np.array([(240, 242, 242), (170, 235, 245), (225, 225, 215)][int(rng.integers(3))], float)
    lines = [int(centre[1] + k * size * 0.18) for k in range(-2, 3)]

    def draw(target: np.ndarray, paint: np.random.Generator | None) -> None:
        cv2.fillPoly(target, [points], _colour_or_mask(target, sheet), cv2.LINE_AA)
        if paint is not None:  # a few lines of writing
            for y in lines:
                x = int(centre[0] - size * 0.5)
                cv2.line(
                    target,
                    (x, y),
                    (x + int(size * paint.uniform(0.3, 0.9)), y),
                    (90, 80, 70),
                    max(1, int(side * 0.04)),
                    cv2.LINE_AA,
                )

    return draw


def _finger(rng: np.random.Generator, side: float, w: int, h: int) -> _Drawer:
    edge = int(rng.integers(4))
    along = rng.uniform(0.1, 0.9)
    base = np.array([(along * w, 0), (w, along * h), (along * w, h), (0, along * h)][edge], float)
    inward = np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][edge], float)
    turn = rng.uniform(-0.6, 0.6)
    way = np.array(
        [
            inward[0] * math.cos(turn) - inward[1] * math.sin(turn),
            inward[0] * math.sin(turn) + inward[1] * math.cos(turn),
        ]
    )
    tip = base + way * side * rng.uniform(2, 4.5)
    width = max(3, int(side * rng.uniform(0.7, 1.1)))
    skin = np.array(_SKIN[int(rng.integers(len(_SKIN)))], float) * rng.uniform(0.9, 1.1)

    def draw(target: np.ndarray, paint: np.random.Generator | None) -> None:
        a, b = (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1]))
        cv2.line(target, a, b, _colour_or_mask(target, skin), width, cv2.LINE_AA)
        cv2.circle(target, b, width // 2, _colour_or_mask(target, skin), -1, cv2.LINE_AA)
        if paint is not None:
            nail = tip - way * width * 0.35
            cv2.ellipse(
                target,
                (int(nail[0]), int(nail[1])),
                (max(1, width // 4), max(1, width // 3)),
                math.degrees(math.atan2(way[1], way[0])) + 90,
                0,
                360,
                tuple(np.minimum(255, skin * 1.2 + 20)),
                -1,
                cv2.LINE_AA,
            )

    return draw


_DRAW: Final[dict[str, Callable[[np.random.Generator, float, int, int], _Drawer]]] = {
    "coin": _coin,
    "tile": _tile,
    "cup": _cup,
    "cable": _cable,
    "paper": _paper,
    "finger": _finger,
}


# -- crops for a learned classifier -------------------------------------------------------------------------
MEASURING_SEEDS: Final = range(900_000, 1_000_000)
"""Scene seeds kept for measuring (``make bench``): never train or tune on them."""
CROP_SCENE_SEEDS: Final = 1_000_000_000
"""``training_crops`` draws its scenes from seeds above this, far from ``MEASURING_SEEDS``."""
CROP_PX: Final = 64
"""The side of a training crop, as the reader's own face crops (``reader.FACE_PX``)."""


@dataclass(frozen=True)
class TrainingCrops:
    images: np.ndarray
    """(n, px, px, 3) uint8 BGR crops, cut with the reader's ``face_crop``."""
    boxes: tuple[RotatedBox, ...]
    """Where each crop was cut, in its scene's pixels."""
    labels: np.ndarray
    """(n,) int: the top face's value, or ``NOT_A_FACE``."""
    scenes: tuple[int, ...]
    """The seed of each crop's scene: ``stress_scene(seed)`` draws it again."""


def training_crops(seed: int, n: int, px: int = CROP_PX, negatives: float = 0.3) -> TrainingCrops:
    """``n`` labelled crops from stress scenes drawn from ``seed``: die faces and, a share ``negatives`` of them,
    "not a face" crops (table, distractors, half a die, two touching dice, a die cut by the frame). The scenes'
    seeds lie above ``CROP_SCENE_SEEDS``, never among the ``MEASURING_SEEDS``.

    A face crop's box is the die's true top-face box, moved, scaled and turned a little as a die finder would
    err, and turned by any quarter turn (a face has no up).
    """
    rng = np.random.default_rng([seed, 61])
    images: list[np.ndarray] = []
    boxes: list[RotatedBox] = []
    labels: list[int] = []
    scenes: list[int] = []
    scene_number = 0
    while len(labels) < n:
        scene_seed = CROP_SCENE_SEEDS + seed * 100_003 + scene_number
        scene_number += 1
        scene = stress_scene(scene_seed)
        wanted = [(box, d.value) for d in scene.counted for box in [_jittered(rng, d.top_box, d.side_px)]]
        wanted += [(box, NOT_A_FACE) for box in _not_faces(rng, scene, max(1, round(negatives / (1 - negatives) * 4)))]
        for box, label in wanted:
            if len(labels) == n:
                break
            images.append(face_crop(scene.image, box, 1.0, px))
            boxes.append(box)
            labels.append(label)
            scenes.append(scene_seed)
    return TrainingCrops(
        np.array(images, np.uint8).reshape(-1, px, px, 3), tuple(boxes), np.array(labels, int), tuple(scenes)
    )


def _jittered(rng: np.random.Generator, box: RotatedBox, side: float) -> RotatedBox:
    (cx, cy), (w, h), angle = box
    shift = rng.normal(0, 0.04, 2) * side
    grow = rng.uniform(0.92, 1.15)
    turn = rng.normal(0, 4) + 90 * int(rng.integers(4))
    return ((cx + shift[0], cy + shift[1]), (w * grow, h * grow), angle + turn)


def _not_faces(rng: np.random.Generator, scene: StressScene, count: int) -> list[RotatedBox]:
    """Boxes a die finder might hand over that hold no single whole top face."""
    dice = scene.counted
    side = float(np.median([d.side_px for d in dice]))
    h, w = scene.image.shape[:2]
    out: list[RotatedBox] = []
    for _ in range(count * 20):
        if len(out) == count:
            break
        what = int(rng.integers(5))
        size = side * rng.uniform(0.8, 1.3)
        angle = float(rng.uniform(0, 90))
        if what == 0:  # bare table
            c = rng.uniform((size, size), (w - size, h - size))
            if any(math.dist(c, d.center) < 1.2 * (size + d.side_px) / 2 * math.sqrt(2) for d in scene.dice):
                continue
        elif what == 1 and scene.distractors:  # something that is not a die
            _, (x0, y0, x1, y1) = scene.distractors[int(rng.integers(len(scene.distractors)))]
            c = rng.uniform((x0, y0), (max(x0 + 1, x1), max(y0 + 1, y1)))
            if any(math.dist(c, d.center) < size + d.side_px for d in scene.dice):
                continue
        elif what == 2:  # half a die and the table beside it
            half = dice[int(rng.integers(len(dice)))]
            angle = half.top_box[2]
            way = math.radians(float(rng.choice([0, 90, 180, 270])) + angle)
            c = np.array(half.center) + 0.55 * half.side_px * np.array([math.cos(way), math.sin(way)])
            size = half.side_px
        elif what == 3 and len(dice) > 1:  # two dice taken as one
            one, two = (dice[int(k)] for k in rng.choice(len(dice), 2, replace=False))
            if math.dist(one.center, two.center) > 1.8 * max(one.side_px, two.side_px):
                continue
            c = (np.array(one.center) + np.array(two.center)) / 2
            size = math.dist(one.center, two.center) + (one.side_px + two.side_px) / 2
            angle = math.degrees(math.atan2(two.center[1] - one.center[1], two.center[0] - one.center[0]))
        elif what == 4 and len(scene.dice) > len(dice):  # a die cut by the frame's edge
            cut = next(d for d in scene.dice if d.cut)
            c, size = np.array(cut.center), cut.side_px
        else:
            continue
        out.append(((float(c[0]), float(c[1])), (float(size), float(size)), angle))
    return out
