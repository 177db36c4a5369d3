"""Training examples for the faces classifier, and the recipe that makes the built-in model.

Examples come from three kinds of source: dice drawn by the synthetic renderer (every face, colour, size and
turn), dice in labelled real photos (their boxes), and things that are not a face (table patches, half a die,
two dice at once), each cut out by ``classifier.die_crop`` after the photo is roughed up the way cameras do
(blur, noise, JPEG, colour cast) and the box is nudged the way the reader's boxes vary.

Only training folders are used: ``dice-photos/valid`` and byler's last 50 photos (by name) measure the model
and are never read here. ``python -m fantan_table.vision.train`` (or ``fantan-table train-faces``) rebuilds the
built-in model; everything random comes from its seed.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from .classifier import CLASSES, FaceModel, die_crop, fit_temperature, train
from .dataset import read_boxes
from .profile import Profile
from .reader import read_dice
from .render import render_scene
from .stress import CROP_SCENE_SEEDS, stress_scene
from .topface import RotatedBox

#: how the reader's boxes vary around a die: scale, shift (shares of the side) and a small turn (degrees)
BOX_SCALE: Final = (0.9, 1.18)
BOX_SHIFT: Final = 0.06
BOX_TURN: Final = 12.0
#: a "not a face" box is off a die by at least this share of its side, or this much smaller or larger
OFF_DIE: Final = 0.45
OFF_DIE_MAX: Final = 0.7
"""...and by at most this much, so that a box shifted off one die does not land square on its neighbour."""
PART_OF_DIE: Final = (0.35, 0.6)
AROUND_DIE: Final = (1.6, 2.4)
SYNTHETIC_SIDES: Final = (22.0, 150.0)
"""Die sides drawn (pixels): from the smallest die the reader finds to a camera close over the table."""
SYNTHETIC_SIZE: Final = (640, 480)
STRESS_SEEDS: Final = 2 * CROP_SCENE_SEEDS
"""The stress scenes trained on are drawn from seeds above this: far from the stress set's measuring seeds."""
BYLER_TRAIN_PHOTOS: Final = 150
"""Byler's first 150 photos (by name) may be trained on; the last 50 measure."""
HELD_ASIDE_EVERY: Final = 6
"""Every sixth scene or photo is held aside to calibrate the confidence, never trained on."""


Look = Callable[[np.random.Generator, np.ndarray], np.ndarray]
"""A change of a whole picture's look before it is roughened (another die colour, hue, contrast): optional."""


@dataclass(frozen=True)
class Example:
    """One crop's label and where it came from (the scene or photo: held-aside splits go by source)."""

    crop: np.ndarray
    label: int | None
    source: str


# -- roughing a picture up ----------------------------------------------------------------------------
def roughen(rng: np.random.Generator, image: np.ndarray, side: float) -> np.ndarray:
    """``image`` as another camera might give it: a colour cast and gain, blur, noise, JPEG."""
    gain = (rng.uniform(0.8, 1.2, 3) * rng.uniform(0.7, 1.25)).astype(np.float32)
    out = image.astype(np.float32)
    out *= gain
    out += rng.normal(0, 8, 3).astype(np.float32)
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.2, 0.06 * side + 0.3))
    out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(rng.uniform(0, 8))
    out8 = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, data = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        if ok:
            out8 = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out8


def nudged(rng: np.random.Generator, box: RotatedBox) -> RotatedBox:
    """``box`` as the reader might find it: a little larger or smaller, off centre, turned any quarter."""
    (cx, cy), (w, h), angle = box
    side = max(w, h)
    k = rng.uniform(*BOX_SCALE)
    dx, dy = rng.uniform(-BOX_SHIFT, BOX_SHIFT, 2) * side
    turn = 90.0 * int(rng.integers(4)) + rng.uniform(-BOX_TURN, BOX_TURN)
    return ((cx + dx, cy + dy), (w * k, h * k), angle + turn)


def off_face_boxes(rng: np.random.Generator, box: RotatedBox, count: int) -> list[RotatedBox]:
    """Boxes near a die that are not its face: shifted half off it, a part of it, or it with the table around."""
    (cx, cy), (w, h), angle = box
    side = max(w, h)
    out: list[RotatedBox] = []
    for _ in range(count):
        kind = int(rng.integers(3))
        turn = float(rng.uniform(0, 360))
        if kind == 0:
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(OFF_DIE, OFF_DIE_MAX) * side
            out.append(((cx + r * math.cos(a), cy + r * math.sin(a)), (side, side), turn))
        elif kind == 1:
            k = rng.uniform(*PART_OF_DIE)
            dx, dy = rng.uniform(-(1 - k) / 2, (1 - k) / 2, 2) * side
            out.append(((cx + dx, cy + dy), (side * k, side * k), turn))
        else:
            k = rng.uniform(*AROUND_DIE)
            out.append(((cx, cy), (side * k, side * k), turn))
    return out


