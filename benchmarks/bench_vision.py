"""The dice reader against the baseline, side by side: synthetic scenes, the stress set, real photos, speed."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path

import cv2
import numpy as np
from baseline_reader import baseline_read
from common import BYLER, PHOTOS, ROOT, Row, percent, wrong_when_ok
from tqdm import tqdm

from fantan_table.vision.dataset import boxes_of, read_boxes, read_labels
from fantan_table.vision.evaluate import CONFIDENCE_LEVELS, Outcome, PlacedDie, Report, placed_dice, placed_reading
from fantan_table.vision.perturb import PERTURBATIONS
from fantan_table.vision.profile import load_profile
from fantan_table.vision.reader import Status, read_dice
from fantan_table.vision.render import random_faces, render_scene
from fantan_table.vision.stress import MEASURING_SEEDS, stress_scene
from fantan_table.vision.train import BYLER_TRAIN_PHOTOS

PHOTO_PROFILE = ROOT / "calibration" / "profiles" / "dice-photos"
SCENES = int(os.environ.get("BENCH_SCENES", "2000"))
STRESS_SEEDS = MEASURING_SEEDS.start
"""The stress set measured here: seeds 900000 on, kept for measuring. Nobody tunes or trains on them (the tests
use 700000-800300, training crops their own seeds above 10^9): they stand for unseen synthetic scenes."""
STRESS_SCENES = min(max(1, SCENES // 2), len(MEASURING_SEEDS))
"""A stress scene takes several times longer to draw than an everyday one: half as many, BENCH_SCENES still rules."""
WOODEN_SCENES = min(max(1, SCENES // 2), len(MEASURING_SEEDS))
"""Stress scenes of wooden dice (grained bodies, a look none of the networks learned), from the same seeds, as many
as the stress scenes: read with the count, about half are ok, and the wrong-when-ok target (0.5 %) needs a few
hundred ok rolls to show at all. With 250 scenes (until 2026-11-27) one wrong roll of the 119 read ok was 0.84 %."""
STEEP_SCENES = min(max(1, SCENES // 2), len(MEASURING_SEEDS))
"""Stress scenes through a camera at a steep slant (40-60 degrees, ``stress_scene(steep=True)``), from the same
seeds: a view beyond the one the table asks for (``hardware/README.md``), measured to say what it costs."""

Read = tuple[tuple[int, ...], bool, int, tuple[PlacedDie, ...] | None]
"""The values read, whether sure, how many dice were found, and each die read with its place and confidence (None
for the baseline, which gives no confidence)."""
Reader = Callable[[np.ndarray, int], Read]
"""A reader of a picture that holds the given number of labelled dice."""
LABELLED = -1
"""``expect`` for a reader told each picture's own number of dice (as the table is told a game's)."""


def _ours(profile=None, expect=None) -> Reader:
    def read(image: np.ndarray, labelled: int) -> Read:
        r = read_dice(image, profile, labelled if expect == LABELLED else expect)
        return r.values, r.status is Status.OK, len(r.dice), placed_reading(r)

    return read


def _baseline(expect=None) -> Reader:
    def read(image: np.ndarray, labelled: int) -> Read:
        values, ok = baseline_read(image, labelled if expect == LABELLED else expect)
        return values, ok, len(values), None

    return read


def _measure(frames, readers: dict[str, Reader], what: str) -> dict[str, Report]:
    """Each frame read by each reader; frames are (name, values, picture, the dice where they lie or None)."""
    reports = {name: Report() for name in readers}
    for name_of_frame, truth, frame, placed in tqdm(frames, desc=what, unit="picture", file=sys.stderr, disable=None):
        for name, reader in readers.items():
            start = time.perf_counter()
            values, ok, found, read = reader(frame, len(truth))
            ms = (time.perf_counter() - start) * 1000
            judged = placed if read is not None else None  # the baseline gives no confidence to judge
            reports[name].add(Outcome(truth, values, ok, ms, found, name_of_frame, read or (), judged))
    return reports


def _synthetic():
    for i in range(SCENES):
        values = random_faces(np.random.default_rng([i, 7]), 4, (0, 1, 2, 3, 4, 5, 6))
        scene = render_scene(values, 500_000 + i)
        placed = tuple(PlacedDie(d.value, d.center, d.side) for d in scene.dice)
        yield f"synthetic {i}", scene.values, scene.image, placed


def _stress(scenes: int, wooden: bool = False, steep: bool = False):
    kind = "wooden" if wooden else "steep" if steep else "stress"
    for seed in range(STRESS_SEEDS, STRESS_SEEDS + scenes):
        scene = stress_scene(seed, wooden=wooden, steep=steep)
        placed = tuple(PlacedDie(d.value, d.center, d.side_px) for d in scene.dice)
        yield f"{kind} {seed}", scene.values, scene.image, placed


def _stress_rows() -> list[Row]:
    """Unseen synthetic scenes of the hard renderer, built-in profile: the issue's generalisation targets."""
    got = _measure(_stress(STRESS_SCENES), {"ours": _ours(expect=4), "baseline": _baseline(expect=4)}, "stress scenes")
    o, b = got["ours"], got["baseline"]
    n = f"stress {o.scenes} x 4 dice (unseen)"
    return [
        _rate(f"{n}: exact scenes", o, b, "exact_scene_rate", ">= 95%", lambda v: v >= 0.95),
        _rate(f"{n}: per-die accuracy", o, b, "per_die_accuracy", ">= 99%", lambda v: v >= 0.99),
        _rate(f"{n}: wrong when ok", o, b, "wrong_when_ok_rate", "<= 0.5%", lambda v: v <= 0.005),
        _rate(f"{n}: coverage (ok)", o, b, "coverage"),
        _confidence_row(n, got["ours"]),
    ]


