"""Calibrate on half of a labelled DEV folder, read the other half with the profile tuned, then the other way round:
which photos the calibrated reader reads ok and wrong.

    python tools/calibrated_dev_folds.py                   # dice-photos train, without the count, as make bench
    python tools/calibrated_dev_folds.py --count           # each photo's number of dice given
    python tools/calibrated_dev_folds.py --folder PATH     # another labelled folder (labels.csv)

``make bench`` measures the calibrated reader on photos no change may be tuned on: dice-photos ``valid`` (calibrated
on ``train``) and byler's last 50 (calibrated on its first 150). This is the DEV half for that path, as
``reader_dev_ab.py`` is for the built-in profile. The folder's photos are split in two by name (every other one),
each half calibrates a profile (``fantan-table calibrate``'s search), and that profile reads the other half. Both
halves run at once, one process each. A measured folder (dice-photos ``valid``, byler's folder) is refused.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
from reader_dev_ab import state  # a roll's state, as the built-in profile's DEV half tells it

from fantan_table.vision.calibrate import CalibrationError, Picture, calibrate
from fantan_table.vision.dataset import DatasetError, read_labels
from fantan_table.vision.profile import Profile
from fantan_table.vision.reader import read_dice

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
MEASURED = ("dice-photos/valid", "dice-photos-byler/train")
"""Folders (under the data folder) that ``make bench`` measures on: byler's holds its last 50 measured photos."""
HALVES = 2


class Refused(SystemExit):
    """A folder this tool may not read, or cannot calibrate on: say which and why."""


@dataclass(frozen=True)
class Read:
    """One photo read by the profile calibrated on the other half."""

    name: str
    truth: tuple[int, ...]
    status: str
    """``right``, ``unsure`` or ``WRONG`` (read ok, values not the truth's, in any order)."""
    values: tuple[int, ...]
    message: str


def checked_folder(folder: Path, data: Path = DATA) -> Path:
    """``folder``, unless ``make bench`` measures on it."""
    for measured in MEASURED:
        if folder.resolve() == (data / measured).resolve():
            raise Refused(f"{folder}: make bench measures on it; never tune on it")
    return folder


def halves(folder: Path) -> list[list[Picture]]:
    """The folder's labelled photos in name order, dealt into ``HALVES`` parts like cards."""
    samples = sorted(read_labels(folder), key=lambda s: s.image.name)
    pictures = [Picture(s.image.name, cv2.imread(str(s.image)), s.values) for s in samples]
    return [pictures[k::HALVES] for k in range(HALVES)]


def read_half(job: tuple[int, list[Picture], list[Picture], bool]) -> list[Read]:
    """Calibrate on the first pictures, read the second with the profile tuned (each with its count if asked), and
    say how far it got on stderr (a half takes minutes)."""
    half, tune, measure, count = job
    cv2.setNumThreads(1)

    def say(step: str) -> None:
        print(f"half {half + 1} of {HALVES}: {step}", file=sys.stderr, flush=True)

    profile = calibrate(tune, Profile(), None, progress=say).profile
    say(f"reading its {len(measure)} photos")
    reads = []
    for picture in measure:
        reading = read_dice(picture.frame, profile, len(picture.values) if count else None)
        reads.append(
            Read(picture.name, picture.values, state(reading, picture.values), reading.values, reading.message)
        )
    return reads


def folds(folder: Path, count: bool, parallel: bool = True) -> list[Read]:
    """Every photo of ``folder`` read once, by the profile calibrated on the half it is not in (``parallel``: each
    half in a process of its own)."""
    parts = halves(folder)
    jobs = [(k, [p for j, part in enumerate(parts) if j != k for p in part], parts[k], count) for k in range(HALVES)]
    if not parallel:
        return [read for job in jobs for read in read_half(job)]
    with multiprocessing.get_context("spawn").Pool(HALVES) as pool:
        return [read for reads in pool.map(read_half, jobs) for read in reads]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, default=DATA / "dice-photos" / "train")
    parser.add_argument(
        "--count",
        action="store_true",
        help="read each photo with its number of dice given, as a game does (calibrated without, as in make bench)",
    )
    parser.add_argument("--data", type=Path, default=DATA, help="where the measured folders lie")
    args = parser.parse_args(argv)
    try:
        reads = folds(checked_folder(args.folder, args.data), args.count)
    except DatasetError as error:  # no labels.csv, or a bad one
        raise Refused(str(error)) from None
    except CalibrationError as error:  # too few photos in a half: say so, not a worker's traceback
        raise Refused(f"{args.folder}, half of it: {error}") from None
    for read in reads:
        if read.status != "right":
            print(f"{read.status} {read.name} {read.truth}: read {read.values} {read.message}".rstrip())
    tally = Counter(read.status for read in reads)
    ok = tally["right"] + tally["WRONG"]
    print(", ".join(f"{status} {tally[status]}" for status in ("right", "unsure", "WRONG")))
    print(f"wrong when ok: {tally['WRONG'] / ok:.2%} ({tally['WRONG']} of {ok})" if ok else "none read ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
