"""The table's commands: run (with its console and SIGTERM), history and export."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fantan_table.cli import main


def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        f'hardware = "sim"\nstate_dir = "{tmp_path / "state"}"\n[web]\nport = 0\n[game]\nplayers = ["Ann", "Bob"]\n'
    )
    return path


def run_table(config: Path, commands: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fantan_table", "run", "--config", str(config), "--console"],
        input=commands,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_round_played_from_the_console_is_kept_and_resumed(tmp_path: Path) -> None:
    config = config_file(tmp_path)
    done = run_table(config, "bet Ann number:1 2\npress no_more_bets\nbet Bob number:2\nshake 1 2 3 3\nlift\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "refused: cannot place a bet now: betting is closed" in done.stdout
    assert "display: Round 1 | dice 1 2 3 3 = 9 | OPEN 1" in done.stdout
    again = run_table(config, "status\nquit\n")
    assert "resumed the night" in again.stderr and "Ann: $56.00" in again.stdout and "round 1, showing" in again.stdout


def test_history_and_export_read_the_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    assert main(["demo", "--rounds", "3", "--seed", "4", "--state", str(state), "--hand-entered"]) == 0
    capsys.readouterr()
    assert main(["history", "--state", str(state), "--json", "--rounds", "2"]) == 0
    rounds = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["round"] for r in rounds] == [2, 3] and all(r["source"] == "hand" for r in rounds)
    first = rounds[0]["players"][0]
    assert first["balance_after_cents"] - first["balance_before_cents"] == first["delta_cents"]
    assert main(["history", "--state", str(state)]) == 0
    assert capsys.readouterr().out.count("\nround ") == 2  # three lines, one per round
    out = tmp_path / "pad.csv"
    assert main(["export", "--state", str(state), "--csv", str(out)]) == 0
    rows = list(csv.reader(out.open()))
    assert rows[0] == ["round", "North", "East", "South", "West"] and len(rows) == 5
    assert rows[1][0] == "0" and rows[1][1] == "50.00"


def test_history_without_a_journal_says_where_to_look(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--state", str(tmp_path)]) == 2
    assert "no journal in" in capsys.readouterr().err


def test_the_service_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "fantan_table", "run", "--config", str(config_file(tmp_path)), "--no-console"],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    deadline = time.monotonic() + 30
    while "the night" not in process.stderr.readline() and time.monotonic() < deadline:
        pass
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=10) == 0


def test_a_resumed_simulated_night_does_not_roll_the_first_dice_again(tmp_path: Path) -> None:
    """The simulated cup rolls from a seed: from seed 0 at every start, a resumed night's first roll lay exactly as
    the last one and the table asked SHAKEN? instead of reading it."""
    config = config_file(tmp_path)
    round_ = "press no_more_bets\nshake\nlift\nstatus\nquit\n"
    first = run_table(config, round_)
    assert first.returncode == 0, first.stderr
    again = run_table(config, "press next_round\n" + round_)
    assert again.returncode == 0, again.stderr
    assert "SHAKEN?" not in again.stdout, again.stdout
    assert "round 2, showing" in again.stdout


def test_a_made_up_pin_is_written_to_a_private_file_and_never_printed(tmp_path: Path) -> None:
    done = run_table(config_file(tmp_path), "quit\n")
    assert done.returncode == 0, done.stderr
    told = tmp_path / "state" / "first-banker-pin.txt"
    pin = told.read_text().strip()
    assert len(pin) == 6 and pin.isdigit() and told.stat().st_mode & 0o777 == 0o600
    assert str(told) in done.stderr and pin not in done.stdout + done.stderr


def test_a_malformed_pin_hash_in_the_state_folder_stops_the_start_with_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "banker-pin").write_text("scrypt$0$0")
    done = run_table(config_file(tmp_path), "quit\n")
    assert done.returncode == 2 and "does not hold a PIN hash: delete it" in done.stderr


def test_a_malformed_pin_hash_in_the_config_stops_the_start(tmp_path: Path) -> None:
    config = config_file(tmp_path)
    config.write_text(config.read_text().replace("port = 0\n", 'port = 0\nbanker_pin_hash = "scrypt$0$0"\n'))
    done = run_table(config, "quit\n")
    assert done.returncode == 2 and "not a PIN hash" in done.stderr


def test_pin_hash_refuses_a_pin_shorter_than_six(tmp_path: Path) -> None:
    short = subprocess.run(
        [sys.executable, "-m", "fantan_table", "pin-hash"], input="12345\n", capture_output=True, text=True
    )
    assert short.returncode == 2 and "at least 6" in short.stderr
    made = subprocess.run(
        [sys.executable, "-m", "fantan_table", "pin-hash"], input="123456\n", capture_output=True, text=True
    )
    assert made.returncode == 0 and made.stdout.startswith('banker_pin_hash = "scrypt$')


def test_dice_typed_at_the_console_are_checked_and_settle_only_after_yes(tmp_path: Path) -> None:
    done = run_table(
        config_file(tmp_path),
        "press next_round\ndice 1 2 3 3\npress no_more_bets\n"
        "dice 1 2 3 9\ndice 1 2 3\ndice 1 2 3 3\nstatus\ndice 1 2 3 3\nyes\nquit\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # a button the rules refuse now is said as any refusal is (and the table goes on)
    assert "refused: cannot open the next round now: betting is open (call 'no more bets' first)" in out
    assert "button ignored" not in done.stderr, "the console said the refusal: once is enough"
    # while betting is open the table takes no dice: it says so at once, rather than offering to settle on them
    assert "refused: cannot record a reading now: betting is open (call 'no more bets' first)" in out
    assert out.count("Settle on them?") == 2
    assert "refused: 9 is not a face of these dice" in out and "refused: a roll at this table is 4 dice" in out
    assert "dice 1 2 3 3 = 9: open 1. Settle on them? (yes)" in out
    assert "the dice typed were not settled" in out and "round 1, closed" in out  # "status" is not "yes"
    assert "display: Round 1 | dice 1 2 3 3 = 9 | OPEN 1" in out


def test_a_round_is_corrected_at_the_console_after_yes(tmp_path: Path) -> None:
    done = run_table(
        config_file(tmp_path),
        "bet Ann number:2 2\npress no_more_bets\ndice 1 2 3 3\nyes\npress next_round\n"
        'correct 1 "2 2 3 3" the first die was a 2\nyes\nstatus\nquit\n',
    )
    assert done.returncode == 0, done.stderr
    assert "round 1: dice 2 2 3 3 = 10, open 2 (settled on open 1). Correct it? (yes)" in done.stdout
    assert "Ann: $56.00" in done.stdout


def test_history_names_each_bet_what_it_paid_and_the_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done = run_table(config_file(tmp_path), "bet Ann number:1 2\npress no_more_bets\nshake 1 2 3 3\nlift\nquit\n")
    assert done.returncode == 0, done.stderr
    assert main(["history", "--state", str(tmp_path / "state")]) == 0
    line = capsys.readouterr().out
    assert "Ann +$6.00 = $56.00 [2 on number:1 won $6.00]" in line and "photo frames/round-0001-roll-1.jpg" in line


def test_a_changed_config_is_said_at_start_and_the_night_carries_on(tmp_path: Path) -> None:
    config = config_file(tmp_path)
    assert run_table(config, "bet Ann number:1\nquit\n").returncode == 0
    config.write_text(config.read_text().replace('["Ann", "Bob"]', '["Ann", "Bob", "Cy"]'))
    again = run_table(config, "status\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "the config sets up another game than the night under way (players Ann (suns), Bob (moons) ->" in (
        again.stderr
    )
    assert "Ann: $50.00; 1 on number:1" in again.stdout  # the night carried on


def test_players_join_and_leave_at_the_console(tmp_path: Path) -> None:
    done = run_table(config_file(tmp_path), "seat Cat crowns 20\nleave Bob\nleave Ann\nstatus\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Cat joins with $20.00" in out and "Bob leaves with $50.00" in out
    assert "refused: Ann and Cat are the last two: end the game instead" in out
    assert "  Ann: $50.00; no coins down" in out and "  Cat: $20.00; no coins down" in out and "Bob:" not in out


def test_the_first_bank_is_rolled_for_at_the_console(tmp_path: Path) -> None:
    config = config_file(tmp_path)
    config.write_text(config.read_text() + 'banker = "rotating"\nbanker_by_roll = true\n')
    done = run_table(config, "shake 1 1 1 1\nlift\ndice 5 5 5 5\nyes\nstatus\npress next_round\nstatus\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "display: WHO BANKS? | Ann rolled 4 | Bob rolls the dice" in out
    assert "dice 5 5 5 5 = 20: Bob's roll for the bank? (yes)" in out
    assert "rolling for the bank: Ann 4, Bob 20; Bob banks" in out
    assert "  Bob (banker): $50.00" in out and "round 1, betting" in out


def test_players_seated_during_the_night_are_no_change_of_the_config(tmp_path: Path) -> None:
    config = config_file(tmp_path)
    assert run_table(config, "seat Cat crowns 20\nquit\n").returncode == 0
    again = run_table(config, "status\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "another game" not in again.stderr and "  Cat: $20.00; no coins down" in again.stdout


def test_history_tells_who_won_the_roll_for_the_bank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = config_file(tmp_path)
    config.write_text(config.read_text() + 'banker = "rotating"\nbanker_by_roll = true\n')
    done = run_table(config, "dice 2 2 2 2\nno\ndice 2 2 2 2\nyes\ndice 1 1 1 1\nyes\nseat Cat crowns forty\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "refused: DOLLARS is a whole number of dollars, e.g. 40 (got 'forty')" in done.stdout
    assert "unknown command" not in done.stdout  # "no" declines typed dice; it is no command
    assert main(["history", "--state", str(tmp_path / "state")]) == 0
    assert "roll for the bank: Ann 8, Bob 4; Ann banked first" in capsys.readouterr().out


def test_export_counts_one_row_as_one_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    assert main(["demo", "--rounds", "1", "--state", str(state), "--hand-entered", "--json"]) == 0
    capsys.readouterr()
    assert main(["export", "--state", str(state), "--csv", str(tmp_path / "pad.csv")]) == 0
    assert capsys.readouterr().out.startswith("wrote 1 row after the start for ")


def test_the_console_says_what_a_mistyped_command_should_hold(tmp_path: Path) -> None:
    done = run_table(
        config_file(tmp_path),
        "press bogus\nbet Ann number:1 abc\nshake 1 2 x 3\npress no_more_bets\ndice 1 2 y 3\ndice 1 2\n"
        'correct one "1 2 3 3" a slip\ncorrect 1 "1 2 z 3" a slip\nquit\n',
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "refused: 'bogus' is no button: press one of no_more_bets, read, next_round, raid, confirm" in out
    assert "refused: COINS is a whole number, e.g. 2 (got 'abc')" in out
    assert "refused: each face is a whole number, e.g. 2 (got 'x')" in out
    assert "refused: each face is a whole number, e.g. 2 (got 'y')" in out
    assert "refused: a roll at this table is 4 dice: give one face for each (got 2)" in out
    assert "refused: N (the round) is a whole number, e.g. 2 (got 'one')" in out
    assert "refused: each face is a whole number, e.g. 2 (got 'z')" in out
    assert "invalid literal" not in out and "shakes" not in out


def test_a_port_in_use_is_said_in_one_line_without_a_fault(tmp_path: Path) -> None:
    """uvicorn ends its thread with SystemExit when it cannot listen: no fault, no traceback, just the reason."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        config = config_file(tmp_path)
        port = taken.getsockname()[1]
        config.write_text(config.read_text().replace("port = 0", f"port = {port}"))  # sim: 127.0.0.1
        done = run_table(config, "quit\n")
    assert done.returncode == 1
    assert f"the web page cannot listen on 127.0.0.1:{port} (Address already in use)" in done.stderr
    assert "is another program, or the table's service, serving there? (see [web] port)" in done.stderr
    assert "Traceback" not in done.stderr and "fault" not in done.stderr
    assert "error while attempting to bind" not in done.stderr  # uvicorn's own line is not asked for
