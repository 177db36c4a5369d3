"""The learned faces classifier alone, on crops it was never trained or calibrated on: per-die accuracy and the
reliability table (among dice whose best face has probability >= c, at least c must be right).

Measured on: byler's last 50 photos (labelled die boxes), dice-photos/valid (the reader's boxes matched to the
labelled pip boxes), the stress set's measuring seeds (true top-face boxes) and fresh render.py seeds. The
built-in model was trained on none of these (see ``fantan_table.vision.train``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
from common import Row

from fantan_table.vision.classifier import CLASSES, RELIABILITY_LEVELS, builtin_model, die_crop, reliability
from fantan_table.vision.dataset import read_boxes
from fantan_table.vision.profile import load_profile
from fantan_table.vision.stress import MEASURING_SEEDS, stress_scene
from fantan_table.vision.topface import RotatedBox
from fantan_table.vision.train import BYLER_TRAIN_PHOTOS, reader_matched, synthetic_examples, upright_dice

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("BENCH_DATA", ROOT.parent / "shared" / "data"))
PHOTO_PROFILE = ROOT / "calibration" / "profiles" / "dice-photos"
STRESS_SCENES = int(os.environ.get("BENCH_CLASSIFIER_STRESS", "300"))
FRESH_SYNTHETIC_SEED = 777_000
"""render.py scenes from this seed: the built-in model was trained on seed 1's."""
FRESH_SCENES = 300

Labelled = Iterator[tuple[np.ndarray, RotatedBox, int | None]]


def _byler_last_50() -> Labelled:
    folder = DATA / "dice-photos-byler" / "train"
    boxes = read_boxes(folder)
    for name in sorted(boxes)[BYLER_TRAIN_PHOTOS:]:
        frame = cv2.imread(str(folder / name))
        for box, value in upright_dice(boxes[name]):
            yield frame, box, value


def _photos_valid() -> Labelled:
    folder = DATA / "dice-photos" / "valid"
    profile = load_profile(PHOTO_PROFILE)
    for name, labelled in sorted(read_boxes(folder).items()):
        frame = cv2.imread(str(folder / name))
        for box, value in reader_matched(frame, labelled, profile):
            yield frame, box, value


def _stress() -> Labelled:
    for seed in MEASURING_SEEDS[:STRESS_SCENES]:
        scene = stress_scene(seed)
        for die in scene.counted:
            yield scene.image, die.top_box, die.value


def _rows(name: str, crops: list[np.ndarray], labels: list[int | None], seconds: float) -> list[Row]:
    p = builtin_model().probabilities(np.stack(crops))
    truth = np.array([CLASSES.index(label) for label in labels])
    accuracy = float((p.argmax(axis=1) == truth).mean())
    rows = [Row(f"classifier, {name} ({len(labels)} crops): per-die accuracy", f"{100 * accuracy:.2f}%", "-")]
    for r in reliability(p, labels, RELIABILITY_LEVELS):
        # fewer crops than it takes to see one miss at the allowed rate prove nothing either way: no verdict
        judged = r.count >= 1 / (1 - r.threshold)
        rows.append(
            Row(
                f"classifier, {name}: right among p >= {r.threshold} ({r.count} dice)",
                f"{100 * r.accuracy:.2f}%" if r.count else "none",
                "-",
                f">= {100 * r.threshold:g}%" if judged else "too few",
                (lambda r=r: r.accuracy >= r.threshold) if judged else None,
            )
        )
    rows.append(Row(f"classifier, {name}: ms per die (crop + classify)", f"{1000 * seconds / len(labels):.2f}", "-"))
    return rows


def _measure(name: str, dice: Labelled) -> list[Row]:
    crops, labels, seconds = [], [], 0.0
    for frame, box, value in dice:
        start = time.perf_counter()
        crops.append(die_crop(frame, box))
        seconds += time.perf_counter() - start
        labels.append(value)
    start = time.perf_counter()
    builtin_model().probabilities(np.stack(crops))
    return _rows(name, crops, labels, seconds + time.perf_counter() - start)


def run() -> list[Row]:
    cv2.setNumThreads(1)
    die_crop(np.zeros((64, 64, 3), np.uint8), ((32.0, 32.0), (20.0, 20.0), 0.0))  # first-call set-up, not timed
    builtin_model()
    fresh = list(synthetic_examples(FRESH_SYNTHETIC_SEED, FRESH_SCENES))
    rows = _rows(
        f"render.py seed {FRESH_SYNTHETIC_SEED}, faces and not-a-face",
        [e.crop for e in fresh],
        [e.label for e in fresh],
        float("nan"),
    )[:-1]
    rows += _measure(f"stress {STRESS_SCENES} measuring scenes", _stress())
    if not (DATA / "dice-photos" / "valid").is_dir():
        return [*rows, Row("classifier, real photos", "not found", f"({DATA})")]
    rows += _measure("dice-photos valid (reader boxes)", _photos_valid())
    rows += _measure("byler last 50 photos (labelled boxes)", _byler_last_50())
    return rows
