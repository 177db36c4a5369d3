"""``fantan-table selftest``: light every LED, ask for every button, read a frame, draw a test screen.

Prints one PASS/FAIL line per part (``--json``: one JSON object per part). Exit status 0 when all
passed, 1 otherwise. With ``--sim`` it presses the simulated buttons itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import UsageError, load_reader_profile, load_table_config, print_json


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("selftest", help="check every LED, button, the camera and the display", description=__doc__)
    p.add_argument("--sim", action="store_true", help="simulated hardware, whatever the config says")
    p.add_argument("--config", type=Path, metavar="FILE", help="the table's config (default /etc/fantan-table/...)")
    p.add_argument("--json", action="store_true", help="one JSON object per part")
    p.add_argument("--button-timeout", type=float, default=10.0, metavar="S", help="seconds to wait for each button")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..table.wiring.hardware import DeviceError, open_devices
    from ..table.wiring.selftest import run_selftest

    if not args.button_timeout > 0:  # not only negative: nan, too, would fail every button unasked
        raise UsageError(f"--button-timeout {args.button_timeout}: give the seconds to wait for each button, above 0")
    config = load_table_config(args.config, args.sim)
    profile = load_reader_profile(Path(config.reader.profile) if config.reader.profile else None)
    try:
        devices = open_devices(config)
    except DeviceError as exc:
        print(f"FAIL  devices   {exc}", file=sys.stderr)
        return 1
    try:
        say = (lambda _: None) if args.json else (lambda text: print(f"..    {text}", flush=True))
        led_seconds = 0.05 if config.hardware == "sim" else 0.5  # nobody needs to watch mock LEDs
        checks = run_selftest(devices, profile, config.reader.expect, say, args.button_timeout, led_seconds)
    finally:
        devices.close()
    for check in checks:
        if args.json:
            print_json({"part": check.part, "passed": check.passed, "detail": check.detail})
        else:
            print(f"{'PASS' if check.passed else 'FAIL'}  {check.part:<20} {check.detail}")
    failed = [c.part for c in checks if not c.passed]
    if not args.json:
        print(
            f"{len(checks) - len(failed)} of {len(checks)} passed"
            + (f"; failed: {', '.join(failed)}" if failed else "")
        )
    return 1 if failed else 0
