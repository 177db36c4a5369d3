"""A die's top face from its crop, learned: a small numpy network over gradient and ink features.

The hand-tuned pip counter decides a blank face by the absence of pips it found, so clear pips it missed read
as 0 with full confidence. This model is learned from many varied examples instead (see ``train``): each die's
box is cut out and normalised (``die_crop``), described by where its edges run and where its ink lies
(``features``), and a one-hidden-layer network gives a probability for each face and for "not a face" (a
table patch, half a die, two dice at once). Its probabilities are calibrated by a temperature fitted on
examples it was not trained on, so "0.999" means right 999 times in 1000 on such data.

numpy only (OpenCV 5 has no ``cv2.ml``): it runs the same on the Pi's OpenCV 4.6 and on 5.x.
"""

from __future__ import annotations

import json
import math
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol, Self, TypeVar

import cv2
import numpy as np

from ..errors import FantanError
from .quantiles import column_medians, percentile

if TYPE_CHECKING:  # topface reads the profile, which names a classifier: only the type is needed here
    from .topface import RotatedBox

CLASSES: Final[tuple[int | None, ...]] = (0, 1, 2, 3, 4, 5, 6, None)
"""The model's classes: a face's value (0 = blank), and None for "not a face"."""
NOT_A_FACE: Final = CLASSES.index(None)
FORMAT_VERSION: Final = 1
"""Bumped whenever the crop, the features or the file layout change: an older model would read garbage."""
BUILTIN_PATH: Final = Path(__file__).parent / "models" / "faces.npz"
RETRAIN_HINT: Final = "retrain it with `fantan-table train-faces` (or recalibrate the table)"
RETRAIN_CNN_HINT: Final = (
    "reinstall fantan-table, or retrain the network with `python tools/train_faces_cnn.py` (the `train` extra)"
)

CROP_PX: Final = 32
"""The side of the normalised crop: a pip of the smallest face (9 % of the side) still spans about 3 pixels."""
CHANNELS: Final = 2
"""Ink (lightness away from the body, marks positive) and colour distance from the body."""
INNER: Final = 0.15
"""The share at each edge of the box left out when measuring the body: a loose box holds table there."""
MIN_CONTRAST: Final = 18.0
"""The least contrast (Lab units, 0-255) a crop is stretched to: a plain face's noise stays small, never
stretched into marks."""
INK_CLIP: Final = 1.5
"""Normalised values are clipped to +-this: a dark shadow or a glare spot does not outweigh the pips."""
CELL_PX: Final = 8
"""Gradient histograms over cells of this many pixels: 4 x 4 cells, about one pip spacing each."""
ORIENTATIONS: Final = 8
MAP_PX: Final = 8
"""The ink and colour maps are pooled to this side: the 3 x 3 pip grid of a face at over two cells per pip."""
FAR: Final = 1e6
"""Box coordinates beyond this (pixels, degrees) are no box in any camera frame: nothing to cut out (and
float32 warps stay exact well below it)."""
GRADIENT_FLOOR: Final = 4.0
"""Added to the gradient norm: a plain face's few weak gradients are not stretched to look like edges."""


class FaceModelError(FantanError, ValueError):
    """A faces model file that cannot be used; the message says how to get a good one."""


class FaceReader(Protocol):
    """What the reader needs of a faces model: calibrated probabilities, and an account of how it was made."""

    @property
    def info(self) -> dict[str, str]: ...

    def probabilities(self, crops: np.ndarray) -> np.ndarray: ...


class FaceClassifier(FaceReader, Protocol):
    """What the calibration needs of a faces model too: this module's numpy network or ``cnn``'s."""

    @property
    def temperature(self) -> float: ...

    def logits(self, crops: np.ndarray) -> np.ndarray: ...

    def with_temperature(self, temperature: float) -> Self: ...


Model = TypeVar("Model", bound=FaceClassifier)


