"""The stress renderer: repeatable, its labels agree with what it drew, and it spans the looks it promises."""

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantan_table.cli import main
from fantan_table.vision.dataset import read_labels
from fantan_table.vision.stress import (
    BODIES,
    DIE_PX,
    DISTRACTORS,
    GRAIN_DEPTH,
    MEASURING_SEEDS,
    NOT_A_FACE,
    PIP_SHARE,
    TABLES,
    TILT_DEG,
    WOODS,
    StressScene,
    grain,
    stress_scene,
    training_crops,
)

ARTIFACTS = Path(__file__).parents[2] / "test-artifacts"
SEEDS = range(700_000, 700_060)
"""Scenes the tests look at; the benchmark's seeds (900000 on) are never used here."""


@pytest.fixture(scope="module")
def scenes() -> list[StressScene]:
    return [stress_scene(seed) for seed in SEEDS]


def test_same_seed_same_scene_and_another_seed_another():
    a, b = stress_scene(3), stress_scene(3)
    assert np.array_equal(a.image, b.image) and a.dice == b.dice and a.distractors == b.distractors
    other = stress_scene(4)
    assert a.dice != other.dice
    assert a.image.shape != other.image.shape or not np.array_equal(a.image, other.image)


def test_a_seed_draws_the_same_scene_whatever_was_drawn_before_it():
    """Noise comes from a field of fixed content; a larger picture drawn between must not move its window."""
    first = stress_scene(3, size=(1280, 960)).image
    stress_scene(4, size=(1920, 1080))
    stress_scene(5, size=(640, 480))
    assert np.array_equal(stress_scene(3, size=(1280, 960)).image, first)


def test_four_whole_dice_in_the_frame_with_boxes_around_their_top_faces(scenes):
    for s in scenes:
        h, w = s.image.shape[:2]
        assert len(s.counted) == 4 and s.image.dtype == np.uint8
        for d in s.dice:
            x0, y0, x1, y1 = d.box
            assert 0 <= x0 < x1 < w and 0 <= y0 < y1 < h
            top = np.array(d.top)
            if d.cut:  # more than half of a cut die's top face lies outside the picture
                inside = np.clip(top, 0, (w, h))
                assert cv2.contourArea(inside.astype(np.float32)) < 0.5 * cv2.contourArea(top.astype(np.float32))
            else:
                assert (top >= (x0 - 1, y0 - 1)).all() and (top <= (x1 + 1, y1 + 1)).all()
                # the rotated box holds the top face, and not much more (a slanted face is not square)
                rect = cv2.boxPoints(d.top_box)
                assert all(cv2.pointPolygonTest(rect, (float(x), float(y)), True) > -1 for x, y in top)
                assert cv2.contourArea(rect) < 1.5 * cv2.contourArea(top.astype(np.float32))


def _top_face(scene: StressScene, die, px: int) -> np.ndarray:
    """The die's top face cut out exactly along its drawn corners, as a px x px square."""
    square = np.array([(0, 0), (px, 0), (px, px), (0, px)], np.float32)
    return cv2.warpPerspective(
        scene.image, cv2.getPerspectiveTransform(np.array(die.top, np.float32), square), (px, px)
    )


def _pips_seen(scene: StressScene, die) -> int:
    """Count the marks on a die's top face, cut out exactly along its drawn corners: an independent look."""
    px = 96
    lab = cv2.cvtColor(_top_face(scene, die, px), cv2.COLOR_BGR2Lab).astype(np.float32)
    inner = lab[10:-10, 10:-10]
    body = np.median(inner.reshape(-1, 3), axis=0)
    far = (np.linalg.norm(inner - body, axis=2) > 30).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(far)
    pip_area = (die.pip_share * px / 2) ** 2 * np.pi
    return sum(1 for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] > 0.3 * pip_area)


def test_the_label_is_what_was_drawn_on_large_clear_top_faces(scenes):
    """On big, sharp, matt dice, counting the marks on the top face (cut out along its corners) gives the label."""
    clear = [
        (s, d)
        for s in scenes
        if not s.blur.startswith(("motion", "defocus"))
        for d in s.counted
        if d.side_px > 50 and d.kind == "pips" and not d.gloss
    ]
    assert len(clear) >= 30
    wrong = [(s.seed, d.value, _pips_seen(s, d)) for s, d in clear if _pips_seen(s, d) != d.value]
    assert not wrong, f"(seed, label, counted): {wrong}"


