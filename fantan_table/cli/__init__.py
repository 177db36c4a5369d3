"""The ``fantan-table`` command: one sub-command per module in this package."""

from __future__ import annotations

import argparse
import difflib
import os
import re
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

    commands: dict[str, _Parser]
    """The sub-commands' parsers, by name (the top-level parser's only)."""
    given: Sequence[str] = ()
    """The words given after this sub-command's name (set by ``_parsed``), for ``error`` to look at."""

    def error(self, message: str) -> NoReturn:
        strays = _strays(self.given, self) if message.startswith(_REQUIRED) else []
        if strays:  # argparse looks for the missing option first: name the mistyped one it may be
            message = f"unrecognized arguments: {' '.join(strays)}{_meant(strays, self)}; and {message}"
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_REQUIRED = "the following arguments are required"
"""How argparse's error for a missing required option begins."""


def _parsed(parser: _Parser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``argv`` parsed; an option the sub-command does not take is the sub-command's error, naming the option it may
    have meant: argparse leaves it to the top level, whose help does not list the sub-command's options. One given
    before the command's name stays the top level's. Sets the sub-command's ``given``, for its own errors."""
    words = list(sys.argv[1:] if argv is None else argv)
    named_at = next((i for i, word in enumerate(words) if word in parser.commands), None)
    if named_at is not None:
        parser.commands[words[named_at]].given = words[named_at + 1 :]
    parsed, unknown = parser.parse_known_args(words)
    if unknown:
        named_at = words.index(parsed.command) if parsed.command in words else len(words)
        before = words.index(unknown[0]) < named_at if unknown[0] in words else False
        command = parser if before else parser.commands.get(parsed.command, parser)
        command.error(f"unrecognized arguments: {' '.join(unknown)}{_meant(unknown, command)}")
    return parsed


def _meant(unknown: Sequence[str], parser: argparse.ArgumentParser) -> str:
    """The hint for the first of the ``unknown`` options near one ``parser`` takes ("; did you mean --seed?"), or
    "". One dash or two: ``-seed`` means ``--seed`` (the commands take no one-letter options but ``-h``)."""
    names = {o.removeprefix("--").lower(): o for o in _options(parser)}  # "--" alone would make any two alike
    for word in unknown:
        if _option_like(word):
            close = difflib.get_close_matches(word.partition("=")[0].lstrip("-").lower(), names, n=1)
            if close:
                return f"; did you mean {names[close[0]]}?"
    return ""


def _strays(words: Sequence[str], parser: argparse.ArgumentParser) -> list[str]:
    """The options among ``words`` (up to a lone "--") that ``parser`` does not take, nor any it takes begins with
    (argparse takes a prefix of one option for it)."""
    options = [o for action in parser._actions for o in action.option_strings]
    given = words[: words.index("--")] if "--" in words else words
    return [
        word for word in given if _option_like(word) and not any(o.startswith(word.partition("=")[0]) for o in options)
    ]


_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
"""A word argparse takes for a negative number, not an option (its own test, where no option looks like one)."""


def _option_like(word: str) -> bool:
    """Whether argparse takes ``word`` for an option: a dash and more, neither a negative number nor a word with a
    space in it (a value such as a folder named "--my dir")."""
    return word.startswith("-") and len(word) > 1 and " " not in word and not _NEGATIVE_NUMBER.match(word)


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
