"""The ``fantan-table`` command: one sub-command per module in this package."""

from __future__ import annotations

import argparse
import difflib
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

    commands: dict[str, argparse.ArgumentParser]
    """The sub-commands' parsers, by name (the top-level parser's only)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parsed(parser: _Parser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``argv`` parsed, an option the sub-command does not take being the sub-command's error, naming the option it
    may have meant: argparse leaves it to the top level, whose help does not list the sub-command's options."""
    parsed, unknown = parser.parse_known_args(argv)
    if unknown:
        command = parser.commands.get(parsed.command, parser)
        names = [o.removeprefix("--") for o in _options(command)]  # the "--" all share would make any two alike
        meant = [
            close[0]
            for word in unknown
            if word.startswith("--")
            and (close := difflib.get_close_matches(word.partition("=")[0].removeprefix("--"), names))
        ]
        hint = f"; did you mean --{meant[0]}?" if meant else ""
        command.error(f"unrecognized arguments: {' '.join(unknown)}{hint}")
    return parsed


def _options(parser: argparse.ArgumentParser) -> list[str]:
    """The long options ``parser`` takes (argparse keeps its actions in ``_actions``, its one list of them)."""
    return [o for action in parser._actions for o in action.option_strings if o.startswith("--")]


def build_parser() -> _Parser:
    parser = _Parser(prog="fantan-table", description="An automated banker for piecepack Fan Tan.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    parser.commands = dict(sub.choices)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parsed(build_parser(), argv)
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
