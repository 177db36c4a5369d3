"""Keys declared once (fantan_table.settings), used by the reader's profiles: the committed default profile is
the one the declaration writes, a saved profile reads back as itself, and every mistake names file and key."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fantan_table.cli import main
from fantan_table.vision.profile import DEFAULT_FOLDER, KEYS, Profile, ProfileError, example, load_profile, save_profile

DEFAULT = Path(__file__).parents[1] / DEFAULT_FOLDER / "profile.toml"


def test_the_committed_default_profile_is_the_one_the_declaration_writes(capsys: pytest.CaptureFixture[str]) -> None:
    assert DEFAULT.read_text(encoding="utf-8") == example(), f"run: fantan-table config --example profile > {DEFAULT}"
    assert main(["config", "--example", "profile"]) == 0
    assert capsys.readouterr().out == example()


def test_every_profile_key_is_a_field_of_the_profile_with_its_default() -> None:
    defaults = Profile()
    for key in KEYS.values():
        if key.name in ("empty", "model"):  # files beside the profile, read into a frame and a model
            continue
        assert getattr(defaults, key.attribute or key.name) == key.default, key.label


def test_a_saved_profile_reads_back_as_itself(tmp_path: Path) -> None:
    changed = replace(Profile(), die_size=(0.05, 0.1), blank_face=False, pip_polarity="dark", roi=(1, 2, 30, 40))
    path = save_profile(changed, tmp_path)
    assert load_profile(path) == replace(changed, source=str(path))


def test_a_value_outside_any_section_says_where_keys_go(tmp_path: Path) -> None:
    path = tmp_path / "profile.toml"
    path.write_text("work_width = 640\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"work_width: unknown key; the top level takes no keys"):
        load_profile(path)