def _wooden_rows() -> list[Row]:
    """Dice of a look nobody trained or tuned on, with the count and without: is "ok" still right?"""
    got = _measure(_stress(WOODEN_SCENES, wooden=True), _told_and_not(4), "wooden dice")
    o, b = got["ours"], got["baseline"]
    n = f"wooden dice {o.scenes} x 4 (an unseen look)"
    return [_rate(f"{n}: exact scenes", o, b, "exact_scene_rate"), *_safety_rows(n, got)]


def _steep_rows() -> list[Row]:
    """A camera at a steep slant, as a phone held across the table: past 45 degrees a die's side face looks squarer
    than its top, and the finder may box it. Is "ok" still right?"""
    got = _measure(_stress(STEEP_SCENES, steep=True), _told_and_not(4), "steep camera")
    o, b = got["ours"], got["baseline"]
    n = f"stress {o.scenes} x 4, camera 40-60 deg off straight down"
    return [
        _rate(f"{n}: exact scenes", o, b, "exact_scene_rate"),
        _rate(f"{n}: coverage (ok)", o, b, "coverage"),
        *_safety_rows(n, got),
    ]


def _told_and_not(expect: int) -> dict[str, Reader]:
    """Our reader and the baseline, told how many dice (``expect``) and not told."""
    return {
        "ours": _ours(expect=expect),
        "baseline": _baseline(expect=expect),
        "ours, no count": _ours(),
        "baseline, no count": _baseline(),
    }


def _safety_rows(n: str, got: dict[str, Report]) -> list[Row]:
    """Whether "ok" is right with the count and without (``_told_and_not``), and the confidence of the dice read."""
    return [
        *_ok_rows(n, got),
        _confidence_row(n, got["ours"]),
        _confidence_row(f"{n}, no count", got["ours, no count"]),
    ]


def _ok_rows(n: str, got: dict[str, Report]) -> list[Row]:
    """Whether "ok" is right with the count and without (``_told_and_not``), and how often it is said without."""
    o, b, on, bn = (got[name] for name in ("ours", "baseline", "ours, no count", "baseline, no count"))
    return [
        _rate(f"{n}: wrong when ok", o, b, "wrong_when_ok_rate", "<= 0.5%", lambda v: v <= 0.005),
        _rate(f"{n}, no count: coverage (ok)", on, bn, "coverage"),
        _rate(f"{n}, no count: wrong when ok", on, bn, "wrong_when_ok_rate", "<= 0.5%", lambda v: v <= 0.005),
    ]


def _photos(folder: Path, names: Collection[str] | None = None):
    """A labelled folder's photos (of ``names`` only, if given), each die placed where ``boxes.json`` has it."""
    samples = [s for s in read_labels(folder) if names is None or s.image.name in names]
    boxes = boxes_of(folder, samples)
    for sample in samples:
        placed = placed_dice(boxes[sample.image.name]) if sample.image.name in boxes else None
        yield sample.image.name, sample.values, cv2.imread(str(sample.image)), placed


def _byler_rows() -> list[Row]:
    """byler's last photos (coloured dice on a tray, a phone from above), which no network learned and no rule was
    tuned on, read with the built-in profile: the issue's "any unseen pipped-dice set, before calibration". With
    each photo's number of dice (1 to 8), as the table is told a game's, and without."""
    measured = sorted(read_boxes(BYLER))[BYLER_TRAIN_PHOTOS:]
    got = _measure(_photos(BYLER, set(measured)), _told_and_not(LABELLED), "byler's last photos")
    o, b = got["ours"], got["baseline"]
    n = f"byler last {o.scenes} photos, built-in profile"
    return [
        _rate(f"{n}: per-die accuracy", o, b, "per_die_accuracy"),
        _rate(f"{n}: exact scenes", o, b, "exact_scene_rate"),
        *_safety_rows(n, got),
    ]


def _confidence_row(name: str, report: Report) -> Row:
    """The issue's calibrated confidence: among the dice read at least c sure, at least c right, at each of
    ``CONFIDENCE_LEVELS``. Only the dice of rolls read ok: a round is settled on those alone."""
    rows = report.confidence_rows()
    levels = "/".join(f"{level:g}" for level in CONFIDENCE_LEVELS)
    wrong = "/".join(str(row.dice - row.right) for row in rows)
    dice = "/".join(str(row.dice) for row in rows)
    return Row(
        f"{name}: dice read ok at >= {levels} sure: wrong",
        f"{wrong} of {dice}",
        "-",
        "share >= c",
        lambda: all(row.met for row in rows),
    )


