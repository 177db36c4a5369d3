"""Mistakes a newcomer makes at the command line: each is one line saying what to give instead, exit 2, no
traceback, and nothing done before it is said."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fantan_table.cli import main

INTERRUPTED = 130
"""The exit status of a command stopped with Ctrl-C (128 + SIGINT), as a shell gives it."""
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


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["read", "x.png", "--expct", "4"],
            "fantan-table read: error: unrecognized arguments: --expct 4; did you mean --expect?",
        ),
        (
            ["demo", "--bogus", "--sed=4"],
            "fantan-table demo: error: unrecognized arguments: --bogus --sed=4; did you mean --seed?",
        ),
        (
            ["read", "x.png", "--zzz"],
            "fantan-table read: error: unrecognized arguments: --zzz (see fantan-table read --help)",
        ),
        (["read", "x.png", "--JSON"], "fantan-table read: error: unrecognized arguments: --JSON; did you mean --json?"),
        (
            ["--verison", "read", "x.png"],
            "fantan-table: error: unrecognized arguments: --verison; did you mean --version? (see fan",
        ),
        (  # one dash for two: the commands take no one-letter options but -h
            ["demo", "-rounds", "3"],
            "fantan-table demo: error: unrecognized arguments: -rounds 3; did you mean --rounds? (see",
        ),
    ],
)
def test_an_option_the_command_does_not_take_is_the_commands_error(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its help lists the options it takes; the top level's (as argparse has it) lists only the commands."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["calibrate", "--images", "rolls", "--ot", "profile"],
            "fantan-table calibrate: error: unrecognized arguments: --ot; did you mean --out?; and the following"
            " arguments are required: --out (see fantan-table calibrate --help)",
        ),
        (
            ["calibrate", "--images", "rolls"],
            "fantan-table calibrate: error: the following arguments are required: --out (see",
        ),
        (
            ["calibrate", "--images", "rolls", "-out", "profile"],
            "fantan-table calibrate: error: unrecognized arguments: -out; did you mean --out?; and the following"
            " arguments are required: --out (see",
        ),
    ],
)
def test_a_mistyped_required_option_is_named_with_the_option_missing(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse finds the required option missing before it looks at the unknown ones: the mistyped one, the
    reason it is missing, is named with its hint all the same."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


def test_a_prefix_of_an_option_is_no_stray(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """argparse takes ``--ou`` for ``--out``: the missing option named is then the real one, with no stray."""
    with pytest.raises(SystemExit):
        main(["calibrate", "--ou", str(tmp_path / "profile"), "--ex", "4"])
    err = capsys.readouterr().err
    assert "the following arguments are required: --images" in err and "unrecognized" not in err, err


def test_a_value_with_a_space_is_no_stray(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder named ``--my dir`` is a value, as argparse takes a word with a space in it: no option is named as
    mistyped, only the one missing."""
    with pytest.raises(SystemExit):
        main(["calibrate", "--images", "--my dir", "--expect", "4"])
    err = capsys.readouterr().err
    assert "the following arguments are required: --out" in err and "unrecognized" not in err, err