def table_boxes(
    rng: np.random.Generator, shape: tuple[int, ...], dice: Sequence[RotatedBox], count: int
) -> list[RotatedBox]:
    """Die-sized boxes on the table away from every die (distractors and cloth), or between two dice."""
    h, w = shape[:2]
    sides = [max(b[1]) for b in dice] or [min(w, h) / 10]
    centres = np.array([b[0] for b in dice], dtype=float).reshape(-1, 2)
    out: list[RotatedBox] = []
    for _ in range(count * 10):
        if len(out) == count:
            break
        side = float(rng.choice(sides)) * rng.uniform(0.8, 1.3)
        if len(dice) >= 2 and rng.random() < 0.3:  # straddling two dice: the reader's worst merge
            i, j = rng.choice(len(dice), 2, replace=False)
            if np.linalg.norm(centres[i] - centres[j]) < 2.2 * side:
                out.append(((*((centres[i] + centres[j]) / 2),), (side, side), float(rng.uniform(0, 360))))
            continue
        c = rng.uniform((0, 0), (w, h))
        if len(centres) and np.linalg.norm(centres - c, axis=1).min() < (OFF_DIE + 0.75) * side:
            continue
        out.append(((float(c[0]), float(c[1])), (side, side), float(rng.uniform(0, 360))))
    return out


def examples_in(
    rng: np.random.Generator,
    frame: np.ndarray,
    dice: Sequence[tuple[RotatedBox, int]],
    source: str,
    variants: int,
    negatives: int,
    unread: Sequence[RotatedBox] = (),
    look: Look | None = None,
) -> Iterator[Example]:
    """``variants`` roughened, nudged crops of each labelled die in ``frame`` and ``negatives`` not-a-face
    crops per variant; ``unread`` are other dice there, never cut out as table; ``look`` changes each variant's
    picture first."""
    boxes = [box for box, _ in dice]
    typical = float(np.median([max(b[1]) for b in boxes])) if boxes else 40.0
    for _ in range(variants):
        picture = roughen(rng, frame if look is None else look(rng, frame), typical)
        for box, value in dice:
            yield Example(die_crop(picture, nudged(rng, box)), value, source)
        wrong = table_boxes(rng, frame.shape, [*boxes, *unread], negatives)
        for box in boxes:
            wrong += off_face_boxes(rng, box, 1) if rng.random() < negatives / max(1, len(boxes)) else []
        for box in wrong:
            yield Example(die_crop(picture, box), None, source)


# -- sources ------------------------------------------------------------------------------------------
def synthetic_examples(
    seed: int, scenes: int, variants: int = 1, negatives: int = 3, look: Look | None = None
) -> Iterator[Example]:
    """Crops from ``scenes`` rendered scenes (every face 0-6, any style, dice of any size)."""
    rng = np.random.default_rng([seed, 0xFACE])
    for i in range(scenes):
        values = [int(v) for v in rng.integers(0, 7, 4)]
        side = float(math.exp(rng.uniform(*np.log(SYNTHETIC_SIDES))))
        size = SYNTHETIC_SIZE if side < 80 else (2 * SYNTHETIC_SIZE[0], 2 * SYNTHETIC_SIZE[1])
        scene_seed = int(rng.integers(2**31))
        try:
            scene = render_scene(values, scene_seed, size=size, die_side=side)
        except RuntimeError:  # the dice did not fit: another scene
            continue
        dice = [(((d.center[0], d.center[1]), (d.side, d.side), d.angle), d.value) for d in scene.dice]
        yield from examples_in(rng, scene.image, dice, f"synthetic-{seed}-{i}", variants, negatives, look=look)


def stress_examples(seed: int, scenes: int, negatives: int = 3, look: Look | None = None) -> Iterator[Example]:
    """Crops from ``scenes`` hard "stress" scenes (perspective, side faces, many dice and tables), from seeds far
    above the stress set's measuring seeds."""
    rng = np.random.default_rng([seed, 0x57E5])
    for i in range(scenes):
        scene_seed = STRESS_SEEDS + seed * 100_003 + i
        scene = stress_scene(scene_seed)
        dice = [(d.top_box, d.value) for d in scene.counted]
        cut = [d.top_box for d in scene.dice if d.cut]
        yield from examples_in(rng, scene.image, dice, f"stress-{scene_seed}", 1, negatives, cut, look)


