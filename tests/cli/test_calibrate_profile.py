"""The profile calibrate writes says how it will be read: learned faces are read in the outlines' boxes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from fantan_table.cli.calibrate import _say_which_finder_reads
from fantan_table.vision.profile import LEARNED, SHAPES, load_profile, save_profile


def test_a_profile_with_learned_faces_says_the_outlines_find_its_dice(tmp_path: Path) -> None:
    built_in = load_profile(None)
    assert built_in.finder == LEARNED
    learned = replace(built_in, faces=object())  # only whether faces were learned matters here
    _say_which_finder_reads(save_profile(built_in, tmp_path / "faces", faces="faces.npz"), learned)
    text = (tmp_path / "faces" / "profile.toml").read_text()
    comment = text.split('finder = "learned"')[0].splitlines()[-2:]
    assert comment[0].startswith("# Not used while this profile has learned faces")
    assert "finds the dice by their outlines" in comment[1]
    _say_which_finder_reads(save_profile(built_in, tmp_path / "pips"), built_in)  # no faces: the network reads
    _say_which_finder_reads(save_profile(replace(learned, finder=SHAPES), tmp_path / "shapes"), learned)
    for plain in ("pips", "shapes"):
        assert "Not used while" not in (tmp_path / plain / "profile.toml").read_text()
