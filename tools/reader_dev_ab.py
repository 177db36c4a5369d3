"""Read the DEV rolls with the reader as it is, and again with one of its constants changed: which rolls change.

    python tools/reader_dev_ab.py                              # every roll read ok and wrong, and the tallies
    python tools/reader_dev_ab.py --try APART=0.85             # every roll whose reading the change moves
    python tools/reader_dev_ab.py --no-count --set wooden:650000-650999 --set byler

A reader rule is chosen on DEV data and measured on data it was never tuned on (``make bench``). This is the DEV
half: the rolls the reader's docstrings quote ("on DEV ... turned N rolls unsure and lost no right one"), read the
way the table reads them (with the count of dice, unless ``--no-count``). Sets, as NAME or NAME:FIRST-LAST:

- ``stress``: stress scenes, seeds 600000-601499; ``wooden``: stress scenes with wooden dice, 650000-653509;
- ``render``: render.py scenes 0-299 (four faces 0-6 drawn from seed [i, 7], the scene from seed 100000 + i);
- ``byler``: byler's photos 121-150 (sorted by name; indices 120-149); ``photos``: dice-photos ``train``.

The bench's measuring seeds (stress and wooden 900000 on, render.py 500000 on), byler's last 50 photos and
dice-photos ``valid`` are refused. ``--try`` sets ``fantan_table.vision.reader.NAME`` in each worker; a roll is
right, unsure, or WRONG (read ok, values not the truth's, in any order).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from fantan_table.vision import reader
from fantan_table.vision.dataset import read_labels
from fantan_table.vision.render import random_faces, render_scene
from fantan_table.vision.stress import stress_scene

ROOT = Path(__file__).resolve().parent.parent
RENDER_SEED = 100_000
"""render.py DEV scene i is drawn from seed RENDER_SEED + i; the bench's scenes from 500000 on."""
DEV: dict[str, range] = {
    "stress": range(600_000, 601_500),
    "wooden": range(650_000, 653_510),
    "render": range(300),
    "byler": range(120, 150),
}
MEASURING: dict[str, int] = {"stress": 900_000, "wooden": 900_000, "render": 500_000 - RENDER_SEED, "byler": 150}
"""The first index of each set that belongs to the bench's measuring data (render.py's by its scene index)."""
FACES = (0, 1, 2, 3, 4, 5, 6)


class Refused(SystemExit):
    """A set the DEV half may not read: say which and why."""


@dataclass(frozen=True)
class Roll:
    set: str
    index: int


def parse_set(spec: str) -> list[Roll]:
    """``NAME`` or ``NAME:FIRST-LAST`` (both included) as rolls, measuring data refused."""
    name, _, span = spec.partition(":")
    if name == "photos":
        if span:
            raise Refused("photos takes no range: it is all of dice-photos/train")
        return [Roll("photos", -1)]
    if name not in DEV:
        raise Refused(f"unknown set {name!r}: one of {', '.join([*DEV, 'photos'])}")
    if span:
        try:
            first, last = (int(x) for x in span.split("-"))
        except ValueError:
            raise Refused(
                f"{spec!r}: give the range as FIRST-LAST, e.g. {name}:{DEV[name].start}-{DEV[name][9]}"
            ) from None
        indices = range(first, last + 1)
    else:
        indices = DEV[name]
    if indices and max(indices) >= MEASURING[name]:
        raise Refused(f"{spec!r} reaches the bench's measuring data ({name} from {MEASURING[name]}): never tune on it")
    return [Roll(name, i) for i in indices]


def parse_try(spec: str) -> tuple[str, float]:
    """``NAME=VALUE`` for a numeric constant of ``fantan_table.vision.reader``."""
    name, _, value = spec.partition("=")
    current = getattr(reader, name, None)
    if not name.isupper() or isinstance(current, bool) or not isinstance(current, int | float):
        raise Refused(f"{name!r} is not one of the reader's numeric constants (as APART or CLASSIFIER_ALONE)")
    try:
        return name, float(value)
    except ValueError:
        raise Refused(f"{spec!r}: the value must be a number, as {name}={current}") from None


