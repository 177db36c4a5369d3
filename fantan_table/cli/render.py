"""``fantan-table render``: write a labelled set of synthetic dice pictures (labels.csv, boxes.json, truth.json, PNGs).

boxes.json is the shared datasets' format (where each die lies: ``eval`` judges each die's confidence by it).
``--style stress`` draws the hard set (``vision/stress.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from ..vision.dataset import write_labels
from ..vision.render import STYLE_CHOICES, random_faces, render_scene
from ..vision.stress import StressScene, stress_scene
from .common import UsageError, output_folder

FACE_SETS = {"piecepack": (0, 1, 2, 3, 4, 5), "d6": (1, 2, 3, 4, 5, 6), "any": (0, 1, 2, 3, 4, 5, 6)}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="write a labelled set of synthetic dice pictures", description=__doc__)
    p.add_argument("--out", type=Path, required=True, metavar="DIR")
    p.add_argument("--n", type=int, required=True, metavar="N", help="how many pictures")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the same seed writes the same set")
    p.add_argument(
        "--style",
        choices=(*STYLE_CHOICES, "stress", "stress-wooden", "stress-steep"),
        default="mixed",
        help="die colours (default: mixed); stress: the hard set (camera, light, tables, clutter all vary);"
        " stress-wooden: the same with pipped dice of grained wood; stress-steep: the same through a camera"
        " 40-60 degrees off straight down",
    )
    p.add_argument(
        "--faces",
        choices=sorted(FACE_SETS),
        help="values the dice show (default piecepack: 0-5); for stress: pipped dice 0-6 unless given,"
        " and piecepack draws real piecepack dice",
    )
    p.add_argument("--dice", type=int, default=4, metavar="K", help="dice in each picture (default 4)")
    p.add_argument(
        "--size", metavar="WxH", help="picture size (default 1280x960; for stress, drawn from several sizes)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    size = _size(args.size)
    if args.n < 1 or not 1 <= args.dice <= 12 or (size is not None and (size[0] < 160 or size[1] < 120)):
        raise UsageError("--n must be at least 1, --dice 1 to 12, and --size at least 160x120")
    if args.style == "piecepack" and args.faces not in (None, "piecepack"):
        raise UsageError("--style piecepack draws real piecepack dice, whose faces are 0 to 5: use --faces piecepack")
    if args.style == "stress-wooden" and args.faces == "piecepack":
        raise UsageError("--style stress-wooden draws pipped dice of wood: use --faces d6 or any")
    output_folder(args.out, "--out")
    if args.style.startswith("stress"):
        return _run_stress(args, size)
    labels, boxes, truth = [], {}, {}
    for i in tqdm(range(args.n), desc="rendering", unit="picture", disable=None, file=sys.stderr):
        seed = args.seed * 1_000_003 + i
        values = random_faces(np.random.default_rng([seed, 1]), args.dice, FACE_SETS[args.faces or "piecepack"])
        try:
            scene = render_scene(values, seed, size=size or (1280, 960), style=args.style)
        except RuntimeError as exc:
            raise UsageError(f"{exc}; use fewer --dice or a larger --size") from None
        name = f"scene_{i + 1:04d}.png"
        cv2.imwrite(str(args.out / name), scene.image)
        labels.append((name, scene.values))
        boxes[name] = [{"value": d.value, "box": _upright_box(d.center, d.side, d.angle)} for d in scene.dice]
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
    (args.out / "boxes.json").write_text(json.dumps(boxes, indent=1))
    (args.out / "truth.json").write_text(json.dumps(truth, indent=1))
    print(f"wrote {args.n} pictures, labels.csv, boxes.json and truth.json to {args.out}")
    return 0


def _upright_box(center: tuple[float, float], side: float, degrees: float) -> list[float]:
    """x0, y0, x1, y1 round a top face of ``side`` turned by ``degrees``, as boxes.json holds a die."""
    turn = math.radians(degrees)
    half = side / 2 * (abs(math.cos(turn)) + abs(math.sin(turn)))
    x, y = center
    return [round(x - half, 1), round(y - half, 1), round(x + half, 1), round(y + half, 1)]


def _size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size is WIDTHxHEIGHT, like 1280x960 (got {text!r})") from None
    return width, height


def _run_stress(args: argparse.Namespace, size: tuple[int, int] | None) -> int:
    """Stress scenes with labels.csv (the dice wholly in the picture), boxes.json and truth.json (everything)."""
    faces = FACE_SETS[args.faces] if args.faces in ("d6", "any") else None
    labels, boxes, truth = [], {}, {}
    for i in tqdm(range(args.n), desc="rendering stress scenes", unit="picture", disable=None, file=sys.stderr):
        try:
            scene = stress_scene(
                args.seed * 1_000_003 + i,
                count=args.dice,
                size=size,
                piecepack=args.faces == "piecepack",
                faces=faces,
                wooden=args.style == "stress-wooden",
                steep=args.style == "stress-steep",
            )
        except RuntimeError as exc:
            raise UsageError(f"{exc}; use fewer --dice or a larger --size") from None
        name = f"scene_{i + 1:04d}.png"
        cv2.imwrite(str(args.out / name), scene.image)
        labels.append((name, scene.values))
        boxes[name] = [{"value": d.value, "box": list(d.box)} for d in scene.counted]
        truth[name] = _stress_truth(scene)
    write_labels(args.out, labels)
    (args.out / "boxes.json").write_text(json.dumps(boxes, indent=1))
    (args.out / "truth.json").write_text(json.dumps(truth, indent=1))
    print(f"wrote {args.n} stress pictures, labels.csv, boxes.json and truth.json to {args.out}")
    return 0


def _stress_truth(scene: StressScene) -> dict[str, object]:
    return {
        "seed": scene.seed,
        "table": scene.table,
        "tilt_deg": scene.tilt_deg,
        "fov_deg": scene.fov_deg,
        "light_elevation_deg": scene.light_elevation_deg,
        "blur": scene.blur,
        "noise": scene.noise,
        "jpeg_quality": scene.jpeg_quality,
        "touching": scene.touching,
        "distractors": [{"what": what, "box": list(box)} for what, box in scene.distractors],
        "dice": [
            {
                "value": d.value,
                "kind": d.kind,
                "body": d.body,
                "marks": d.marks,
                "pip_share": d.pip_share,
                "box": list(d.box),
                "top": [list(p) for p in d.top],
                "center": list(d.center),
                "top_box": [list(d.top_box[0]), list(d.top_box[1]), d.top_box[2]],
                "side_px": d.side_px,
                "side_faces": d.side_faces,
                "cut": d.cut,
                "gloss": d.gloss,
            }
            for d in scene.dice
        ],
    }
