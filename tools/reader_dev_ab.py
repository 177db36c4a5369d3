"""Read the DEV rolls with the reader as it is, and again with one of its constants or networks changed: which rolls
change.

    python tools/reader_dev_ab.py                              # every roll read ok and wrong, and the tallies
    python tools/reader_dev_ab.py --try APART=0.85             # every roll whose reading the change moves
    python tools/reader_dev_ab.py --try slant.FAR_SIDE=0.4     # a constant of another of the reader's modules
    python tools/reader_dev_ab.py --network /tmp/new/faces-cnn-boxes-12k.onnx   # a retrained faces network
    python tools/reader_dev_ab.py --network /tmp/new/dice-finder.onnx            # a retrained die finder
    python tools/reader_dev_ab.py --no-count --set wooden:650000-650999 --set byler
    python tools/reader_dev_ab.py --perturb darker --set photos   # the photos as a darker camera would take them

A reader rule is chosen on DEV data and measured on data it was never tuned on (``make bench``). This is the DEV
half: the rolls the reader's docstrings quote ("on DEV ... turned N rolls unsure and lost no right one"), read the
way the table reads them (with the count of dice, unless ``--no-count``). Sets, as NAME or NAME:FIRST-LAST:

- ``stress``: stress scenes, seeds 600000-601499; ``wooden``: stress scenes with wooden dice, 650000-653509;
- ``render``: render.py scenes, seeds 100000-100299 (scene s shows four faces 0-6 drawn from [s - 100000, 7]);
- ``byler``: byler's photos 121-150 (sorted by name; indices 120-149); ``photos``: dice-photos ``train``;
- ``steep``: stress scenes whose camera looks at a steep slant (``stress_scene(steep=True)``), 620000-621499. Not
  read unless named: a view beyond the one the table asks for (``hardware/README.md``), to see what it costs.

Seeds from 900000 on (the bench's stress measuring seeds, and the networks' training seeds far above), render.py
seeds from 500000 on and byler's last 50 photos are refused; dice-photos ``valid`` has no name here. ``--try``
sets a constant defined in ``fantan_table/vision/reader.py`` itself (or, as ``MODULE.NAME``, in another module of
``fantan_table/vision``), in each worker; ``--network`` asks a faces network or the die finder (its JSON beside
it) in place of the built-in one of the same file name, through the whole reader. A roll is right, unsure, or WRONG
(read ok, values not the truth's, in any order).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import multiprocessing
import os
import re
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
from tqdm import tqdm

from fantan_table.vision import classifier, finder, reader
from fantan_table.vision.classifier import FaceModelError
from fantan_table.vision.cnn import BUILTIN_PATHS, CnnEnsemble, CnnFaceModel
from fantan_table.vision.dataset import read_labels
from fantan_table.vision.finder import BUILTIN_PATH as FINDER_PATH
from fantan_table.vision.finder import DiceFinder, FinderError
from fantan_table.vision.perturb import PERTURBATIONS
from fantan_table.vision.render import random_faces, render_scene
from fantan_table.vision.stress import MEASURING_SEEDS, stress_scene
from fantan_table.vision.train import BYLER_TRAIN_PHOTOS

ROOT = Path(__file__).resolve().parent.parent
VISION = ROOT / "fantan_table" / "vision"
RENDER_SEED = 100_000
"""render.py DEV scene s shows faces drawn from [s - RENDER_SEED, 7]: the first DEV seed."""
RENDER_MEASURING = 500_000
"""bench_vision draws its render.py scenes from seeds 500000 on."""
DEV: dict[str, range] = {
    "stress": range(600_000, 601_500),
    "wooden": range(650_000, 653_510),
    "render": range(RENDER_SEED, RENDER_SEED + 300),
    "byler": range(120, 150),
    "steep": range(620_000, 621_500),
}
DEFAULT_SETS = ("stress", "wooden", "render", "byler", "photos")
"""The sets read when none is named: the views the table is meant for."""
ALLOWED: dict[str, range] = {
    "stress": range(0, MEASURING_SEEDS.start),
    "wooden": range(0, MEASURING_SEEDS.start),
    "steep": range(0, MEASURING_SEEDS.start),
    "render": range(RENDER_SEED, RENDER_MEASURING),
    "byler": range(0, BYLER_TRAIN_PHOTOS),
}
"""What each set may read: never the bench's measuring data (nor, for stress, the training seeds above it)."""
FOLDERS = {"byler": "dice-photos-byler/train", "photos": "dice-photos/train"}
FACES = (0, 1, 2, 3, 4, 5, 6)
RELABELLED: dict[str, tuple[tuple[int, ...], str]] = {
    "IMG_20191209_095954.jpg": (
        (1, 2, 3, 5, 5),
        "labelled 1 2 2 5 5, but the die boxed at (220-260, 319-359) in its boxes.json shows three pips on a diagonal",
    ),
    "IMG_20191209_095439.jpg": (
        (1, 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6),
        "labelled with two 4s and two 5s, but three dice show four pips in the corners (at about (562, 282), (289, 358)"
        " and (333, 387)) and one shows five (at (439, 196))",
    ),
}
"""DEV photos whose label is wrong, as the photo shows them and why: each was looked at, die by die. Reported as
WRONG, a right reading cost the next reader of the tally a look at the photo."""