def _rate(name: str, ours: Report, baseline: Report, figure: str, target: str = "-", met=None) -> Row:
    """A rate of both readers side by side; ``met`` tells from our figure whether the target is reached."""
    value = getattr(ours, figure)
    return Row(
        name, _shown(ours, figure), _shown(baseline, figure), target, None if met is None else lambda: met(value)
    )


def _shown(report: Report, figure: str) -> str:
    return wrong_when_ok(report) if figure == "wrong_when_ok_rate" else percent(getattr(report, figure))


def run() -> list[Row]:
    cv2.setNumThreads(1)  # the speed target is for one core
    syn = _measure(_synthetic(), {"ours": _ours(expect=4), "baseline": _baseline(expect=4)}, "synthetic scenes")
    o, b = syn["ours"], syn["baseline"]
    n = f"synthetic {o.scenes} x 4 dice"
    rows = [
        _rate(f"{n}: exact scenes", o, b, "exact_scene_rate", ">= 99.9%", lambda v: v >= 0.999),
        _rate(f"{n}: wrong when ok", o, b, "wrong_when_ok_rate", "<= 0.05%", lambda v: v <= 0.0005),
        _rate(f"{n}: per-die accuracy", o, b, "per_die_accuracy"),
        _rate(f"{n}: coverage (ok)", o, b, "coverage"),
        _confidence_row(n, syn["ours"]),
        Row(
            "speed, 1280x960 frame, one core: mean",
            f"{o.ms_mean:.1f} ms",
            f"{b.ms_mean:.1f} ms",
            "<= 15 ms",
            lambda: o.ms_mean <= 15,
        ),
        Row("speed, 1280x960 frame, one core: p95", f"{o.ms_p95:.1f} ms", f"{b.ms_p95:.1f} ms"),
        Row(
            "speed: no slower than the baseline (mean)",
            f"{o.ms_mean:.1f} ms",
            f"{b.ms_mean:.1f} ms",
            "<= baseline",
            lambda: o.ms_mean <= b.ms_mean,
        ),
    ]
    rows += _stress_rows()
    rows += _wooden_rows()
    rows += _steep_rows()
    rows += _byler_rows() if (BYLER / "labels.csv").exists() else [Row("byler's photos", "not found", f"({BYLER})")]
    if not (PHOTOS / "valid").is_dir():
        rows.append(Row("real photos", "not found", f"({PHOTOS})"))
        return rows
    profile = load_profile(PHOTO_PROFILE) if PHOTO_PROFILE.is_dir() else None
    readers = {"ours": _ours(profile), "built-in": _ours(), "baseline": _baseline()}
    real = _measure(_photos(PHOTOS / "valid"), readers, "real photos (valid)")
    o2, b2, builtin = real["ours"], real["baseline"], real["built-in"]
    n2 = f"real photos valid ({o2.scenes})"
    n3 = f"{n2}, built-in profile, no count"  # the "any unseen pipped-dice set, before calibration"
    rows += [
        _rate(f"{n2}: per-die accuracy", o2, b2, "per_die_accuracy", ">= 99%", lambda v: v >= 0.99),
        _rate(f"{n2}: exact scenes", o2, b2, "exact_scene_rate", ">= 97%", lambda v: v >= 0.97),
        _rate(f"{n2}: wrong when ok", o2, b2, "wrong_when_ok_rate"),
        _rate(f"{n3}: per-die accuracy", builtin, b2, "per_die_accuracy"),
        _rate(f"{n3}: wrong when ok", builtin, b2, "wrong_when_ok_rate", "<= 0.5%", lambda v: v <= 0.005),
        _confidence_row(n2, real["ours"]),
        _confidence_row(n3, real["built-in"]),
    ]
    return rows + _perturbed_rows()


def _perturbed(folder: Path):
    """Each photo of a labelled folder changed in each of ``PERTURBATIONS``' ways (where its dice lie is not
    followed: no confidence judged)."""
    for name, values, picture, _ in _photos(folder):
        for kind, change in PERTURBATIONS.items():
            yield f"{name} {kind}", values, change(picture), None


def _perturbed_rows() -> list[Row]:
    """The measuring photos as other cameras, light and compression would show them (``vision.perturb``), read with
    the built-in profile: more unseen pipped-dice sets, before calibration. Nobody tunes on these: the DEV photos
    are perturbed alike by ``tools/reader_dev_ab.py --perturb``."""
    got = _measure(_perturbed(PHOTOS / "valid"), _told_and_not(LABELLED), "real photos (valid), perturbed")
    o, b = got["ours"], got["baseline"]
    n = f"real photos valid x {len(PERTURBATIONS)} perturbations ({o.scenes}), built-in profile"
    return [_rate(f"{n}: exact scenes", o, b, "exact_scene_rate"), *_ok_rows(n, got)]
