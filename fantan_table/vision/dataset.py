"""Labelled sets of dice pictures: a folder with ``labels.csv`` (``image,values``), values space-separated, and
perhaps ``boxes.json`` saying where each die lies.

The same format is written by ``fantan-table render``, read by ``eval`` and by calibration.
"""

from __future__ import annotations

import csv
import json
import math
import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..durable import write_durably
from ..errors import FantanError

LABELS = "labels.csv"
BOXES = "boxes.json"
LabelledBox = tuple[tuple[float, float, float, float], int]
"""An upright box round what shows of a die, (x0, y0, x1, y1) in pixels, and the value it shows."""
ROLL_NAME = re.compile(r"roll_(\d+)\.jpg")


class DatasetError(FantanError, ValueError):
    """A labelled set that cannot be used; the message says which file and line, and what to fix."""


@dataclass(frozen=True)
class Sample:
    image: Path
    values: tuple[int, ...]


def read_labels(folder: Path, allow_empty: bool = False) -> list[Sample]:
    path = folder / LABELS
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:  # -sig: a spreadsheet's "CSV UTF-8" starts with a BOM
            rows = list(csv.reader(f))
    except FileNotFoundError:
        raise DatasetError(
            f"{path}: not found; a labelled set needs a labels.csv with the header image,values"
        ) from None
    if not rows or [c.strip() for c in rows[0]] != ["image", "values"]:
        raise DatasetError(f"{path}: the first line must be the header image,values")
    samples = []
    for number, row in enumerate(rows[1:], start=2):
        if not row or not "".join(row).strip():
            continue
        if len(row) != 2:
            raise DatasetError(f"{path}, line {number}: expected two fields, image and values (got {len(row)})")
        name, values = row[0].strip(), row[1].split()
        try:
            numbers = tuple(int(v) for v in values)
        except ValueError:
            raise DatasetError(
                f"{path}, line {number}: values must be whole numbers separated by spaces (got {row[1]!r})"
            ) from None
        if any(not 0 <= v <= 6 for v in numbers):
            raise DatasetError(f"{path}, line {number}: a die shows 0 to 6 (got {row[1]!r})")
        image = folder / name
        if not image.is_file():
            raise DatasetError(f"{path}, line {number}: the picture {name} is not in {folder}")
        samples.append(Sample(image, numbers))
    if not samples and not allow_empty:
        raise DatasetError(f"{path}: no labelled pictures in it")
    return samples


def read_boxes(folder: Path) -> dict[str, list[LabelledBox]]:
    """``boxes.json``: picture name -> each die's box and value, as the shared sets and ``render`` write it:
    ``{"name.jpg": [{"value": 3, "box": [x0, y0, x1, y1]}, ...]}``."""
    path = folder / BOXES
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"{path}: not found; it says where each die of labels.csv lies") from None
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{path}: cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict):
        raise DatasetError(f'{path}: must map each picture\'s name to a list of its dice, {{"name.jpg": [...]}}')
    boxes = {}
    for name, dice in data.items():
        if not isinstance(dice, list):
            raise DatasetError(f"{path}, {name}: must be a list of the picture's dice")
        boxes[name] = [_labelled_box(die, f"{path}, {name}, die {number}") for number, die in enumerate(dice, 1)]
    return boxes


def _labelled_box(die: object, where: str) -> LabelledBox:
    shape = '{"value": 3, "box": [x0, y0, x1, y1]}'
    if not isinstance(die, dict) or not {"value", "box"} <= set(die):
        raise DatasetError(f"{where}: must be like {shape}")
    value, corners = die["value"], die["box"]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 6:
        raise DatasetError(f"{where}: the value must be a whole number 0 to 6 (got {value!r})")
    if (
        not isinstance(corners, list)
        or len(corners) != 4
        or not all(isinstance(c, int | float) and not isinstance(c, bool) and math.isfinite(c) for c in corners)
    ):
        raise DatasetError(f"{where}: the box must be four numbers, x0, y0, x1, y1 in pixels (got {corners!r})")
    x0, y0, x1, y1 = (float(c) for c in corners)
    if not (x0 < x1 and y0 < y1):
        raise DatasetError(f"{where}: the box's corners must be left-top, then right-bottom (got {corners!r})")
    return (x0, y0, x1, y1), value


def boxes_of(folder: Path, samples: Sequence[Sample]) -> dict[str, list[LabelledBox]]:
    """Where the dice of a labelled set's pictures lie, if the set has a ``boxes.json`` ({} where it has none). A
    picture's boxes must show its labelled values: otherwise one file or the other is wrong."""
    if not (folder / BOXES).exists():
        return {}
    boxes = read_boxes(folder)
    for sample in samples:
        boxed = boxes.get(sample.image.name)
        if boxed is not None and Counter(value for _, value in boxed) != Counter(sample.values):
            shown = " ".join(str(value) for _, value in boxed) or "no dice"
            raise DatasetError(
                f"{folder / BOXES}: {sample.image.name} has boxes of {shown}, but {LABELS} says "
                f"{' '.join(map(str, sample.values))}: correct one of them"
            )
    return boxes


def write_labels(folder: Path, samples: list[tuple[str, tuple[int, ...]]]) -> Path:
    path = folder / LABELS
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["image", "values"])
        for name, values in samples:
            writer.writerow([name, " ".join(map(str, values))])
    return path


class RollFolder:
    """A labelled set being captured: each roll's picture and values are on disk before ``add`` returns.

    Pictures are named ``roll_NNN.jpg`` after the highest number already there, so capturing again (at
    the prompt or on the web page) adds to a set; a power cut leaves at worst a picture without its line,
    which ``read_labels`` never sees.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        folder.mkdir(parents=True, exist_ok=True)
        labels = folder / LABELS
        if not labels.exists():
            write_durably(labels, b"image,values\n")
        self.samples: list[tuple[str, tuple[int, ...]]] = [
            (s.image.name, s.values) for s in read_labels(folder, allow_empty=True)
        ]
        numbers = [int(m.group(1)) for p in folder.glob("roll_*.jpg") if (m := ROLL_NAME.fullmatch(p.name))]
        self._last = max(numbers, default=0)

    def add(self, frame: np.ndarray, values: tuple[int, ...]) -> str:
        if not values or any(not 0 <= v <= 6 for v in values):
            raise DatasetError(f"each die shows 0 to 6 (got {' '.join(map(str, values)) or 'nothing'})")
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
        if not ok:
            raise DatasetError("the camera's frame could not be encoded as JPEG")
        with self._lock:
            self._last += 1
            name = f"roll_{self._last:03d}.jpg"
            write_durably(self.folder / name, jpeg.tobytes())
            self.samples.append((name, values))
            self._save_labels()
        return name

    def remove(self, name: str) -> None:
        """Take a roll back out of the set (its values were typed wrong); its picture is deleted."""
        with self._lock:
            if name not in {n for n, _ in self.samples}:
                raise DatasetError(f"{name} is not in {self.folder / LABELS}")
            self.samples = [(n, v) for n, v in self.samples if n != name]
            self._save_labels()
            (self.folder / name).unlink(missing_ok=True)

    def _save_labels(self) -> None:
        lines = ["image,values"] + [f"{n},{' '.join(map(str, v))}" for n, v in self.samples]
        write_durably(self.folder / LABELS, ("\n".join(lines) + "\n").encode())
