"""Where the dice lie in a frame, by a small fully convolutional network (run as ``onnx_net`` says).

The hand-made finder (``outlines.find_dice``) tells a die from the table by colour and shape with thresholds
and a die size set by the profile; on a table, a camera or dice unlike the ones it was tuned to, it misses dice,
joins touching dice or cuts one in two. This network learned from many thousands of varied scenes what a die's top
face looks like at any size from about 7 to 60 of its pixels: it marks each top face's centre on a heat map a
quarter of its input's size, and at each centre the face's side and its turn. Reading the face is left to the
faces classifier and the pip count, as before.

Trained by ``tools/train_dice_finder.py`` (PyTorch, the optional ``train`` extra) and exported to ONNX; a JSON
file beside it holds the score a centre needs, how it was made, and the network's SHA-256.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, NamedTuple, TypeAlias

import cv2
import numpy as np

from ..errors import FantanError
from .onnx_net import Engine, OnnxNet, OnnxNetError
from .topface import RotatedBox

INPUT_W: Final = 384
INPUT_H: Final = 288
"""The finder's picture: a 1280x960 frame at 0.3, so the smallest die (25 px) is still 7 px across."""
STRIDE: Final = 4
"""Input pixels per cell of the finder's output maps."""


def input_scale(width: int, height: int) -> float:
    """How much a ``width`` x ``height`` frame is scaled to fit the finder's picture."""
    return min(INPUT_W / width, INPUT_H / height)


