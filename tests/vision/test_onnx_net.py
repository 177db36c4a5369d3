"""The reader's networks run by ONNX Runtime, or by OpenCV's classic dnn engine where it is not installed, alike."""

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.vision import classifier, finder
from fantan_table.vision import onnx_net as onnx_net_module
from fantan_table.vision.classifier import CHANNELS, CROP_PX, die_crop
from fantan_table.vision.cnn import BOXES_PATH, MORE_BOXES_PATH
from fantan_table.vision.finder import BUILTIN_PATH as FINDER_PATH
from fantan_table.vision.finder import INPUT_H, INPUT_W, input_blob
from fantan_table.vision.onnx_net import Engine, OnnxNet, OnnxNetError, default_engine
from fantan_table.vision.reader import read_dice
from fantan_table.vision.render import RenderedScene, random_faces, render_scene

TEST_SEEDS = range(41_100, 41_106)
"""render.py scenes for these tests: neither trained on nor measured on."""
AGREE_WITHIN = 1e-4
"""The two engines' outputs differ by float rounding alone (about 1e-5 seen): far below any bar the reader sets."""


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    calls: list[tuple[object, ...]] = []
    real = cv2.dnn.readNetFromONNX

    def recording(*args: object) -> object:
        calls.append(args[1:])
        return real(*args)

    monkeypatch.setattr(cv2.dnn, "readNetFromONNX", recording)
    return calls


@pytest.fixture
def opencv_threads() -> Iterator[None]:
    before = cv2.getNumThreads()
    yield
    cv2.setNumThreads(before)


