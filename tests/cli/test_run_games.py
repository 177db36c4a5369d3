"""``run`` hosts card Fan Tan and Collecting Tens as it hosts Fan Tan: killed (SIGKILL) in the middle of a hand and
started again, it resumes the night from its journal with nothing lost: the moves, the pool or pot, whose turn,
the roll's reading, the players' links. The config names the game of a new night; a night under way carries on."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from fantan_table.table.wiring.banker_pin import hash_pin

from .test_table_commands import run_table

PIN = "135790"
START_SECONDS = 60
ADDRESS_SAID = "the scorer's page: "


def config_file(tmp_path: Path, game: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        f'hardware = "sim"\nstate_dir = "{tmp_path / "state"}"\n'
        f'[web]\nport = 0\nbanker_pin_hash = "{hash_pin(PIN, b"r" * 16)}"\n'
        f'[game]\nplays = "{game}"\nplayers = ["Ann", "Bob", "Cy"]\n'
    )
    return path


class Table:
    """A ``run`` process and the banker's session on its page."""

    def __init__(self, process: subprocess.Popen[bytes], url: str) -> None:
        self.process, self.url = process, url
        self.client = httpx.Client(base_url=url, timeout=10)
        self.client.get("/")
        self.csrf = self.client.cookies["fantan_csrf"]

    def post(self, path: str, body: dict[str, Any], player: str | None = None) -> dict[str, Any]:
        headers = {"X-CSRF-Token": self.csrf} | ({"X-Player-Token": player} if player else {})
        reply = self.client.post(path, json=body, headers=headers)
        assert reply.status_code == 200, reply.text
        return dict(reply.json())

    def state(self, player: str | None = None) -> dict[str, Any]:
        return dict(self.client.get("/api/state", headers={"X-Player-Token": player} if player else {}).json())

    def login(self) -> None:
        self.post("/api/banker/login", {"pin": PIN})


@contextmanager
def running(config: Path) -> Iterator[Table]:
    """``run`` started on ``config``; killed with SIGKILL at the end, as a power cut would stop it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fantan_table", "run", "--config", str(config), "--no-console"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield Table(process, _address(process))
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()


def _address(process: subprocess.Popen[bytes]) -> str:
    assert process.stderr is not None
    said, deadline = b"", time.monotonic() + START_SECONDS
    while ADDRESS_SAID.encode() not in said or not said.endswith(b"\n"):
        ready, _, _ = select.select([process.stderr], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"run did not say where its page is: {said.decode()}"
        chunk = os.read(process.stderr.fileno(), 4096)
        assert chunk, f"run ended: {said.decode()}"
        said += chunk
    line = next(x for x in said.decode().splitlines() if x.startswith(ADDRESS_SAID))
    return line.removeprefix(ADDRESS_SAID).rstrip("/")


def public(state: dict[str, Any]) -> dict[str, Any]:
    """What a restart must keep: everything but what belongs to this process (the view's count, the screen
    shown at this moment, a session, a device's trouble)."""
    return {k: v for k, v in state.items() if k not in ("version", "screen", "banker", "simulated", "device_problem")}


def test_a_sevens_night_killed_mid_hand_resumes_with_nothing_lost(tmp_path: Path) -> None:
    config = config_file(tmp_path, "sevens")
    with running(config) as table:
        table.login()
        assert table.state()["plays"] == "sevens"
        table.post("/api/banker/sevens", {"action": "dealer", "cards": ["4H", "JS"]})
        table.post("/api/banker/sevens", {"action": "deal"})
        for player, card in (("Cy", "7H"), ("Ann", "8H"), ("Bob", None), ("Cy", "6H")):
            body = {"action": "play", "player": player, "card": card} if card else {"action": "pass", "player": player}
            table.post("/api/banker/sevens", body)
        token = table.post("/api/banker/players/link", {"player": "Ann"})["link"].split("player=")[1]
        before = table.state()
        assert before["turn"] == "Ann" and before["pool"] == 6 and len(before["moves"]) == 4
    with running(config) as table:  # killed mid-hand, started again
        after = table.state()
        assert public(after) == public(before)
        assert table.state(token)["me"] == "Ann"  # the link survives the restart
        table.login()
        table.post("/api/banker/sevens", {"action": "play", "player": "Ann", "card": "9H"})
        assert table.state()["turn"] == "Bob"


def test_a_tens_night_killed_mid_hand_resumes_with_nothing_lost(tmp_path: Path) -> None:
    config = config_file(tmp_path, "tens")
    with running(config) as table:
        table.login()
        assert table.state()["plays"] == "tens"
        table.post("/api/banker/tens", {"action": "roll", "values": [1, 1, 2, 2], "confirm": True})  # 6: Cy
        table.post("/api/banker/tens", {"action": "deal"})
        table.post("/api/banker/tens", {"action": "discarded", "player": "Cy"})
        table.post("/api/banker/tens", {"action": "took", "player": "Ann"})
        table.post("/api/banker/tens", {"action": "tile", "tile": "6-4"})  # typing a hand is not journaled
        before = table.state()
        assert before["first"] == "Cy" and before["turn"] == "Ann" and before["roll"]["source"] == "hand"
        assert before["entered"] == ["6-4"]
    with running(config) as table:
        after = table.state()
        assert public(after) == public(before) | {"entered": []}  # only the typing of a hand is lost
        assert after["roll"]["message"] == "entered by the banker (web)"
        table.login()
        table.post("/api/banker/tens", {"action": "discarded", "player": "Ann"})
        assert table.state()["turn"] == "Bob"


def test_a_night_under_way_carries_on_when_the_config_names_another_game(tmp_path: Path) -> None:
    config = config_file(tmp_path, "sevens")
    with running(config) as table:
        table.login()
        table.post("/api/banker/sevens", {"action": "dealer", "cards": ["JS"]})
    config.write_text(config.read_text().replace('plays = "sevens"', 'plays = "tens"'))
    with running(config) as table:
        table.login()
        state = table.state()
        assert state["plays"] == "sevens" and state["config_changes"] == ["plays sevens -> tens"]
        begun = table.post("/api/banker/config-game", {"begin": True})
        assert begun["plays"] == "tens" and begun["stage"] == "rolling"


def test_the_console_of_a_sevens_night_offers_its_own_commands_not_fan_tans_bets(tmp_path: Path) -> None:
    done = run_table(config_file(tmp_path, "sevens"), "press next_round\nstatus\nbet Ann number:1\nquit\n")
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert "the players' moves and the banker's entries are made on the page" in said
    assert "bet PLAYER BET" not in said and "seat NAME SUIT DOLLARS" not in said
    assert "sevens: hand 1, choosing the dealer" in said  # real cards: the dealer's cards are entered on the page
    assert "refused: tonight the table plays sevens: that is piecepack Fan Tan's" in said


def test_a_tens_roll_typed_at_the_console_is_shown_with_the_first_player_and_rolled_only_after_yes(
    tmp_path: Path,
) -> None:
    done = run_table(
        config_file(tmp_path, "tens"),
        "dice 0 0 0 0\ndice 1 1 2 2\nstatus\ndice 1 1 2 2\nyes\nquit\n",
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert "refused: the dice total 0, which counts off nobody" in said
    assert "dice 1 1 2 2 = 6: counting off from Ann, Cy plays first. Roll them? (yes)" in said
    assert "the dice typed were not settled" in said and "tens: hand 1, rolling" in said  # "status" is not "yes"
    assert "display: dice 1 1 2 2 = 6 | Cy 1ST" in said
