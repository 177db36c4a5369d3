from pathlib import Path

import cv2
import numpy as np
import pytest

from fantan_table.vision.profile import Profile, ProfileError, load_profile

DEFAULT = Path(__file__).resolve().parents[2] / "calibration" / "profiles" / "default"


def test_the_default_profile_file_is_the_built_in_defaults():
    loaded = load_profile(DEFAULT)
    assert loaded == Profile(source=str(DEFAULT / "profile.toml"))
    assert load_profile(None) == Profile()


def write(tmp_path, text):
    path = tmp_path / "profile.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "text, message",
    [
        ("[dice\nsize = 1", "not valid TOML"),
        ("[cup]\nx = 1", "unknown section [cup]"),
        ("[dice]\nsides = [0.1, 0.2]", "[dice] sides: unknown key; [dice] takes finder, size"),
        ("[dice]\nsize = 0.1", "[dice] size: must be [min, max]"),
        ("[dice]\nsize = [0.2, 0.1]", "[dice] size: out of range"),
        ('[pips]\npolarity = "up"', "[pips] polarity: out of range"),
        ('[dice]\nfinder = "eyes"', "[dice] finder: out of range"),
        ("[pips]\ntop_face = [0.45, 0.5]", "[pips] top_face: out of range"),
        ("[reader]\nwork_width = 64.5", "[reader] work_width: must be a whole number"),
        ("[table]\nroi = [10, 10, 5, 50]", "[table] roi: out of range"),
        ('[table]\nempty = "nope.png"', "no empty-table picture"),
        ('[table]\nempty = "broken.png"', "cannot read the empty-table picture"),
    ],
)
def test_bad_profiles_name_the_file_and_key(tmp_path, capfd, text, message):
    (tmp_path / "broken.png").write_bytes(b"not a picture")
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    assert str(path) in str(info.value) and message in str(info.value)
    if "nope.png" in text:  # a missing picture is ours to say, without OpenCV's warning above it
        assert "imread" not in capfd.readouterr().err


def test_missing_profile(tmp_path):
    with pytest.raises(ProfileError, match="no such profile file"):
        load_profile(tmp_path / "nothing")


def test_values_and_empty_frame_are_read(tmp_path):
    cv2.imwrite(str(tmp_path / "empty.png"), np.full((48, 64, 3), 77, np.uint8))
    path = write(tmp_path, '[dice]\nsize = [0.05, 0.1]\n[table]\nroi = [1, 2, 30, 40]\nempty = "empty.png"\n')
    p = load_profile(tmp_path)
    assert p.die_size == (0.05, 0.1) and p.roi == (1, 2, 30, 40)
    assert p.empty is not None and p.empty.shape == (48, 64, 3)
    assert p.source == str(path)