def test_a_negative_number_is_a_value_not_a_mistyped_option(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse takes ``-3`` for a value: the missing option alone is named, with no stray beside it."""
    with pytest.raises(SystemExit):
        main(["calibrate", "--images", "-3", "--expect", "4"])
    err = capsys.readouterr().err
    assert "the following arguments are required: --out" in err and "unrecognized" not in err, err


def test_read_says_a_folder_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", str(tmp_path)]) == 1
    assert f"cannot read {tmp_path}: a folder, not a picture; give the pictures in it" in capsys.readouterr().out


@pytest.fixture(scope="module")
def two_rolls(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rolls")
    assert main(["render", "--out", str(out), "--n", "2", "--size", "320x240"]) == 0
    return out


def test_calibrate_refuses_an_out_that_is_a_file_before_the_work(
    two_rolls: Path, a_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def too_soon(*args: object) -> None:
        raise AssertionError("calibrated before --out was checked")

    monkeypatch.setattr("fantan_table.cli.calibrate.calibrate", too_soon)
    argv = ["calibrate", "--images", str(two_rolls), "--out", str(a_file)]
    assert f"--out {a_file} is a file: give a folder" in refused(argv, capsys)


def test_calibrate_says_a_missing_empty_picture_without_opencv_warnings(
    two_rolls: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jpg"
    argv = ["calibrate", "--images", str(two_rolls), "--out", str(tmp_path / "profile"), "--empty", str(missing)]
    assert main(argv) == 2
    err = capfd.readouterr().err
    assert f"--empty: {missing} could not be read (No such file or directory)" in err
    assert "WARN" not in err and len(err.strip().splitlines()) == 1, err


def test_a_failed_calibration_leaves_no_folder_it_made(
    two_rolls: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--out is made before the work, so that the work is not lost to a folder that cannot be written at the end; a
    try that fails (bad --empty found late, Ctrl-C in the tuning) takes the folders it made away again."""
    out = tmp_path / "profiles" / "table"
    argv = ["calibrate", "--images", str(two_rolls), "--out", str(out), "--empty", str(tmp_path / "nope.jpg")]
    refused(argv, capsys)
    assert not (tmp_path / "profiles").exists()

    def interrupted(*args: object) -> None:
        assert out.is_dir()  # made before the work
        raise KeyboardInterrupt

    monkeypatch.setattr("fantan_table.cli.calibrate.calibrate", interrupted)
    assert main(["calibrate", "--images", str(two_rolls), "--out", str(out), "--json"]) == INTERRUPTED
    assert not (tmp_path / "profiles").exists()

    out.mkdir(parents=True)  # a folder there before is kept, empty or not
    assert main(["calibrate", "--images", str(two_rolls), "--out", str(out / "new" / "one"), "--json"]) == INTERRUPTED
    assert out.is_dir() and not any(out.iterdir())
    (out / "notes.txt").write_text("mine\n")
    assert main(["calibrate", "--images", str(two_rolls), "--out", str(out / "new"), "--json"]) == INTERRUPTED
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    beside = tmp_path / "beside"  # named by a way through it, "beside/../other": both taken away
    assert main(["calibrate", "--images", str(two_rolls), "--out", f"{beside}/../other", "--json"]) == INTERRUPTED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["profiles"]


@pytest.mark.parametrize("rounds", ["0", "-1"])
def test_history_refuses_fewer_than_one_round(rounds: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    assert main(["demo", "--rounds", "1", "--state", str(state), "--hand-entered", "--json"]) == 0
    capsys.readouterr()
    said = refused(["history", "--state", str(state), "--rounds", rounds], capsys)
    assert f"--rounds {rounds}: give how many of the last rounds to show, 1 or more" in said


def test_eval_refuses_a_negative_expect_as_read_does(two_rolls: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "--expect -2: give the number of dice" in refused(["eval", str(two_rolls), "--expect", "-2"], capsys)
    assert "--expect -1: give the number of dice" in refused(["read", "x.png", "--expect", "-1"], capsys)


@pytest.mark.parametrize("seconds", ["0", "-1", "nan"])
def test_selftest_refuses_a_button_timeout_that_is_no_time(seconds: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(["selftest", "--sim", "--button-timeout", seconds], capsys)
    assert "give the seconds to wait for each button, above 0" in said


def test_a_card_demo_starts_with_the_chips_given_even_none(capsys: pytest.CaptureFixture[str]) -> None:
    """001 lets a player run out of chips (the game ends with that hand): 0 chips is a game, not the default."""
    assert main(["demo", "--game", "sevens", "--chips", "0", "--hands", "1", "--json"]) == 0
    final = json.loads(capsys.readouterr().out.splitlines()[-1])["final"]
    assert sum(final.values()) == 0  # chips only change hands: 0 each at the start, 0 in all at the end
    assert "a player starts with none or more" in refused(["demo", "--game", "sevens", "--chips", "-5"], capsys)


@pytest.mark.parametrize("game", ["fantan", "tens"])
def test_chips_are_refused_for_games_played_for_money(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Only sevens starts from a chip pool: elsewhere --chips was once ignored without a word."""
    said = refused(["demo", "--game", game, "--chips", "20"], capsys)
    assert f"--chips is for sevens, played with a chip pool; {game} is played for money" in said


def test_eval_and_calibrate_name_labels_with_another_number_of_dice(
    two_rolls: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fantan_table.vision.calibrate import CalibrationError

    rolls = tmp_path / "rolls"
    shutil.copytree(two_rolls, rolls)
    (rolls / "boxes.json").unlink()  # it would contradict the label first
    labels = (rolls / "labels.csv").read_text().splitlines()
    name, values = labels[1].split(",")
    labels[1] = f"{name},{values.split()[0]}"  # one die typed of four
    (rolls / "labels.csv").write_text("\n".join(labels) + "\n")
    warning = f"warning: 1 label(s) in {rolls / 'labels.csv'} give another number of dice than --expect 4: {name} (1)"
    assert main(["eval", str(rolls), "--expect", "4"]) == 0
    assert warning in capsys.readouterr().err

    def stop(*args: object) -> None:
        raise CalibrationError("stopped here")

    monkeypatch.setattr("fantan_table.cli.calibrate.calibrate", stop)
    assert main(["calibrate", "--images", str(rolls), "--out", str(tmp_path / "profile")]) == 2
    assert warning in capsys.readouterr().err


def test_a_missing_certificate_is_named_by_config_and_run_before_a_night_begins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(
        f'hardware = "sim"\nstate_dir = "{state}"\n'
        '[web]\nport = 0\ntls_certificate = "/nope.crt"\ntls_key = "tls.key"\n'
    )
    said = f"{config}: [web] tls_certificate: no such file /nope.crt: give the PEM file's path"
    assert said in refused(["config", "--config", str(config)], capsys)
    assert said in refused(["run", "--config", str(config), "--no-console"], capsys)
    assert not state.exists()  # no night begun
    (tmp_path / "nope.crt").write_text("a certificate\n")
    config.write_text(config.read_text().replace("/nope.crt", "nope.crt"))
    missing_key = f"[web] tls_key: no such file {tmp_path / 'tls.key'}"
    assert missing_key in refused(["config", "--config", str(config)], capsys)


def test_config_names_a_reader_profile_that_run_could_not_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        f'hardware = "sim"\nstate_dir = "{tmp_path / "state"}"\n[reader]\nprofile = "{tmp_path / "nothere"}"\n'
    )
    said = f"{tmp_path / 'nothere'}: no such profile file"
    assert said in refused(["config", "--config", str(config)], capsys)
    assert said in refused(["run", "--config", str(config), "--no-console", "--no-web"], capsys)


def test_a_set_whose_labels_mostly_give_another_number_of_dice_is_refused_before_the_work(
    two_rolls: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a typing slip: a set of rolls of another number of dice (dice-photos holds 1 to 5): a calibration against
    the default --expect 4 would spend minutes on a useless profile."""
    rolls = tmp_path / "rolls"
    shutil.copytree(two_rolls, rolls)
    (rolls / "boxes.json").unlink()
    lines = (rolls / "labels.csv").read_text().splitlines()
    lines[1:] = [f"{line.split(',')[0]},{line.split(',')[1].split()[0]}" for line in lines[1:]]  # one die each
    (rolls / "labels.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.setattr("fantan_table.cli.calibrate.calibrate", lambda *_: pytest.fail("calibrated all the same"))
    said = refused(["calibrate", "--images", str(rolls), "--out", str(tmp_path / "profile")], capsys)
    assert "2 of the 2 labels" in said and "if the number of dice varies from roll to roll, give --expect 0" in said
    assert "if the number of dice varies" in refused(["eval", str(rolls), "--expect", "4"], capsys)
    assert main(["eval", str(rolls), "--expect", "0"]) == 0
