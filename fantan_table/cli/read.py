"""``fantan-table read``: read the dice in pictures, one line per picture.

Exit status: 0 when every picture was read ``ok``, 1 when any was ``unsure`` or an ``error``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2

from ..devices.camera import CameraError
from ..devices.camera.folder import read_picture
from ..vision.annotate import annotate
from ..vision.reader import Reading, Status, read_dice
from .common import UsageError, load_reader_profile, output_folder, print_json


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("read", help="read the dice in pictures", description=__doc__)
    p.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON object per picture")
    p.add_argument(
        "--expect",
        type=int,
        metavar="N",
        help="how many dice there should be (any other count is unsure); 0 or left out: it varies",
    )
    p.add_argument("--profile", type=Path, metavar="P", help="reader profile: a profile.toml or its folder")
    p.add_argument("--annotate", type=Path, metavar="DIR", help="write a picture of each reading here, dice outlined")
    p.set_defaults(run=run)


def reading_json(image: Path, reading: Reading, ms: float | None = None) -> dict[str, object]:
    out: dict[str, object] = {
        "image": str(image),
        "status": reading.status.value,
        "dice": [
            {
                "value": d.value,
                "center": [round(d.center[0], 1), round(d.center[1], 1)],
                "box": {"size": [round(d.box[1][0], 1), round(d.box[1][1], 1)], "angle": round(d.box[2], 1)},
                "confidence": d.confidence,
                **({"problem": d.problem} if d.problem else {}),
            }
            for d in reading.dice
        ],
        "total": reading.total,
        "open": reading.open_number,
        "message": reading.message,
    }
    if ms is not None:
        out["ms"] = round(ms, 2)
    return out


def _not_a_picture(path: Path) -> str:
    """Why ``path`` gives no picture to read, and what to give instead."""
    if path.is_dir():
        return f"cannot read {path}: a folder, not a picture; give the pictures in it, e.g. {path / '*.jpg'}"
    return f"cannot read {path}: no such file"


def run(args: argparse.Namespace) -> int:
    if args.expect is not None and args.expect < 0:
        raise UsageError(f"--expect {args.expect}: give the number of dice, or 0 if it varies")
    profile = load_reader_profile(args.profile)
    if args.annotate:
        output_folder(args.annotate, "--annotate")
    all_ok = True
    for image_path in args.images:
        try:
            frame = read_picture(image_path) if image_path.is_file() else None
            why = _not_a_picture(image_path)
        except CameraError as exc:  # it names the file and what is wrong with it
            frame, why = None, str(exc)
        if frame is None:
            reading, ms = Reading(Status.ERROR, (), why), None
        else:
            start = time.perf_counter()
            reading = read_dice(frame, profile, args.expect or None)  # 0: it varies, as for calibrate
            ms = (time.perf_counter() - start) * 1000
            if args.annotate:
                cv2.imwrite(str(args.annotate / f"{image_path.stem}_read.png"), annotate(frame, reading))
        all_ok &= reading.status is Status.OK
        if args.json:
            print_json(reading_json(image_path, reading, ms))
        else:
            values = " ".join("?" if d.value is None else str(d.value) for d in reading.dice) or "-"
            verdict = (
                f"total {reading.total}, open {reading.open_number}" if reading.status is Status.OK else reading.message
            )
            print(f"{image_path}: {reading.status.value}  dice {values}  {verdict}")
    return 0 if all_ok else 1