class Refused(SystemExit):
    """A set or a change the DEV half may not read or try: say which and why."""


@dataclass(frozen=True)
class Roll:
    set: str
    index: int
    """A seed (stress, wooden, render) or a photo's place among its folder's photos sorted by name."""


def parse_set(spec: str, data: Path) -> list[Roll]:
    """``NAME`` or ``NAME:FIRST-LAST`` (both included) as rolls; measuring data refused."""
    name, _, span = spec.partition(":")
    if name == "photos":
        if span:
            raise Refused("photos takes no range: it is all of dice-photos/train")
        return [Roll("photos", i) for i in range(len(_photos(data, "photos")))]
    if name not in DEV:
        raise Refused(f"unknown set {name!r}: one of {', '.join([*DEV, 'photos'])}")
    indices = DEV[name]
    if span:
        given = re.fullmatch(r"(\d+)-(\d+)", span)
        if not given or int(given[1]) > int(given[2]):
            example = f"{name}:{DEV[name].start}-{DEV[name].start + 9}"
            raise Refused(f"{spec!r}: give the range as FIRST-LAST, FIRST no more than LAST, e.g. {example}")
        indices = range(int(given[1]), int(given[2]) + 1)
    allowed = ALLOWED[name]
    if indices.start < allowed.start or indices.stop > allowed.stop:
        raise Refused(
            f"{spec!r} leaves {name}'s DEV data ({allowed.start}-{allowed.stop - 1}): the rest is the bench's measuring"
            " data, or none at all; never tune on it"
        )
    if name == "byler":
        _photos(data, "byler")  # refused here, not in a worker, if they are not there
    return [Roll(name, i) for i in indices]


def _photos(data: Path, name: str) -> list[Path]:
    folder = data / FOLDERS[name]
    if not (folder / "labels.csv").is_file():
        raise Refused(f"no labelled photos in {folder}: pass --data (the folder holding {FOLDERS[name].split('/')[0]})")
    return [sample.image for sample in sorted(read_labels(folder), key=lambda s: s.image.name)]


def reader_constants(module: str = "reader") -> dict[str, int | float]:
    """The numeric constants a module of ``fantan_table.vision`` (the reader's own, unless another is named) defines
    at its top level and reads when it runs: not those it imports (setting its copy would not reach the module they
    belong to) nor those used as default arguments (fixed when the function was defined)."""
    source = VISION / f"{module}.py"
    if not module.isidentifier() or not source.is_file():
        modules = ", ".join(sorted(p.stem for p in VISION.glob("*.py") if not p.stem.startswith("_")))
        raise Refused(f"{module!r} is no module of the reader's: one of {modules}")
    owner = _owner(module)
    tree = ast.parse(source.read_text())
    defined = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and target.id.isupper()
    }
    defaults = {
        d.id
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        for d in [*node.args.defaults, *node.args.kw_defaults]
        if isinstance(d, ast.Name)
    }
    return {
        name: value
        for name in sorted(defined - defaults)
        if isinstance(value := getattr(owner, name), int | float) and not isinstance(value, bool)
    }


def _owner(module: str) -> ModuleType:
    return importlib.import_module(f"fantan_table.vision.{module}")


def _module_and_name(name: str) -> tuple[str, str]:
    """The module a constant ``--try`` names (``NAME`` is the reader's, ``MODULE.NAME`` another's) and its name."""
    module, _, constant = name.rpartition(".")
    return module or "reader", constant


def _split(name: str) -> tuple[ModuleType, str]:
    """As ``_module_and_name``, the module imported."""
    module, constant = _module_and_name(name)
    return _owner(module), constant


