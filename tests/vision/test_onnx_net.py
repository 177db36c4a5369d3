"""The reader's networks are made with OpenCV's classic dnn engine wherever OpenCV offers a choice."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.vision.classifier import CHANNELS, CROP_PX
from fantan_table.vision.cnn import BOXES_PATH
from fantan_table.vision.finder import BUILTIN_PATH as FINDER_PATH
from fantan_table.vision.finder import INPUT_H, INPUT_W
from fantan_table.vision.onnx_net import read_onnx


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    calls: list[tuple[object, ...]] = []
    real = cv2.dnn.readNetFromONNX

    def recording(*args: object) -> object:
        calls.append(args[1:])
        return real(*args)

    monkeypatch.setattr(cv2.dnn, "readNetFromONNX", recording)
    return calls


def test_the_classic_engine_is_asked_for_where_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        pytest.skip(f"OpenCV {cv2.__version__} has one engine only (the next test covers it)")
    calls = _asked(monkeypatch)
    read_onnx(FINDER_PATH.read_bytes())
    assert calls == [(cv2.dnn.ENGINE_CLASSIC,)]


def test_an_opencv_with_one_engine_is_not_asked_to_choose(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(cv2.dnn, "ENGINE_CLASSIC", raising=False)  # as OpenCV 4.x (the Pi's 4.6) is
    calls = _asked(monkeypatch)
    read_onnx(FINDER_PATH.read_bytes())
    assert calls == [()]


@pytest.mark.parametrize("path", [FINDER_PATH, BOXES_PATH], ids=["finder", "faces"])
def test_the_network_made_runs(path: Path) -> None:
    net = read_onnx(path.read_bytes())
    shape = (1, 3, INPUT_H, INPUT_W) if path == FINDER_PATH else (1, CHANNELS, CROP_PX, CROP_PX)
    net.setInput(np.zeros(shape, np.float32))
    assert np.isfinite(np.asarray(net.forward())).all()


def test_bytes_that_are_no_network_raise_opencvs_error() -> None:
    with pytest.raises(cv2.error):
        read_onnx(b"not an onnx file")