def pictures(roll: Roll, data: Path) -> Iterator[tuple[str, np.ndarray, tuple[int, ...]]]:
    """(label, picture, truth) of a roll; ``photos`` stands for every picture of dice-photos/train."""
    if roll.set in ("stress", "wooden"):
        stressed = stress_scene(roll.index, wooden=roll.set == "wooden")
        yield f"{roll.set} {roll.index}", stressed.image, tuple(stressed.values)
    elif roll.set == "render":
        values = random_faces(np.random.default_rng([roll.index, 7]), 4, FACES)
        rendered = render_scene(values, RENDER_SEED + roll.index)
        yield f"render {roll.index}", rendered.image, tuple(rendered.values)
    else:
        folder = data / ("dice-photos-byler/train" if roll.set == "byler" else "dice-photos/train")
        samples = sorted(read_labels(folder), key=lambda s: s.image.name)
        chosen = [samples[roll.index]] if roll.set == "byler" else samples
        for sample in chosen:
            picture = cv2.imread(str(sample.image))
            if picture is None:
                raise OSError(f"cannot read {sample.image}: is the photo there and whole?")
            yield f"{roll.set} {sample.image.name}", picture, tuple(sample.values)


def state(reading: reader.Reading, truth: tuple[int, ...]) -> str:
    if reading.status is not reader.Status.OK:
        return "unsure"
    return "right" if sorted(reading.values) == sorted(truth) else "WRONG"


@dataclass(frozen=True)
class _Job:
    data: Path
    count: bool
    values: tuple[tuple[str, float], ...]
    """The reader constant as it is, then as tried (``--try``); empty to read once as it is."""


_job: _Job | None = None


def _start(job: _Job) -> None:
    global _job
    cv2.setNumThreads(1)  # one core a worker, as the bench times the reader
    _job = job


Seen = tuple[str, tuple[int, ...], str]
"""A roll's state (right, unsure or WRONG), the values read and the reader's message."""


def _read(roll: Roll) -> list[tuple[str, tuple[int, ...], list[Seen]]]:
    assert _job is not None, "a worker reads only once _start has run"
    out = []
    for label, picture, truth in pictures(roll, _job.data):
        expect = len(truth) if _job.count else None
        readings: list[Seen] = []
        for name, value in _job.values or (("", 0.0),):
            if name:
                setattr(reader, name, value)
            r = reader.read_dice(picture, None, expect)
            readings.append((state(r, truth), r.values, r.message))
        out.append((label, truth, readings))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", dest="sets", metavar="NAME[:FIRST-LAST]", help="default: all five")
    parser.add_argument("--try", dest="change", metavar="NAME=VALUE", help="a reader constant's other value")
    parser.add_argument("--no-count", action="store_true", help="read without saying how many dice")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--procs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    rolls = [roll for spec in (args.sets or [*DEV, "photos"]) for roll in parse_set(spec)]
    change = parse_try(args.change) if args.change else None
    if any(r.set in ("byler", "photos") for r in rolls) and not (args.data / "dice-photos").is_dir():
        raise Refused(f"no photos under {args.data}: pass --data (the folder holding dice-photos), or leave them out")
    values = ((change[0], float(getattr(reader, change[0]))), change) if change else ()
    tally: Counter[tuple[str, str, str]] = Counter()
    with (
        Pool(max(1, args.procs), _start, (_Job(args.data, not args.no_count, values),)) as pool,
        tqdm(total=len(rolls), unit="roll", file=sys.stderr) as bar,
    ):
        for results in pool.imap(_read, rolls, chunksize=4):
            bar.update()
            for label, truth, readings in results:
                before, after = readings[0], readings[-1]
                tally[(label.split()[0], before[0], after[0])] += 1
                if change and (before[0] != after[0] or before[1] != after[1]):
                    tqdm.write(f"CHANGE {label} {truth}: {before[0]} {before[1]} -> {after[0]} {after[1]} {after[2]}")
                elif after[0] == "WRONG":
                    tqdm.write(f"WRONG {label} {truth}: read {after[1]}")
    for (set_name, was, now), n in sorted(tally.items()):
        print(f"{set_name:7} {was:6}" + (f" -> {now:6}" if change else "") + f" {n:6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