def test_the_looks_span_their_ranges(scenes):
    dice = [d for s in scenes for d in s.counted]
    sides = [d.side_px for d in dice]
    assert min(sides) < 1.6 * DIE_PX[0] and max(sides) > 0.6 * DIE_PX[1]
    shares = [d.pip_share for d in dice]
    assert min(shares) < PIP_SHARE[0] + 0.015 and max(shares) > PIP_SHARE[1] - 0.015
    tilts = [s.tilt_deg for s in scenes]
    assert min(tilts) == 0 and max(tilts) > 0.8 * TILT_DEG[1]
    assert {s.table for s in scenes} == set(TABLES)
    assert {what for s in scenes for what, _ in s.distractors} == set(DISTRACTORS)
    assert len({d.body for d in dice}) >= len(BODIES) - 2
    assert {d.marks for d in dice} >= {"black", "white"} and len({d.marks for d in dice}) >= 4
    assert set(Counter(d.value for d in dice)) == set(range(7))
    assert any(d.side_faces >= 2 for d in dice) and any(d.side_faces == 0 for d in dice)
    assert any(s.touching for s in scenes) and not all(s.touching for s in scenes)


def test_a_steep_camera_tilts_every_scene(scenes):
    """``steep`` draws the seeds' scenes through a camera tilted 40-60 degrees, four dice counted in each."""
    from fantan_table.vision.stress import STEEP_TILT_DEG

    steep = [stress_scene(s.seed, steep=True) for s in scenes[:12]]
    assert all(STEEP_TILT_DEG[0] <= s.tilt_deg <= STEEP_TILT_DEG[1] for s in steep)
    assert all(len(s.values) == 4 for s in steep)
    assert max(s.tilt_deg for s in steep) > max(s.tilt_deg for s in scenes)
    assert any(d.cut for s in scenes for d in s.dice)
    qualities = [s.jpeg_quality for s in scenes]
    assert None in qualities and min(q for q in qualities if q) < 60 and max(q for q in qualities if q) > 85
    assert {s.blur.split()[0] for s in scenes} == {"none", "lens", "motion", "defocus"}
    assert len({s.image.shape for s in scenes}) >= 3


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 12),
    width=st.integers(160, 1400),
    height=st.integers(120, 1000),
)
def test_any_seed_count_and_frame_size_gives_the_dice_asked_for(seed, count, width, height):
    s = stress_scene(seed, count=count, size=(width, height))
    assert s.image.shape == (height, width, 3) and len(s.counted) == count
    for d in s.dice:
        x0, y0, x1, y1 = d.box
        assert 0 <= x0 < x1 < width and 0 <= y0 < y1 < height


def test_piecepack_dice_are_one_of_each_suit_and_show_0_to_5():
    s = stress_scene(5, piecepack=True)
    assert sorted(d.kind for d in s.counted) == sorted(f"piecepack-{x}" for x in ("suns", "moons", "crowns", "arms"))
    assert all(0 <= d.value <= 5 for d in s.counted)


def test_faces_limits_the_values_on_top():
    assert all(stress_scene(seed, faces=(0,)).values == (0, 0, 0, 0) for seed in range(3))


def test_wooden_dice_are_pipped_dice_of_wood_and_their_labels_are_what_was_drawn():
    scenes = [stress_scene(seed, wooden=True) for seed in range(700_100, 700_130)]
    assert {d.body for s in scenes for d in s.dice} <= set(WOODS)
    assert all(d.kind == "pips" for s in scenes for d in s.dice)
    clear = [
        (s, d)
        for s in scenes
        if not s.blur.startswith(("motion", "defocus"))
        for d in s.counted
        if d.side_px > 50 and not d.gloss
    ]
    assert len(clear) >= 15
    wrong = [(s.seed, d.value, _pips_seen(s, d)) for s, d in clear if _pips_seen(s, d) != d.value]
    assert not wrong, f"(seed, label, counted): {wrong}"


def test_wood_grain_is_stripes_about_the_woods_own_colour():
    for seed in range(20):
        factor = grain(np.random.default_rng(seed), 96)
        assert factor.shape == (96, 96) and factor.dtype == np.float32
        assert abs(float(factor.mean()) - 1) < 0.03
        spread = float(np.percentile(factor, 95) - np.percentile(factor, 5))
        assert GRAIN_DEPTH[0] < spread < 2 * GRAIN_DEPTH[1] + 0.1  # the stripes, and a little speckle


