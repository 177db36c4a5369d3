"""No picture makes the reader raise: random and degenerate arrays and files give ``error`` or ``unsure`` with a
reason (or a reading), never an exception. A bug that does slip through is turned into an ``error`` reading, and
is logged and counted so that it stays visible."""

import json
import logging
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from fantan_table.cli import main
from fantan_table.vision import outlines, reader
from fantan_table.vision.calibrate import CalibrationError, learn_faces
from fantan_table.vision.dataset import write_labels
from fantan_table.vision.outlines import _Shape
from fantan_table.vision.profile import Profile
from fantan_table.vision.reader import FAILURES, Reading, Status, read_dice

FUZZ = settings(max_examples=40, deadline=None)


def assert_answered(reading: Reading) -> None:
    """A reading, never an exception: ok with dice, or error/unsure saying why; never a bug's error."""
    assert isinstance(reading, Reading)
    if reading.status is Status.OK:
        assert reading.dice and all(d.value is not None for d in reading.dice)
    else:
        assert reading.message
    assert "a bug" not in reading.message


@pytest.fixture(autouse=True)
def no_hidden_failures():
    """Every test here also fails if the reader's last-line guard caught anything: a bug is not an answer."""
    before = sum(FAILURES.values())
    yield
    assert sum(FAILURES.values()) == before, f"the reader failed inside: {dict(FAILURES)}"


# -- the known crash: a region filling its own bounding box --------------------------------------------------
def test_a_region_filling_its_array_has_an_outline():
    # the erosion that finds a region's rim took outside the array as inside: a filled rectangle had no rim at all,
    # and fitting a circle to no points raised cv2.error (seen on real photos and truncated JPEGs)
    shape = _Shape.of(np.ones((20, 30), bool), (5, 7))
    (cx, cy), (w, h), _ = shape.rect
    assert (round(cx, 1), round(cy, 1)) == (19.5, 16.5) and sorted((round(w), round(h))) == [19, 29]
    assert shape.area == 600 and shape.solidity == pytest.approx(600 / (19 * 29))


@pytest.mark.parametrize(
    "picture",
    [
        pytest.param(np.full((480, 640, 3), 200, np.uint8), id="one colour"),
        pytest.param(np.pad(np.full((300, 400, 3), 230, np.uint8), ((90, 90), (120, 120), (0, 0))), id="a rectangle"),
        pytest.param(
            np.kron((np.indices((12, 16)).sum(axis=0) % 2) * 255, np.ones((40, 40)))
            .astype(np.uint8)[..., None]
            .repeat(3, axis=2),
            id="a checkerboard",
        ),
        pytest.param(np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8), id="noise"),
        pytest.param(
            np.vstack([np.full((300, 640, 3), 90, np.uint8), np.full((180, 640, 3), 128, np.uint8)]),
            id="a picture cut short (a truncated JPEG's grey)",
        ),
        pytest.param(np.full((6000, 8000, 3), 60, np.uint8), id="huge"),
    ],
)
def test_degenerate_pictures_are_answered(picture):
    for profile in (Profile(), Profile(die_size=(0.015, 0.3))):  # calibration's wide search too
        assert_answered(read_dice(picture, profile))


@pytest.mark.parametrize(
    ("picture", "why"),
    [
        (None, "not a colour picture"),
        (np.zeros((0, 0, 3), np.uint8), "empty 0x0 picture"),
        (np.zeros((480, 0, 3), np.uint8), "empty 0x480 picture"),
        (np.zeros((48, 64), np.uint8), "not a colour picture"),
        (np.zeros((48, 64, 4), np.uint8), "not a colour picture"),
        (np.zeros((48, 64, 3), np.uint16), "not a colour picture"),
        (np.zeros((48, 64, 3), np.float32), "not a colour picture"),
        ([[[0, 0, 0]]], "not a colour picture"),
    ],
)
def test_what_is_no_colour_picture_is_an_error_saying_so(picture, why):
    reading = read_dice(picture)
    assert reading.status is Status.ERROR and why in reading.message


def test_a_bug_in_the_reader_is_an_error_reading_logged_and_counted(monkeypatch, caplog):
    def broken(*_):
        raise cv2.error("OpenCV(5.0.0) something.cpp:1: error: (-215:Assertion failed) x in function 'y'\n")

    monkeypatch.setattr(reader, "_read_dice", broken)
    before = FAILURES["error"]
    with caplog.at_level(logging.WARNING, logger=reader.__name__):
        reading = read_dice(np.zeros((48, 64, 3), np.uint8))
    assert reading.status is Status.ERROR and reading.dice == ()
    assert "reader failed (error: OpenCV(5.0.0)" in reading.message and "enter the dice by hand" in reading.message
    assert FAILURES["error"] == before + 1
    FAILURES["error"] -= 1  # counted, as it should be; the guard fixture checks the reader's own bugs
    [record] = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info and "48" in record.getMessage()


