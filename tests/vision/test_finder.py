"""The learned die finder: it loads and runs, finds rendered dice where they are, nothing on a bare table, never a
die cut by the frame's edge, and refuses a damaged network with the way to a good one."""

import json
import math
import shutil

import numpy as np
import pytest

from fantan_table.vision import finder as finder_module
from fantan_table.vision.finder import (
    BUILTIN_PATH,
    INPUT_H,
    INPUT_W,
    OUTPUTS,
    STRIDE,
    DiceFinder,
    FinderError,
    FoundDie,
    builtin_finder,
    decode,
    remembering_maps,
    to_input,
)
from fantan_table.vision.finder_data import (
    FINDER_SEEDS,
    STEEP_FINDER_SEEDS,
    WOODEN_FINDER_SEEDS,
    stress_example,
    stress_examples,
)
from fantan_table.vision.profile import SHAPES, Profile
from fantan_table.vision.reader import Status, read_dice
from fantan_table.vision.render import render_scene
from fantan_table.vision.stress import CROP_SCENE_SEEDS, MEASURING_SEEDS

from .conftest import finder_of

TEST_SEEDS = range(41_000, 41_012)
"""render.py scenes for these tests: neither trained on (FINDER_SEEDS and up) nor measured on."""
CENTRE_WITHIN = 0.25
"""A found centre lies within this share of the die's side from the true centre."""
SIDE_WITHIN = 0.25
"""A found side differs from the true side by at least this share only if something is wrong."""
MOST_BYTES = 1_000_000


@pytest.fixture(scope="module")
def finder():
    return builtin_finder()


def test_training_seeds_lie_far_from_measuring_and_test_seeds():
    assert max(MEASURING_SEEDS) < FINDER_SEEDS and FINDER_SEEDS != CROP_SCENE_SEEDS
    assert max(TEST_SEEDS) < FINDER_SEEDS
    assert FINDER_SEEDS < WOODEN_FINDER_SEEDS < STEEP_FINDER_SEEDS  # each kind of scene: a range of its own


def test_wooden_teaching_scenes_are_their_own_seeds_of_wooden_dice():
    wooden = list(stress_examples(WOODEN_FINDER_SEEDS, 2, wooden=True))
    assert [e.name for e in wooden] == [f"stress {WOODEN_FINDER_SEEDS + i}" for i in range(2)]
    assert all(len(e.dice) and (e.dice[:, :2] >= 0).all() for e in wooden)
    plain = stress_example(WOODEN_FINDER_SEEDS)
    assert plain is not None and not np.array_equal(plain.image, wooden[0].image)  # the same seed, of wood


def test_steep_teaching_scenes_are_their_own_seeds_through_a_steep_camera():
    steep = list(stress_examples(STEEP_FINDER_SEEDS, 2, steep=True))
    assert [e.name for e in steep] == [f"stress {STEEP_FINDER_SEEDS + i}" for i in range(2)]
    assert all(len(e.dice) and (e.dice[:, :2] >= 0).all() for e in steep)
    plain = stress_example(STEEP_FINDER_SEEDS)
    assert plain is not None and not np.array_equal(plain.image, steep[0].image)  # the same seed, tilted


def test_the_builtin_network_is_small_and_described():
    assert BUILTIN_PATH.stat().st_size < MOST_BYTES
    sidecar = json.loads(BUILTIN_PATH.with_suffix(".json").read_text())
    assert 0 < sidecar["threshold"] < 1
    assert "trained" in sidecar["info"]


def test_to_input_keeps_the_aspect_and_anchors_top_left():
    frame = np.full((720, 1280, 3), 200, np.uint8)
    image, scale = to_input(frame)
    assert image.shape == (INPUT_H, INPUT_W, 3)
    assert scale == pytest.approx(INPUT_W / 1280)
    filled = round(720 * scale)
    assert (image[:filled] == 200).all() and (image[filled:] == 0).all()


