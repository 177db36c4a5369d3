"""Mistakes a newcomer makes at the command line: each is one line saying what to give instead, exit 2, no
traceback, and nothing done before it is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from fantan_table.cli import main

NO_FOLDER_HERE = "/proc/no-such-folder"
"""A folder that cannot be made by anyone (/proc takes no new entries)."""


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.md"
    path.write_text("not a folder\n")
    return path


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one-line error of a usage mistake (exit 2)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("command", [["render", "--n", "1", "--out"], ["read", "x.png", "--annotate"]])
def test_an_output_folder_that_is_a_file_or_cannot_be_made_is_refused(
    command: list[str], a_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    option = command[-1]
    assert f"{option} {a_file} is a file: give a folder" in refused([*command, str(a_file)], capsys)
    assert "cannot make that folder" in refused([*command, NO_FOLDER_HERE], capsys)
    assert "cannot make that folder (Not a directory)" in refused([*command, str(a_file / "sub")], capsys)


def test_read_says_a_folder_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", str(tmp_path)]) == 1
    assert f"cannot read {tmp_path}: a folder, not a picture; give the pictures in it" in capsys.readouterr().out
