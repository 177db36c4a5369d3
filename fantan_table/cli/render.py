"""``fantan-table render``: write a labelled set of synthetic dice pictures (labels.csv, truth.json, PNGs)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from ..vision.dataset import write_labels
from ..vision.render import STYLE_CHOICES, random_faces, render_scene
from .common import UsageError

FACE_SETS = {"piecepack": (0, 1, 2, 3, 4, 5), "d6": (1, 2, 3, 4, 5, 6), "any": (0, 1, 2, 3, 4, 5, 6)}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="write a labelled set of synthetic dice pictures", description=__doc__)
    p.add_argument("--out", type=Path, required=True, metavar="DIR")
    p.add_argument("--n", type=int, required=True, metavar="N", help="how many pictures")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the same seed writes the same set")
    p.add_argument("--style", choices=STYLE_CHOICES, default="mixed", help="die colours (default: mixed)")
    p.add_argument("--faces", choices=sorted(FACE_SETS), default="piecepack", help="values the dice show")
    p.add_argument("--dice", type=int, default=4, metavar="K", help="dice in each picture (default 4)")
    p.add_argument("--size", default="1280x960", metavar="WxH", help="picture size (default 1280x960)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size is WIDTHxHEIGHT, like 1280x960 (got {args.size!r})") from None
    if args.n < 1 or not 1 <= args.dice <= 12 or width < 160 or height < 120:
        raise UsageError("--n must be at least 1, --dice 1 to 12, and --size at least 160x120")
    if args.style == "piecepack" and args.faces != "piecepack":
        raise UsageError("--style piecepack draws real piecepack dice, whose faces are 0 to 5: use --faces piecepack")
    args.out.mkdir(parents=True, exist_ok=True)
    labels, truth = [], {}
    for i in tqdm(range(args.n), desc="rendering", unit="picture", disable=None, file=sys.stderr):
        seed = args.seed * 1_000_003 + i
        values = random_faces(np.random.default_rng([seed, 1]), args.dice, FACE_SETS[args.faces])
        try:
            scene = render_scene(values, seed, size=(width, height), style=args.style)
        except RuntimeError as exc:
            raise UsageError(f"{exc}; use fewer --dice or a larger --size") from None
        name = f"scene_{i + 1:04d}.png"
        cv2.imwrite(str(args.out / name), scene.image)
        labels.append((name, scene.values))
        truth[name] = {
            "surface": scene.surface,
            "touching": scene.touching,
            "distractors": scene.distractors,
            "dice": [
                {
                    "value": d.value,
                    "center": [round(c, 1) for c in d.center],
                    "side": round(d.side, 1),
                    "style": d.style,
                }
                for d in scene.dice
            ],
        }
    write_labels(args.out, labels)
    (args.out / "truth.json").write_text(json.dumps(truth, indent=1))
    print(f"wrote {args.n} pictures and labels.csv to {args.out}")
    return 0
