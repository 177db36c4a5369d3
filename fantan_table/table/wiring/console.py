"""Play the simulated table from a terminal: press its buttons, shake and lift the cup, place bets.

Each command answers with what the display shows, so a round can be played on a laptop with
nothing but the keyboard (the web page does the same with pictures). Like the page, the console
submits what it does to the table's owner and reads its views; only the simulated finger that
holds a button down acts on its own, as a real one would.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from typing import TextIO

from ...devices.display.screens import Screen, text_lines
from ...devices.pins import ButtonName
from ...rules.dice import open_number
from ...rules.errors import RulesError
from ...rules.money import COIN_CENTS, format_cents
from ...rules.tens.hosted import TENS
from ..core.hosting import GAMES
from ..core.state import FANTAN, Stage
from .hardware import Devices
from .night import Night
from .owner import Owner, OwnerError

HELP = """commands:
  bet PLAYER BET [COINS]    put coins on a bet (e.g. bet North side:0-1 2)
  take PLAYER BET [COINS]   take coins back while betting is open
  press BUTTON              no_more_bets, read, next_round, raid, confirm
  hold next_round           recall the last rounds on the display
  shake [V V V V]           put the cup over a new roll (random, or these faces)
  lift                      lift the cup: the table reads the dice by itself
  dice V V V V              enter the dice by hand (an audited override): shown with their open number,
                            settled only after "yes"
  correct N "V V V V" WHY   settle round N again on the dice it really showed (an audited correction),
                            settled only after "yes"
  seat NAME SUIT DOLLARS    a player joins between rounds with their money (e.g. seat Dee arms 40)
  leave NAME                a player leaves between rounds, taking their balance
  status                    balances and the coins on the layout
  quit"""

HOSTED_HELP = """commands (the players' moves and the banker's entries are made on the page):
  press BUTTON              next_round (the dealer, the deal, the next hand), read (read the dice lying there)
  shake [V V V V]           Collecting Tens: put the cup over a new roll for the first player (random, or these)
  lift                      lift the cup: the table reads the dice by itself
  dice V V V V              Collecting Tens: enter the roll by hand (an audited override): shown with the first
                            player it counts off, rolled only after "yes"
  status                    the hand and what the display shows
  quit"""


def help_for(plays: str) -> str:
    """The console's commands for the game a night plays: Fan Tan's bets, dice and seats are its own."""
    return HELP if plays == FANTAN.name else HOSTED_HELP


class Console:
    def __init__(
        self,
        owner: Owner,
        devices: Devices,
        screen: Callable[[], Screen | None],
        out: TextIO,
        hold_seconds: float = 2.1,
    ) -> None:
        self.owner, self.devices, self._screen, self.out = owner, devices, screen, out
        self.hold_seconds = hold_seconds
        self._typed: Callable[[Night], None] | None = None
        """Dice typed by hand (or a correction), checked, waiting for the banker's "yes"."""

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
        typed, self._typed = self._typed, None
        if typed is not None:
            if command == "yes" and not args:
                self._settle_typed(typed)
                return True
            self._say("the dice typed were not settled")
            if command == "no" and not args:
                return True
        try:
            self._run(command, args)
        except (RulesError, ValueError, OwnerError) as exc:
            self._say(f"refused: {exc}")
        return True

    def _run(self, command: str, args: list[str]) -> None:
        sim, camera, owner = self.devices.simulator, self.devices.sim_camera, self.owner
        if command in ("bet", "take") and len(args) in (2, 3):
            player, bet, coins = args[0], args[1], _whole(args[2], "COINS") if len(args) == 3 else 1
            if command == "bet":
                owner.call(lambda night: night.fantan.place(player, bet, coins))
            else:
                owner.call(lambda night: night.fantan.remove(player, bet, coins))
        elif command == "press" and len(args) == 1 and sim is not None:
            button = _button(args[0])

            def press(night: Night) -> None:
                if night.runner is not None:
                    night.runner.typed(button)  # its refusal is said below, as the console says any refusal
                sim.press(button)

            def done(night: Night) -> None:
                if night.runner is not None:
                    night.runner.typed(None)

            version = owner.view.version
            owner.call(press)
            # the loop takes the button's event on its next turns (a release within the debounce time, later)
            self._wait(lambda: owner.view.version != version or _refused(owner) is not None, seconds=1.0)
            refused = _refused(owner)
            owner.call(done)
            if refused is not None:
                self._say(f"refused: {refused}")
                return
        elif command == "hold" and args == ["next_round"] and sim is not None:
            sim.hold(ButtonName.NEXT_ROUND, self.hold_seconds)
        elif command == "shake" and camera is not None:
            faces = [_whole(a, "each face") for a in args] if args else None
            rolled = owner.call(lambda _: camera.shake(faces))
            self._say(f"the cup is down over {len(rolled)} dice")
            return
        elif command == "lift" and camera is not None:
            before = _rolls_read(owner)
            owner.call(lambda _: camera.lift())
            self._say("the cup is lifted")
            self._wait(lambda: _rolls_read(owner) != before)
        elif command == "dice" and args and owner.view.plays == TENS.name:
            self._typed_roll([_whole(a, "each face") for a in args])
            return
        elif command == "dice" and args:
            values = [_whole(a, "each face") for a in args]
            owner.call(lambda night: night.fantan.check_dice(values))
            draw = owner.view.state.game.draw
            roller = draw.to_roll if owner.view.state.stage is Stage.CHOOSING and draw is not None else None
            self._typed = lambda night: night.fantan.enter_dice(values, by="the console", for_bank=roller)
            if roller is not None:
                self._say(f"dice {' '.join(args)} = {sum(values)}: {roller}'s roll for the bank? (yes)")
            else:
                self._say(f"dice {' '.join(args)} = {sum(values)}: open {open_number(values)}. Settle on them? (yes)")
            return
        elif command == "correct" and len(args) >= 3:
            number, why = _whole(args[0], "N (the round)"), " ".join(args[2:])
            values = [_whole(v, "each face") for v in args[1].replace(",", " ").split()]
            was = owner.call(lambda night: night.fantan.settled_on(number, values))
            self._typed = lambda night: night.fantan.correct(number, values, "the console", why)
            self._say(
                f"round {number}: dice {' '.join(map(str, values))} = {sum(values)}, open {open_number(values)} "
                f"(settled on open {was}). Correct it? (yes)"
            )
            return
        elif command == "seat" and len(args) == 3:
            if not args[2].isdigit():
                self._say(f"refused: DOLLARS is a whole number of dollars, e.g. 40 (got {args[2]!r})")
                return
            name, suit, cents = args[0], args[1], int(args[2]) * COIN_CENTS
            owner.call(lambda night: night.fantan.seat(name, suit, cents, by="the console"))
            self._say(f"{name} joins with {format_cents(cents)}")
        elif command == "leave" and len(args) == 1:
            taken = owner.call(lambda night: night.fantan.leave(args[0], by="the console"))
            self._say(f"{args[0]} leaves with {format_cents(taken)}")
        elif command == "status":
            self._status()
            return
        else:
            known = command in ("bet", "take", "press", "hold", "shake", "lift", "dice", "correct", "seat", "leave")
            known = known or command == "help"
            self._say(("" if known else f"unknown command {command!r}\n") + help_for(owner.view.plays))
            return
        self._show_screen()

    def _typed_roll(self, values: list[int]) -> None:
        """Collecting Tens' roll for the first player typed by hand: checked and shown with whom it counts off,
        rolled only after "yes" (and only for the hand it was checked for)."""
        after = self.owner.call(lambda night: night.tens.check_roll(values))
        assert after.first is not None  # a roll the rules take names the first player
        hand, first, roller = after.hand, after.players[after.first], after.players[after.roller]
        self._typed = lambda night: night.tens.roll(values, by="the console", for_hand=hand)
        self._say(
            f"dice {' '.join(map(str, values))} = {sum(values)}: counting off from {roller}, {first} plays first. "
            "Roll them? (yes)"
        )

    def _settle_typed(self, typed: Callable[[Night], None]) -> None:
        try:
            self.owner.call(typed)
        except (RulesError, OwnerError) as exc:
            self._say(f"refused: {exc}")
            return
        self._show_screen()

    def _wait(self, done: Callable[[], bool], seconds: float = 5.0) -> None:
        """Give the table's own thread time to read the dice before answering."""
        deadline = time.monotonic() + seconds
        while not done() and time.monotonic() < deadline:
            time.sleep(0.05)

    def _status(self) -> None:
        view = self.owner.view
        if view.plays != FANTAN.name:  # another game: where it stands, and its display's words
            shown = GAMES[view.plays].present(view.state)
            self._say(f"{view.plays}: hand {shown.round}, {shown.stage}")
            self._show_screen()
            return
        state = view.state
        game = state.game
        self._say(f"round {state.round}, {state.stage.value}")
        if state.stage is Stage.CHOOSING and game.draw is not None:
            rolled = ", ".join(f"{r.player} {r.total}" for r in game.draw.rolls) or "nobody yet"
            then = f"{game.draw.winner} banks" if game.draw.winner else f"next {game.draw.to_roll}"
            self._say(f"  rolling for the bank: {rolled}; {then}")
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


def _refused(owner: Owner) -> str | None:
    """What the rules refused of the last button pressed, since the console cleared it (``Showing.refused``)."""
    return owner.call(lambda night: night.runner.refused if night.runner is not None else None)


def _whole(text: str, what: str) -> int:
    """A number typed at the console; otherwise a refusal naming what must be a whole number."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{what} is a whole number, e.g. 2 (got {text!r})") from None


def _button(text: str) -> ButtonName:
    """A button by its name; otherwise a refusal listing the buttons there are."""
    try:
        return ButtonName(text)
    except ValueError:
        names = ", ".join(b.value for b in ButtonName)
        raise ValueError(f"{text!r} is no button: press one of {names}") from None


def _rolls_read(owner: Owner) -> tuple[object, ...]:
    """What changes when the table reads a roll (of a round, for the bank, or another game's roll)."""
    view = owner.view
    if view.plays != FANTAN.name:
        return view.version, view.roll
    state = view.state
    return state.stage, state.attempts, len(state.bank_rolls)
