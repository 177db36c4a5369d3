"""``fantan-table demo``: a whole simulated game night with nobody at the table.

Piecepack Fan Tan (the default): bots place random valid bets, the mock buttons are pressed, and the
simulated camera shows random rolls that the real dice reader reads. Card Fan Tan (``--game sevens``):
bots play virtual cards, a hand at a time. Collecting Tens (``--game tens``): bots play virtual dominoes. The
same seed gives the same night. With ``--state DIR`` the
night is journaled there, and an unfinished night found there is resumed instead of begun again.
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
from pathlib import Path
from typing import Any

from ..rules.game import MAX_PLAYERS as FANTAN_MOST_PLAYERS
from ..rules.money import format_cents
from .common import UsageError, print_json, state_dir_held, unreplayable


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="play a simulated game night with bots", description=__doc__)
    p.add_argument("--game", choices=("fantan", "sevens", "tens"), default="fantan", help="which game (default fantan)")
    p.add_argument("--rounds", type=int, default=10, metavar="N", help="rounds to play (default 10)")
    p.add_argument("--hands", type=int, default=5, metavar="N", help="hands of sevens or tens (default 5)")
    p.add_argument("--chips", type=int, metavar="N", help="each player's chips to start sevens (default: 001's 50)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="the night's seed (default 1)")
    p.add_argument(
        "--players", type=int, default=4, choices=(2, 3, 4, 5, 6), help="bots at the table (default 4; Fan Tan 2-4)"
    )
    p.add_argument("--banker", choices=("house", "house-bank", "rotating"), default="house", help="who banks")
    p.add_argument("--state", type=Path, metavar="DIR", help="journal here (and resume an unfinished night)")
    p.add_argument("--hand-entered", action="store_true", help="enter each roll by hand instead of reading it: fast")
    p.add_argument("--json", action="store_true", help="one JSON line per round, then the final balances")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.rounds < 1 or args.hands < 1:
        raise UsageError(f"--rounds and --hands must be at least 1 (got {args.rounds} and {args.hands})")
    if args.chips is not None and args.game != "sevens":
        raise UsageError(f"--chips is for sevens, played with a chip pool; {args.game} is played for money")
    if args.game == "fantan" and args.players > FANTAN_MOST_PLAYERS:
        raise UsageError(f"piecepack Fan Tan is for 2 to {FANTAN_MOST_PLAYERS} players (got {args.players})")
    with contextlib.ExitStack() as scratch:
        # a scratch journal only where none is named: a demo killed on purpose (the crash tests) leaves no folder
        state_dir = args.state or Path(scratch.enter_context(tempfile.TemporaryDirectory(prefix="fantan-demo-")))
        with state_dir_held(state_dir):
            return _play(args, state_dir) if args.game == "fantan" else _play_cards(args, state_dir)


def _play_cards(args: argparse.Namespace, state_dir: Path) -> int:
    """A night of sevens or tens: one line per hand (JSON with ``--json``), then the final chips or balances."""
    from ..rules.errors import ConfigError, GameError
    from ..rules.sevens.options import STARTING_CHIPS
    from ..table.core.journal import JournalError
    from ..table.wiring.sevens_demo import SevensDemo
    from ..table.wiring.tens_demo import TensDemo

    try:
        if args.game == "tens":
            demo: SevensDemo | TensDemo = TensDemo(state_dir, args.hands, args.seed, args.players)
        else:
            chips = STARTING_CHIPS if args.chips is None else args.chips  # 0 is 0: 001 lets a player run out
            demo = SevensDemo(state_dir, args.hands, args.seed, args.players, chips)
    except (JournalError, ConfigError) as exc:  # a ConfigError is a setup the rules refuse: --chips -5
        raise UsageError(str(exc)) from None
    except GameError as exc:
        raise UsageError(unreplayable(state_dir, exc)) from None
    try:
        if demo.table.resumed and not args.json:
            hand = demo.table.state.round if isinstance(demo, SevensDemo) else demo.table.state.hand
            print(f"resuming the unfinished night in {state_dir} at hand {hand}")
        final = demo.play(print_json if args.json else _print_tens_hand if args.game == "tens" else _print_hand)
        if args.json:
            print_json({"final": final})
        elif args.game == "tens":
            print("final balances: " + ", ".join(f"{name} {format_cents(c)}" for name, c in final.items()))
        else:
            print("final chips: " + _chips_text(final))
    finally:
        demo.close()
    return 0


def _print_hand(line: dict[str, Any]) -> None:
    chips = _chips_text(line["chips"])
    print(f"hand {line['hand']}: {line['winner']} went out (dealt by {line['dealer']}); chips {chips}")


def _print_tens_hand(line: dict[str, Any]) -> None:
    roll = " ".join(map(str, line["roll"]))
    won = f"{line['winner']} won {format_cents(line['pot_cents'])}"
    result = "drawn: the woodpile ran out" if line["drawn"] else won
    print(f"hand {line['hand']}: roll {roll}, {line['first']} first; {result}")


def _chips_text(chips: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in chips.items())


def _play(args: argparse.Namespace, state_dir: Path) -> int:
    from ..rules.errors import GameError
    from ..table.core.journal import JournalError
    from ..table.show.history import scoring_table_text
    from ..table.wiring.demo import Demo

    try:
        demo = Demo(state_dir, args.rounds, args.seed, args.players, args.banker, args.hand_entered)
    except JournalError as exc:
        raise UsageError(str(exc)) from None
    except GameError as exc:
        raise UsageError(unreplayable(state_dir, exc)) from None
    try:
        if demo.table.resumed and not args.json:
            print(f"resuming the unfinished night in {state_dir} at round {demo.table.state.round}")
        final = demo.play(print_json if args.json else _print_round)
        if args.json:
            print_json({"final": final})
        else:
            print(scoring_table_text(demo.table.state.game.scoring_table()))
    finally:
        demo.close()
    return 0


def _print_round(line: dict[str, Any]) -> None:
    from ..rules.money import format_cents, format_delta

    dice = " ".join(map(str, line["dice"]))
    result = "void" if line["open"] is None else f"dice {dice} -> open {line['open']}"
    payouts = ", ".join(
        f"{s['player']} {format_delta(s['delta_cents'])} = {format_cents(s['balance_cents'])}"
        for s in line["settlements"]
    )
    print(f"round {line['round']}: {result}{'' if line['read_ok'] else ' (misread!)'}; {payouts}")
