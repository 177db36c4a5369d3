"""``run`` after a fault: FAULT for a moment, then a non-zero exit (the service restarts it), then it resumes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fantan_table.table.wiring.owner import FAULT_EXIT_STATUS

from .test_table_commands import config_file, run_table

FULL_DISK_RUN = """
import errno, sys
import fantan_table.table.core.journal as journal
import fantan_table.table.wiring.owner as owner

def full(path, data):
    raise OSError(errno.ENOSPC, "No space left on device", str(path))

journal.write_new_durably = full  # keeping the photo of the roll fails, as on a full disk
owner.FAULT_EXIT_SECONDS = 0.5
from fantan_table.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_fault_ends_run_with_a_failure_status_and_the_restart_resumes(tmp_path: Path) -> None:
    config = config_file(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-c", FULL_DISK_RUN, "run", "--config", str(config), "--console"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stderr is not None
    process.stdin.write("bet Ann number:1 2\npress no_more_bets\nshake 1 2 3 3\nlift\n")
    process.stdin.flush()  # and left open: the console still waits for more when the fault ends the process
    assert process.wait(timeout=60) == FAULT_EXIT_STATUS
    assert "stopped on a fault (OSError: [Errno 28] No space left on device" in process.stderr.read()
    process.stdin.close()
    again = run_table(config, "status\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "resumed the night" in again.stderr and "round 1, closed" in again.stdout
    assert "Ann: $50.00; 2 on number:1" in again.stdout


def test_run_refuses_a_damaged_journal_with_the_status_the_service_does_not_restart(tmp_path: Path) -> None:
    """A restart cannot mend a damaged journal: ``run`` says what it found and exits 2, which the unit's
    RestartPreventExitStatus leaves stopped, and changes nothing."""
    config = config_file(tmp_path)
    played = run_table(config, "bet Ann number:1 2\npress no_more_bets\nshake 1 2 3 3\nlift\nquit\n")
    assert played.returncode == 0, played.stderr
    state = tmp_path / "state"
    (state / "journal.sqlite3").write_bytes(b"")  # emptied, with the round's photo still beside it
    before = {p: p.read_bytes() for p in state.rglob("*") if p.is_file() and p.name != "lock"}
    refused = run_table(config, "status\nquit\n")
    assert refused.returncode == 2
    assert "journal.sqlite3 is empty (0 bytes), yet frames/ holds 1 photo(s)" in refused.stderr
    assert {p: p.read_bytes() for p in state.rglob("*") if p.is_file() and p.name != "lock"} == before
