"""``fantan-table settle``: settle one round's bets for an open number, exactly, in cents.

The bets file is JSON::

    {"players": [{"name": "Colin", "balance_cents": 5000,
                  "bets": [{"bet": "side:0-1", "coins": 2}]}]}

Every stake is checked before anything is settled, so a bad file changes nothing.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules import (
    BetResult,
    RulesError,
    Variant,
    Wager,
    check_stake,
    check_variants,
    format_cents,
    format_delta,
    format_variants,
    name_key,
    parse_bet,
    parse_variants,
    player_name,
    settle_wagers,
)
from .common import UsageError, print_json


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "settle",
        help="settle a round's bets for an open number",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--bets", required=True, type=Path, metavar="FILE", help="JSON file with the players and their bets")
    p.add_argument("--open", required=True, type=int, choices=range(4), metavar="N", help="the open number, 0-3")
    p.add_argument(
        "--variants", default="none", help="bet variants allowed: any of corners,diagonals,strong (default: none)"
    )
    p.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    p.set_defaults(run=run)


@dataclass(frozen=True)
class Stake:
    """One player's line in the bets file."""

    name: str
    balance_cents: int
    wagers: tuple[Wager, ...]


def _whole(value: Any, where: str, minimum: int) -> int:
    if type(value) is not int:
        raise UsageError(f"{where} must be a whole number (got {json.dumps(value)})")
    if value < minimum:
        raise UsageError(f"{where} must be at least {minimum} (got {value})")
    return value


def _object(value: Any, where: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise UsageError(f"{where} must be a JSON object with keys {', '.join(sorted(keys))}")
    missing, unknown = keys - value.keys(), value.keys() - keys
    if missing:
        raise UsageError(f"{where} lacks {', '.join(sorted(missing))}")
    if unknown:
        raise UsageError(f"{where} has unknown key(s) {', '.join(sorted(unknown))}; expected {', '.join(sorted(keys))}")
    return value


def read_stakes(path: Path, variants: Variant) -> tuple[Stake, ...]:
    """Read and check the whole bets file; the first problem found is raised, naming where it is."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read the bets file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    players = _object(data, str(path), {"players"})["players"]
    if not isinstance(players, list) or not players:
        raise UsageError(f"{path}: 'players' must be a non-empty list")
    stakes: list[Stake] = []
    for i, entry in enumerate(players):
        where = f"players[{i}]"
        entry = _object(entry, where, {"name", "balance_cents", "bets"})
        if not isinstance(entry["name"], str):
            raise UsageError(f"{where}.name must be a string")
        try:
            name = player_name(entry["name"])
        except RulesError as exc:
            raise UsageError(f"{where}.name: {exc}") from None
        if any(name_key(s.name) == name_key(name) for s in stakes):
            raise UsageError(f"{where}.name: {name!r} appears twice (case and letter width do not count)")
        balance = _whole(entry["balance_cents"], f"{where}.balance_cents", 0)
        if not isinstance(entry["bets"], list):
            raise UsageError(f"{where}.bets must be a list")
        wagers = []
        for j, item in enumerate(entry["bets"]):
            at = f"{where}.bets[{j}]"
            item = _object(item, at, {"bet", "coins"})
            try:
                bet = parse_bet(item["bet"])
                check_variants(bet, variants)
            except RulesError as exc:
                raise UsageError(f"{at}.bet: {exc}") from None
            wagers.append(Wager(bet, _whole(item["coins"], f"{at}.coins", 1)))
        try:
            check_stake(name, wagers, balance)
        except RulesError as exc:
            raise UsageError(f"{where}: {exc}") from None
        stakes.append(Stake(name, balance, tuple(wagers)))
    return tuple(stakes)


def run(args: argparse.Namespace) -> int:
    try:
        variants = parse_variants(args.variants)
    except RulesError as exc:
        raise UsageError(f"--variants: {exc}") from None
    stakes = read_stakes(args.bets, variants)
    settled = [(s, settle_wagers(s.wagers, args.open)) for s in stakes]
    house_delta = -sum(r.delta_cents for _, results in settled for r in results)
    if args.json:
        print_json(
            {
                "open": args.open,
                "variants": format_variants(variants),
                "players": [_player_json(s, results) for s, results in settled],
                "house_delta_cents": house_delta,
            }
        )
        return 0
    print(f"Open number: {args.open}")
    for stake, results in settled:
        delta = sum(r.delta_cents for r in results)
        print(f"{stake.name}  (balance {format_cents(stake.balance_cents)})")
        for r in results:
            coins = f"{r.wager.coins} coin" + ("s" if r.wager.coins > 1 else "")
            print(f"  {str(r.wager.bet):<18}{coins:<9}{r.outcome.value:<12}{format_delta(r.delta_cents):>9}")
        if not results:
            print("  no bets")
        print(f"  change {format_delta(delta)}, new balance {format_cents(stake.balance_cents + delta)}")
    print(f"House {format_delta(house_delta)}")
    return 0


def _player_json(stake: Stake, results: tuple[BetResult, ...]) -> dict[str, Any]:
    delta = sum(r.delta_cents for r in results)
    return {
        "name": stake.name,
        "balance_before_cents": stake.balance_cents,
        "bets": [
            {"bet": str(r.wager.bet), "coins": r.wager.coins, "outcome": r.outcome.value, "delta_cents": r.delta_cents}
            for r in results
        ],
        "delta_cents": delta,
        "balance_cents": stake.balance_cents + delta,
    }
