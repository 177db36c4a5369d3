"""The convolutional faces network's training examples, and the DEV sets that decide whether it ships.

Training draws from the same sources as ``train`` (render.py scenes, stress scenes, byler's photos, dice-photos'
train folder), each picture's look first changed further than a camera would (``recolour``): hue turned,
contrast and gamma changed, light and dark swapped, so no die or table colour is special to the network.

DEV data is never trained on: byler's photos 121-150 (by name, of the first 150 that may be used at all), and
two ranges of scene seeds drawn by neither recipe. Its first half (by source) fits the temperature, its second
half is where the reliability is reported. The measuring data of ``benchmarks/bench_classifier.py`` (byler's last
50, dice-photos' valid folder, the stress measuring seeds, render seeds from 777000) is used by neither.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from .classifier import CHANNELS, CLASSES, CROP_PX, die_crop
from .dataset import read_boxes
from .finder import builtin_finder, wholly_inside
from .profile import Profile
from .stress import CROP_SCENE_SEEDS, stress_scene
from .topface import RotatedBox
from .train import (
    BYLER_TRAIN_PHOTOS,
    STRESS_SEEDS,
    Example,
    Look,
    box_examples,
    reader_examples,
    roughen,
    stress_examples,
    synthetic_examples,
    upright_dice,
)

BYLER_FIT_PHOTOS: Final = 120
"""Byler's first 120 photos (by name) are trained on; photos 121-150 are DEV data; the last 50 measure."""
DEV_RENDER_SEEDS: Final = range(600_000, 600_300)
"""render.py scenes (one per seed) for DEV: the training recipe draws its scenes from its own seed's stream."""
DEV_STRESS_SEEDS: Final = range(1_700_000_000, 1_700_000_300)
"""Stress scenes for DEV: above ``CROP_SCENE_SEEDS``, below ``train.STRESS_SEEDS`` where the training draws."""

FINDER_BOX_SEEDS: Final = STRESS_SEEDS + CROP_SCENE_SEEDS // 2
"""Stress scenes cut out at the finder's boxes come from seeds above this (2.5 x 10^9): above the other stress
crops' seeds (2 x 10^9), below the finder's own (3 x 10^9), far from every DEV and measuring seed."""
WOODEN_BOX_SEEDS: Final = FINDER_BOX_SEEDS + CROP_SCENE_SEEDS // 4
"""Wooden dice cut out at the finder's boxes: from 2.75 x 10^9, above the other finder-box scenes (fewer than
250 million of them) and below the finder's own."""
SCENES_PER_SEED: Final = 100_003
"""Each ``--seed`` draws its finder-box scenes from its own stretch of seeds, this long."""
WOODEN_LOOK: Final = 0x3D
"""Tags a wooden scene's draws of recolouring and roughening."""
MATCHED: Final = 0.35
"""A found box is a labelled die's when their centres lie within this share of the die's side: the finder's
centre errs by well under a tenth of a side, and two dice's centres lie at least a side apart."""
FOUR_DICE_SHARE: Final = 0.5
MOST_DICE: Final = 8
"""Half the scenes cut out at the finder's boxes hold a roll's four dice, the rest 1 to 8 (touching dice)."""
HUE_SHARE: Final = 0.35
"""Pictures whose hue is turned by any amount: a red die becomes green or blue, and so does the table."""
INVERT_SHARE: Final = 0.15
"""Pictures whose light and dark are swapped: dark pips on a light body become light pips on a dark one."""
CONTRAST_SHARE: Final = 0.35
CONTRAST: Final = (0.45, 1.3)
"""Contrast about the picture's mean, from a dim, flat camera to a harsh one."""
GAMMA_SHARE: Final = 0.3
GAMMA: Final = (0.6, 1.7)
HUE_TURNS: Final = 180
"""OpenCV's 8-bit hue runs 0-179."""


