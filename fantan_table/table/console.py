"""Play the simulated table from a terminal: press its buttons, shake and lift the cup, place bets.

Each command answers with what the display shows, so a round can be played on a laptop with
nothing but the keyboard (the web page does the same with pictures).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from typing import TextIO

from ..devices.display.screens import Screen, text_lines
from ..devices.pins import ButtonName
from ..rules.errors import RulesError
from ..rules.money import format_cents
from .hardware import Devices
from .night import Night
from .table import Table

HELP = """commands:
  bet PLAYER BET [COINS]    put coins on a bet (e.g. bet North side:0-1 2)
  take PLAYER BET [COINS]   take coins back while betting is open
  press BUTTON              no_more_bets, read, next_round, raid, confirm
  hold next_round           recall the last rounds on the display
  shake [V V V V]           put the cup over a new roll (random, or these faces)
  lift                      lift the cup: the table reads the dice by itself
  dice V V V V              enter the dice by hand (an audited override)
  status                    balances and the coins on the layout
  quit"""


class Console:
    def __init__(
        self,
        night: Night,
        devices: Devices,
        screen: Callable[[], Screen | None],
        out: TextIO,
        hold_seconds: float = 2.1,
    ) -> None:
        self.night, self.devices, self._screen, self.out = night, devices, screen, out
        self.hold_seconds = hold_seconds

    @property
    def table(self) -> Table:
        """The table now (the banker may begin a new game from the web page meanwhile)."""
        return self.night.table

    def handle(self, line: str) -> bool:
        """Run one command; False when the user asked to quit."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            self._say(f"cannot read that: {exc}")
            return True
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        if command in ("quit", "exit"):
            return False
        try:
            self._run(command, args)
        except (RulesError, ValueError) as exc:
            self._say(f"refused: {exc}")
        return True

    def _run(self, command: str, args: list[str]) -> None:
        sim, camera = self.devices.simulator, self.devices.sim_camera
        if command == "bet" and len(args) in (2, 3):
            self.table.place(args[0], args[1], int(args[2]) if len(args) == 3 else 1)
        elif command == "take" and len(args) in (2, 3):
            self.table.remove(args[0], args[1], int(args[2]) if len(args) == 3 else 1)
        elif command == "press" and len(args) == 1 and sim is not None:
            version = self.table.version
            sim.press(ButtonName(args[0]))
            self._wait(lambda: self.table.version != version, seconds=1.0)
        elif command == "hold" and args == ["next_round"] and sim is not None:
            sim.hold(ButtonName.NEXT_ROUND, self.hold_seconds)
        elif command == "shake" and camera is not None:
            rolled = camera.shake([int(a) for a in args] if args else None)
            self._say(f"the cup is down over {len(rolled)} dice")
            return
        elif command == "lift" and camera is not None:
            before = (self.table.state.stage, self.table.state.attempts)
            camera.lift()
            self._say("the cup is lifted")
            self._wait(lambda: (self.table.state.stage, self.table.state.attempts) != before)
        elif command == "dice" and args:
            self.table.enter_dice([int(a) for a in args], by="the console")
        elif command == "status":
            self._status()
            return
        else:
            known = command in ("bet", "take", "press", "hold", "shake", "lift", "dice", "help")
            self._say(("" if known else f"unknown command {command!r}\n") + HELP)
            return
        self._show_screen()

    def _wait(self, done: Callable[[], bool], seconds: float = 5.0) -> None:
        """Give the table's own thread time to read the dice before answering."""
        deadline = time.monotonic() + seconds
        while not done() and time.monotonic() < deadline:
            time.sleep(0.05)

    def _status(self) -> None:
        state = self.table.snapshot()
        game = state.game
        self._say(f"round {state.round}, {state.stage.value}")
        for player in game.players:
            coins = ", ".join(f"{w.coins} on {w.bet}" for w in game.wagers(player.name)) or "no coins down"
            banker = " (banker)" if player.name == game.banker else ""
            self._say(f"  {player.name}{banker}: {format_cents(game.balance(player.name))}; {coins}")

    def _show_screen(self) -> None:
        screen = self._screen()
        if screen is not None:
            self._say("display: " + " | ".join(text_lines(screen)))

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)
