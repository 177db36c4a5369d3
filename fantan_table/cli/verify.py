"""``fantan-table verify``: whether the night in the state directory is exactly what the table wrote.

Checks the database's integrity, its schema version, the whole chain of event hashes, that the
events replay into a night, and every photo's SHA-256; reports the first thing wrong (the event's
sequence number and kind, or the photo, and what is wrong). Changes nothing, and may run while the
table does. Exit status 0 when the night is sound, 1 when it is damaged, 2 on a usage error.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import UsageError, print_json
from .history import add_state_arguments, state_dir_of

if TYPE_CHECKING:
    from ..table.core.journal import Damage, Event


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("verify", help="check that the night's journal and photos are as written", description=__doc__)
    add_state_arguments(p)
    p.add_argument("--json", action="store_true", help="the report as one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..table.core.journal import DATABASE, FRAMES, Damage, Journal, JournalDamaged, JournalError, frame_refs

    state_dir = state_dir_of(args)
    if not (state_dir / DATABASE).exists() and not (state_dir / FRAMES).is_dir():
        raise UsageError(f"no night in {state_dir}: give the table's state directory with --state DIR")
    report: dict[str, Any] = {"state_dir": str(state_dir), "schema": None, "events": 0, "photos": 0}
    damage: Damage | None
    try:
        journal = Journal(state_dir, write=False)
    except JournalDamaged as exc:
        damage = exc.damage
    except JournalError as exc:
        damage = Damage(str(exc))
    else:
        events = journal.events()
        journal.close()
        report |= {"schema": journal.schema, "events": len(events)}
        report["photos"] = sum(1 for e in events for _ in frame_refs(e.data))
        damage = _replay(events, report)
    report |= {"sound": damage is None, "damage": asdict(damage) if damage else None}
    if args.json:
        print_json(report)
    else:
        _print_report(report, damage, state_dir)
    return 0 if damage is None else 1


def _replay(events: list[Event], report: dict[str, Any]) -> Damage | None:
    """Replays the events one by one, so a refused one is named; notes where the night stands."""
    from ..rules.errors import RulesError
    from ..rules.games import apply_stored, replay
    from ..table.core.hosting import GAMES, plays, table_row
    from ..table.core.journal import Damage

    if not events:
        return None
    event = events[0]
    name = plays(event)
    game = GAMES.get(name)
    if game is None:
        return Damage(f"it holds a night of {name!r}, a game this version does not know", event.seq, event.kind)
    try:
        state = replay(game, [event])  # the setup alone
        for event in events[1:]:
            if not table_row(game, event):  # a link or a PIN try: the table's, not the game's
                state = apply_stored(game, state, event)
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        return Damage(f"it cannot be replayed ({exc})", event.seq, event.kind)
    shown = game.present(state)
    report |= {"game": name, "round": shown.round, "stage": shown.stage}
    return None


def _print_report(report: dict[str, Any], damage: Damage | None, state_dir: Path) -> None:
    if damage is not None:
        print(f"DAMAGED: {damage}")
        print(
            f"The first thing found wrong is above; nothing was changed. Restore the journal (and frames/) from a "
            f"backup, or move them into {state_dir / 'nights'} to begin a new night."
        )
        return
    chain = "each follows from the one before" if report["schema"] >= 2 else "no chain yet (added at the next start)"
    print(f"journal {state_dir}: schema {report['schema']}, integrity ok")
    print(f"events: {report['events']}, {chain}")
    if "round" in report:
        print(f"replay: {report['game']}, round {report['round']}, {report['stage']}")
    print(f"photos: {report['photos']}, each as taken")
    print("sound")
