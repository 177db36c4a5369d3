"""``fantan-table config``: check a config file, or print the example that documents every key.

``--example`` prints ``config.example.toml`` as the declared keys make it, ``--example profile`` the
dice reader's calibration/profiles/default/profile.toml (the repository's copies are this output, and
tests keep them equal). Without it the config (``--config FILE``, else
/etc/fantan-table/config.toml when there is one) is read and checked, and the reader profile it names
loaded as ``run`` loads it; a mistake exits with code 2 and one line naming the file and the key.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import load_reader_profile, load_table_config

EXAMPLES = ("table", "profile")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("config", help="check the config, or print the example of every key", description=__doc__)
    p.add_argument("--config", type=Path, metavar="FILE", help="the config to check (default /etc/fantan-table/...)")
    p.add_argument(
        "--example",
        nargs="?",
        const="table",
        choices=EXAMPLES,
        help="print the example of every key and its default: the table's config.example.toml, or a reader profile",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.example == "profile":
        from ..vision import profile  # OpenCV loads only for this

        sys.stdout.write(profile.example())
        return 0
    if args.example == "table":
        from ..table.wiring.config import example

        sys.stdout.write(example())
        return 0
    config = load_table_config(args.config)
    if config.reader.profile:  # as `run` loads it: a profile it cannot read would stop the table at every start
        load_reader_profile(Path(config.reader.profile))
    print(f"{config.source}: every key is known and every value fits")
    return 0
