"""A die's top face from its crop, by a small convolutional network (run as ``onnx_net`` says).

It reads the same normalised crops as the numpy model of ``classifier`` (``die_crop``: ink and colour distance,
marks positive) and gives the same calibrated probabilities over ``CLASSES``, so the reader can use either. A
convolution learns what a pip, a numeral or a tile's edge looks like anywhere in the crop, where the numpy model
sees only fixed cells of gradients; trained with heavy augmentation it carries over better to unseen dice.

The network is trained by ``tools/train_faces_cnn.py`` (PyTorch, the optional ``train`` extra) and exported to
ONNX; the table runs the file with ONNX Runtime, or with OpenCV's dnn module where that is missing (``onnx_net``).
A JSON file beside it (same name, ``.json``) holds the calibration temperature, how it was made, and the network's
SHA-256, so a network and a temperature fitted to another never go together.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np

from .classifier import CHANNELS, CLASSES, CROP_PX, RETRAIN_CNN_HINT, FaceModelError, softmax
from .onnx_net import OnnxNet, OnnxNetError

FORMAT_VERSION: Final = 1
"""Bumped whenever the crop, the network's input or output, or the JSON layout change."""
BOXES_PATH: Final = Path(__file__).parent / "models" / "faces-cnn-boxes.onnx"
"""The first built-in network: trained on crops at true and nudged boxes, and at the learned finder's boxes in 6,000
stress scenes (the boxes the reader reads)."""
MORE_BOXES_PATH: Final = BOXES_PATH.with_name("faces-cnn-boxes-12k.onnx")
"""The second: the same recipe from other seeds, with 12,000 stress scenes at the finder's boxes."""
BUILTIN_PATHS: Final = (BOXES_PATH, MORE_BOXES_PATH)
"""The networks the built-in classifier asks together (``CnnEnsemble``)."""
NO_PROBABILITY: Final = 1e-12
"""Probabilities are clipped to this before their logarithm: a network's outright zero is not a veto."""


def sidecar_of(path: Path) -> Path:
    """The JSON file beside a network: its temperature and how it was made."""
    return path.with_suffix(".json")