def recolour(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """``image`` with its hue turned, light and dark swapped, contrast and gamma changed, each at random."""
    out = image
    if rng.random() < HUE_SHARE:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(HUE_TURNS))) % HUE_TURNS).astype(np.uint8)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < INVERT_SHARE:
        out = 255 - out
    if rng.random() < CONTRAST_SHARE:
        mean = float(out.mean())
        out = np.clip((out.astype(np.float32) - mean) * rng.uniform(*CONTRAST) + mean, 0, 255).astype(np.uint8)
    if rng.random() < GAMMA_SHARE:
        lut = (255 * (np.arange(256) / 255) ** rng.uniform(*GAMMA)).astype(np.uint8)
        out = cv2.LUT(out, lut)
    return out


def byler_names(folder: Path) -> list[str]:
    """Byler's photos by name: the first ``BYLER_TRAIN_PHOTOS`` may be used at all, the rest measure."""
    return sorted(read_boxes(folder))[:BYLER_TRAIN_PHOTOS]


def training_examples(
    seed: int, data: Path, photos_profile: Profile, scenes: int, variants: int, progress: Callable[[str], None]
) -> list[Example]:
    """The network's training examples: render.py and stress scenes, byler's first 120 photos, dice-photos'
    train folder, every picture recoloured and roughened (``variants`` times for real photos)."""
    progress(f"rendering {scenes} synthetic scenes")
    examples = list(synthetic_examples(seed, scenes, look=recolour))
    progress(f"rendering {scenes // 2} stress scenes")
    examples += stress_examples(seed, scenes // 2, look=recolour)
    byler = data / "dice-photos-byler" / "train"
    progress(f"cutting out byler's first {BYLER_FIT_PHOTOS} photos x{variants}")
    examples += box_examples(seed, byler, byler_names(byler)[:BYLER_FIT_PHOTOS], variants, look=recolour)
    progress(f"reading dice-photos/train x{variants}")
    examples += reader_examples(seed, data / "dice-photos" / "train", photos_profile, variants, look=recolour)
    return examples


def finder_labelled(
    found: Sequence[RotatedBox], dice: Sequence[tuple[RotatedBox, int]], others: Sequence[RotatedBox]
) -> list[tuple[RotatedBox, int | None]]:
    """The finder's boxes with the value of the labelled die each lies on, or ``None`` (not a face) for a box on
    no die at all; a box near a die that is not labelled (one cut by the frame) is left out."""
    out: list[tuple[RotatedBox, int | None]] = []
    labelled = [b for b, _ in dice]
    for box in found:
        near = [v for b, v in dice if np.hypot(*np.subtract(box[0], b[0])) < MATCHED * min(b[1])]
        if len(near) == 1:
            out.append((box, near[0]))
        elif not near and all(np.hypot(*np.subtract(box[0], b[0])) >= max(b[1]) for b in [*others, *labelled]):
            out.append((box, None))
    return out


def found_boxes(picture: np.ndarray) -> list[RotatedBox]:
    """The built-in finder's boxes wholly inside ``picture``, as the reader takes them."""
    return [d.box for d in builtin_finder().find(picture) if wholly_inside(d.box, picture.shape)]


def finder_stress_scene(
    scene_seed: int, wooden: bool = False
) -> tuple[np.ndarray, list[tuple[RotatedBox, int]], list[RotatedBox]]:
    """A stress scene (of wooden dice if ``wooden``) for crops at the finder's boxes: its picture, counted dice
    and cut dice."""
    rng = np.random.default_rng([scene_seed, 0xB0E5])
    count = 4 if rng.random() < FOUR_DICE_SHARE else int(rng.integers(1, MOST_DICE + 1))
    scene = stress_scene(scene_seed, count=count, wooden=wooden)
    return scene.image, [(d.top_box, d.value) for d in scene.counted], [d.top_box for d in scene.dice if d.cut]


def finder_box_examples(seed: int, scenes: range, look: Look | None = None, wooden: bool = False) -> list[Example]:
    """Crops of stress scenes (of wooden dice if ``wooden``) at the boxes the learned finder draws on them, as
    the reader cuts its dice out: a box on a die is labelled with its value, a box on no die is "not a face".
    ``scenes`` numbers them (each scene's randomness is its own, so ranges may be cut in parallel)."""
    if seed * SCENES_PER_SEED + scenes.stop > WOODEN_BOX_SEEDS - FINDER_BOX_SEEDS:
        raise ValueError(f"seed {seed} with {scenes.stop} scenes reaches into the next range of scene seeds")
    out: list[Example] = []
    first_seed, kind = (WOODEN_BOX_SEEDS, "wooden") if wooden else (FINDER_BOX_SEEDS, "stress")
    for i in scenes:
        scene_seed = first_seed + seed * SCENES_PER_SEED + i
        # a wooden scene's recolouring and roughening are its own, not the same-numbered plain scene's
        rng = np.random.default_rng([seed, 0xB0E5, i, *([WOODEN_LOOK] if wooden else [])])
        try:
            image, dice, cut = finder_stress_scene(scene_seed, wooden)
        except (ValueError, RuntimeError):  # the dice did not fit: no scene
            continue
        typical = float(np.median([min(b[1]) for b, _ in dice])) if dice else 40.0
        picture = roughen(rng, image if look is None else look(rng, image), typical)
        for box, label in finder_labelled(found_boxes(picture), dice, cut):
            out.append(Example(die_crop(picture, box), label, f"finder-{kind}-{scene_seed}"))
    return out


def finder_photo_examples(
    seed: int, folder: Path, names: Sequence[str], variants: int, look: Look | None = None
) -> list[Example]:
    """Crops of real photos (byler's) at the finder's boxes, ``variants`` recoloured, roughened copies each."""
    labelled = read_boxes(folder)
    out: list[Example] = []
    for name in names:
        frame = cv2.imread(str(folder / name))
        if frame is None:
            continue
        dice = upright_dice(labelled[name])
        typical = float(np.median([min(b[1]) for b, _ in dice])) if dice else 40.0
        for variant in range(variants):
            rng = np.random.default_rng([seed, 0xB7E5, sum(name.encode()), variant])
            picture = roughen(rng, frame if look is None else look(rng, frame), typical)
            for box, label in finder_labelled(found_boxes(picture), dice, []):
                out.append(Example(die_crop(picture, box), label, f"{folder.name}/{name}"))
    return out


def describe(data: Path, scenes: int, variants: int, finder_scenes: int = 0, wooden_scenes: int = 0) -> str:
    """What the training examples drew on, stored with the network."""
    wooden = f", {wooden_scenes} of wooden dice (seeds from {WOODEN_BOX_SEEDS})" if wooden_scenes else ""
    at_finder_boxes = (
        f"; {finder_scenes} stress scenes (seeds from {FINDER_BOX_SEEDS}){wooden} and byler's first "
        f"{BYLER_FIT_PHOTOS} photos x{variants} at the learned finder's boxes"
        if finder_scenes or wooden_scenes
        else ""
    )
    return (
        f"{scenes} render.py scenes and {scenes // 2} stress scenes (seeds from {STRESS_SEEDS}); "
        f"{data}/dice-photos-byler/train first {BYLER_FIT_PHOTOS} photos; {data}/dice-photos/train (reader boxes); "
        f"x{variants} recoloured, roughened variants of real photos{at_finder_boxes}; never dice-photos/valid, "
        f"byler's photos {BYLER_FIT_PHOTOS + 1}-{BYLER_TRAIN_PHOTOS} (DEV) or its last 50"
    )


@dataclass(frozen=True)
class DevSet:
    """Crops of one DEV source with their labels; ``fits`` marks the half that fits the temperature."""

    name: str
    crops: np.ndarray
    labels: tuple[int | None, ...]
    fits: np.ndarray

    def half(self, fits: bool) -> tuple[np.ndarray, list[int | None]]:
        chosen = self.fits == fits
        return self.crops[chosen], [label for label, c in zip(self.labels, chosen, strict=True) if c]


def _dev_set(name: str, crops: Iterator[tuple[np.ndarray, int | None, int]]) -> DevSet:
    """A DEV set from (crop, label, index of its scene or photo): even indices fit, odd ones report."""
    rows = list(crops)
    return DevSet(
        name,
        np.stack([c for c, _, _ in rows]) if rows else np.zeros((0, CROP_PX, CROP_PX, CHANNELS), np.float32),
        tuple(label for _, label, _ in rows),
        np.array([i % 2 == 0 for _, _, i in rows], bool),
    )


def dev_render(seeds: Sequence[int] = DEV_RENDER_SEEDS) -> DevSet:
    """render.py scenes, one per seed: every face and "not a face" crops, roughened as for training."""
    return _dev_set(
        "render.py DEV",
        ((e.crop, e.label, i) for i, seed in enumerate(seeds) for e in synthetic_examples(seed, 1)),
    )


def dev_stress(seeds: Sequence[int] = DEV_STRESS_SEEDS) -> DevSet:
    """Stress scenes' counted dice at their true top-face boxes (as the bench measures the stress set)."""

    def crops() -> Iterator[tuple[np.ndarray, int | None, int]]:
        for i, seed in enumerate(seeds):
            scene = stress_scene(seed)
            for die in scene.counted:
                yield die_crop(scene.image, die.top_box), die.value, i

    return _dev_set("stress DEV", crops())


def _dev_byler_photos(data: Path) -> Iterator[tuple[int, np.ndarray, list[tuple[RotatedBox, int]]]]:
    """Byler's DEV photos 121-150: their number among them, the photo and its labelled dice."""
    folder = data / "dice-photos-byler" / "train"
    boxes = read_boxes(folder)
    for i, name in enumerate(byler_names(folder)[BYLER_FIT_PHOTOS:]):
        frame = cv2.imread(str(folder / name))
        if frame is not None:
            yield i, frame, upright_dice(boxes[name])


def dev_byler(data: Path) -> DevSet:
    """Byler's photos 121-150 at their labelled die boxes (as the bench measures the last 50)."""
    crops = ((die_crop(frame, box), value, i) for i, frame, dice in _dev_byler_photos(data) for box, value in dice)
    return _dev_set("byler 121-150 DEV", crops)


def dev_stress_found(seeds: Sequence[int] = DEV_STRESS_SEEDS) -> DevSet:
    """Stress DEV scenes at the finder's boxes, as the reader cuts them (boxes on no die are "not a face")."""

    def crops() -> Iterator[tuple[np.ndarray, int | None, int]]:
        for i, seed in enumerate(seeds):
            image, dice, cut = finder_stress_scene(seed)
            for box, label in finder_labelled(found_boxes(image), dice, cut):
                yield die_crop(image, box), label, i

    return _dev_set("stress DEV at the finder's boxes", crops())


def dev_byler_found(data: Path) -> DevSet:
    """Byler's photos 121-150 at the finder's boxes."""
    crops = (
        (die_crop(frame, box), label, i)
        for i, frame, dice in _dev_byler_photos(data)
        for box, label in finder_labelled(found_boxes(frame), dice, [])
    )
    return _dev_set("byler 121-150 DEV at the finder's boxes", crops)


def dev_sets(data: Path) -> list[DevSet]:
    """Every DEV set: render.py, stress, byler 121-150, the last two also at the finder's boxes (a few minutes:
    each scene is drawn)."""
    return [dev_render(), dev_stress(), dev_byler(data), dev_stress_found(), dev_byler_found(data)]


def dev_arrays(sets: Sequence[DevSet]) -> dict[str, np.ndarray]:
    """DEV sets as named arrays, to keep in an npz file (``dev_from_arrays`` reads them back)."""
    out: dict[str, np.ndarray] = {"names": np.array([d.name for d in sets])}
    for i, d in enumerate(sets):
        out |= {f"crops{i}": d.crops, f"labels{i}": class_indices(d.labels), f"fits{i}": d.fits}
    return out


def dev_from_arrays(arrays: dict[str, np.ndarray]) -> list[DevSet]:
    return [
        DevSet(str(name), arrays[f"crops{i}"], tuple(CLASSES[k] for k in arrays[f"labels{i}"]), arrays[f"fits{i}"])
        for i, name in enumerate(arrays["names"])
    ]


def class_indices(labels: Sequence[int | None]) -> np.ndarray:
    return np.array([CLASSES.index(label) for label in labels], dtype=np.int64)