@dataclass(frozen=True)
class FaceModel:
    """A trained network with its feature scaling and its calibration temperature."""

    mean: np.ndarray
    """Per-feature mean and spread of the training features (the network sees standardised features)."""
    scale: np.ndarray
    weights: tuple[np.ndarray, ...]
    """Weight matrices, one per layer; ReLU between layers, softmax after the last."""
    biases: tuple[np.ndarray, ...]
    temperature: float = 1.0
    """Logits are divided by this before the softmax: fitted on held-aside data so probabilities are honest."""
    info: dict[str, str] = field(default_factory=dict, compare=False)
    """How it was made: data, seed, date, version (saved with it, shown by the calibration report)."""

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """Raw scores (N, len(CLASSES)) before the temperature, from crops made by ``die_crop``."""
        x = (features(crops) - self.mean) / self.scale
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < len(self.weights) - 1:
                x = np.maximum(x, 0.0)
        return np.asarray(x, dtype=np.float64)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Calibrated probabilities (N, len(CLASSES)); each row sums to 1."""
        return softmax(self.logits(crops) / self.temperature)

    def with_temperature(self, temperature: float) -> FaceModel:
        return FaceModel(self.mean, self.scale, self.weights, self.biases, temperature, dict(self.info))

    def with_info(self, **info: str) -> FaceModel:
        return FaceModel(self.mean, self.scale, self.weights, self.biases, self.temperature, self.info | info)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {
            "format_version": np.array(FORMAT_VERSION),
            "classes": np.array([-1 if c is None else c for c in CLASSES]),
            "mean": self.mean.astype(np.float32),
            "scale": self.scale.astype(np.float32),
            "temperature": np.array(self.temperature),
            "info": np.array(json.dumps(self.info, sort_keys=True)),
        }
        arrays |= {f"w{i}": w.astype(np.float32) for i, w in enumerate(self.weights)}
        arrays |= {f"b{i}": b.astype(np.float32) for i, b in enumerate(self.biases)}
        partial = path.with_name(path.name + ".partial")
        with partial.open("wb") as out:  # a file object: np.savez would add ".npz" to any other name
            np.savez_compressed(out, **arrays)
        partial.replace(path)  # a power cut leaves the old model whole, never half a new one

    @classmethod
    def load(cls, path: Path) -> FaceModel:
        try:
            with np.load(path, allow_pickle=False) as data:
                stored = {key: data[key] for key in data.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise FaceModelError(f"cannot read the faces model {path} ({exc}); {RETRAIN_HINT}") from exc
        version = int(stored["format_version"]) if "format_version" in stored else None
        if version != FORMAT_VERSION:
            raise FaceModelError(
                f"the faces model {path} has format {version}, this version of fantan-table reads format "
                f"{FORMAT_VERSION}; {RETRAIN_HINT}"
            )
        classes = tuple(None if c < 0 else int(c) for c in stored["classes"])
        if classes != CLASSES:
            raise FaceModelError(f"the faces model {path} has classes {classes}, expected {CLASSES}; {RETRAIN_HINT}")
        layers = sum(1 for key in stored if key.startswith("w"))
        try:
            return cls(
                stored["mean"],
                stored["scale"],
                tuple(stored[f"w{i}"] for i in range(layers)),
                tuple(stored[f"b{i}"] for i in range(layers)),
                float(stored["temperature"]),
                dict(json.loads(str(stored["info"]))),
            )
        except (KeyError, ValueError) as exc:
            raise FaceModelError(f"the faces model {path} is incomplete ({exc}); {RETRAIN_HINT}") from exc


@cache
def builtin_model() -> FaceReader:
    """The model shipped with the package, loaded once when first asked for: the convolutional networks of ``cnn``
    asked together.

    Both networks, trained at the learned finder's boxes too, read the DEV sets better than this module's numpy
    model (``BUILTIN_PATH``), which stays for tables whose calibration trained their own and as the reader's second
    opinion of another kind (``builtin_feature_model``). The two networks together are safer than either
    (``cnn.CnnEnsemble``). In ``tools/faces_dev_report.py`` the pair's rows with hundreds of dice meet
    their levels; byler's rows of 24-61 dice miss 99 % by one or two dice (one is a label error), as the pair
    before did.
    """
    from .cnn import BUILTIN_PATHS, CnnEnsemble  # cnn builds on this module: imported when first asked for

    return CnnEnsemble.load(BUILTIN_PATHS)


@cache
def builtin_feature_model() -> FaceModel:
    """This module's built-in model (``BUILTIN_PATH``), loaded once: gradient features and a small network, a
    learned model of another kind than ``builtin_model``'s."""
    return FaceModel.load(BUILTIN_PATH)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


