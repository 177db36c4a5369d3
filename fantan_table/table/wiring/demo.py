"""A whole game night with nobody at the table: bots bet, mock buttons are pressed, the simulated camera rolls.

Every choice (each bot's bets, each roll and where the dice land) follows from the seed, the round
and the roll's number within the round, never from how far a previous run got. So a night killed at
any moment and resumed from its journal goes on exactly as an uninterrupted one: the crash test
relies on it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...devices.pins import ButtonName
from ...errors import FantanError
from ...rules.bets import Bet, Variant, all_positions
from ...rules.game import AfterRounds, BankerMode, GameConfig, HouseBank, HouseScorer, Player, RotatingBanker, Suit
from ...rules.money import COIN_CENTS
from ...vision.profile import Profile
from ..core.state import RoundRecord, Stage, TableState, open_night
from ..core.table import Table
from .config import DEFAULT_PLAYERS, load_config
from .hardware import Devices, open_devices
from .runner import TableRunner

FACES = 6
"""Piecepack dice: 0 (the blank null) to 5."""
MAX_STEPS = 200
"""Turns of the loop a single step of the night may take before the demo reports it stuck."""


READ_WAIT_STEPS = 30
"""Turns the demo's banker waits for the table to read a roll by itself before pressing READ (two frames still
are enough for a roll the table can count)."""


class DemoStuck(FantanError, RuntimeError):
    """The table did not move on as a real one would; a bug, reported with where it stuck."""


@dataclass(frozen=True)
class Roll:
    values: tuple[int, ...]
    scene_seed: int


def roll_for(seed: int, round_: int, attempt: int, dice: int = 4) -> Roll:
    rng = random.Random(f"fantan-demo:{seed}:{round_}:roll:{attempt}")
    return Roll(tuple(rng.randrange(FACES) for _ in range(dice)), rng.randrange(2**31))


def bet_plan(seed: int, state: TableState) -> list[tuple[str, str, Bet]]:
    """This round's bets, as (action, player, bet), one coin each: the same whenever it is asked for."""
    game = state.game
    rng = random.Random(f"fantan-demo:{seed}:{state.round}:bets")
    positions = all_positions(game.config.variants)
    plan: list[tuple[str, str, Bet]] = []
    for player in game.players:
        if not game.can_bet(player.name):
            continue
        coins = rng.randint(0, min(5, game.balance(player.name) // COIN_CENTS))
        placed = [rng.choice(positions) for _ in range(coins)]
        plan += [("bet", player.name, bet) for bet in placed]
        if placed and rng.random() < 0.15:  # a change of mind, while betting is open
            plan.append(("unbet", player.name, rng.choice(placed)))
    return plan


def demo_game(rounds: int, players: int = 4, banker: str = "house") -> GameConfig:
    names = DEFAULT_PLAYERS[:players]
    modes: dict[str, BankerMode] = {
        "house": HouseScorer(),
        "house-bank": HouseBank(200 * COIN_CENTS),
        "rotating": RotatingBanker(every_rounds=3),
    }
    return GameConfig(
        players=tuple(Player(n, s) for n, s in zip(names, Suit, strict=False)),
        variants=Variant.ALL,
        banker=modes[banker],
        end=AfterRounds(rounds),
    )


def round_line(seed: int, record: RoundRecord) -> dict[str, Any]:
    report = record.report
    rolled = roll_for(seed, report.round, record.attempts - 1).values if record.attempts else ()
    read = record.reading.values if record.reading else ()
    return {
        "round": report.round,
        "rolled": list(rolled),
        "dice": list(read),
        "open": report.open_number,
        "read_ok": record.reading is not None and record.reading.ok and sorted(read) == sorted(rolled),
        "bets": [
            {"player": player, "bet": bet, "coins": coins}
            for player, bets in record.bets.items()
            for bet, coins in bets
        ],
        "settlements": [
            {"player": s.player, "delta_cents": delta, "balance_cents": balance}
            for s in report.players
            for delta, balance in [report.net(s)]
        ],
    }


def settled_on_a_misread(line: dict[str, Any]) -> bool:
    """A round of ``round_line`` paid on dice other than those rolled: the worst a night can do."""
    return sorted(line["dice"]) != sorted(line["rolled"])


def misread_rounds(state_dir: Path, rounds: int, seed: int) -> list[dict[str, Any]]:
    """Play a night with the camera reading every roll; the rounds it settled on a misread."""
    demo = Demo(state_dir, rounds=rounds, seed=seed)
    wrong: list[dict[str, Any]] = []
    try:
        demo.play(lambda line: wrong.append(line) if settled_on_a_misread(line) else None)
    finally:
        demo.close()
    return wrong


class Demo:
    def __init__(
        self,
        state_dir: Path,
        rounds: int,
        seed: int,
        players: int = 4,
        banker: str = "house",
        hand_entered: bool = False,
        profile: Profile | None = None,
    ) -> None:
        self.seed, self.hand_entered = seed, hand_entered
        # Mock pins do not bounce, and the bots press faster than any debounce time would let through.
        # a night that is over is kept, and a new one begins
        journal, _ = open_night(state_dir, datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f"))
        config = replace(load_config(None, "sim"), debounce_ms=0)
        self.devices: Devices = open_devices(config, seed=seed)
        self.table = Table(journal, demo_game(rounds, players, banker))
        self.runner = TableRunner(
            self.table, self.devices, profile or Profile(), still_frames=2, watch_camera=not hand_entered
        )

    def play(self, emit: Callable[[dict[str, Any]], None]) -> dict[str, int]:
        """Play until the night ends; ``emit`` gets one line per finished round. Returns the final balances."""
        table = self.table
        while (stage := table.state.stage) is not Stage.OVER:
            if stage is Stage.BETTING:
                self._bet_and_close()
            elif stage is Stage.CHECK:
                self._press(ButtonName.CONFIRM, lambda s: s.stage is not Stage.CHECK)
            elif stage is Stage.CLOSED:
                self._roll()
            elif stage is Stage.SHOWING:
                emit(round_line(self.seed, table.state.rounds[-1]))
                self._press(ButtonName.NEXT_ROUND, lambda s: s.stage is not Stage.SHOWING)
            else:  # raided: a demo night has no police
                table.resume()
        return dict(table.state.game.balances)

    def close(self) -> None:
        self.devices.close()
        self.table.journal.close()

    def _bet_and_close(self) -> None:
        state = self.table.state
        for action, player, bet in bet_plan(self.seed, state)[state.bet_events :]:
            (self.table.place if action == "bet" else self.table.remove)(player, str(bet), 1)
        self._press(ButtonName.NO_MORE_BETS, lambda s: s.stage is not Stage.BETTING)

    def _roll(self) -> None:
        state = self.table.state
        roll = roll_for(self.seed, state.round, state.attempts)
        if self.hand_entered:
            self.table.enter_dice(roll.values, by="the demo banker")
            return
        camera = self.devices.sim_camera
        assert camera is not None
        camera.shake(roll.values, roll.scene_seed)
        self.runner.step()  # the camera sees the cup: the watcher is armed
        camera.lift()
        attempts = state.attempts
        read = lambda s: s.attempts != attempts or s.stage is not Stage.CLOSED  # noqa: E731 - the wait's test
        if not self._until(read, "reading the dice", READ_WAIT_STEPS, give_up=False):
            # the table waits (a die hidden, two touching read as one): as a banker would, press READ; an unsure
            # reading is recorded and the dice are rolled again
            self._press(ButtonName.READ, read)

    def _press(self, button: ButtonName, done: Callable[[TableState], bool]) -> None:
        assert self.devices.simulator is not None
        self.devices.simulator.press(button)
        self._until(done, f"pressing {button.value}")

    def _until(
        self, done: Callable[[TableState], bool], what: str, steps: int = MAX_STEPS, give_up: bool = True
    ) -> bool:
        for _ in range(steps):
            if done(self.table.state):
                return True
            self.runner.step(wait=0.01)
        if give_up:
            raise DemoStuck(f"stuck {what} in round {self.table.state.round} (stage {self.table.state.stage.value})")
        return False
