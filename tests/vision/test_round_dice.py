"""Dice with well rounded corners (real piecepack dice) are dice, not coins: as round as a coin by their
enclosing circle, but as square as a die by their bounding box. A face capture of one such die alone on dark blue
felt once stopped calibration with "no die found"."""

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.vision.calibrate import WIDE_SIZES, learn_faces
from fantan_table.vision.profile import Profile
from fantan_table.vision.reader import face_crop, read_dice
from fantan_table.vision.render import FACE_CANVAS, piecepack_mark, render_scene

DARK_BLUE_FELT = (90, 40, 20)
WHITE = (242, 244, 244)
ARMS_BLUE = (170, 90, 30)


def round_die_on_blue_felt(value: int, seed: int, corner: float = 0.3, side: float = 70.0) -> np.ndarray:
    """One white piecepack die (a blue numeral, ``corner`` of its side rounded) on the renderer's cloth dyed blue."""
    rng = np.random.default_rng(seed)
    table = render_scene([], seed, size=(1280, 960), surface="dark", distractors=False).image.astype(np.float32)
    picture = (table * np.array(DARK_BLUE_FELT, np.float32) / table.reshape(-1, 3).mean(axis=0)).clip(0, 255)
    picture = picture.astype(np.uint8)
    centre = rng.uniform((400, 300), (880, 660))
    angle = math.radians(rng.uniform(0, 90))
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    half, radius = side / 2, corner * side
    outline = []
    for k, (sx, sy) in enumerate([(1, 1), (-1, 1), (-1, -1), (1, -1)]):
        for t in np.linspace(0, math.pi / 2, 12):
            a = t + k * math.pi / 2
            outline.append((sx * (half - radius) + radius * math.cos(a), sy * (half - radius) + radius * math.sin(a)))
    points = np.array(outline) @ turn.T + centre
    cv2.fillPoly(picture, [np.round(points * 16).astype(np.int32)], WHITE, cv2.LINE_AA, shift=4)
    scale = side / FACE_CANVAS
    shift = centre - (turn * scale) @ np.array([FACE_CANVAS / 2, FACE_CANVAS / 2])
    matrix = np.hstack([turn * scale, shift[:, None]]).astype(np.float32)
    mark = cv2.warpAffine(piecepack_mark(value, "arms"), matrix, (1280, 960), flags=cv2.INTER_LINEAR)[..., None]
    picture = picture * (1 - mark) + np.array(ARMS_BLUE, np.float32) * mark
    return cv2.GaussianBlur(picture.clip(0, 255).astype(np.uint8), (0, 0), 1.0)


@pytest.mark.parametrize("corner", [0.1, 0.25, 0.3, 0.35])
def test_a_die_with_round_corners_alone_is_found(corner):
    reading = read_dice(round_die_on_blue_felt(3, 5, corner), Profile(die_size=WIDE_SIZES))
    assert len(reading.dice) == 1, reading.message


def test_faces_of_round_dice_on_blue_felt_are_learned(tmp_path: Path):
    for value in range(6):
        for k in range(2):
            cv2.imwrite(str(tmp_path / f"arms_{value}_{k + 1}.png"), round_die_on_blue_felt(value, 10 * value + k))
    model = learn_faces(tmp_path.iterdir(), Profile())
    fresh = round_die_on_blue_felt(3, 99)
    [die] = read_dice(fresh, Profile(die_size=WIDE_SIZES)).dice
    assert model.classify(face_crop(fresh, die.box))[0] == 3
