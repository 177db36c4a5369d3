"""What the learned die finder sees and what it is taught: a frame shrunk into a fixed picture, and the dice in it.

The finder (``finder.py``) looks at every frame through the same window: the frame scaled, aspect kept, into
``INPUT_W`` x ``INPUT_H`` pixels, anchored top left, the rest black. Its teaching examples are made the same way
from labelled scenes: the stress renderer's and the everyday renderer's (exact top faces), and real photos whose
labelled boxes give a die's centre but not its side or turn (their boxes are upright; a turned die's box is wider
than the die).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from .finder import to_input
from .render import render_scene
from .stress import CROP_SCENE_SEEDS, stress_scene

FINDER_SEEDS: Final = 3 * CROP_SCENE_SEEDS
"""Scenes the finder is trained on are drawn from seeds above this: far from the measuring seeds and from the
seeds the faces classifier was trained on."""
WOODEN_FINDER_SEEDS: Final = FINDER_SEEDS + CROP_SCENE_SEEDS // 4
"""Scenes of wooden dice the finder is trained on: from 3.25 x 10^9, above the other scenes' (fewer than 250
million of them)."""
STEEP_FINDER_SEEDS: Final = FINDER_SEEDS + CROP_SCENE_SEEDS // 2
"""Scenes through a steep camera (``stress_scene(steep=True)``) the finder is trained on: from 3.5 x 10^9."""

KNOWN_SIDE: Final = 1.0
CENTRE_ONLY: Final = 0.0
"""A labelled die's last field: whether its side and turn are known (rendered) or only its centre (a real
photo's upright box)."""


@dataclass(frozen=True)
class FinderExample:
    image: np.ndarray
    """INPUT_H x INPUT_W x 3, uint8 BGR: the frame as the finder sees it."""
    dice: np.ndarray
    """(n, 5) float32: centre x, centre y, side, turn in degrees (0-90), KNOWN_SIDE or CENTRE_ONLY; input pixels."""
    name: str


def _turn(angle: float) -> float:
    return float(angle % 90.0)


def stress_example(seed: int, wooden: bool = False, steep: bool = False) -> FinderExample | None:
    """A stress scene of 1 to 8 dice (4 most often, as a roll has; of wood if ``wooden``, else a fifth of them
    piecepack dice; through a steep camera if ``steep``) and its counted dice; ``None`` if the scene could not be
    drawn."""
    rng = np.random.default_rng([seed, 0xF1D])
    count = 4 if rng.random() < 0.5 else int(rng.integers(1, 9))
    piecepack = bool(rng.random() < 0.2) and not wooden
    try:
        scene = stress_scene(seed, count=count, piecepack=piecepack, wooden=wooden, steep=steep)
    except (ValueError, RuntimeError):
        return None
    image, scale = to_input(scene.image)
    dice = [
        (d.top_box[0][0] * scale, d.top_box[0][1] * scale, d.side_px * scale, _turn(d.top_box[2]), KNOWN_SIDE)
        for d in scene.counted
    ]
    return FinderExample(image, np.array(dice, np.float32).reshape(-1, 5), f"stress {seed}")


RENDER_SIDES: Final = (22.0, 150.0)
"""The everyday renderer's dice, pixels across on a 640x480 or 1280x960 picture."""


def render_example(seed: int) -> FinderExample | None:
    """A scene of the everyday renderer (the simulated camera's look), 1 to 6 dice of any style and size."""
    rng = np.random.default_rng([seed, 0x2E4D])
    count = 4 if rng.random() < 0.6 else int(rng.integers(1, 7))
    side = float(math.exp(rng.uniform(*np.log(RENDER_SIDES))))
    size = (640, 480) if side < 80 else (1280, 960)
    style = ("mixed", "pips", "ivory", "colour", "piecepack")[int(rng.integers(5))]
    values = [int(v) for v in rng.integers(0, 6 if style == "piecepack" else 7, count)]
    try:
        scene = render_scene(values, int(rng.integers(2**31)), size=size, die_side=side, style=style)
    except (ValueError, RuntimeError):
        return None
    image, scale = to_input(scene.image)
    dice = [(d.center[0] * scale, d.center[1] * scale, d.side * scale, _turn(d.angle), KNOWN_SIDE) for d in scene.dice]
    return FinderExample(image, np.array(dice, np.float32).reshape(-1, 5), f"render {seed}")


def photo_example(frame: np.ndarray, boxes: Sequence[tuple[float, float, float, float]], name: str) -> FinderExample:
    """A real photo with upright labelled boxes: each die's centre is known, its side and turn are not."""
    image, scale = to_input(frame)
    dice = [((x0 + x1) / 2 * scale, (y0 + y1) / 2 * scale, 0.0, 0.0, CENTRE_ONLY) for x0, y0, x1, y1 in boxes]
    return FinderExample(image, np.array(dice, np.float32).reshape(-1, 5), name)


def stress_examples(
    first_seed: int, count: int, *, wooden: bool = False, steep: bool = False
) -> Iterator[FinderExample]:
    """``count`` stress scenes from consecutive seeds, of wooden dice if ``wooden``, through a steep camera if
    ``steep``: there the counted dice are their top faces, so the finder learns to pass over the side faces such a
    camera sees nearly square."""
    for seed in range(first_seed, first_seed + count):
        example = stress_example(seed, wooden=wooden, steep=steep)
        if example is not None:
            yield example


def synthetic_examples(first_seed: int, count: int, render_share: float = 0.25) -> Iterator[FinderExample]:
    """``count`` examples from consecutive seeds, a share ``render_share`` of them the everyday renderer's."""
    for seed in range(first_seed, first_seed + count):
        rng = np.random.default_rng([seed, 0x5A])
        example = render_example(seed) if rng.random() < render_share else stress_example(seed)
        if example is not None:
            yield example