@pytest.fixture
def no_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a 32-bit Raspberry Pi OS, where ONNX Runtime has no wheel: it cannot be loaded."""
    monkeypatch.setattr(onnx_net_module, "_runtime", lambda: None)


def _scene(seed: int) -> RenderedScene:
    return render_scene(random_faces(np.random.default_rng(seed), 4, range(7)), seed)


def _scenes() -> list[np.ndarray]:
    return [_scene(seed).image for seed in TEST_SEEDS]


def test_onnx_runtime_runs_the_networks_where_it_is_installed() -> None:
    assert default_engine() is Engine.ONNXRUNTIME
    assert finder.builtin_finder().engine is Engine.ONNXRUNTIME


def test_opencv_runs_them_where_onnx_runtime_cannot_be_imported(no_runtime: None) -> None:
    assert default_engine() is Engine.OPENCV
    assert OnnxNet(FINDER_PATH.read_bytes()).engine is Engine.OPENCV


def test_asking_for_onnx_runtime_where_it_is_missing_says_what_to_install(no_runtime: None) -> None:
    with pytest.raises(OnnxNetError, match=r"onnxruntime cannot be loaded here: pip install onnxruntime \(a 64-bit"):
        OnnxNet(FINDER_PATH.read_bytes(), Engine.ONNXRUNTIME)


def test_the_classic_engine_is_asked_for_where_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        pytest.skip(f"OpenCV {cv2.__version__} has one engine only (the next test covers it)")
    calls = _asked(monkeypatch)
    OnnxNet(FINDER_PATH.read_bytes(), Engine.OPENCV)
    assert calls == [(cv2.dnn.ENGINE_CLASSIC,)]


def test_an_opencv_with_one_engine_is_not_asked_to_choose(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(cv2.dnn, "ENGINE_CLASSIC", raising=False)  # as OpenCV 4.x (the Pi's 4.6) is
    calls = _asked(monkeypatch)
    OnnxNet(FINDER_PATH.read_bytes(), Engine.OPENCV)
    assert calls == [()]


def test_the_engines_agree_on_the_finders_maps() -> None:
    onnx = FINDER_PATH.read_bytes()
    runtime, opencv = OnnxNet(onnx, Engine.ONNXRUNTIME), OnnxNet(onnx, Engine.OPENCV)
    for frame in _scenes():
        blob, _ = input_blob(frame)
        ours, theirs = runtime.run(blob), opencv.run(blob)
        assert ours.shape == theirs.shape
        assert np.abs(ours - theirs).max() < AGREE_WITHIN


@pytest.mark.parametrize("path", [BOXES_PATH, MORE_BOXES_PATH], ids=["faces", "faces-12k"])
def test_the_engines_agree_on_the_faces_scores(path: Path) -> None:
    scenes = [_scene(seed) for seed in TEST_SEEDS]
    crops = np.stack([die_crop(s.image, (d.center, (d.side, d.side), d.angle)) for s in scenes for d in s.dice])
    blob = np.ascontiguousarray(crops.transpose(0, 3, 1, 2))
    onnx = path.read_bytes()
    ours, theirs = OnnxNet(onnx, Engine.ONNXRUNTIME).run(blob), OnnxNet(onnx, Engine.OPENCV).run(blob)
    assert ours.shape == theirs.shape == (len(crops), len(classifier.CLASSES))
    assert np.abs(ours - theirs).max() < AGREE_WITHIN


def test_the_whole_reader_reads_alike_on_opencv_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    frames = _scenes()
    by_runtime = [read_dice(frame, expect=4) for frame in frames]
    monkeypatch.setattr(onnx_net_module, "_runtime", lambda: None)
    monkeypatch.setattr(finder, "_builtin", None)  # the built-in networks made again, on OpenCV
    classifier.builtin_model.cache_clear()
    try:
        assert finder.builtin_finder().engine is Engine.OPENCV
        by_opencv = [read_dice(frame, expect=4) for frame in frames]
    finally:
        classifier.builtin_model.cache_clear()
    assert [(r.status, r.values) for r in by_opencv] == [(r.status, r.values) for r in by_runtime]
    assert any(r.values for r in by_runtime)  # the scenes were read at all


def test_onnx_runtime_runs_on_as_many_threads_as_opencv(monkeypatch: pytest.MonkeyPatch, opencv_threads: None) -> None:
    made: list[int] = []
    real = onnx_net_module._runtime_session

    def recording(onnx: bytes, threads: int) -> object:
        session = real(onnx, threads)
        made.append(session.get_session_options().intra_op_num_threads)
        return session

    monkeypatch.setattr(onnx_net_module, "_runtime_session", recording)
    crop = np.zeros((1, CHANNELS, CROP_PX, CROP_PX), np.float32)
    cv2.setNumThreads(1)
    net = OnnxNet(BOXES_PATH.read_bytes(), Engine.ONNXRUNTIME)
    net.run(crop)
    cv2.setNumThreads(2)
    net.run(crop)
    net.run(crop)
    assert made == [1, 2]  # a session for each count, made when the count changed, not at every run


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("path", [FINDER_PATH, BOXES_PATH], ids=["finder", "faces"])
def test_the_network_made_runs(path: Path, engine: Engine) -> None:
    net = OnnxNet(path.read_bytes(), engine)
    shape = (1, 3, INPUT_H, INPUT_W) if path == FINDER_PATH else (1, CHANNELS, CROP_PX, CROP_PX)
    assert np.isfinite(net.run(np.zeros(shape, np.float32))).all()


@pytest.mark.parametrize("engine", list(Engine))
def test_bytes_that_are_no_network_are_refused(engine: Engine) -> None:
    with pytest.raises(OnnxNetError, match="cannot read the network"):
        OnnxNet(b"not an onnx file", engine)


@pytest.mark.parametrize("engine", list(Engine))
def test_an_input_of_the_wrong_shape_is_refused_not_crashed_on(engine: Engine) -> None:
    net = OnnxNet(BOXES_PATH.read_bytes(), engine)
    with pytest.raises(OnnxNetError, match="could not run the network"):
        net.run(np.zeros((1, CHANNELS, CROP_PX // 4, CROP_PX // 4), np.float32))  # too small for its layers
