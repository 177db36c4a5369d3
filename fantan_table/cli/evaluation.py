"""``fantan-table eval``: how well the reader reads a labelled set (a folder with labels.csv)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tqdm import tqdm

from ..devices.camera import CameraError
from ..devices.camera.folder import read_picture
from ..vision.dataset import BOXES, DatasetError, boxes_of, read_labels
from ..vision.evaluate import Outcome, Report, placed_dice, placed_reading
from ..vision.reader import Status, read_dice
from .common import UsageError, check_miscounted, load_reader_profile, print_json


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("eval", help="measure the reader on a labelled set", description=__doc__)
    p.add_argument("folder", type=Path, metavar="DIR", help="a folder with labels.csv (header image,values)")
    p.add_argument(
        "--expect", type=int, metavar="N", help="how many dice each picture should hold; 0 or left out: it varies"
    )
    p.add_argument("--profile", type=Path, metavar="P", help="reader profile: a profile.toml or its folder")
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.set_defaults(run=run)


def evaluate_folder(folder: Path, profile_path: Path | None, expect: int | None, progress: bool = True) -> Report:
    profile = load_reader_profile(profile_path)
    try:
        samples = read_labels(folder)
        boxes = boxes_of(folder, samples)  # where each die lies, if the set says
    except DatasetError as exc:
        raise UsageError(str(exc)) from None
    check_miscounted(samples, expect)
    report = Report()
    for sample in tqdm(
        samples, desc=f"reading {folder.name}", unit="picture", disable=not progress or None, file=sys.stderr
    ):
        try:
            frame = read_picture(sample.image)
        except CameraError as exc:
            raise UsageError(str(exc)) from None
        start = time.perf_counter()
        reading = read_dice(frame, profile, expect)
        ms = (time.perf_counter() - start) * 1000
        name = sample.image.name
        placed = placed_dice(boxes[name]) if name in boxes else None
        ok, found, read = reading.status is Status.OK, len(reading.dice), placed_reading(reading)
        report.add(Outcome(sample.values, reading.values, ok, ms, found, name, read, placed))
    return report


def run(args: argparse.Namespace) -> int:
    if args.expect is not None and args.expect < 0:  # as read refuses it: a negative count reads nothing ok
        raise UsageError(f"--expect {args.expect}: give the number of dice, or 0 if it varies")
    report = evaluate_folder(args.folder, args.profile, args.expect or None)  # 0: it varies, as for calibrate
    if args.json:
        print_json(report.as_json())
        return 0
    print(f"{args.folder}: {report.scenes} pictures, {report.dice} dice")
    print(f"  per-die accuracy   {report.per_die_accuracy:8.2%}")
    print(f"  exact scenes       {report.exact_scene_rate:8.2%}")
    print(f"  coverage (ok)      {report.coverage:8.2%}")
    print(f"  wrong when ok      {report.wrong_when_ok_rate:8.2%}   ({report.wrong_when_ok_evidence()})")
    print(f"  count errors       {report.count_errors:8d}")
    print(f"  ms per frame       {report.ms_mean:8.1f} mean, {report.ms_p95:.1f} p95")
    if report.placed:
        print(
            f"confidence of the dice read in the {report.placed_ok} pictures read ok of the {report.placed} whose dice"
            f" {BOXES} places (dice missed count in per-die accuracy only):"
        )
        for row in report.confidence_rows():
            doubt = "" if row.met else ": fewer right than the confidence claims"
            print(f"  read >= {row.level:<4g} sure: {row}{doubt}")
    print("confusion (rows true, columns read):")
    print(report.confusion_table())
    if report.wrong_names:
        print("read wrongly while sure: " + ", ".join(report.wrong_names[:20]))
    return 0