# -- the crop ---------------------------------------------------------------------------------------
def die_crop(frame_bgr: np.ndarray, box: RotatedBox) -> np.ndarray:
    """The die in ``box`` (frame pixels) as a normalised (CROP_PX, CROP_PX, CHANNELS) float32 crop.

    Marks come out positive whatever their colour: the lightness channel is flipped when the face's own
    histogram says its marks are lighter than its body (white pips on a red die look like black pips on an
    ivory one), and both channels are scaled by the face's contrast. Any box, even one partly or wholly
    outside the frame or of no size, gives a crop (an all-zero one when there is nothing to cut out).
    """
    blank = np.zeros((CROP_PX, CROP_PX, CHANNELS), np.float32)
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.size == 0 or frame_bgr.dtype != np.uint8:
        return blank
    (cx, cy), (w, h), angle = box
    if not all(math.isfinite(v) and abs(v) < FAR for v in (cx, cy, w, h, angle)):
        return blank
    side = max(abs(w), abs(h), 1.0)
    # big dice are warped to a multiple of the crop first and then area-averaged, so fine pips do not alias
    px = CROP_PX * int(min(4, max(1, side // CROP_PX)))
    a = math.radians(angle)
    c = np.array([cx, cy])
    ex = np.array([math.cos(a), math.sin(a)]) * max(abs(w), 1.0)
    ey = np.array([-math.sin(a), math.cos(a)]) * max(abs(h), 1.0)
    src = np.array([c - ex / 2 - ey / 2, c + ex / 2 - ey / 2, c - ex / 2 + ey / 2], dtype=np.float32)
    dst = np.array([[0, 0], [px, 0], [0, px]], dtype=np.float32)
    try:
        patch = cv2.warpAffine(
            frame_bgr,
            cv2.getAffineTransform(src, dst),
            (px, px),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
    except cv2.error:  # coordinates beyond what OpenCV can map: nothing sensible to cut out
        return blank
    if px != CROP_PX:
        patch = cv2.resize(patch, (CROP_PX, CROP_PX), interpolation=cv2.INTER_AREA)
    return normalise(cv2.cvtColor(patch, cv2.COLOR_BGR2Lab).astype(np.float32))


SYMMETRIES: Final = 8
"""A square's symmetries: four quarter turns, each mirrored or not."""


def symmetries(crop: np.ndarray) -> np.ndarray:
    """A (CROP_PX, CROP_PX, CHANNELS) crop in each of the ``SYMMETRIES``, the crop itself first: its quarter turns,
    and theirs mirrored. A die's face has no up and no handedness, so each shows the same face."""
    return np.stack([np.rot90(side, turns) for side in (crop, crop[:, ::-1]) for turns in range(4)])


def normalise(lab: np.ndarray) -> np.ndarray:
    """Ink and colour-distance channels of a (CROP_PX, CROP_PX, 3) Lab crop, marks positive, contrast 1."""
    lo, hi = round(INNER * CROP_PX), round((1 - INNER) * CROP_PX)
    inner = lab[lo:hi, lo:hi].reshape(-1, 3)
    body = column_medians(inner)
    lightness = lab[..., 0] - body[0]
    inner_light = inner[:, 0] - body[0]
    # marks are the minority: their side of the body's median is the histogram's long tail (the sum of the cubes
    # has the sign of their mean, and a dot product is a fifth of the cost of a mean of a power)
    ink = lightness if float(np.dot(inner_light * inner_light, inner_light)) > 0 else -lightness
    colour = np.sqrt((lab[..., 1] - body[1]) ** 2 + (lab[..., 2] - body[2]) ** 2)
    contrast = max(MIN_CONTRAST, percentile(np.abs(inner_light), 99))
    colour_contrast = max(MIN_CONTRAST, percentile(colour[lo:hi, lo:hi], 99))
    out = np.empty((*lab.shape[:2], CHANNELS), np.float32)  # each channel divided into place: no stack, no copies
    np.divide(ink, contrast, out=out[..., 0])
    np.divide(colour, colour_contrast, out=out[..., 1])
    return np.clip(out, -INK_CLIP, INK_CLIP, out=out)


# -- features -----------------------------------------------------------------------------------------
def features(crops: np.ndarray) -> np.ndarray:
    """(N, F) features of (N, CROP_PX, CROP_PX, CHANNELS) crops: cell gradient histograms of the ink, and the
    ink and colour maps pooled to MAP_PX x MAP_PX."""
    crops = np.asarray(crops, dtype=np.float32).reshape(-1, CROP_PX, CROP_PX, CHANNELS)
    n = len(crops)
    ink = crops[..., 0]
    gx = np.zeros_like(ink)
    gy = np.zeros_like(ink)
    gx[:, :, 1:-1] = ink[:, :, 2:] - ink[:, :, :-2]
    gy[:, 1:-1, :] = ink[:, 2:, :] - ink[:, :-2, :]
    magnitude = np.sqrt(gx**2 + gy**2)
    orientation = (np.arctan2(gy, gx) % np.pi) / np.pi * ORIENTATIONS  # unsigned: an edge either way round
    low = np.floor(orientation).astype(np.int64) % ORIENTATIONS
    share = orientation - np.floor(orientation)
    cells = CROP_PX // CELL_PX
    hist = np.zeros((n, cells, cells, ORIENTATIONS), np.float32)
    cell_of = np.arange(CROP_PX) // CELL_PX
    rows = np.broadcast_to(cell_of[None, :, None], magnitude.shape)
    cols = np.broadcast_to(cell_of[None, None, :], magnitude.shape)
    which = np.broadcast_to(np.arange(n)[:, None, None], magnitude.shape)
    np.add.at(hist, (which, rows, cols, low), magnitude * (1 - share))
    np.add.at(hist, (which, rows, cols, (low + 1) % ORIENTATIONS), magnitude * share)
    hist = hist.reshape(n, cells * cells * ORIENTATIONS)
    hist /= np.sqrt((hist**2).sum(axis=1, keepdims=True)) + GRADIENT_FLOOR
    pool = CROP_PX // MAP_PX
    maps = (
        crops.reshape(n, MAP_PX, pool, MAP_PX, pool, CHANNELS).mean(axis=(2, 4)).reshape(n, MAP_PX * MAP_PX * CHANNELS)
    )
    return np.concatenate([hist, maps], axis=1)


# -- training -----------------------------------------------------------------------------------------
HIDDEN: Final = 128
"""Hidden units: enough for seven faces at any turn and the many looks of "not a face", small enough to run in
well under a millisecond per die on a Pi."""
EPOCHS: Final = 60
BATCH: Final = 128
LEARNING_RATE: Final = 2e-3
WEIGHT_DECAY: Final = 1e-4
"""A little L2 on the weights: keeps the logits moderate so the temperature has something to calibrate."""


def train(
    crops: np.ndarray,
    labels: Sequence[int | None] | np.ndarray,
    *,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    epochs: int = EPOCHS,
    hidden: int = HIDDEN,
) -> FaceModel:
    """A model trained on ``crops`` (from ``die_crop``) with their ``labels`` (values of CLASSES), seeded.

    Temperature 1: calibrate it on other data with ``fit_temperature``. ``progress(done, total)`` is called
    after each epoch.
    """
    x = features(crops)
    y = np.array([CLASSES.index(label) for label in labels], dtype=np.int64)
    if len(x) == 0 or len(x) != len(y):
        raise ValueError(f"training needs crops with one label each (got {len(x)} crops, {len(y)} labels)")
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    x = (x - mean) / scale
    sizes = (x.shape[1], hidden, len(CLASSES))
    params = [
        p
        for fan_in, fan_out in zip(sizes, sizes[1:], strict=False)
        for p in (rng.normal(0, math.sqrt(2 / fan_in), (fan_in, fan_out)), np.zeros(fan_out))
    ]
    adam = _Adam(params)
    # every class counts alike, however many examples of it there are
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float64)
    class_weight = np.where(counts > 0, len(y) / (len(CLASSES) * np.maximum(counts, 1)), 0.0)
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), BATCH):
            batch = order[start : start + BATCH]
            grads = _gradients(params, x[batch], y[batch], class_weight)
            adam.step(params, grads, LEARNING_RATE * (0.5 * (1 + math.cos(math.pi * epoch / epochs))))
        if progress is not None:
            progress(epoch + 1, epochs)
    return FaceModel(
        mean.astype(np.float32),
        scale.astype(np.float32),
        tuple(p.astype(np.float32) for p in params[0::2]),
        tuple(p.astype(np.float32) for p in params[1::2]),
    )


def _gradients(params: list[np.ndarray], x: np.ndarray, y: np.ndarray, class_weight: np.ndarray) -> list[np.ndarray]:
    """Gradients of the class-weighted cross-entropy (plus weight decay) for a two-layer ReLU network."""
    w1, b1, w2, b2 = params
    hidden = np.maximum(x @ w1 + b1, 0.0)
    p = softmax(hidden @ w2 + b2)
    weight = class_weight[y][:, None] / len(y)
    d_out = p.copy()
    d_out[np.arange(len(y)), y] -= 1
    d_out *= weight
    d_hidden = (d_out @ w2.T) * (hidden > 0)
    return [
        x.T @ d_hidden + WEIGHT_DECAY * w1,
        d_hidden.sum(axis=0),
        hidden.T @ d_out + WEIGHT_DECAY * w2,
        d_out.sum(axis=0),
    ]


class _Adam:
    """The Adam optimiser's running moments, one pair per parameter."""

    BETAS = (0.9, 0.999)
    EPS = 1e-8

    def __init__(self, params: list[np.ndarray]) -> None:
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, params: list[np.ndarray], grads: list[np.ndarray], rate: float) -> None:
        self.t += 1
        b1, b2 = self.BETAS
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= rate * (m / (1 - b1**self.t)) / (np.sqrt(v / (1 - b2**self.t)) + self.EPS)