def parse_try(spec: str) -> tuple[str, int | float]:
    """``NAME=VALUE`` (a constant of the reader's) or ``MODULE.NAME=VALUE`` (of another module of the reader's, e.g.
    ``slant.FAR_SIDE=0.4``) for one of ``reader_constants``, the value of the constant's own type."""
    name, _, text = spec.partition("=")
    module, constant = _module_and_name(name)
    constants = reader_constants(module)
    if constant not in constants:
        raise Refused(f"{name!r} is not one of {module}'s own numeric constants: {', '.join(constants)}")
    current = constants[constant]
    try:
        value = float(text)
    except ValueError:
        raise Refused(f"{spec!r}: the value must be a number, as {name}={current}") from None
    if isinstance(current, int):
        if not value.is_integer():
            raise Refused(f"{spec!r}: {name} is a whole number ({current})")
        return name, int(value)
    return name, value


def pictures(roll: Roll, data: Path) -> Iterator[tuple[str, np.ndarray, tuple[int, ...]]]:
    """(label, picture, truth) of a roll (one picture; an iterator so a roll that is no picture could yield none)."""
    if roll.index not in ALLOWED.get(roll.set, range(roll.index + 1)):
        raise Refused(f"{roll} is not DEV data")  # parse_set refuses it first; this guards every other caller
    if roll.set in ("stress", "wooden", "steep"):
        stressed = stress_scene(roll.index, wooden=roll.set == "wooden", steep=roll.set == "steep")
        yield f"{roll.set} {roll.index}", stressed.image, tuple(stressed.values)
    elif roll.set == "render":
        values = random_faces(np.random.default_rng([roll.index - RENDER_SEED, 7]), 4, FACES)
        rendered = render_scene(values, roll.index)
        yield f"render {roll.index}", rendered.image, tuple(rendered.values)
    else:
        folder = data / FOLDERS[roll.set]
        sample = sorted(read_labels(folder), key=lambda s: s.image.name)[roll.index]
        picture = cv2.imread(str(sample.image))
        if picture is None:
            raise OSError(f"cannot read {sample.image}: is the photo there and whole?")
        truth = RELABELLED[sample.image.name][0] if sample.image.name in RELABELLED else tuple(sample.values)
        yield f"{roll.set} {sample.image.name}", picture, truth


def state(reading: reader.Reading, truth: tuple[int, ...]) -> str:
    if reading.status is not reader.Status.OK:
        return "unsure"
    return "right" if sorted(reading.values) == sorted(truth) else "WRONG"


def parse_network(path: Path) -> Path:
    """A faces network or a die finder to try in place of the built-in one of its file name; refused if it is
    none, or unusable."""
    names = [p.name for p in BUILTIN_PATHS] + [FINDER_PATH.name]
    if path.name not in names:
        raise Refused(f"{path}: a network tried takes the place of the built-in one of its name: one of {names}")
    try:
        (DiceFinder.load if path.name == FINDER_PATH.name else CnnFaceModel.load)(path)
    except (FaceModelError, FinderError) as exc:
        raise Refused(str(exc)) from None
    return path


@cache
def tried_finder(path: Path) -> DiceFinder:
    """The die finder at ``path``, loaded once a worker."""
    return DiceFinder.load(path)


@cache
def tried_classifier(network: Path) -> CnnEnsemble:
    """The built-in networks, with ``network`` in place of the one of its file name."""
    return CnnEnsemble(tuple(CnnFaceModel.load(network if p.name == network.name else p) for p in BUILTIN_PATHS))


@dataclass(frozen=True)
class _Job:
    data: Path
    count: bool
    change: tuple[str, int | float, int | float] | None
    """A constant's name, its value as it is, and as tried (``--try``): each picture is read with both."""
    network: Path | None = None
    """A faces network or die finder tried in place of the built-in one of its name (``--network``): read with
    both."""
    perturb: str | None = None
    """How every picture is changed before it is read (``PERTURBATIONS``), or None: as it is."""

    def variants(self) -> list[Callable[[], None]]:
        """What to set before each reading of a picture: the reader as it is, then as tried (if anything is)."""
        if self.change:
            owner, name = _split(self.change[0])
            return [partial(setattr, owner, name, value) for value in self.change[1:]]
        if self.network and self.network.name == FINDER_PATH.name:
            return [_finding(finder.builtin_finder()), _finding(tried_finder(self.network))]
        if self.network:
            return [_asking(classifier.builtin_model()), _asking(tried_classifier(self.network))]
        return [lambda: None]

    def restore(self) -> None:
        """The reader as it was, for a process that reads on."""
        if self.change:
            setattr(*_split(self.change[0]), self.change[1])
        setattr(reader, "builtin_model", classifier.builtin_model)  # noqa: B010  (mypy: reader does not export it)
        setattr(reader, "builtin_finder", finder.builtin_finder)  # noqa: B010


def _asking(model: classifier.FaceReader) -> Callable[[], None]:
    """Sets the reader's built-in classifier to ``model``."""
    return partial(setattr, reader, "builtin_model", lambda: model)


