"""One process writes a state directory: a second run (or demo --state) is refused, naming the first, and a
kill -9 of the first frees the folder at once."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fantan_table.cli import main
from fantan_table.table.core.lock import LOCK_FILE, StateLock, StateLocked
from tests.cli.test_table_commands import config_file

START_SECONDS = 60


def start_run(config: Path) -> subprocess.Popen[str]:
    """``run`` in the background (no console, no page), once it has opened its night."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fantan_table", "run", "--config", str(config), "--no-console", "--no-web"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if "the night in" in line:
            return process
        assert line, f"run ended before it opened the night (exit {process.wait()})"
    process.kill()
    raise AssertionError("run did not open its night in time")


def second(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fantan_table", *args], capture_output=True, text=True, timeout=START_SECONDS
    )


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return config_file(tmp_path)


def test_a_second_run_or_demo_on_the_folder_is_refused_naming_the_first(config: Path, tmp_path: Path) -> None:
    first = start_run(config)
    try:
        for args in (
            ("run", "--config", str(config), "--no-console", "--no-web"),
            ("demo", "--rounds", "2", "--state", str(tmp_path / "state"), "--hand-entered"),
        ):
            refused = second(*args)
            assert refused.returncode == 1, refused.stderr
            assert f"is in use by process {first.pid} (" in refused.stderr and " run --config " in refused.stderr
            assert "UTC); stop that one first" in refused.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=START_SECONDS) == 0
    events_before = (tmp_path / "state" / "journal.sqlite3").read_bytes()
    assert events_before  # the refused ones wrote nothing: the first's night resumes as it was
    again = start_run(config)
    again.send_signal(signal.SIGTERM)
    assert again.wait(timeout=START_SECONDS) == 0


def test_kill_9_frees_the_folder(config: Path) -> None:
    first = start_run(config)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    assert first.returncode == -signal.SIGKILL
    after = start_run(config)  # no stale lock: the kernel let it go with the process
    after.send_signal(signal.SIGTERM)
    assert after.wait(timeout=START_SECONDS) == 0


def test_the_lock_is_held_until_released(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    with StateLock(state):
        with pytest.raises(StateLocked, match=rf"in use by process {os.getpid()} \("):
            StateLock(state).acquire()  # another open file of the same process is refused too
        assert main(["demo", "--rounds", "1", "--state", str(state), "--hand-entered"]) == 1
        assert "in use by process" in capsys.readouterr().err
    with StateLock(state):
        pass
    assert (state / LOCK_FILE).exists()


def test_a_holder_that_has_not_written_its_name_yet_is_still_refused(tmp_path: Path) -> None:
    (tmp_path / LOCK_FILE).write_text("")
    with (tmp_path / LOCK_FILE).open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        with pytest.raises(StateLocked, match="another process \\(just starting\\)"):
            StateLock(tmp_path).acquire()
