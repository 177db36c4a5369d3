"""``fantan-table history``: the last rounds of the night (dice, photo, bets, payouts, balances).

Reads the journal in the state directory (``--state``, or the config's ``state_dir``); the table
may be running meanwhile.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from .common import Refused, UsageError, load_table_config, print_json, unreplayable

if TYPE_CHECKING:
    from ..table.core.state import TableState


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("history", help="the last rounds played", description=__doc__)
    add_state_arguments(p)
    p.add_argument("--rounds", type=int, default=10, metavar="N", help="how many rounds back (default 10)")
    p.add_argument("--json", action="store_true", help="one JSON object per round")
    p.set_defaults(run=run)


def add_state_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--state", type=Path, metavar="DIR", help="the state directory (default: the config's state_dir)")
    p.add_argument("--config", type=Path, metavar="FILE", help="the table's config (default /etc/fantan-table/...)")
    p.add_argument("--sim", action="store_true", help="use the simulation's default state directory")


def state_dir_of(args: argparse.Namespace) -> Path:
    return Path(args.state or load_table_config(args.config, args.sim).state_dir)


def load_state(args: argparse.Namespace) -> TableState:
    """The night in the state directory, replayed from its journal once it is checked (photos included)."""
    from ..rules.errors import GameError
    from ..table.core.journal import DATABASE, Journal, JournalError
    from ..table.core.state import TableState

    state_dir = state_dir_of(args)
    if not (state_dir / DATABASE).exists():
        raise UsageError(f"no journal in {state_dir}: give the table's state directory with --state DIR")
    try:
        journal = Journal(state_dir, write=False)
    except JournalError as exc:
        raise Refused(str(exc)) from None
    try:
        return TableState.replay(journal.events())
    except GameError as exc:
        raise Refused(unreplayable(state_dir, exc)) from None
    finally:
        journal.close()


def run(args: argparse.Namespace) -> int:
    from ..table.show.history import bank_roll_text, round_json, round_text

    if args.rounds < 1:
        raise UsageError(f"--rounds {args.rounds}: give how many of the last rounds to show, 1 or more")
    state = load_state(args)
    records = state.rounds[-args.rounds :]
    if state.game.draw is not None and not args.json:
        print(bank_roll_text(state.game.draw))
    for record in records:
        if args.json:
            print_json(round_json(record))
        else:
            print(round_text(record))
    if not records and not args.json:
        print(f"no round finished yet (round {state.round} is {state.stage.value})")
    return 0