def upright_dice(boxes: Sequence[tuple[tuple[float, float, float, float], int]]) -> list[tuple[RotatedBox, int]]:
    """A real photo's labelled upright boxes (x0, y0, x1, y1) as rotated boxes, with their values."""
    return [((((x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0, y1 - y0), 0.0), v) for (x0, y0, x1, y1), v in boxes]


def byler_training_names(folder: Path) -> list[str]:
    """The byler photos that may be trained on: the first 150 by name."""
    return sorted(read_boxes(folder))[:BYLER_TRAIN_PHOTOS]


def box_examples(
    seed: int, folder: Path, names: Sequence[str], variants: int, negatives: int = 2, look: Look | None = None
) -> Iterator[Example]:
    """Crops of the dice in real photos whose labelled boxes are the dice themselves (byler)."""
    rng = np.random.default_rng([seed, 0xB0C5])
    boxes = read_boxes(folder)
    for name in names:
        frame = cv2.imread(str(folder / name))
        if frame is None:
            continue
        dice = upright_dice(boxes[name])
        yield from examples_in(rng, frame, dice, f"{folder.name}/{name}", variants, negatives, look=look)


def reader_matched(
    frame: np.ndarray, labelled: Sequence[tuple[tuple[float, float, float, float], int]], profile: Profile
) -> list[tuple[RotatedBox, int]]:
    """The reader's boxes of the dice in ``frame`` that lie on exactly one labelled box, with its value.

    For photos whose labelled boxes cover the pips rather than the die (dice-photos): the crop must be of the
    die as the reader finds it.
    """
    found = [d.box for d in read_dice(frame, profile).dice]
    out = []
    for box in found:
        (cx, cy), (w, h), _ = box
        on = [
            v for (x0, y0, x1, y1), v in labelled if abs((x0 + x1) / 2 - cx) < w / 2 and abs((y0 + y1) / 2 - cy) < h / 2
        ]
        if len(on) == 1:
            out.append((box, on[0]))
    return out


def reader_examples(
    seed: int, folder: Path, profile: Profile, variants: int, negatives: int = 2, look: Look | None = None
) -> Iterator[Example]:
    """Crops of the dice the reader finds in real photos, labelled by the labelled box each lies on."""
    rng = np.random.default_rng([seed, 0x5EAD])
    for name, labelled in sorted(read_boxes(folder).items()):
        frame = cv2.imread(str(folder / name))
        if frame is None:
            continue
        dice = reader_matched(frame, labelled, profile)
        unread = [box for box, _ in upright_dice(labelled)]
        yield from examples_in(rng, frame, dice, f"{folder.name}/{name}", variants, negatives, unread, look)


# -- the recipe ---------------------------------------------------------------------------------------
def held_aside(source: str) -> bool:
    """Whether a source (scene or photo) is kept to calibrate the confidence: by a stable hash of its name."""
    return sum(source.encode()) % HELD_ASIDE_EVERY == 0


def fit(
    examples: Sequence[Example], *, seed: int, progress: Callable[[int, int], None] | None = None
) -> tuple[FaceModel, list[Example]]:
    """Train on the examples not held aside, calibrate on those that are; returns the model and the held-aside."""
    kept = [e for e in examples if not held_aside(e.source)]
    aside = [e for e in examples if held_aside(e.source)]
    if not kept or not aside:
        raise ValueError("training needs examples from several scenes or photos (some are held aside)")
    model = train(np.stack([e.crop for e in kept]), [e.label for e in kept], seed=seed, progress=progress)
    model = fit_temperature(model, np.stack([e.crop for e in aside]), [e.label for e in aside])
    counts = {str(c): sum(1 for e in kept if e.label == c) for c in CLASSES}
    return model.with_info(
        trained=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        seed=str(seed),
        examples=json.dumps(counts),
        held_aside=str(len(aside)),
    ), aside


def builtin_examples(
    seed: int,
    data: Path,
    photos_profile: Profile,
    scenes: int,
    variants: int,
    progress: Callable[[str], None],
) -> list[Example]:
    """The built-in model's examples: synthetic and stress scenes, byler's first 150 photos, dice-photos' train."""
    progress(f"rendering {scenes} synthetic scenes and {scenes // 2} stress scenes")
    examples = list(synthetic_examples(seed, scenes))
    examples += stress_examples(seed, scenes // 2)
    byler = data / "dice-photos-byler" / "train"
    progress("cutting out byler's first 150 photos")
    examples += box_examples(seed, byler, byler_training_names(byler), variants)
    progress("reading dice-photos/train")
    examples += reader_examples(seed, data / "dice-photos" / "train", photos_profile, variants)
    return examples


def describe(data: Path, scenes: int, variants: int) -> dict[str, str]:
    """How the built-in model was made, stored in it."""
    return {
        "data": (
            f"{scenes} synthetic scenes (render.py, mixed styles, sides {SYNTHETIC_SIDES[0]:.0f}-"
            f"{SYNTHETIC_SIDES[1]:.0f} px); {scenes // 2} stress scenes (stress.py, seeds from {STRESS_SEEDS}); "
            f"{data}/dice-photos-byler/train first {BYLER_TRAIN_PHOTOS} photos; "
            f"{data}/dice-photos/train (reader boxes, profile dice-photos); x{variants} roughened variants of real "
            "dice; never dice-photos/valid or byler's last 50"
        ),
    }
