"""A camera for laptops and CI: the synthetic renderer's table, with a cup over the dice until it is lifted.

``shake()`` puts the cup down over a new roll (random, or the values given), ``lift()`` takes it
away, and ``capture()`` shows what a camera above the table would: the dark disc of the cup, or
the dice, blurred for the first few frames while they settle.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from ...vision.render import RenderedScene, random_faces, render_on_table, render_scene

PIECEPACK = (0, 1, 2, 3, 4, 5)


class SimulatedCamera:
    def __init__(
        self,
        seed: int = 0,
        size: tuple[int, int] = (1280, 960),
        dice: int = 4,
        faces: Sequence[int] = PIECEPACK,
        settle_frames: int = 2,
        style: str = "mixed",
    ) -> None:
        self._rng = np.random.default_rng(seed)
        self.seed, self.size, self.dice, self.faces = seed, size, dice, tuple(faces)
        self.settle_frames, self.style = settle_frames, style
        self.rolls = 0
        self.scene: RenderedScene | None = None
        self.cup_down = True
        self._frames_since_lift = 0
        self._table = render_scene([], seed, size=size, distractors=False)
        self._cup = self._with_cup(self._table)

    @property
    def rolled(self) -> tuple[int, ...] | None:
        """The values under (or freed from) the cup: the truth the reader should find."""
        return self.scene.values if self.scene else None

    def shake(self, values: Sequence[int] | None = None, scene_seed: int | None = None) -> tuple[int, ...]:
        """Put the cup down over a new roll; returns the values rolled.

        ``scene_seed`` fixes where the dice land, so that a roll can be shown again exactly (a resumed demo).
        """
        self.rolls += 1
        chosen = list(values) if values is not None else random_faces(self._rng, self.dice, self.faces)
        if scene_seed is None:
            scene_seed = self.seed * 100_003 + self.rolls
        if self.style == "piecepack":  # piecepack calibration in simulation: one table, as at a real one
            self.scene = render_on_table(self._table, chosen, scene_seed, style=self.style)
        else:
            self.scene = render_scene(chosen, scene_seed, size=self.size, style=self.style)
        self._cup = self._with_cup(self.scene)
        self.cup_down = True
        return self.scene.values

    def roll_on_after(self, rolls: int) -> None:
        """Roll on as if ``rolls`` rolls had been shaken at this table already (a capture adding to a set of them):
        the next rolls are not theirs again, and the table stays the one the set shows."""
        self.rolls = rolls
        self._rng = np.random.default_rng([self.seed, rolls])

    def lift(self) -> None:
        """Take the cup away. With nothing shaken under it, a roll is shaken first: after a restart with betting
        closed, a real cup still holds the dice the program lost, and the table asks for the lift."""
        if self.scene is None:
            self.shake()
        self.cup_down = False
        self._frames_since_lift = 0

    def capture(self) -> np.ndarray:
        if self.cup_down or self.scene is None:
            return self._cup.copy()
        self._frames_since_lift += 1
        if self._frames_since_lift <= self.settle_frames:
            return _motion_blur(self.scene.image, 9 + 6 * (self.settle_frames - self._frames_since_lift))
        return self.scene.image.copy()

    def settled_roll(self, values: Sequence[int] | None = None) -> np.ndarray:
        """Shake, lift and let the dice settle: the picture of a new roll (calibration captures in simulation)."""
        self.shake(values)
        self.lift()
        for _ in range(self.settle_frames):
            self.capture()
        return self.capture()

    def one_die(self, suit: str, value: int, turn: int) -> np.ndarray:
        """One piecepack die of ``suit`` alone, showing ``value``, turned a little each ``turn``: what a face
        capture asks the person to put down (calibration in simulation)."""
        seed = self.seed * 100_003 + 7919 * (turn + 1) + 97 * value + sum(map(ord, suit))
        self.scene = render_on_table(self._table, [value], seed, style="piecepack", suits=(suit,))
        self.cup_down = False
        return self.scene.image.copy()

    def empty_table(self) -> np.ndarray:
        """The table with nothing on it (the calibration's empty-table picture)."""
        self.scene, self.cup_down = None, False
        return self._table.image.copy()

    def peek(self) -> np.ndarray:
        """What the camera sees now, without moving time on (for a person watching the simulation)."""
        if self.cup_down or self.scene is None:
            return self._cup.copy()
        return self.scene.image.copy()

    def close(self) -> None:
        self.scene = None

    def _with_cup(self, scene: RenderedScene) -> np.ndarray:
        image = scene.image.copy()
        h, w = image.shape[:2]
        if scene.dice:
            points = np.array([d.center for d in scene.dice])
            centre = points.mean(axis=0)
            radius = np.linalg.norm(points - centre, axis=1).max() + scene.dice[0].side
        else:
            centre, radius = np.array([w / 2, h / 2]), 0.3 * min(w, h)
        cv2.circle(image, (int(centre[0]), int(centre[1])), int(radius), (28, 26, 30), -1, cv2.LINE_AA)
        cv2.circle(image, (int(centre[0]), int(centre[1])), int(radius * 0.93), (45, 42, 48), 3, cv2.LINE_AA)
        return image


def _motion_blur(image: np.ndarray, length: int) -> np.ndarray:
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    return cv2.filter2D(image, -1, kernel)
