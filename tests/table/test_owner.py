"""The table's one owner: commands from many threads, immutable views, and no race between a new game and a frame."""

from __future__ import annotations

import contextlib
import hashlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fantan_table.devices.pins import ButtonName
from fantan_table.rules.errors import RulesError
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.state import Stage, TableState
from fantan_table.table.core.table import Table
from fantan_table.table.wiring.hardware import Devices
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import Owner, OwnerError, View
from fantan_table.table.wiring.runner import TableRunner
from fantan_table.vision.profile import Profile

from .conftest import GAME

RACE_SECONDS = 4.0
"""How long the race test fires commands from every side: bounded, yet many rounds and several new games."""
SLOW_STEP_SECONDS = 0.2
"""A loop's step made this slow: far longer than a caller takes to read the view once answered."""
RACE_MIN_ROUNDS = 5
"""The race is only a test when rounds were really played through it (most settle from dice entered by hand);
13 to 16 were played here on two cores under a load of 8 to 13, so a slower machine keeps a margin."""


@pytest.fixture
def owner(table: Table, devices: Devices) -> Iterator[Owner]:
    running = Owner(Night(table.journal.state_dir, table, TableRunner(table, devices, Profile(), still_frames=2)))
    running.start()
    yield running
    running.stop()
    running.night.table.journal.close()


def test_a_command_is_answered_with_its_result_and_the_view_already_shows_it(owner: Owner) -> None:
    before = owner.view
    owner.call(lambda night: night.table.place("Ann", "number:1", 2))
    after = owner.view
    assert after.version > before.version and after.state.game.coins_staked("Ann") == 2
    assert before.state.game.coins_staked("Ann") == 0  # an old view never changes under its reader
    assert owner.call(lambda night: night.table.state.round) == 1