# -- calibration --------------------------------------------------------------------------------------
TEMPERATURES: Final = np.exp(np.linspace(math.log(0.25), math.log(8.0), 161))
"""Temperatures tried when calibrating: from sharpening 4x to softening 8x, in 2 % steps."""


def fit_temperature(model: Model, crops: np.ndarray, labels: Sequence[int | None] | np.ndarray) -> Model:
    """The model with the temperature that gives ``crops`` (held aside, not trained on) the least log loss."""
    logits = model.logits(crops)
    y = np.array([CLASSES.index(label) for label in labels], dtype=np.int64)
    if len(y) == 0:
        raise ValueError("calibrating the confidence needs held-aside crops")

    def loss(t: float) -> float:
        p = softmax(logits / t)[np.arange(len(y)), y]
        return float(-np.log(np.maximum(p, 1e-12)).mean())

    best = min(TEMPERATURES, key=loss)
    return model.with_temperature(float(best))


@dataclass(frozen=True)
class ReliabilityRow:
    """Among the crops whose best class has probability >= ``threshold``: how many, and how many are right."""

    threshold: float
    count: int
    right: int

    @property
    def accuracy(self) -> float:
        return self.right / self.count if self.count else 1.0


RELIABILITY_LEVELS: Final = (0.5, 0.9, 0.99, 0.999)


def reliability(
    probabilities: np.ndarray, labels: Sequence[int | None] | np.ndarray, levels: Sequence[float] = RELIABILITY_LEVELS
) -> list[ReliabilityRow]:
    """The reliability table: calibrated means each row's accuracy is at least its threshold."""
    y = np.array([CLASSES.index(label) for label in labels], dtype=np.int64)
    best = probabilities.argmax(axis=1)
    confidence = probabilities.max(axis=1)
    return [
        ReliabilityRow(c, int((confidence >= c).sum()), int(((confidence >= c) & (best == y)).sum())) for c in levels
    ]
