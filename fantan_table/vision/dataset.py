"""Labelled sets of dice pictures: a folder with ``labels.csv`` (``image,values``), values space-separated.

The same format is written by ``fantan-table render``, read by ``eval`` and by calibration.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

LABELS = "labels.csv"


class DatasetError(ValueError):
    """A labelled set that cannot be used; the message says which file and line, and what to fix."""


@dataclass(frozen=True)
class Sample:
    image: Path
    values: tuple[int, ...]


def read_labels(folder: Path) -> list[Sample]:
    path = folder / LABELS
    try:
        with path.open(newline="", encoding="utf-8") as f:
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
    if not samples:
        raise DatasetError(f"{path}: no labelled pictures in it")
    return samples


def write_labels(folder: Path, samples: list[tuple[str, tuple[int, ...]]]) -> Path:
    path = folder / LABELS
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["image", "values"])
        for name, values in samples:
            writer.writerow([name, " ".join(map(str, values))])
    return path
