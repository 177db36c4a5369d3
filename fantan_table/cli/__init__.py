"""The ``fantan-table`` command: one sub-command per module in this package."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .. import __version__
from ..errors import FantanError
from . import (
    calibrate,
    capture,
    config,
    demo,
    evaluation,
    export,
    history,
    odds,
    pin_hash,
    read,
    render,
    run,
    selftest,
    settle,
    train_faces,
    verify,
)
from .common import UsageError

COMMANDS = (
    run,
    demo,
    history,
    export,
    verify,
    pin_hash,
    config,
    odds,
    settle,
    read,
    evaluation,
    render,
    capture,
    calibrate,
    selftest,
    train_faces,
)


class _Parser(argparse.ArgumentParser):
    """Reports a usage mistake in one line (with exit code 2), as every other input error is."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="fantan-table", description="An automated banker for piecepack Fan Tan.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except UsageError as exc:
        print(f"fantan-table {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except FantanError as exc:  # an error we found and explained: its message is the whole story, no traceback
        print(f"fantan-table {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader (e.g. `| head`) stopped listening: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
