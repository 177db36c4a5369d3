"""Draw one die as a camera at a slant sees it: its top face, and the side faces turned towards the camera,
each with round pips squeezed by how far that face is turned away. The shared photos hold few such cases;
drawn ones cover every value, turn and slant the top-face reader must handle."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from fantan_table.vision.pips import PIP_LAYOUTS, PIP_RADIUS

TEXTURE = 120
IVORY = (228, 236, 242)
TABLE = (95, 130, 160)  # a mid-brown wooden table, darker than the dice's shaded sides


def faces_around(top: int, front: int | None = None) -> list[int]:
    """The values that can lie next to ``top`` (and ``front``) on a real die, whose opposite faces add up to 7."""
    return [v for v in range(1, 7) if v not in (top, 7 - top) and v not in (front, 7 - (front or 0))]


def random_die(rng: random.Random) -> tuple[int, int, int]:
    """(top, front, right) of a real die lying at random."""
    top = rng.randint(1, 6)
    front = rng.choice(faces_around(top))
    return top, front, rng.choice(faces_around(top, front))


def face_texture(value: int) -> np.ndarray:
    face = np.full((TEXTURE, TEXTURE, 3), IVORY, np.uint8)
    for u, v in PIP_LAYOUTS[value]:
        centre = (round(u * TEXTURE), round(v * TEXTURE))
        cv2.circle(face, centre, round(PIP_RADIUS * TEXTURE), (25, 25, 25), -1, cv2.LINE_AA)
    return face


def slanted_die(
    top: int,
    sides: tuple[int, int],
    turn: float,
    elevation: float,
    side_px: float = 56.0,
    size: tuple[int, int] = (640, 480),
) -> tuple[np.ndarray, np.ndarray]:
    """(BGR picture, the die's silhouette mask) of a die turned ``turn`` degrees on the table, seen by a camera
    ``elevation`` degrees above it (orthographic: a die is small in the frame). ``sides`` are the values on
    the two side faces that may face the camera."""
    width, height = size
    cos_t, sin_t = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    sin_e, cos_e = math.sin(math.radians(elevation)), math.cos(math.radians(elevation))

    def project(x: float, y: float, z: float) -> tuple[float, float]:
        """Die coordinates (a unit cube, centred on the table, z up) to frame pixels; the camera is towards -y."""
        wx, wy = cos_t * x - sin_t * y, sin_t * x + cos_t * y
        return width / 2 + side_px * wx, height / 2 - side_px * (wy * sin_e + z * cos_e)

    # each face: its value, its shading, and the die points at its texture's (0, 0), (1, 0) and (0, 1) corners
    faces = [(top, 1.0, ((-0.5, -0.5, 1.0), (0.5, -0.5, 1.0), (-0.5, 0.5, 1.0)))]
    for value, normal, corners in (
        (sides[0], (0.0, -1.0), ((-0.5, -0.5, 1.0), (0.5, -0.5, 1.0), (-0.5, -0.5, 0.0))),
        (sides[1], (1.0, 0.0), ((0.5, -0.5, 1.0), (0.5, 0.5, 1.0), (0.5, -0.5, 0.0))),
        (7 - sides[0], (0.0, 1.0), ((0.5, 0.5, 1.0), (-0.5, 0.5, 1.0), (0.5, 0.5, 0.0))),
        (7 - sides[1], (-1.0, 0.0), ((-0.5, 0.5, 1.0), (-0.5, -0.5, 1.0), (-0.5, 0.5, 0.0))),
    ):
        facing = sin_t * normal[0] + cos_t * normal[1]  # the face's outward normal, towards +y on the table
        if facing < -0.05:  # turned towards the camera (a face seen edge-on shows nothing)
            faces.append((value, 0.9 + 0.06 * (-facing), corners))
    picture = np.full((height, width, 3), TABLE, np.uint8)
    silhouette = np.zeros((height, width), np.uint8)
    for value, shade, corners in faces:
        texture = np.clip(face_texture(value).astype(np.float32) * shade, 0, 255).astype(np.uint8)
        src = np.float32([[0, 0], [TEXTURE, 0], [0, TEXTURE]])
        dst = np.float32([project(*c) for c in corners])
        warp = cv2.getAffineTransform(src, dst)
        drawn = cv2.warpAffine(texture, warp, (width, height), flags=cv2.INTER_AREA)
        inside = cv2.warpAffine(np.full((TEXTURE, TEXTURE), 255, np.uint8), warp, (width, height)) > 127
        picture[inside] = drawn[inside]
        silhouette |= inside.astype(np.uint8)
    return cv2.GaussianBlur(picture, (3, 3), 0.7), silhouette