# -- random arrays ------------------------------------------------------------------------------------------
@FUZZ
@given(
    hnp.arrays(
        dtype=st.sampled_from([np.uint8, np.uint16, np.int32, np.float32, np.float64, np.bool_]),
        shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=40),
        elements={"allow_nan": False, "allow_infinity": False},
    )
)
def test_random_arrays_of_any_shape_and_type_are_answered(picture):
    reading = read_dice(picture)
    if not (picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8):
        assert reading.status is Status.ERROR
    assert_answered(reading)


@FUZZ
@given(
    st.integers(1, 160),
    st.integers(1, 160),
    st.sampled_from(["noise", "blocks", "flat", "stripes"]),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, 0, 4]),
)
def test_random_colour_pictures_are_answered(h, w, kind, seed, expect):
    rng = np.random.default_rng(seed)
    if kind == "noise":
        picture = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    elif kind == "blocks":  # solid rectangles of any size and colour, the shapes that once broke the reader
        cells = rng.integers(0, 256, (rng.integers(1, 6), rng.integers(1, 6), 3), dtype=np.uint8)
        picture = cv2.resize(cells, (w, h), interpolation=cv2.INTER_NEAREST)
    elif kind == "flat":
        picture = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
    else:
        picture = np.tile(rng.integers(0, 256, (1, w, 3), dtype=np.uint8), (h, 1, 1))
    assert_answered(read_dice(picture, Profile(die_size=(0.015, 0.3)) if seed % 2 else None, expect))


# -- one box convention on every supported OpenCV -------------------------------------------------------------
@pytest.mark.parametrize(
    ("opencv_46", "opencv_5"),
    [
        (((5, 6), (82.0, 78.0), 26.5), ((5.0, 6.0), (78.0, 82.0), -63.5)),  # 4.6 names boxes with angles in [0, 90]
        (((5, 6), (20.0, 10.0), 90.0), ((5.0, 6.0), (20.0, 10.0), -90.0)),
        (((5, 6), (20.0, 10.0), 0.0), ((5.0, 6.0), (10.0, 20.0), -90.0)),
        (((5, 6), (78.0, 82.0), -63.5), ((5.0, 6.0), (78.0, 82.0), -63.5)),  # 5.x's own: kept as it is
    ],
)
def test_rotated_boxes_are_named_as_opencv_5_names_them(opencv_46, opencv_5):
    assert outlines._as_box(opencv_46) == opencv_5


def test_a_die_box_has_the_same_angle_on_this_opencv():
    tilted = cv2.fillPoly(np.zeros((60, 60), np.uint8), [np.array([[30, 5], [55, 30], [30, 55], [5, 30]])], 1)
    assert -90 <= _Shape.of(tilted.astype(bool)).rect[2] < 0


# -- files: random bytes and real JPEGs cut short, through the commands that load pictures -----------------------
REAL_JPEG = sorted((Path(__file__).parent.parent / "data" / "dice-photos").glob("*.jpg"))[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, 60_000), noise=st.binary(max_size=32), suffix=st.sampled_from([".jpg", ".png"]))
def test_read_answers_every_file(tmp_path_factory, capsys, cut, noise, suffix):
    picture = tmp_path_factory.mktemp("read") / f"picture{suffix}"
    picture.write_bytes(REAL_JPEG.read_bytes()[:cut] + noise)
    code = main(["read", "--json", str(picture)])
    [line] = capsys.readouterr().out.splitlines()
    answer = json.loads(line)
    assert code in (0, 1) and (answer["status"] == "ok") == (code == 0)
    assert answer["status"] == "ok" or answer["message"]
    assert "a bug" not in answer["message"]


@pytest.mark.parametrize(
    "broken",
    [b"", b"\xff\xd8\xff\xe0 not really a JPEG", REAL_JPEG.read_bytes()[:2000], REAL_JPEG.read_bytes()[:-3000]],
    ids=["empty", "a JPEG header only", "the first 2 kB of a JPEG", "a JPEG without its last 3 kB"],
)
@pytest.mark.parametrize("command", ["calibrate", "eval"])
def test_calibrate_and_eval_load_broken_pictures_without_a_traceback(tmp_path, capsys, command, broken):
    folder = tmp_path / "rolls"
    folder.mkdir()
    for i in range(8):
        (folder / f"roll_{i}.jpg").write_bytes(broken if i == 5 else REAL_JPEG.read_bytes())
    write_labels(folder, [(f"roll_{i}.jpg", (1,)) for i in range(8)])
    args = (
        ["--images", str(folder), "--out", str(tmp_path / "p"), "--expect", "1"]
        if command == "calibrate"
        else [str(folder)]
    )
    code = main([command, *args, "--json"])
    err = capsys.readouterr().err
    assert code == 2 and "roll_5.jpg" in err and ("not a picture" in err or "cut short" in err)


def test_face_captures_that_are_no_picture_are_named(tmp_path):
    (tmp_path / "suns_3_1.png").write_bytes(REAL_JPEG.read_bytes()[:100])
    (tmp_path / "suns_3_2.png").write_bytes(np.random.default_rng(3).bytes(5000))
    with pytest.raises(CalibrationError, match="suns_3_1.png: not a picture OpenCV can read"):
        learn_faces(tmp_path.iterdir(), Profile())