def test_decode_turns_a_peak_into_a_box_in_frame_pixels():
    out = np.full((OUTPUTS, INPUT_H // STRIDE, INPUT_W // STRIDE), -10.0, np.float32)
    y, x = 20, 30
    out[0, y, x] = 3.0  # sigmoid 0.95
    out[1, y, x], out[2, y, x] = 0.25, 0.75
    out[3, y, x] = math.log(10.0)  # ten cells across
    out[4, y, x], out[5, y, x] = math.cos(math.radians(4 * 20)), math.sin(math.radians(4 * 20))
    [die] = decode(out, 0.5, 0.3)
    (cx, cy), (w, h), turn = die.box
    assert (cx, cy) == pytest.approx(((x + 0.25) * STRIDE / 0.5, (y + 0.75) * STRIDE / 0.5))
    assert w == h == pytest.approx(10 * STRIDE / 0.5)
    assert turn == pytest.approx(20.0)
    assert die.score == pytest.approx(1 / (1 + math.exp(-3)))
    assert decode(out, 0.5, 0.99) == []


@pytest.mark.parametrize("seed", TEST_SEEDS)
def test_it_finds_rendered_dice_where_they_lie(finder, seed):
    rng = np.random.default_rng(seed)
    side = float(rng.uniform(40, 120))
    scene = render_scene([int(v) for v in rng.integers(1, 7, 4)], seed, size=(1280, 960), die_side=side)
    _found_where_they_lie(finder.find(scene.image), scene)


@pytest.mark.parametrize("seed", TEST_SEEDS[:2])
def test_turned_it_finds_the_dice_where_the_picture_shows_them(finder, seed):
    """The second look turns the picture a quarter and places what it finds back in the picture's own pixels."""
    scene = render_scene([2, 3, 4, 6], seed, size=(1280, 960), die_side=80, touching=False, distractors=False)
    _found_where_they_lie(finder.find_turned(scene.image), scene)


def _found_where_they_lie(found, scene) -> None:
    """One die found for each die drawn, centred on it and of its size."""
    assert len(found) == len(scene.dice), [f.box[0] for f in found]
    for die in scene.dice:
        nearest = min(found, key=lambda f: math.dist(f.box[0], die.center))
        assert math.dist(nearest.box[0], die.center) < CENTRE_WITHIN * die.side
        assert abs(nearest.box[1][0] - die.side) < SIDE_WITHIN * die.side


@pytest.mark.parametrize("colour", [(40, 90, 30), (200, 200, 200), (20, 20, 20)])
def test_nothing_on_a_bare_table(finder, colour):
    frame = np.full((960, 1280, 3), colour, np.uint8)
    frame += np.random.default_rng(1).integers(0, 6, frame.shape, dtype=np.uint8)
    assert finder.find(frame) == []


def test_a_die_cut_by_the_frame_is_not_counted():
    scene = render_scene([5, 5, 5, 5], 41_100, size=(1280, 960), die_side=90, touching=False, distractors=False)
    right = max(scene.dice, key=lambda d: d.center[0])
    cut = scene.image[:, : round(right.center[0])]  # the rightmost die cut in half
    reading = read_dice(cut, Profile())
    assert all(d.center[0] + d.box[1][0] / 2 <= cut.shape[1] for d in reading.dice)
    assert len(reading.dice) <= 3


def test_inside_remembering_maps_the_network_looks_at_each_frame_once(finder, monkeypatch):
    looked: list[int] = []
    real = DiceFinder._maps

    def counted(self, frame):
        looked.append(id(frame))
        return real(self, frame)

    monkeypatch.setattr(DiceFinder, "_maps", counted)
    frame = render_scene((1, 2, 3, 4), TEST_SEEDS[0]).image
    twin = frame.copy()  # the same picture, another frame: it may have changed since, so it is looked at again
    alone = finder.find(frame)
    with remembering_maps():
        first = [finder.find(frame) for _ in range(3)]
        again = finder.find(twin)
    assert looked == [id(frame), id(frame), id(twin)]
    assert first == [alone] * 3 and again == alone
    finder.find(frame)  # the block is over: nothing is remembered
    assert len(looked) == 4


def test_a_remembered_frame_whose_id_is_reused_is_looked_at_again(finder):
    other = render_scene((5, 5, 0, 1), TEST_SEEDS[1]).image
    with remembering_maps():
        frame = render_scene((1, 2, 3, 4), TEST_SEEDS[0]).image
        finder.find(frame)
        freed = id(frame)
        del frame
        views = [other[:] for _ in range(100)]  # new frame objects: in CPython one takes the freed frame's place
        reused = next((view for view in views if id(view) == freed), None)
        if reused is None:
            pytest.skip("this Python gave no new object a freed object's id")
        assert finder.find(reused) == finder.find(other)


def test_remembered_maps_are_let_go_with_their_frame(finder):
    frame = render_scene((1, 2, 3, 4), TEST_SEEDS[0]).image
    with remembering_maps():
        for _ in range(5):  # as a profile's roi does: a new view of the frame at every reading
            finder.find(frame[10:-10, 10:-10])
        assert len(finder_module._remembered.get()) <= 1


def test_remembering_maps_inside_another_keeps_what_the_outer_remembers(finder, monkeypatch):
    looked = []
    real = DiceFinder._maps
    monkeypatch.setattr(DiceFinder, "_maps", lambda self, frame: looked.append(1) or real(self, frame))
    frame = render_scene((1, 2, 3, 4), TEST_SEEDS[0]).image
    with remembering_maps():
        finder.find(frame)
        with remembering_maps():
            finder.find(frame)
        finder.find(frame)
    assert len(looked) == 1


def test_remembered_maps_cannot_be_changed_by_a_reader(finder):
    frame = render_scene((1, 2, 3, 4), TEST_SEEDS[0]).image
    with remembering_maps():
        out, _ = finder.maps(frame)
        with pytest.raises(ValueError, match="read-only"):
            out[0, 0, 0] = 1.0


@pytest.mark.parametrize(
    "profile",
    [
        Profile(),
        Profile(finder=SHAPES),
        Profile(side_faces=True),
        Profile(roi=(100, 80, 1180, 880)),
        Profile().with_empty(render_scene((), TEST_SEEDS[0]).image),
    ],
    ids=["network", "outlines", "side-faces", "roi", "empty-table"],
)
@pytest.mark.parametrize("expect", [None, 4])
def test_the_reader_never_writes_into_the_frame_it_reads(profile, expect):
    """What ``remembering_maps`` rests on: a frame stays as it was while it is read."""
    for seed in TEST_SEEDS[:3]:
        frame = render_scene((0, 2, 5, 6), seed).image
        frame.flags.writeable = False  # a write raises, which the reader would report as an error
        reading = read_dice(frame, profile, expect)
        assert reading.status is not Status.ERROR, reading.message


def test_a_damaged_network_is_refused_with_the_way_out(tmp_path):
    path = tmp_path / "dice-finder.onnx"
    shutil.copy(BUILTIN_PATH, path)
    shutil.copy(BUILTIN_PATH.with_suffix(".json"), path.with_suffix(".json"))
    assert DiceFinder.load(path).threshold == builtin_finder().threshold
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(FinderError, match="train it again"):
        DiceFinder.load(path)
    path.with_suffix(".json").unlink()
    with pytest.raises(FinderError, match="cannot read"):
        DiceFinder.load(path)


def test_a_network_not_matching_its_description_is_refused(tmp_path):
    path = tmp_path / "dice-finder.onnx"
    shutil.copy(BUILTIN_PATH, path)
    sidecar = json.loads(BUILTIN_PATH.with_suffix(".json").read_text())
    path.with_suffix(".json").write_text(json.dumps(sidecar | {"onnx_sha256": "0" * 64}))
    with pytest.raises(FinderError, match="not the one"):
        DiceFinder.load(path)
    path.with_suffix(".json").write_text(json.dumps(sidecar | {"input": [3, 100, 100]}))
    with pytest.raises(FinderError, match="another input"):
        DiceFinder.load(path)


@pytest.mark.parametrize(("score", "read"), [(0.6, None), (0.9, 0)])
def test_a_blank_the_network_was_not_sure_of_is_unsure(monkeypatch, score, read):
    """A plain patch of table or a coin the network took for a die reads blank: a blank needs it found surely."""
    from fantan_table.vision import reader

    scene = render_scene([0], 41_200, size=(640, 480), die_side=90, style="pips", touching=False, distractors=False)
    die = scene.dice[0]
    found = FoundDie((die.center, (die.side, die.side), die.angle), score)
    monkeypatch.setattr(reader, "builtin_finder", lambda: finder_of([found]))
    reading = reader._reading(scene.image, (0, 0), reader._found_by_network(scene.image, 1), Profile(), 1)
    assert [d.value for d in reading.dice] == [read] and (read is None) == (reader.PLAIN_DOUBT in reading.message)


def test_a_plain_face_found_weakly_is_no_die_where_no_face_is_blank(monkeypatch):
    """Dice with no blank face (ordinary d6): a plain face is no die at all, as a patch of table or a coin is; found
    weakly it is left out like one found surely, not kept as a doubtful die that leaves the roll unsure."""
    from fantan_table.vision import reader

    scene = render_scene([3, 0], 41_210, size=(800, 600), die_side=90, style="pips", touching=False, distractors=False)
    three, plain = sorted(scene.dice, key=lambda d: -d.value)
    found = [FoundDie((d.center, (d.side, d.side), d.angle), score) for d, score in ((three, 0.9), (plain, 0.6))]
    monkeypatch.setattr(reader, "builtin_finder", lambda: finder_of(found))
    d6 = Profile(blank_face=False)
    reading = reader._reading(scene.image, (0, 0), reader._found_by_network(scene.image, 1), d6, 1)
    assert reading.status is Status.OK and reading.values == (3,)
    # with a blank face among the dice's faces, the same weak plain face is a doubt
    reading = reader._reading(scene.image, (0, 0), reader._found_by_network(scene.image, 2), Profile(), 2)
    assert reading.status is Status.UNSURE and reader.PLAIN_DOUBT in reading.message


TEAL, GREY = (170, 165, 60), (105, 115, 110)  # BGR: a patterned mat's two colours
CHECK_PX = 110
"""A check of the mat: a little larger than the dice drawn (90 px), as the patch wooden DEV 657487 read blank."""


def _on_a_checked_mat(
    image: np.ndarray, keep: tuple[float, float], keep_px: float, check_px: int = CHECK_PX
) -> np.ndarray:
    """``image`` with a mat of checks drawn over all of it but a square of ``keep_px`` round ``keep``."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    # one check in three teal: the mat's look is its grey, which the teal checks stand out from
    checks = np.where((((xs // check_px) + (ys // check_px)) % 3 == 0)[..., None], TEAL, GREY).astype(np.uint8)
    away = (np.abs(xs - keep[0]) > keep_px / 2) | (np.abs(ys - keep[1]) > keep_px / 2)
    return np.where(away[..., None], checks, image)


def test_a_blank_on_a_patch_of_the_tables_print_is_unsure():
    """A patterned mat has plain, die-sized patches that the network and the classifier may take for a blank die
    (wooden DEV 657487: a teal check of a diamond mat read as a 0, all ok); a blank die lying on the mat is a die."""
    from fantan_table.vision import reader

    scene = render_scene([0], 41_300, die_side=90, style="pips", touching=False, distractors=False)
    die = scene.dice[0]
    frame = _on_a_checked_mat(scene.image, die.center, 2 * die.side)
    check = ((5.5 * CHECK_PX, 4.5 * CHECK_PX), (0.9 * CHECK_PX, 0.9 * CHECK_PX), 0.0)  # a teal check's middle
    assert tuple(frame[round(check[0][1]), round(check[0][0])]) == TEAL
    blank_die = reader.DieReading(0, die.center, (die.center, (die.side, die.side), die.angle), 1.0)
    on_print = reader.DieReading(0, check[0], check, 1.0)
    read = reader._blanks_on_print(frame, [blank_die, on_print], [0.9, 0.9], Profile(), 2)
    assert read[0] == blank_die
    assert (read[1].value, read[1].problem) == (None, reader.ON_PRINT)
    # only blanks in the network's boxes: a face with pips has its own evidence; the outlines leave print out
    three = reader.DieReading(3, check[0], check, 1.0)
    assert reader._blanks_on_print(frame, [blank_die, three], [0.9, 0.9], Profile(), 2)[1] == three
    assert reader._blanks_on_print(frame, [blank_die, on_print], [0.9, None], Profile(), 2)[1] == on_print
    # dice with no blank face: a blank is no die at all, which the reader leaves out; it must not stay as unsure
    d6 = Profile(blank_face=False)
    assert reader._blanks_on_print(frame, [blank_die, on_print], [0.9, 0.9], d6, 2) == [blank_die, on_print]
    # on a plain mat the same patch stands out from nothing: no print (the network's score decides, as before)
    plain = np.where((frame == np.array(GREY, np.uint8)).all(axis=2)[..., None], np.array(TEAL, np.uint8), frame)
    assert reader._blanks_on_print(plain, [blank_die, on_print], [0.9, 0.9], Profile(), 2) == [blank_die, on_print]
    # nor is a mat printed finer than a die: its patches could not hold one
    fine = _on_a_checked_mat(scene.image, die.center, 2 * die.side, check_px=CHECK_PX // 4)
    assert reader._blanks_on_print(fine, [blank_die, on_print], [0.9, 0.9], Profile(), 2) == [blank_die, on_print]
