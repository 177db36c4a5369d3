"""An ONNX network run by ONNX Runtime where it is installed, and by OpenCV's ``cv2.dnn`` where it is not.

ONNX Runtime runs the reader's small convolutional networks two to three times faster than ``cv2.dnn`` on one core
(the bench machine, 2026-11-29: the dice finder 2.9 ms a frame against 4.8, the faces network 0.7 ms for four
crops against 1.7), and its wheels exist for the Pi's 64-bit OS. Where it has no wheel (a 32-bit Raspberry Pi OS)
``cv2.dnn`` runs the same file: the two agree to about 1e-5 on every output, far below any bar the reader sets.

OpenCV 5 reads ONNX with a new engine by default and keeps the classic one beside it; 4.x (the Pi's 4.6 from apt)
has only the classic one. ``cv2.dnn`` is asked for the classic engine wherever there is a choice: the Pi and a
laptop then run the same code on the same file, and on these networks the classic engine is also the faster.

Both run on as many threads as OpenCV is set to use (``cv2.setNumThreads``): one setting for the whole reader.
"""

from __future__ import annotations

import enum
import functools
import importlib
import threading
from types import ModuleType
from typing import Any, Final

import cv2
import numpy as np

from ..errors import FantanError

RUNTIME_MODULE: Final = "onnxruntime"


class Engine(enum.Enum):
    """What runs a network."""

    ONNXRUNTIME = "onnxruntime"
    OPENCV = "opencv"


class OnnxNetError(FantanError):
    """The bytes are no network the engine can run, or running it failed."""


@functools.cache
def _runtime() -> ModuleType | None:
    """ONNX Runtime, or None where it is not installed or cannot load; asked once, as a failed import is slow and
    may print a warning each time."""
    try:
        return importlib.import_module(RUNTIME_MODULE)
    except Exception:  # a build for another numpy fails with ImportError, SystemError or AttributeError: fall back
        return None


def default_engine() -> Engine:
    """ONNX Runtime where it can be imported, else ``cv2.dnn``."""
    return Engine.ONNXRUNTIME if _runtime() is not None else Engine.OPENCV


def _threads() -> int:
    return max(1, cv2.getNumThreads())


class OnnxNet:
    """One network, run from any thread: ``run`` takes the input blob and gives the first output."""

    def __init__(self, onnx: bytes, engine: Engine | None = None) -> None:
        self.engine = default_engine() if engine is None else engine
        self._onnx = onnx
        self._lock = threading.Lock()
        self._current: tuple[int, Any, str] | None = None
        """ONNX Runtime's session for a thread count, and its input's name: one at a time, a new one only when
        OpenCV's thread count changes (a run still going keeps the old one alive until it ends)."""
        self._net: Any = None
        if self.engine is Engine.OPENCV:
            self._net = _opencv_net(onnx)
        else:
            self._session()  # fail now, not at the first frame

    def run(self, blob: np.ndarray) -> np.ndarray:
        """The network's first output for ``blob`` (float32, the input's layout)."""
        if self.engine is Engine.OPENCV:
            with self._lock:  # a cv2.dnn.Net keeps the input between setInput and forward
                try:
                    self._net.setInput(blob)
                    return np.asarray(self._net.forward())
                except cv2.error as exc:
                    raise OnnxNetError(f"OpenCV could not run the network: {exc}") from exc
        session, name = self._session()
        try:
            return np.asarray(session.run(None, {name: blob})[0])
        except Exception as exc:  # ONNX Runtime's errors share no base class but Exception
            raise OnnxNetError(f"ONNX Runtime could not run the network: {exc}") from exc

    def _session(self) -> tuple[Any, str]:
        """The session for OpenCV's thread count now (its options are fixed once it is made), and its input's name."""
        threads = _threads()
        with self._lock:
            if self._current is None or self._current[0] != threads:
                session = _runtime_session(self._onnx, threads)
                self._current = (threads, session, session.get_inputs()[0].name)
            return self._current[1], self._current[2]


def _opencv_net(onnx: bytes) -> Any:
    buffer = np.frombuffer(onnx, np.uint8)
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)  # OpenCV 5 and newer
    try:
        if classic is None:
            return cv2.dnn.readNetFromONNX(buffer)
        return cv2.dnn.readNetFromONNX(buffer, classic)
    except cv2.error as exc:
        raise OnnxNetError(f"OpenCV cannot read the network: {exc}") from exc


def _runtime_session(onnx: bytes, threads: int) -> Any:
    runtime = _runtime()
    if runtime is None:
        raise OnnxNetError(
            f"{RUNTIME_MODULE} cannot be loaded here: pip install {RUNTIME_MODULE} (a 64-bit Python), or use OpenCV"
        )
    options = runtime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only: its notes on unused initialisers mean nothing to a user
    # Idle worker threads sleep rather than spin: on the Pi the web page and the camera share the cores.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return runtime.InferenceSession(onnx, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ONNX Runtime's errors share no base class but Exception
        raise OnnxNetError(f"ONNX Runtime cannot read the network: {exc}") from exc
