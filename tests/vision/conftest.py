from types import SimpleNamespace

import numpy as np
import pytest

from fantan_table.vision.render import render_scene


@pytest.fixture(scope="session")
def scene():
    """Render (and cache) a scene: scene(values, seed, **options)."""
    cache = {}

    def make(values, seed, **options):
        key = (tuple(values), seed, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = render_scene(values, seed, **options)
        return cache[key]

    return make


def close_to(point, points, tolerance):
    return min(np.hypot(point[0] - p[0], point[1] - p[1]) for p in points) < tolerance


def finder_of(found, threshold=0.5, turned=None):
    """A stand-in for the built-in finder whose heat map peaks at ``found`` (``FoundDie``s) alone, and in the
    picture turned a quarter at ``turned`` (in the picture's own pixels; by default the same dice)."""

    def peaks(dice, least):
        return [die for die in dice if die.score >= (threshold if least is None else least)]

    def find(_frame, least=None):
        return peaks(found, least)

    def find_turned(_frame, least=None):
        return peaks(found if turned is None else turned, least)

    return SimpleNamespace(threshold=threshold, find=find, find_turned=find_turned)