def _finding(found_by: DiceFinder) -> Callable[[], None]:
    """Sets the reader's built-in die finder to ``found_by``."""
    return partial(setattr, reader, "builtin_finder", lambda: found_by)


_job: _Job | None = None


def _start(job: _Job) -> None:
    global _job
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the pool
    cv2.setNumThreads(1)  # one core a worker, as the table's reader runs
    _job = job


Seen = tuple[str, tuple[int, ...], str]
"""A roll's state (right, unsure or WRONG), the values read and the reader's message."""
Read = tuple[list[tuple[str, tuple[int, ...], list[Seen]]], int]
"""A roll's pictures (label, truth, readings) and how many of its readings failed on a bug."""


def _read(roll: Roll) -> Read:
    """Each picture's readings (one, or as it is and as tried) and how many readings failed on a bug."""
    assert _job is not None, "a worker reads only once _start has run"
    failed = sum(reader.FAILURES.values())
    out = []
    for label, picture, truth in pictures(roll, _job.data):
        if _job.perturb is not None:
            picture = PERTURBATIONS[_job.perturb](picture)
        expect = len(truth) if _job.count else None
        readings: list[Seen] = []
        for apply in _job.variants():
            apply()
            r = reader.read_dice(picture, None, expect)
            readings.append((state(r, truth), r.values, r.message))
        out.append((label, truth, readings))
    return out, sum(reader.FAILURES.values()) - failed


def _results(rolls: list[Roll], job: _Job, procs: int) -> Iterator[Read]:
    """Each roll's readings, in order: read here one by one for ``procs`` 1, else by that many worker processes.
    Workers are spawned, not forked: a fork copies whatever locks the parent's threads hold (a test run's, say) and
    can hang on them."""
    global _job
    if procs <= 1:
        _job = job
        try:
            yield from map(_read, rolls)
        finally:
            _job = None
            job.restore()  # this process reads on with the reader as it was
        return
    with multiprocessing.get_context("spawn").Pool(procs, _start, (job,)) as pool:
        yield from pool.imap(_read, rolls, chunksize=4)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--set", action="append", dest="sets", metavar="NAME[:FIRST-LAST]", help=f"default: {', '.join(DEFAULT_SETS)}"
    )
    parser.add_argument(
        "--try", dest="change", metavar="[MODULE.]NAME=VALUE", help="another value of a constant of the reader's"
    )
    parser.add_argument(
        "--network",
        type=Path,
        metavar="ONNX",
        help="a faces network or die finder in place of the built-in one of its name",
    )
    parser.add_argument("--no-count", action="store_true", help="read without saying how many dice")
    parser.add_argument("--perturb", choices=PERTURBATIONS, help="change every picture so before reading it")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--procs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    if args.change and args.network:
        raise Refused("--try and --network each make a reading to compare with the reader as it is: give one")
    rolls = [roll for spec in (args.sets or DEFAULT_SETS) for roll in parse_set(spec, args.data)]
    change = None
    if args.change:
        name, value = parse_try(args.change)
        change = (name, getattr(*_split(name)), value)
    network = parse_network(args.network) if args.network else None
    tried = change is not None or network is not None
    tally: Counter[tuple[str, str, str]] = Counter()
    failed = 0
    job = _Job(args.data, not args.no_count, change, network, args.perturb)
    with tqdm(total=len(rolls), unit="roll", file=sys.stderr) as bar:
        try:
            for results, failures in _results(rolls, job, args.procs):
                bar.update()
                failed += failures
                for label, truth, readings in results:
                    before, after = readings[0], readings[-1]
                    tally[(label.split()[0], before[0], after[0])] += 1
                    if tried and (before[0] != after[0] or sorted(before[1]) != sorted(after[1])):
                        tqdm.write(
                            f"CHANGE {label} {truth}: {before[0]} {before[1]} -> {after[0]} {after[1]} {after[2]}"
                        )
                    elif after[0] == "WRONG":
                        tqdm.write(f"WRONG {label} {truth}: read {after[1]}")
        except KeyboardInterrupt:  # the pool, if any, is stopped on the way out of _results
            print(f"stopped after {bar.n} of {len(rolls)} rolls; the tally so far:")
    for (set_name, was, now), n in sorted(tally.items()):
        print(f"{set_name:7} {was:6}" + (f" -> {now:6}" if tried else "") + f" {n:6}")
    if failed:
        print(
            f"{failed} readings failed on a bug (logged above): the tally does not measure the reader", file=sys.stderr
        )
        return 1
    return 130 if bar.n < len(rolls) else 0


if __name__ == "__main__":
    sys.exit(main())
