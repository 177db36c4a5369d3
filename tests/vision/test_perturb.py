import cv2
import numpy as np
import pytest

from fantan_table.vision.perturb import PERTURBATIONS
from fantan_table.vision.render import render_scene


@pytest.mark.parametrize("kind", sorted(PERTURBATIONS))
def test_each_perturbation_changes_a_picture_and_keeps_it_a_bgr_picture(kind):
    picture = np.zeros((40, 60, 3), np.uint8)
    cv2.rectangle(picture, (10, 5), (25, 30), (40, 120, 200), -1)
    cv2.circle(picture, (45, 12), 6, (250, 250, 250), -1)
    changed = PERTURBATIONS[kind](picture.copy())
    assert changed.dtype == np.uint8 and changed.ndim == 3 and changed.shape[2] == 3
    assert changed.shape != picture.shape or not np.array_equal(changed, picture)
    assert np.array_equal(PERTURBATIONS[kind](picture.copy()), changed)  # the same each run


@pytest.mark.parametrize("kind", ["turned-30", "tilted"])
def test_a_turned_or_tilted_picture_keeps_its_dice_and_fills_its_corners_with_the_table(kind):
    scene = render_scene((1, 2, 3, 4), 100_000)
    changed = PERTURBATIONS[kind](scene.image)
    table = np.median(scene.image.reshape(-1, 3), axis=0)
    corner = changed[:3, :3].reshape(-1, 3)
    assert np.abs(corner - table).max() <= 1  # no black corners to take for dice or shadows
    grey = cv2.cvtColor(changed, cv2.COLOR_BGR2GRAY)
    assert grey.std() > 10  # the scene is still in it, not a blank canvas
