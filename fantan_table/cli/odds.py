"""``fantan-table odds``: the exact chance of each open number and the value of every bet."""

from __future__ import annotations

import argparse

from ..rules import PIECEPACK_FACES, RulesError, bet_odds, format_variants, open_distribution
from .common import UsageError, percent, print_json

FRACTION_WIDTH = 12
"""The narrowest column of exact fractions: four dice's fit, and the table keeps its look for them."""
GAP = 2
"""Spaces between the EV column and the one before it, however long its fractions."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("odds", help="exact odds and expected value of every bet", description=__doc__)
    p.add_argument("--dice", type=int, default=4, help="how many dice are totalled (default 4)")
    p.add_argument(
        "--faces",
        default=",".join(map(str, PIECEPACK_FACES)),
        help="a die's faces, comma-separated (default 0,1,2,3,4,5 for piecepack; 1,2,3,4,5,6 for a d6)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object instead of tables")
    p.set_defaults(run=run)


def _faces(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(f) for f in text.split(","))
    except ValueError:
        raise UsageError(f"--faces takes whole numbers separated by commas, like 0,1,2,3,4,5 (got {text!r})") from None


def run(args: argparse.Namespace) -> int:
    faces = _faces(args.faces)
    try:
        distribution = open_distribution(args.dice, faces)
    except RulesError as exc:
        raise UsageError(str(exc)) from None
    odds = bet_odds(distribution)
    if args.json:
        print_json(
            {
                "dice": args.dice,
                "faces": list(faces),
                "distribution": [str(p) for p in distribution],
                "bets": [
                    {
                        "bet": str(o.bet),
                        "ev": str(o.ev),
                        "ev_percent": percent(o.ev),
                        "chance": str(o.win_chance),
                        "variants": format_variants(o.bet.required_variants),
                    }
                    for o in odds
                ],
            }
        )
        return 0
    print(f"{args.dice} dice with faces {','.join(map(str, faces))}: the chance of each open number (total mod 4)")
    chances = max(FRACTION_WIDTH, *(len(str(chance)) for chance in distribution))  # apart for any --dice
    for number, chance in enumerate(distribution):
        print(f"  open {number}   {str(chance):>{chances}}   {percent(chance):>9}")
    print()
    print("Expected value per $1 staked (below zero favours the bank)")
    evs = GAP + max(FRACTION_WIDTH, *(len(str(o.ev)) for o in odds))
    print(f"  {'bet':<18}{'needs variant':<18}{'wins or keeps':>14}{'EV':>{evs}}{'EV %':>11}")
    for o in odds:
        print(
            f"  {str(o.bet):<18}{format_variants(o.bet.required_variants):<18}"
            f"{percent(o.win_chance, 2):>14}{str(o.ev):>{evs}}{percent(o.ev, 3):>11}"
        )
    return 0