def shrunk(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``frame`` shrunk to ``size`` (width, height), fast and without aliasing fine detail."""
    w, h = size
    small = frame
    while small.shape[1] >= 2 * w and small.shape[0] >= 2 * h:  # halving first is 2-3 times faster, alike within 1
        small = cv2.resize(small, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    # the last step (less than halving) is linear: area-averaging at 5:3 cost 1.3 ms of a frame's 16, linear 0.2. The
    # network learned on linear zooms of its input too, and the DEV readings held (render.py 95.3 -> 95.0 % exact,
    # stress 49.0 -> 49.0 %, none wrong)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def to_input(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame as the finder sees it, and the scale from frame pixels to the finder's."""
    height, width = frame.shape[:2]
    scale = input_scale(width, height)
    w, h = max(1, round(width * scale)), max(1, round(height * scale))
    small = shrunk(frame, (w, h))
    if (w, h) == (INPUT_W, INPUT_H):  # a 4:3 frame fills the picture
        return small, scale
    out = np.zeros((INPUT_H, INPUT_W, 3), np.uint8)
    out[:h, :w] = small
    return out, scale


def input_blob(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame as the network reads it (1, 3, INPUT_H, INPUT_W), channels first and 0-1, and ``to_input``'s scale."""
    image, scale = to_input(frame)
    blob = np.empty((1, 3, INPUT_H, INPUT_W), np.float32)
    for channel, plane in enumerate(cv2.split(image)):  # a plane at a time into place: a third quicker than a transpose
        np.divide(plane, np.float32(255.0), out=blob[0, channel])
    return blob, scale


FORMAT_VERSION: Final = 1
BUILTIN_PATH: Final = Path(__file__).parent / "models" / "dice-finder.onnx"
OUTPUTS: Final = 6
"""Per cell: the centre's score (a logit), its offset in the cell (x, y), log of the side in cells, and the turn
as (cos 4a, sin 4a): a square's turn repeats every quarter turn."""
RETRAIN_HINT: Final = "reinstall fantan-table, or train it again with tools/train_dice_finder.py"


class FinderError(FantanError):
    """The finder's network cannot be used; the message says how to get a good one."""


@dataclass(frozen=True)
class FoundDie:
    box: RotatedBox
    """The top face in frame pixels."""
    score: float
    """The network's heat at the centre, 0-1."""


@dataclass(frozen=True)
class DiceFinder:
    """An ONNX network (``onnx_net``), with the score a centre needs to be a die."""

    onnx: bytes = field(repr=False)
    threshold: float = 0.5
    """The heat a peak needs to be a die: chosen on DEV data by the training script. (Weaker peaks are not made
    doubts that leave a reading unsure: on DEV data that cost a quarter of the readings and saved none from a
    wrong count.)"""
    info: dict[str, str] = field(default_factory=dict, compare=False)
    _net: OnnxNet | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self._net is None:
            object.__setattr__(self, "_net", _read_net(self.onnx))

    @property
    def engine(self) -> Engine:
        """What runs the network (``onnx_net``)."""
        assert self._net is not None  # made by __post_init__
        return self._net.engine

    def maps(self, frame: np.ndarray) -> tuple[np.ndarray, float]:
        """The network's output (OUTPUTS, INPUT_H / STRIDE, INPUT_W / STRIDE) for a BGR frame, and the frame's
        scale into the network's input; inside ``remembering_maps``, computed once for each frame object."""
        memo = _remembered.get()
        if memo is None:
            return self._maps(frame)
        key = (id(self), id(frame))
        seen = memo.get(key)
        if seen is not None and seen.finder() is self and seen.frame() is frame:  # alive: their ids not reused
            return seen.out, seen.scale
        out, scale = self._maps(frame)
        out.flags.writeable = False  # shared by every reading of the frame
        forget = _forgetting(memo, key)
        memo[key] = _Maps(weakref.ref(self, forget), weakref.ref(frame, forget), out, scale)
        return out, scale

    def _maps(self, frame: np.ndarray) -> tuple[np.ndarray, float]:
        blob, scale = input_blob(frame)
        assert self._net is not None  # made by __post_init__
        try:
            out = self._net.run(blob)
        except OnnxNetError as exc:
            raise FinderError(f"the dice finder failed on a frame ({exc})") from exc  # a network that loaded ran once
        return out.reshape(OUTPUTS, INPUT_H // STRIDE, INPUT_W // STRIDE), scale

    def find(self, frame: np.ndarray, least: float | None = None) -> list[FoundDie]:
        """The dice in ``frame``: every peak of the heat map scoring at least ``least`` (default ``threshold``)."""
        out, scale = self.maps(frame)
        return decode(out, scale, self.threshold if least is None else least)

    def find_turned(self, frame: np.ndarray, least: float | None = None) -> list[FoundDie]:
        """The dice in ``frame`` turned a quarter clockwise, placed back in ``frame``: a second look, as the
        network finds a die it scored weakly more surely in a picture turned and shrunk otherwise. A square box
        turned a quarter is the same square: only its centre moves."""
        turned = cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE)  # (x, y) in the frame lies at (h - 1 - y, x) in it
        last_row = frame.shape[0] - 1
        return [
            FoundDie(((y, last_row - x), size, angle), die.score)
            for die in self.find(turned, least)
            for (x, y), size, angle in [die.box]
        ]

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        sidecar = {
            "format_version": FORMAT_VERSION,
            "input": [3, INPUT_H, INPUT_W],
            "stride": STRIDE,
            "onnx_sha256": hashlib.sha256(self.onnx).hexdigest(),
            "threshold": self.threshold,
            "info": self.info,
        }
        for target, data in (
            (path, self.onnx),
            (path.with_suffix(".json"), (json.dumps(sidecar, indent=1) + "\n").encode()),
        ):
            partial = target.with_name(target.name + ".partial")
            partial.write_bytes(data)
            partial.replace(target)

    @classmethod
    def load(cls, path: Path) -> DiceFinder:
        try:
            onnx = path.read_bytes()
            sidecar = json.loads(path.with_suffix(".json").read_text())
        except (OSError, ValueError) as exc:
            raise FinderError(f"cannot read the dice finder {path} ({exc}); {RETRAIN_HINT}") from exc
        if not isinstance(sidecar, dict) or sidecar.get("format_version") != FORMAT_VERSION:
            raise FinderError(f"the dice finder {path} is of another format; {RETRAIN_HINT}")
        if sidecar.get("input") != [3, INPUT_H, INPUT_W] or sidecar.get("stride") != STRIDE:
            raise FinderError(f"the dice finder {path} was made for another input; {RETRAIN_HINT}")
        if sidecar.get("onnx_sha256") != hashlib.sha256(onnx).hexdigest():
            raise FinderError(f"the dice finder {path} is not the one its JSON was made for; {RETRAIN_HINT}")
        try:
            return cls(onnx, float(sidecar["threshold"]), {str(k): str(v) for k, v in sidecar["info"].items()})
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FinderError(f"the dice finder {path} is incomplete ({exc}); {RETRAIN_HINT}") from exc


class _Maps(NamedTuple):
    finder: weakref.ref[DiceFinder]
    frame: weakref.ref[np.ndarray]
    out: np.ndarray
    scale: float


_Remembered: TypeAlias = dict[tuple[int, int], _Maps]
_remembered: ContextVar[_Remembered | None] = ContextVar("_remembered", default=None)


@contextmanager
def remembering_maps() -> Iterator[None]:
    """Within this block, the network looks at each frame object once: calibration reads the same pictures with
    every profile it tries, and the network's maps depend on the frame alone. The frames must not change
    meanwhile. (A view of a frame, as a profile's ``roi`` makes, is a new object each time: looked at again.)"""
    if _remembered.get() is not None:  # already remembering
        yield
        return
    token = _remembered.set({})
    try:
        yield
    finally:
        _remembered.reset(token)


def _forgetting(memo: _Remembered, key: tuple[int, int]) -> Callable[[object], None]:
    """A callback that drops ``key``'s maps once its frame or finder is freed (its id may then be reused)."""

    def forget(_: object) -> None:
        memo.pop(key, None)

    return forget


TURN_SYMMETRY: Final = 4
"""A square looks the same turned a quarter: the network gives the cosine and sine of four times its turn, which
are alike for every one of the four ways to name it (``tools/train_dice_finder.py`` encodes it so)."""
LOG_SIDE_RANGE: Final = (-3.0, 5.0)
"""The network's log side (in heat-map cells) is kept in this range before it is used: 0.2 to 600 pixels of its
input, beyond any die it was taught, so a wild value on a picture unlike any it saw cannot overflow."""


def decode(out: np.ndarray, scale: float, least: float) -> list[FoundDie]:
    """Every local peak of the heat map scoring at least ``least``, as a top face in frame pixels."""
    heat = 1.0 / (1.0 + np.exp(-out[0].astype(np.float64)))
    peaks = (heat >= least) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    found = []
    for y, x in zip(*np.nonzero(peaks), strict=True):
        cx = (x + float(out[1, y, x])) * STRIDE / scale
        cy = (y + float(out[2, y, x])) * STRIDE / scale
        side = math.exp(float(np.clip(out[3, y, x], *LOG_SIDE_RANGE))) * STRIDE / scale
        turn = math.degrees(math.atan2(float(out[5, y, x]), float(out[4, y, x]))) / TURN_SYMMETRY % 90.0
        found.append(FoundDie(((cx, cy), (side, side), turn), float(heat[y, x])))
    return found


def wholly_inside(box: RotatedBox, shape: tuple[int, ...]) -> bool:
    """Whether the die's top face lies in the frame: a die cut by the frame's edge is not one of the roll's."""
    corners = cv2.boxPoints(box)
    return bool((corners >= 0).all() and (corners[:, 0] <= shape[1]).all() and (corners[:, 1] <= shape[0]).all())


def _read_net(onnx: bytes) -> OnnxNet:
    try:
        net = OnnxNet(onnx)
        out = net.run(np.zeros((1, 3, INPUT_H, INPUT_W), np.float32))
    except OnnxNetError as exc:
        raise FinderError(f"the dice finder cannot run ({exc}); {RETRAIN_HINT}") from exc
    if out.size != OUTPUTS * (INPUT_H // STRIDE) * (INPUT_W // STRIDE):
        raise FinderError(f"the dice finder gives {out.shape}, not {OUTPUTS} maps; {RETRAIN_HINT}")
    return net


_builtin: DiceFinder | None = None
_builtin_lock = threading.Lock()


def builtin_finder() -> DiceFinder:
    """The finder that comes with fantan-table, loaded once."""
    global _builtin
    with _builtin_lock:
        if _builtin is None:
            _builtin = DiceFinder.load(BUILTIN_PATH)
        return _builtin
