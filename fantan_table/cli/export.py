"""``fantan-table export --csv FILE``: the night's scoring table, a column per player, a row per round."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import UsageError
from .history import add_state_arguments, load_state


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("export", help="the scoring table as CSV", description=__doc__)
    add_state_arguments(p)
    p.add_argument("--csv", type=Path, required=True, metavar="FILE", help="where to write it ('-' for stdout)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..table.show.history import write_scoring_csv

    table = load_state(args).game.scoring_table()
    if str(args.csv) == "-":
        write_scoring_csv(table, sys.stdout)
        return 0
    try:
        with open(args.csv, "w", newline="", encoding="utf-8") as out:
            write_scoring_csv(table, out)
    except OSError as exc:
        raise UsageError(f"cannot write {args.csv}: {exc.strerror}") from None
    rows = len(table.rows) - 1  # the start aside: rounds, corrections, players joining and leaving
    print(f"wrote {rows} row{'' if rows == 1 else 's'} after the start for {', '.join(table.columns)} to {args.csv}")
    return 0