def test_a_command_answered_after_the_turn_sees_what_the_loop_made_of_it(
    owner: Owner, devices: Devices, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A simulated press only queues the button's event: the loop's step takes it, here slowly (as the first
    reading, which loads the networks, is), and only after that may the caller read the closed table."""
    sim, runner = devices.simulator, owner.night.runner
    assert sim is not None and runner is not None
    step = runner.step

    def slow_step(wait: float = 0.0) -> None:
        time.sleep(SLOW_STEP_SECONDS)
        step(wait)

    monkeypatch.setattr(runner, "step", slow_step)
    owner.submit(lambda _: sim.press(ButtonName.NO_MORE_BETS), after_turn=True).result(5)
    assert owner.view.state.stage is Stage.CLOSED


def test_a_refusal_reaches_the_caller_and_the_table_goes_on(owner: Owner) -> None:
    with pytest.raises(RulesError):
        owner.call(lambda night: night.table.place("Ann", "number:9", 1))
    assert owner.fault is None and owner.call(lambda night: night.table.state.stage) is Stage.BETTING


def test_a_caller_waits_only_so_long_for_a_stuck_owner(owner: Owner) -> None:
    release = threading.Event()
    stuck = owner.submit(lambda _: release.wait(5))
    with pytest.raises(OwnerError, match="did not answer within 0.2 s"):
        owner.call(lambda night: night.table.state.round, timeout=0.2)
    release.set()
    assert stuck.result(timeout=5) is True


def test_watchers_hear_of_each_new_view(owner: Owner) -> None:
    heard: list[View] = []
    unwatch = owner.watch(heard.append)
    owner.call(lambda night: night.table.place("Bob", "side:0-1", 1))
    unwatch()
    owner.call(lambda night: night.table.place("Bob", "side:0-1", 1))
    assert [v.state.game.coins_staked("Bob") for v in heard] == [1]


def test_a_new_game_is_a_view_of_its_own(owner: Owner) -> None:
    owner.call(lambda night: night.table.place("Ann", "number:1", 1))
    owner.call(lambda night: night.table.close_bets())
    owner.call(lambda night: night.table.enter_dice([1, 1, 1, 1]))
    version = owner.view.version
    owner.call(lambda night: night.new_game(GAME, "reroll", abandon=True))
    assert owner.view.version > version and owner.view.state.round == 1 and not owner.view.state.rounds


# -- the race ------------------------------------------------------------------------------------------------------
def replay(state_dir: Path) -> tuple[TableState, dict[str, str]]:
    """A night as its journal tells it, and the photos its readings cite (file: SHA-256)."""
    journal = Journal(state_dir)
    try:
        events = journal.events()
    finally:
        journal.close()
    cited = {e.data["frame"]["file"]: e.data["frame"]["sha256"] for e in events if e.data.get("frame")}
    return TableState.replay(events), cited


def photos_belong(state_dir: Path, cited: dict[str, str]) -> None:
    """Every photo in a night's frames/ is one its journal cites, as it was: no stray frame of another game."""
    kept = {f"frames/{p.name}" for p in (state_dir / "frames").iterdir()}
    assert kept == set(cited), kept ^ set(cited)
    for name, digest in cited.items():
        assert hashlib.sha256((state_dir / name).read_bytes()).hexdigest() == digest


def test_new_games_lifts_bets_and_buttons_from_many_threads_never_kill_the_owner(
    owner: Owner, devices: Devices
) -> None:
    sim, camera = devices.simulator, devices.sim_camera
    assert sim is not None and camera is not None
    deadline = time.monotonic() + RACE_SECONDS
    failures: list[BaseException] = []

    def keep_trying(act: Callable[[random.Random], None], seed: int) -> Callable[[], None]:
        def body() -> None:
            rng = random.Random(seed)
            try:
                while time.monotonic() < deadline:
                    with contextlib.suppress(RulesError):  # refused now (betting closed...): a normal answer
                        act(rng)
            except BaseException as exc:  # noqa: BLE001 - collected for the assertion below
                failures.append(exc)

        return body

    def bettor(rng: random.Random) -> None:
        name, bet = rng.choice(["Ann", "Bob"]), rng.choice(["number:1", "side:0-1", "corner:2", "number:3"])
        if rng.random() < 0.8:
            owner.call(lambda night: night.table.place(name, bet, 1))
        else:
            owner.call(lambda night: night.table.remove(name, bet, 1))

    def presser(rng: random.Random) -> None:
        button = rng.choice(list(ButtonName))
        owner.call(lambda _: sim.press(button))
        time.sleep(0.05)

    def cup(rng: random.Random) -> None:  # rendering a new roll takes a while: a banker shakes a few times a second
        values = [rng.randrange(6) for _ in range(4)]
        owner.call(lambda _: camera.shake(values))
        time.sleep(0.05)
        owner.call(lambda _: camera.lift())
        time.sleep(0.5)

    def banker(rng: random.Random) -> None:
        pick = rng.random()
        if pick < 0.03:
            owner.call(lambda night: night.new_game(GAME, "reroll", abandon=True))
        elif pick < 0.3:
            owner.call(lambda night: night.table.close_bets())
        elif pick < 0.5:
            values = [rng.randrange(6) for _ in range(4)]
            owner.call(lambda night: night.table.enter_dice(values))
        elif pick < 0.85:
            owner.call(lambda night: night.table.next_round())
        else:
            owner.call(lambda night: night.table.resume())

    workers = [
        threading.Thread(target=keep_trying(act, seed), name=f"race-{act.__name__}-{seed}")
        for seed, act in enumerate([bettor, bettor, presser, cup, banker, banker])
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(RACE_SECONDS + 30)
    assert not failures, failures
    assert owner.fault is None and owner.call(lambda night: night.table.state.stage) is not None

    state_dir = owner.night.state_dir
    owner.stop()
    live = owner.view.state
    again, cited = replay(state_dir)
    assert again.game.balances == live.game.balances and again.round == live.round and again.stage is live.stage
    for player in live.game.players:
        assert again.game.wagers(player.name) == live.game.wagers(player.name)
    photos_belong(state_dir, cited)
    played, photos = len(live.rounds), len(cited)
    for night in sorted((state_dir / "nights").iterdir()):
        archived, cited = replay(night)
        photos_belong(night, cited)
        played, photos = played + len(archived.rounds), photos + len(cited)
    assert played >= RACE_MIN_ROUNDS and photos > 0  # the camera read dice too, not only the banker's hand
