"""``fantan-table pin-hash``: hash a banker PIN for ``[web] banker_pin_hash`` in the config.

The PIN is read from the terminal without echo (or from stdin when piped); only its salted
scrypt hash is printed, and only that goes in the config.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from .common import UsageError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("pin-hash", help="hash a banker PIN for the config", description=__doc__)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..table.wiring.banker_pin import MIN_PIN_LENGTH, hash_pin

    pin = getpass.getpass("banker PIN: ") if sys.stdin.isatty() else sys.stdin.readline().strip()
    if len(pin) < MIN_PIN_LENGTH:
        raise UsageError(f"a banker PIN needs at least {MIN_PIN_LENGTH} characters (digits are fine)")
    print(f'banker_pin_hash = "{hash_pin(pin)}"')
    return 0
