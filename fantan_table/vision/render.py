"""Synthetic top-down pictures of dice on a table, with the truth, for tests, benchmarks and the simulated camera.

Everything random comes from one seed, so a scene can be rebuilt exactly. What varies is what
varies at a real table: the cloth, the dice's colours, size, angle and a slight tilt, dice lying
against each other, shadows, uneven light, glare on pips, sensor noise, blur, and things that
are not dice (a coin, the edge of a tile).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Final, Literal

import cv2
import numpy as np

from .pips import PIP_LAYOUTS, PIP_RADIUS

Surface = Literal["felt", "wood", "dark"]
SURFACES: Final[tuple[Surface, ...]] = ("felt", "wood", "dark")

#: Die body and pip colours (BGR): ivory with black pips, and the four piecepack suit colours with white pips.
DIE_STYLES: Final[dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]]] = {
    "ivory": ((208, 232, 240), (25, 25, 25)),
    "red": ((40, 60, 200), (245, 245, 245)),
    "black": ((38, 36, 34), (240, 240, 240)),
    "green": ((70, 150, 40), (245, 245, 245)),
    "blue": ((170, 90, 30), (245, 245, 245)),
}
#: Real piecepack dice: a light die with the faces in its suit's colour (blank null, the suit symbol as ace,
#: numerals 2-5). Which suit is part of the style's name.
PIECEPACK_SUITS: Final[dict[str, tuple[int, int, int]]] = {
    "suns": (40, 50, 190),
    "moons": (35, 32, 30),
    "crowns": (60, 135, 35),
    "arms": (160, 85, 25),
}
PIECEPACK_BODY: Final = (214, 236, 242)
PIECEPACK_FACES: Final = (0, 1, 2, 3, 4, 5)
STYLE_CHOICES: Final = ("pips", "ivory", "colour", "mixed", "piecepack")

_SURFACE_COLOURS: Final[dict[Surface, tuple[int, int, int]]] = {
    "felt": (50, 95, 30),
    "wood": (120, 170, 205),
    "dark": (48, 46, 44),
}


@dataclass(frozen=True)
class TruthDie:
    value: int
    center: tuple[float, float]
    side: float
    """The top face's side in pixels."""
    angle: float
    """Degrees."""
    style: str


@dataclass(frozen=True)
class RenderedScene:
    image: np.ndarray
    """BGR, uint8, as a camera gives it."""
    dice: tuple[TruthDie, ...]
    surface: Surface
    seed: int
    touching: bool
    distractors: bool

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice)


def random_faces(rng: np.random.Generator, count: int = 4, faces: tuple[int, ...] = (0, 1, 2, 3, 4, 5)) -> list[int]:
    return [int(v) for v in rng.choice(faces, size=count)]


def render_scene(
    values: list[int] | tuple[int, ...],
    seed: int,
    *,
    size: tuple[int, int] = (1280, 960),
    style: str = "mixed",
    surface: Surface | None = None,
    touching: bool | None = None,
    distractors: bool | None = None,
    die_side: float | None = None,
    suits: tuple[str, ...] | None = None,
) -> RenderedScene:
    """Draw ``values`` (0..6 pips each) as dice on a table; what is not given is drawn from ``seed``.

    ``suits`` names the piecepack dice's suits in order (style "piecepack"; otherwise one die of each, shuffled).
    """
    if style not in STYLE_CHOICES:
        raise ValueError(f"style must be one of {', '.join(STYLE_CHOICES)} (got {style!r})")
    if style == "piecepack" and any(v not in PIECEPACK_FACES for v in values):
        raise ValueError(f"piecepack dice show 0 (blank) to 5 (got {list(values)})")
    if any(v not in PIP_LAYOUTS for v in values):
        raise ValueError(f"pipped dice show 0 to 6 pips (got {list(values)})")
    rng = np.random.default_rng(seed)
    width, height = size
    surface = surface or SURFACES[int(rng.integers(len(SURFACES)))]
    touching = bool(rng.random() < 0.35) if touching is None else touching
    distractors = bool(rng.random() < 0.4) if distractors is None else distractors
    side = die_side or float(rng.uniform(0.065, 0.085) * width)

    image = _surface(rng, surface, width, height)
    dice_polys, dice = _place_dice(rng, values, side, width, height, touching, style, surface, suits)
    if distractors:
        _draw_distractors(rng, image, dice_polys, side)
    for poly, die in zip(dice_polys, dice, strict=True):
        _draw_die(rng, image, poly, die)
    image = _camera(rng, image)
    return RenderedScene(image, tuple(dice), surface, seed, touching, distractors)


