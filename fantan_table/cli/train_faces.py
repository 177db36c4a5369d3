"""``fantan-table train-faces``: rebuild the faces classifier from synthetic scenes and the shared real photos."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from tqdm import tqdm

from ..vision.classifier import BUILTIN_PATH, reliability
from ..vision.profile import load_profile
from ..vision.train import builtin_examples, describe, fit
from .common import UsageError

PHOTOS_PROFILE = Path(__file__).resolve().parents[2] / "calibration" / "profiles" / "dice-photos"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("train-faces", help="train the dice faces classifier", description=__doc__)
    p.add_argument(
        "--data",
        type=Path,
        default=Path("../shared/data"),
        metavar="DIR",
        help="the folder holding dice-photos/ and dice-photos-byler/ (default ../shared/data)",
    )
    p.add_argument("--out", type=Path, default=BUILTIN_PATH, metavar="FILE", help="where to save the model")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="the same seed trains the same model")
    p.add_argument("--scenes", type=int, default=1500, metavar="N", help="synthetic scenes (default 1500)")
    p.add_argument("--variants", type=int, default=4, metavar="K", help="roughened copies of each real photo")
    p.add_argument(
        "--photos-profile",
        type=Path,
        default=PHOTOS_PROFILE,
        metavar="DIR",
        help="the reader profile that finds the dice in dice-photos/train",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for folder in ("dice-photos/train", "dice-photos-byler/train"):
        if not (args.data / folder / "boxes.json").is_file():
            raise UsageError(f"no {folder}/boxes.json under {args.data}: give the shared data folder with --data")
    if args.scenes < 10 or args.variants < 1:
        raise UsageError("--scenes must be at least 10 and --variants at least 1")
    examples = builtin_examples(
        args.seed,
        args.data,
        load_profile(args.photos_profile),
        args.scenes,
        args.variants,
        lambda step: print(step, file=sys.stderr),
    )
    print(f"{len(examples)} crops; training", file=sys.stderr)
    with tqdm(total=1, desc="training", unit="epoch", disable=None, file=sys.stderr) as bar:

        def advance(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        model, aside = fit(examples, seed=args.seed, progress=advance)
    model = model.with_info(**describe(args.data, args.scenes, args.variants))
    model.save(args.out)
    probabilities = model.probabilities(np.stack([e.crop for e in aside]))
    print(f"saved {args.out} (temperature {model.temperature:.2f}); held-aside reliability:")
    for row in reliability(probabilities, [e.label for e in aside]):
        print(f"  confidence >= {row.threshold}: {row.count} crops, {row.accuracy:.2%} right")
    return 0