@dataclass(frozen=True)
class CnnFaceModel:
    """An ONNX network (``onnx_net``), with its calibration temperature.

    Every copy made by ``with_temperature`` shares the one network, which any thread may run: the owner thread
    reads dice, but a calibration run in a worker may classify at the same time.
    """

    onnx: bytes = field(repr=False)
    """The network as stored: kept so that ``save`` writes exactly what was loaded."""
    temperature: float = 1.0
    """Logits are divided by this before the softmax: fitted on held-aside data so probabilities are honest."""
    info: dict[str, str] = field(default_factory=dict, compare=False)
    _net: OnnxNet | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self._net is None:
            object.__setattr__(self, "_net", _read_net(self.onnx))

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """Raw scores (N, len(CLASSES)) before the temperature, from crops made by ``die_crop``."""
        x = np.asarray(crops, dtype=np.float32).reshape(-1, CROP_PX, CROP_PX, CHANNELS)
        if len(x) == 0:
            return np.zeros((0, len(CLASSES)), np.float64)
        blob = np.ascontiguousarray(x.transpose(0, 3, 1, 2))  # the network reads channels first
        assert self._net is not None  # made by __post_init__
        try:
            out = self._net.run(blob)
        except OnnxNetError as exc:
            raise FaceModelError(f"the faces network failed on {len(x)} crops ({exc})") from exc  # it ran once at load
        return np.asarray(out, dtype=np.float64).reshape(len(x), len(CLASSES))

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Calibrated probabilities (N, len(CLASSES)); each row sums to 1."""
        return softmax(self.logits(crops) / self.temperature)

    def with_temperature(self, temperature: float) -> CnnFaceModel:
        return CnnFaceModel(self.onnx, temperature, dict(self.info), self._net)

    def with_info(self, **info: str) -> CnnFaceModel:
        return CnnFaceModel(self.onnx, self.temperature, self.info | info, self._net)

    def save(self, path: Path) -> None:
        """The network to ``path`` and its JSON beside it, each replaced whole (a power cut leaves the old)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        sidecar = {
            "format_version": FORMAT_VERSION,
            "classes": [-1 if c is None else c for c in CLASSES],
            "input": [CHANNELS, CROP_PX, CROP_PX],
            "onnx_sha256": hashlib.sha256(self.onnx).hexdigest(),
            "temperature": self.temperature,
            "info": self.info,
        }
        for target, data in ((path, self.onnx), (sidecar_of(path), (json.dumps(sidecar, indent=1) + "\n").encode())):
            partial = target.with_name(target.name + ".partial")
            partial.write_bytes(data)
            partial.replace(target)

    @classmethod
    def load(cls, path: Path) -> CnnFaceModel:
        """The network at ``path`` with the JSON beside it; FaceModelError (saying how to retrain) if either is
        missing, unreadable, of another format, or not made for the other."""
        try:
            onnx = path.read_bytes()
            sidecar = json.loads(sidecar_of(path).read_text())
        except (OSError, ValueError) as exc:
            raise FaceModelError(f"cannot read the faces network {path} ({exc}); {RETRAIN_CNN_HINT}") from exc
        if not isinstance(sidecar, dict) or sidecar.get("format_version") != FORMAT_VERSION:
            version = sidecar.get("format_version") if isinstance(sidecar, dict) else None
            raise FaceModelError(
                f"the faces network {path} has format {version}, this version of fantan-table reads format "
                f"{FORMAT_VERSION}; {RETRAIN_CNN_HINT}"
            )
        classes = tuple(None if c < 0 else c for c in sidecar.get("classes", []))
        if classes != CLASSES or sidecar.get("input") != [CHANNELS, CROP_PX, CROP_PX]:
            raise FaceModelError(
                f"the faces network {path} has classes {classes} and input {sidecar.get('input')}, expected "
                f"{CLASSES} and {[CHANNELS, CROP_PX, CROP_PX]}; {RETRAIN_CNN_HINT}"
            )
        if sidecar.get("onnx_sha256") != hashlib.sha256(onnx).hexdigest():
            raise FaceModelError(
                f"the faces network {path} is not the one its {sidecar_of(path).name} was made for; {RETRAIN_CNN_HINT}"
            )
        try:
            return cls(onnx, float(sidecar["temperature"]), {str(k): str(v) for k, v in sidecar["info"].items()})
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FaceModelError(f"the faces network {path} is incomplete ({exc}); {RETRAIN_CNN_HINT}") from exc


def _read_net(onnx: bytes) -> OnnxNet:
    """The network made of ``onnx``, checked on one blank crop: one score per class."""
    try:
        net = OnnxNet(onnx)
        out = net.run(np.zeros((1, CHANNELS, CROP_PX, CROP_PX), np.float32))
    except OnnxNetError as exc:
        raise FaceModelError(f"the faces network cannot run ({exc}); {RETRAIN_CNN_HINT}") from exc
    if out.size != len(CLASSES):
        raise FaceModelError(
            f"the faces network gives {out.size} scores for a crop, not one per class ({len(CLASSES)}); "
            f"{RETRAIN_CNN_HINT}"
        )
    return net


@dataclass(frozen=True)
class CnnEnsemble:
    """Several networks read each crop, and the geometric mean of their calibrated probabilities is the answer.

    Networks trained on other data and from another start err on different crops: a face stands sure only where
    each gives it a high probability, so one network's confident mistake is tempered by the other's doubt. On
    the DEV scenes at the finder's boxes, the second built-in network alone let a wrong stress scene through that
    the two together turned away.
    """

    members: tuple[CnnFaceModel, ...]

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Calibrated probabilities (N, len(CLASSES)); each row sums to 1."""
        logs = [np.log(np.clip(m.probabilities(crops), NO_PROBABILITY, 1.0)) for m in self.members]
        return softmax(np.mean(logs, axis=0))

    @property
    def info(self) -> dict[str, str]:
        """Each network's account of how it was made, by key: ``"<first>; <second>"``."""
        keys = dict.fromkeys(k for m in self.members for k in m.info)
        return {k: "; ".join(m.info.get(k, "-") for m in self.members) for k in keys}

    @classmethod
    def load(cls, paths: tuple[Path, ...]) -> CnnEnsemble:
        """The networks at ``paths``; FaceModelError as ``CnnFaceModel.load`` for any that cannot be used."""
        return cls(tuple(CnnFaceModel.load(path) for path in paths))
