"""Compare the faces models on the DEV data: which one ``classifier.builtin_model()`` should be.

    python tools/faces_dev_report.py [--cache DIR] [--data ../shared/data]

For each DEV set (``fantan_table.vision.cnn_data``: render.py seeds 600000-600299, stress seeds from 1.7e9,
byler's photos 121-150, the last two also at the learned finder's boxes): per-die accuracy on all of it, and the
reliability rows (among dice whose best class has probability >= c, the share right) on its second half, which no
temperature was fitted on. The numpy model is shown as shipped and with its temperature fitted on the DEV first
half as the networks' were; then each built-in network, and the networks asked together as the reader does. Also
the time per die, one die per call, one core. Never run on the bench's measuring data.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from fantan_table.vision.classifier import BUILTIN_PATH as NUMPY_PATH
from fantan_table.vision.classifier import (
    RELIABILITY_LEVELS,
    FaceClassifier,
    FaceModel,
    FaceReader,
    fit_temperature,
    reliability,
)
from fantan_table.vision.cnn import BUILTIN_PATHS, CnnEnsemble, CnnFaceModel
from fantan_table.vision.cnn_data import DevSet, class_indices, dev_from_arrays, dev_sets

ROOT = Path(__file__).resolve().parent.parent
TIMED_DICE = 500


def load_dev(cache: Path | None, data: Path) -> list[DevSet]:
    """The DEV sets, from ``cache/dev.npz`` (written by ``train_faces_cnn.py --cache``) when it is there."""
    if cache is not None and (cache / "dev.npz").is_file():
        with np.load(cache / "dev.npz", allow_pickle=False) as stored:
            return dev_from_arrays({key: stored[key] for key in stored.files})
    return dev_sets(data)


def fitted_on_dev(model: FaceClassifier, dev: list[DevSet]) -> FaceClassifier:
    crops = np.concatenate([d.half(True)[0] for d in dev])
    labels = [label for d in dev for label in d.half(True)[1]]
    return fit_temperature(model, crops, labels)


def report(name: str, model: FaceReader, dev: list[DevSet]) -> None:
    print(f"\n{name}")
    for d in dev:
        right = model.probabilities(d.crops).argmax(axis=1) == class_indices(d.labels)
        faces = np.array([label is not None for label in d.labels])
        crops, labels = d.half(False)
        rows = reliability(model.probabilities(crops), labels, RELIABILITY_LEVELS)
        shown = ", ".join(f">={r.threshold}: {r.right}/{r.count} {100 * r.accuracy:.2f}%" for r in rows)
        print(
            f"  {d.name}: {len(right)} crops, accuracy {100 * right.mean():.2f}% "
            f"(faces {100 * right[faces].mean():.2f}%); reliability on the 2nd half: {shown}"
        )
    cv2.setNumThreads(1)
    crops = np.concatenate([d.crops for d in dev])[:TIMED_DICE]
    model.probabilities(crops[:1])
    start = time.perf_counter()
    for crop in crops:
        model.probabilities(crop[None])
    print(f"  {1000 * (time.perf_counter() - start) / len(crops):.3f} ms per die, one die per call, one core")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args()
    dev = load_dev(args.cache, args.data)
    numpy_model = FaceModel.load(NUMPY_PATH)
    print("DEV sets: " + ", ".join(f"{d.name} {len(d.labels)} crops" for d in dev))
    print("(the numpy model was trained on byler's first 150 photos: 121-150 are not unseen for it)")
    report("numpy model as shipped", numpy_model, dev)
    fitted = fitted_on_dev(numpy_model, dev)
    report(f"numpy model, temperature fitted on the DEV first half ({fitted.temperature:.3f})", fitted, dev)
    for path in BUILTIN_PATHS:
        network = CnnFaceModel.load(path)
        report(f"convolutional network {path.name} (temperature {network.temperature:.3f})", network, dev)
    report("the built-in networks asked together (the reader's classifier)", CnnEnsemble.load(BUILTIN_PATHS), dev)
    return 0


if __name__ == "__main__":
    sys.exit(main())