SENSOR_NOISE = 2.0
"""A fixed camera's noise from one frame to the next (grey levels): the table it sees is otherwise the same."""


def render_on_table(
    table: RenderedScene,
    values: list[int] | tuple[int, ...],
    seed: int,
    *,
    style: str = "mixed",
    suits: tuple[str, ...] | None = None,
) -> RenderedScene:
    """``values`` as dice put down on ``table`` (a scene of the table alone): the same table under the same
    light, as a camera fixed above it sees it frame after frame (calibration captures in simulation)."""
    rng = np.random.default_rng(seed)
    if style == "piecepack" and suits is None:  # a piecepack has one die of each suit
        suits = tuple(list(PIECEPACK_SUITS)[k] for k in rng.permutation(len(PIECEPACK_SUITS)))
    height, width = table.image.shape[:2]
    side = float(rng.uniform(0.065, 0.085) * width)
    image = table.image.astype(np.float32)
    dice_polys, dice = _place_dice(rng, values, side, width, height, False, style, table.surface, suits)
    for poly, die in zip(dice_polys, dice, strict=True):
        _draw_die(rng, image, poly, die)
    add_noise(rng, image, SENSOR_NOISE)
    return RenderedScene(np.clip(image, 0, 255).astype(np.uint8), tuple(dice), table.surface, seed, False, False)


