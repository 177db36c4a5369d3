"""``fantan-table run``: the table itself. Resumes the night in the state directory, or begins one.

On the Pi it runs the real camera, buttons, LEDs and display (the systemd service starts it). With
simulated hardware on a terminal, type commands to press buttons, shake and lift the cup and bet
(``help`` lists them). Stop it with Ctrl-C or SIGTERM; nothing is lost either way. After a fault
(the table's owner or a device's thread failed) it shows FAULT for a few seconds and exits with a
non-zero status, so the service restarts it and it resumes the night from the journal.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from .common import UsageError, load_reader_profile, load_table_config, state_dir_held, unreplayable

log = logging.getLogger("fantan_table.run")

if TYPE_CHECKING:  # the table's modules load OpenCV: only the commands that need them import them
    from ..table.wiring.config import Config
    from ..table.wiring.hardware import Devices
    from ..table.wiring.hosts import AnyTable
    from ..table.wiring.owner import Owner
    from ..web.app import PendingGame


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("run", help="run the table", description=__doc__)
    p.add_argument("--sim", action="store_true", help="simulated hardware, whatever the config says")
    p.add_argument("--config", type=Path, metavar="FILE", help="the table's config (default /etc/fantan-table/...)")
    console = p.add_mutually_exclusive_group()
    console.add_argument(
        "--console", action="store_true", help="read commands from stdin even when it is not a terminal"
    )
    console.add_argument("--no-console", action="store_true", help="do not read commands from the terminal")
    p.add_argument("--no-web", action="store_true", help="do not serve the scorer's page")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    config = load_table_config(args.config, args.sim)
    with state_dir_held(config.state_dir):
        return _run_table(args, config)


def _run_table(args: argparse.Namespace, config: Config) -> int:
    from ..rules.errors import GameError
    from ..table.core.journal import JournalError
    from ..table.wiring.banker_pin import PinHashError
    from ..table.wiring.hardware import DeviceError, open_devices
    from ..table.wiring.hosts import Loop, open_night, open_table
    from ..table.wiring.night import Night
    from ..table.wiring.owner import FAULT_EXIT_STATUS, Owner
    from ..table.wiring.runner import dice_in_use
    from ..web.app import create_app
    from ..web.server import WebServer, base_url, listen_on, web_context

    profile = load_reader_profile(Path(config.reader.profile) if config.reader.profile else None)
    state_dir = config.state_dir
    try:
        journal, moved = open_night(state_dir, datetime.now(UTC).strftime("%Y%m%d-%H%M%S"))
        if moved is not None:
            print(f"the last night was over; it is kept in {moved}", file=sys.stderr)
        # a night under way is resumed as the game it holds; a new one plays what the config says
        table = open_table(journal, config.new_night, dice_in_use(profile, config.reader.expect))
    except (JournalError, OSError) as exc:
        raise UsageError(f"state directory {state_dir}: {exc}") from None
    except GameError as exc:
        raise UsageError(f"{unreplayable(state_dir, exc)}") from None
    try:
        # the simulated cup rolls from a seed, the events after the setup: a new night rolls as the README shows, a
        # resumed one rolls on from where it is (from seed 0 again, its first roll lay as the last one: SHAKEN?)
        devices = open_devices(config, seed=len(journal.events()) - 1, frames_dir=None)
    except DeviceError as exc:
        journal.close()
        print(f"fantan-table run: {exc}", file=sys.stderr)
        return 1
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    loop = Loop(
        devices,
        profile,
        expect=config.reader.expect,
        still_frames=config.house.still_frames,
        auto_next_seconds=config.house.auto_next_seconds,
    )
    night = Night(state_dir, table, loop.runner_for(table), loop)
    owner = Owner(night)
    web: WebServer | None = None
    threading.excepthook = lambda failed: owner.report(
        failed.thread.name if failed.thread else "a thread", failed.exc_value or RuntimeError("no exception")
    )
    console = config.hardware == "sim" and (args.console or (sys.stdin.isatty() and not args.no_console))
    threading.Thread(target=_exit_after_fault, args=(owner, stop, console), name="fault-exit", daemon=True).start()
    try:
        where, shown = "resumed" if table.resumed else "began", table.game.present(table.state)
        say(f"{where} the night in {state_dir} ({table.game.name}): round {shown.round}, {shown.stage}")
        config_game = _config_game(table, config)  # before the owner starts: from then on only it reads the table
        owner.start()
        if not args.no_web:
            listen = listen_on(config)
            try:
                ctx, new_pin_file = web_context(
                    owner, config.web.banker_pin_hash, config.hardware == "sim", listen, config.web.api_description
                )
            except PinHashError as exc:
                raise UsageError(str(exc)) from None
            web = WebServer(create_app(ctx), listen)
            web.start()
            ctx.base_url = base_url(config.web.base_url, listen, web.port)
            ctx.config_game = config_game
            say(f"the scorer's page: {ctx.base_url}/")
            if new_pin_file is not None:
                say(
                    f"the banker's PIN for the page was made up and written to {new_pin_file} (readable by this "
                    "user and root only: e.g. sudo cat it); choose your own with fantan-table pin-hash and "
                    "[web] banker_pin_hash"
                )
        if console:
            _console(owner, devices, stop)
        else:
            stop.wait()
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        say(f"fantan-table run: {exc}")
        return 1
    finally:
        stop.set()
        owner.stop()  # first: the page's live streams end with it, so the web server can stop at once
        if web is not None:
            web.stop()
        devices.close()
        night.table.journal.close()
    if owner.fault is not None:
        say(f"fantan-table run: stopped on a fault ({owner.fault}); restart it to resume the night")
        return FAULT_EXIT_STATUS
    return 0


def _exit_after_fault(owner: Owner, stop: threading.Event, console: bool) -> None:
    """Once the table has a fault (or its loop hangs), leave FAULT up a while, then end ``run`` to be restarted."""
    from ..table.wiring.owner import FAULT_EXIT_SECONDS, TICK_SECONDS

    while not owner.faulted.wait(TICK_SECONDS) and owner.check_alive():
        pass
    if stop.wait(FAULT_EXIT_SECONDS):
        return  # stopping anyway
    stop.set()
    if console:
        os.kill(os.getpid(), signal.SIGINT)  # wakes the console's input(); run() then returns the fault's status


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _console(owner: Owner, devices: Devices, stop: threading.Event) -> None:
    from ..devices.display.simulated import SimulatedDisplay
    from ..table.wiring.console import Console, help_for

    display = devices.display
    console = Console(
        owner, devices, lambda: owner.view.screen if isinstance(display, SimulatedDisplay) else None, sys.stdout
    )
    print(help_for(owner.view.plays))
    while not stop.is_set():
        try:
            line = input("fantan> ")
        except EOFError:
            break
        if not console.handle(line):
            break


def _config_game(table: AnyTable, config: Config) -> PendingGame | None:
    """The config's game when it differs from the night the table resumed, said on the console and in the log;
    the banker's page then offers to begin it."""
    from ..rules.game import setup_changes
    from ..table.core.table import Table
    from ..table.wiring.setups import FanTanNight, plays
    from ..web.app import PendingGame

    wanted = config.new_night
    changes: list[str] = []
    if not table.resumed:
        pass
    elif table.game.name != plays(wanted):
        changes.append(f"plays {table.game.name} -> {plays(wanted)}")
    elif isinstance(table, Table) and isinstance(wanted, FanTanNight):
        state = table.state
        # the night as it began: players the banker seated or let go since are the night's own business
        changes = setup_changes(state.game.setup, wanted.game)
        if state.on_unsure != wanted.on_unsure:
            changes.append(f"on unsure {state.on_unsure} -> {wanted.on_unsure}")
    elif _night_setup(table, wanted) != wanted:
        changes.append(f"the [{plays(wanted)}] settings or the players differ from the night's")
    if not changes:
        return None
    message = (
        "the config sets up another game than the night under way (" + "; ".join(changes) + "): the night carries "
        "on; the banker's page offers to begin the config's game (the night so far is kept in nights/)"
    )
    say(message)
    log.warning(message)
    return PendingGame(wanted, changes)


def _night_setup(table: AnyTable, wanted: object) -> object:
    """The setup a card Fan Tan or Collecting Tens night began with, as the config would write it (the dice of
    the roll for the first player are the reader's, not the config's)."""
    from dataclasses import replace

    from ..rules.tens.options import TensConfig
    from ..table.core.sevens_table import SevensTable
    from ..table.core.tens_table import TensTable

    if isinstance(table, SevensTable):
        return table.state.setup
    if isinstance(table, TensTable) and isinstance(wanted, TensConfig):
        return replace(table.state.config, dice_faces=wanted.dice_faces)
    return None