def test_wooden_dice_look_grained_where_plain_ones_do_not():
    """The same seed with and without wood: the top face's body varies more on wood."""

    def body_spread(scene: StressScene) -> float:
        face = _top_face(scene, max(scene.counted, key=lambda d: d.side_px), 64)
        light = cv2.cvtColor(face, cv2.COLOR_BGR2Lab)[8:-8, 8:-8, 0].astype(float)
        body = light[np.abs(light - np.median(light)) < 25]  # the pips apart
        return float(np.std(body))

    seeds = range(700_200, 700_230)
    wooden = np.median([body_spread(stress_scene(seed, wooden=True)) for seed in seeds])
    plain = np.median([body_spread(stress_scene(seed)) for seed in seeds])
    assert wooden > 1.3 * plain


@pytest.mark.parametrize("count", [0, 13])
def test_impossible_dice_counts_are_refused(count):
    with pytest.raises(ValueError, match="1 to 12"):
        stress_scene(1, count=count)


def test_training_crops_are_labelled_repeatable_and_include_not_faces():
    crops = training_crops(7, 40)
    again = training_crops(7, 40)
    assert crops.images.shape == (40, 64, 64, 3) and crops.images.dtype == np.uint8
    assert np.array_equal(crops.images, again.images) and np.array_equal(crops.labels, again.labels)
    assert set(crops.labels) <= {NOT_A_FACE, *range(7)}
    assert 0.15 < np.mean(crops.labels == NOT_A_FACE) < 0.5
    first = stress_scene(crops.scenes[0])
    assert crops.labels[0] == first.counted[0].value
    assert not set(crops.scenes) & set(MEASURING_SEEDS)
    assert np.linalg.norm(np.subtract(crops.boxes[0][0], first.counted[0].center)) < 0.3 * first.counted[0].side_px


def test_cli_writes_a_stress_set_with_labels_and_boxes(tmp_path):
    assert main(["render", "--style", "stress", "--out", str(tmp_path), "--n", "3", "--seed", "4"]) == 0
    samples = read_labels(tmp_path)
    boxes = json.loads((tmp_path / "boxes.json").read_text())
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert len(samples) == 3
    for sample in samples:
        assert sorted(b["value"] for b in boxes[sample.image.name]) == sorted(sample.values)
        assert len(truth[sample.image.name]["dice"]) >= 4
    again = tmp_path / "again"
    main(["render", "--style", "stress", "--out", str(again), "--n", "3", "--seed", "4"])
    assert (again / "boxes.json").read_text() == (tmp_path / "boxes.json").read_text()


def test_piecepack_dice_are_not_drawn_of_wood():
    with pytest.raises(ValueError, match="pipped"):
        stress_scene(1, piecepack=True, wooden=True)


def test_cli_writes_a_set_of_wooden_dice_and_refuses_wooden_piecepack(tmp_path, capsys):
    assert main(["render", "--style", "stress-wooden", "--out", str(tmp_path), "--n", "2", "--seed", "4"]) == 0
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert {d["body"] for scene in truth.values() for d in scene["dice"]} <= set(WOODS)
    code = main(
        ["render", "--style", "stress-wooden", "--faces", "piecepack", "--out", str(tmp_path / "p"), "--n", "1"]
    )
    assert code != 0 and "pipped dice of wood" in capsys.readouterr().err


def test_cli_writes_a_set_seen_through_a_steep_camera(tmp_path):
    from fantan_table.vision.stress import STEEP_TILT_DEG

    assert main(["render", "--style", "stress-steep", "--out", str(tmp_path), "--n", "2", "--seed", "4"]) == 0
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert len(truth) == 2 and all(STEEP_TILT_DEG[0] <= t["tilt_deg"] <= STEEP_TILT_DEG[1] for t in truth.values())


def test_contact_sheet_for_a_person_to_look_at(scenes):
    """One picture of many looks (the last row piecepack dice), boxes and labels drawn on, in
    test-artifacts/stress-sheet.png."""
    tiles = []
    for s in [*scenes[:12], *(stress_scene(seed, piecepack=True) for seed in range(4))]:
        img = s.image.copy()
        for d in s.dice:
            x0, y0, x1, y1 = d.box
            cv2.rectangle(img, (x0, y0), (x1, y1), (0, 0, 255) if d.cut else (0, 255, 0), 2)
            cv2.putText(img, str(d.value), (x0, max(20, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 255, 255), 2)
        tiles.append(cv2.resize(img, (480, 360), interpolation=cv2.INTER_AREA))
    sheet = np.vstack([np.hstack(tiles[i : i + 4]) for i in range(0, 16, 4)])
    ARTIFACTS.mkdir(exist_ok=True)
    assert cv2.imwrite(str(ARTIFACTS / "stress-sheet.png"), sheet)