# -- the table ---------------------------------------------------------------------------------
def _surface(rng: np.random.Generator, surface: Surface, width: int, height: int) -> np.ndarray:
    base = np.array(_SURFACE_COLOURS[surface], dtype=np.float32) * rng.uniform(0.85, 1.1)
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    if surface == "wood":
        y = np.arange(height, dtype=np.float32)[:, None]
        x = np.arange(width, dtype=np.float32)[None, :]
        waves = 3 * np.sin(x * rng.uniform(0.002, 0.006))
        grain = np.sin(y * rng.uniform(0.03, 0.08) + waves + rng.uniform(0, 6)).astype(np.float32)
        img *= (1 + 0.06 * grain)[..., None]
    small = rng.normal(0, 1, (height // 8 + 1, width // 8 + 1)).astype(np.float32)
    blotches = cv2.resize(cv2.GaussianBlur(small, (0, 0), 2), (width, height))
    img *= (1 + 0.03 * blotches)[..., None]
    add_noise(rng, img, 4 if surface == "felt" else 2)  # cloth texture
    return img


NOISE_BANKS_KEPT = 2
"""Noise fields kept between pictures: one for each size of frame drawn in turn (the stress set draws two)."""
NOISE_FIELD_SEED = 20091
"""The noise field's own seed: its content is fixed; a picture's seed picks the window it takes."""


@functools.lru_cache(maxsize=NOISE_BANKS_KEPT)  # thread-safe: the simulated camera draws on the owner's thread
def _noise_field(shape: tuple[int, int, int]) -> np.ndarray:
    field = np.random.default_rng(NOISE_FIELD_SEED).standard_normal(shape, dtype=np.float32)
    field.flags.writeable = False
    return field


def add_noise(rng: np.random.Generator, image: np.ndarray, sigma: float) -> None:
    """Add Gaussian noise from a window of a fixed, larger noise field: per-pixel noise at a fraction of the cost.

    The field's size follows from the picture's alone, so a seed draws the same picture whatever was drawn
    before it (a field grown for a larger picture once shifted every later picture's noise)."""
    h, w, c = image.shape
    bank = _noise_field((max(h, 960) + 256, max(w, 1280) + 256, 3))
    y = int(rng.integers(bank.shape[0] - h + 1))
    x = int(rng.integers(bank.shape[1] - w + 1))
    cv2.scaleAdd(bank[y : y + h, x : x + w, :c], sigma, image, dst=image)


# -- the dice ------------------------------------------------------------------------------------
def _rounded_square(side: float, radius_share: float = 0.16, steps: int = 6) -> np.ndarray:
    """A die's outline centred on 0, as an (N, 2) polygon."""
    h, r = side / 2, side * radius_share
    pts = []
    for cx, cy, start in ((h - r, h - r, 0), (-h + r, h - r, 90), (-h + r, -h + r, 180), (h - r, -h + r, 270)):
        for k in range(steps + 1):
            a = math.radians(start + 90 * k / steps)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts, dtype=np.float32)


def _pose(rng: np.random.Generator, angle: float) -> np.ndarray:
    """Rotation by ``angle`` with a slight random tilt (shear and squash), as a 2x2 matrix."""
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    tilt = np.array([[1 + rng.uniform(-0.04, 0.04), rng.uniform(-0.05, 0.05)], [0, 1 + rng.uniform(-0.04, 0.04)]])
    return (tilt @ rot).astype(np.float32)


def _choose_style(rng: np.random.Generator, style: str, surface: Surface) -> str:
    colours = ["red", "green", "blue"] + (
        [] if surface == "dark" else ["black"]
    )  # a black die on black cloth is unreadable
    if style in ("pips", "ivory"):
        return "ivory"
    if style == "colour":
        return colours[int(rng.integers(len(colours)))]
    return "ivory" if rng.random() < 0.5 else colours[int(rng.integers(len(colours)))]


def _place_dice(
    rng: np.random.Generator,
    values: list[int] | tuple[int, ...],
    side: float,
    width: int,
    height: int,
    touching: bool,
    style: str,
    surface: Surface,
    chosen_suits: tuple[str, ...] | None = None,
) -> tuple[list[tuple[np.ndarray, np.ndarray]], list[TruthDie]]:
    """Lay the dice where a lifted cup leaves them, none overlapping; some lying against another when ``touching``."""
    placed: list[tuple[np.ndarray, np.ndarray]] = []  # (outline in pixels, pose)
    dice: list[TruthDie] = []
    cup = np.array([width / 2, height / 2]) + rng.uniform(-0.08, 0.08, 2) * (width, height)
    # A piecepack has one die of each suit: the four dice under the cup are the four suits.
    suits = [list(PIECEPACK_SUITS)[k] for k in rng.permutation(len(PIECEPACK_SUITS))] if style == "piecepack" else []
    suits = list(chosen_suits) if chosen_suits and suits else suits
    spread = 0.26 * min(width, height)
    for i, value in enumerate(values):
        s = side * rng.uniform(0.95, 1.05)
        angle = float(rng.uniform(0, 360))
        pose = _pose(rng, angle)
        outline = _rounded_square(s) @ pose.T
        for attempt in range(400):
            if touching and placed and attempt < 200:
                other = placed[int(rng.integers(len(placed)))][0].mean(axis=0)
                direction = rng.normal(size=2)
                direction /= np.linalg.norm(direction)
                center = slide_until_touching(other, direction, outline, [p for p, _ in placed], s)
            else:
                center = cup + rng.uniform(-1, 1, 2) * spread
            if center is None:
                continue
            poly = outline + center
            margin = s * 0.2
            inside = (poly.min(axis=0) > margin).all() and (poly.max(axis=0) < (width - margin, height - margin)).all()
            if inside and not any(overlap_area(poly, p) > 0.5 for p, _ in placed):
                break
        else:
            raise RuntimeError(f"could not place die {i + 1} of {len(values)} in {width}x{height}: dice too large")
        placed.append((poly, pose))
        die_style = f"piecepack-{suits[i % len(suits)]}" if suits else _choose_style(rng, style, surface)
        dice.append(TruthDie(value, (float(center[0]), float(center[1])), s, angle % 90, die_style))
    return placed, dice


def overlap_area(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def slide_until_touching(
    other: np.ndarray,
    direction: np.ndarray,
    outline: np.ndarray,
    placed: list[np.ndarray],
    side: float,
) -> np.ndarray | None:
    """Move a die from far away towards ``other`` along ``direction`` until it just meets a placed outline."""
    far, near = 2.5 * side, 0.0
    if any(overlap_area(outline + other + direction * far, p) > 0.5 for p in placed):
        return None
    for _ in range(14):
        mid = (far + near) / 2
        if any(overlap_area(outline + other + direction * mid, p) > 0.5 for p in placed):
            near = mid
        else:
            far = mid
    return other + direction * far


def _draw_die(
    rng: np.random.Generator, image: np.ndarray, placed: tuple[np.ndarray, np.ndarray], die: TruthDie
) -> None:
    poly, pose = placed
    suit = die.style.removeprefix("piecepack-") if die.style.startswith("piecepack-") else None
    colours = (PIECEPACK_BODY, PIECEPACK_SUITS[suit]) if suit else DIE_STYLES[die.style]
    body, pip = (np.array(c, np.float32) for c in colours)
    body = body * rng.uniform(0.9, 1.08)
    s = die.side
    # work in a window around the die (and its shadow) only
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(poly.min(axis=0) - 0.4 * s), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(poly.max(axis=0) + 0.4 * s), (w, h)).astype(int)
    view = image[y0:y1, x0:x1]
    vh, vw = view.shape[:2]
    origin = np.array([x0, y0], np.float32)
    poly = poly - origin
    center = np.array(die.center, np.float32) - origin

    # shadow: the same outline, offset away from the light and blurred
    shadow = np.zeros((vh, vw), np.float32)
    offset = rng.uniform(0.04, 0.1, 2) * s
    cv2.fillPoly(shadow, [np.round((poly + offset) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.08 * s)
    view *= (1 - 0.45 * shadow)[..., None]

    mask = np.zeros((vh, vw), np.float32)
    cv2.fillPoly(mask, [np.round(poly * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    # light falls unevenly across the face, and the rounded edges are a little darker
    yy, xx = np.mgrid[0:vh, 0:vw].astype(np.float32)
    g = rng.normal(size=2)
    shade = 1 + 0.08 * ((xx - center[0]) * g[0] + (yy - center[1]) * g[1]) / s
    inner = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, int(s * 0.04)))
    edge = np.clip(mask - cv2.GaussianBlur(inner, (0, 0), s * 0.03), 0, 1)
    face = body[None, None, :] * (shade * (1 - 0.25 * edge))[..., None]
    view[:] = view * (1 - mask[..., None]) + face * mask[..., None]

    if suit is not None:
        layer = _piecepack_face(die.value, suit, pose, center, s, (vw, vh))
    else:
        layer = np.zeros((vh, vw), np.float32)
        radius = PIP_RADIUS * s * rng.uniform(0.9, 1.1)
        circle = np.asarray(cv2.ellipse2Poly((0, 0), (100, 100), 0, 0, 360, 10), np.float32) / 100 * radius
        for u, v in PIP_LAYOUTS[die.value]:
            p = pose @ np.array([(u - 0.5) * s, (v - 0.5) * s], np.float32) + center
            cv2.fillPoly(layer, [np.round((circle @ pose.T + p) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    view[:] = view * (1 - layer[..., None]) + pip[None, None, :] * layer[..., None]

    if rng.random() < 0.3:  # glare: a small bright highlight, sometimes right on a pip
        spot = center + rng.uniform(-0.3, 0.3, 2) * s
        glare = np.zeros((vh, vw), np.float32)
        cv2.circle(glare, (int(spot[0]), int(spot[1])), max(2, int(0.05 * s)), 1.0, -1, cv2.LINE_AA)
        glare = cv2.GaussianBlur(glare, (0, 0), 0.02 * s) * mask
        view[:] = view + (255 - view) * 0.8 * glare[..., None]


FACE_CANVAS = 96
"""Piecepack faces are drawn upright on a square canvas of this many pixels, then laid onto the die."""


def piecepack_mark(value: int, suit: str) -> np.ndarray:
    """A piecepack die's face, upright, as a float mask on a ``FACE_CANVAS`` square.

    0 is blank, 1 the suit's symbol, 2 to 5 numerals.
    """
    n = FACE_CANVAS
    canvas = np.zeros((n, n), np.uint8)
    c = n // 2
    if value == 1:
        if suit == "suns":
            cv2.circle(canvas, (c, c), int(0.17 * n), 255, -1, cv2.LINE_AA)
            for k in range(8):
                a = k * math.pi / 4
                inner, outer = 0.23 * n, 0.34 * n
                start = (int(c + inner * math.cos(a)), int(c + inner * math.sin(a)))
                end = (int(c + outer * math.cos(a)), int(c + outer * math.sin(a)))
                cv2.line(canvas, start, end, 255, max(2, n // 24), cv2.LINE_AA)
        elif suit == "moons":
            cv2.circle(canvas, (c, c), int(0.3 * n), 255, -1, cv2.LINE_AA)
            cv2.circle(canvas, (c + int(0.14 * n), c - int(0.08 * n)), int(0.26 * n), 0, -1, cv2.LINE_AA)
        elif suit == "crowns":
            points = [(0.22, 0.7), (0.22, 0.32), (0.36, 0.5), (0.5, 0.26), (0.64, 0.5), (0.78, 0.32), (0.78, 0.7)]
            cv2.fillPoly(canvas, [np.array([(x * n, y * n) for x, y in points], np.int32)], 255, cv2.LINE_AA)
        else:  # arms: a shield
            points = [(0.26, 0.24), (0.74, 0.24), (0.74, 0.5), (0.5, 0.78), (0.26, 0.5)]
            cv2.fillPoly(canvas, [np.array([(x * n, y * n) for x, y in points], np.int32)], 255, cv2.LINE_AA)
    elif value >= 2:
        text, font, thickness = str(value), cv2.FONT_HERSHEY_DUPLEX, max(2, n // 12)
        scale = 0.55 * n / cv2.getTextSize(text, font, 1.0, thickness)[0][1]
        (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
        cv2.putText(canvas, text, (c - w // 2, c + h // 2), font, scale, 255, thickness, cv2.LINE_AA)
    return canvas.astype(np.float32) / 255


def _piecepack_face(
    value: int, suit: str, pose: np.ndarray, center: np.ndarray, side: float, size: tuple[int, int]
) -> np.ndarray:
    """The face's mark laid onto the die: canvas (u, v) -> pose @ ((u / N - 0.5) * side, ...) + centre."""
    scale = side / FACE_CANVAS
    linear = pose * scale
    shift = center - linear @ np.array([FACE_CANVAS / 2, FACE_CANVAS / 2], np.float32)
    matrix = np.hstack([linear, shift[:, None]]).astype(np.float32)
    return cv2.warpAffine(piecepack_mark(value, suit), matrix, size, flags=cv2.INTER_LINEAR)


def _draw_distractors(
    rng: np.random.Generator, image: np.ndarray, dice: list[tuple[np.ndarray, np.ndarray]], side: float
) -> None:
    """A coin beside the dice and the edge of a tile at the frame's border: things that are not dice."""
    h, w = image.shape[:2]
    r = 0.5 * side
    for _ in range(200):
        c = rng.uniform((r + 5, r + 5), (w - r - 5, h - r - 5))
        if all(np.linalg.norm(poly.mean(axis=0) - c) > r + side for poly, _ in dice):
            coin = (165, 165, 170) if rng.random() < 0.5 else (60, 150, 190)
            cv2.circle(image, (int(c[0]), int(c[1])), int(r), coin, -1, cv2.LINE_AA)
            cv2.circle(image, (int(c[0]), int(c[1])), int(r * 0.8), tuple(0.8 * x for x in coin), 2, cv2.LINE_AA)
            break
    tile = 2.2 * side
    edge = int(rng.integers(4))
    along = rng.uniform(0.2, 0.8)
    cx, cy = [
        (along * w, -0.3 * tile),
        (w + 0.3 * tile, along * h),
        (along * w, h + 0.3 * tile),
        (-0.3 * tile, along * h),
    ][edge]
    rect = cv2.boxPoints(((cx, cy), (tile, tile), float(rng.uniform(-20, 20))))
    cv2.fillPoly(image, [rect.astype(np.int32)], (200, 215, 220), cv2.LINE_AA)


# -- the camera ----------------------------------------------------------------------------------
def _camera(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    g = rng.normal(size=2) * 0.25
    across = (g[0] * (np.arange(w, dtype=np.float32) / w - 0.5))[None, :]
    down = (g[1] * (np.arange(h, dtype=np.float32) / h - 0.5))[:, None]
    image *= (1 + across + down)[..., None]
    sigma = rng.uniform(0, 1.2)
    if sigma > 0.3:
        cv2.GaussianBlur(image, (0, 0), sigma, dst=image)
    add_noise(rng, image, rng.uniform(1, 5))
    return np.clip(image, 0, 255, out=image).astype(np.uint8)
