"""What every crash test does: play a demo night in a process of its own, kill it with SIGKILL again and again
(anywhere in a start, or a moment into play), and play it on to its end."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

START_SECONDS = 120
DURING_START = 0.2
"""The share of kills aimed anywhere in a start instead (opening, checking and replaying the journal)."""
KILL_SEED = 17


def demo_night(state: Path, demo_args: list[str]) -> subprocess.Popen[bytes]:
    """``fantan-table demo`` with ``demo_args``, journaled in ``state``, its lines unbuffered."""
    return subprocess.Popen(
        [sys.executable, "-m", "fantan_table", "demo", *demo_args, "--state", str(state)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},  # a round's (or hand's) line shows as soon as it is played
    )


def play_to_the_end(state: Path, demo_args: list[str], timeout: float) -> None:
    """Play (or resume) the night in ``state`` until it ends; it must end well."""
    process = demo_night(state, demo_args)
    _, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err.decode()


def playing(process: subprocess.Popen[bytes]) -> bool:
    """Waits until the process prints its first line (True), or ends first (False)."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], START_SECONDS)
    assert ready, "the demo printed nothing in time"
    return bool(os.read(process.stdout.fileno(), 1))


def kill_again_and_again(state: Path, demo_args: list[str], playing_seconds: float, max_kills: int) -> int:
    """Start the night in ``state`` and kill it, up to ``max_kills`` times or until it ends between kills; a
    kill lands anywhere in a start, or up to ``playing_seconds`` after the first line. Returns the kills."""
    rng, kills = random.Random(KILL_SEED), 0
    while kills < max_kills:
        process = demo_night(state, demo_args)
        if rng.random() < DURING_START:
            time.sleep(rng.uniform(0.1, 1.0))
        elif playing(process):
            time.sleep(rng.uniform(0, playing_seconds))
        if process.poll() is not None:
            break  # the night came to its end between kills
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        kills += 1
    return kills
