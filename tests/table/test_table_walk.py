"""Random nights at the table move the round only as rules/round.py's table declares, event by event."""

from __future__ import annotations

import contextlib
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fantan_table.rules import TRANSITIONS, Action, RulesError, Stage
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.state import FANTAN
from fantan_table.table.core.table import Table, TableError
from fantan_table.vision.reader import Status

from .conftest import GAME, SPOTS, reading

ACTIONS_OF_KIND = {
    "bet": (Action.BET,),
    "unbet": (Action.UNBET,),
    "closed": (Action.CLOSE,),
    "reading": (Action.READ, Action.READ_UNSHAKEN),
    "confirmed": (Action.CONFIRM,),
    "reroll": (Action.REROLL,),
    "settled": (Action.SETTLE,),
    "voided": (Action.VOID,),
    "shown": (Action.SHOW,),
    "next": (Action.NEXT, Action.GAME_OVER),
    "ended": (Action.END,),
    "raid": (Action.RAID,),
    "resumed": (Action.RESUME,),
}


def _command(table: Table, which: int, value: int) -> None:
    same = (1, 2, 3, 3)  # read twice in the same places: the second looks unshaken
    commands = [
        lambda: table.place("Ann" if value % 2 else "Bob", f"number:{value % 4}", 1 + value % 2),
        lambda: table.remove("Ann" if value % 2 else "Bob", f"number:{value % 4}"),
        table.close_bets,
        lambda: table.record_reading(reading(same)),
        lambda: table.record_reading(reading((value % 6, 1, 2, 5), spots=SPOTS[::-1])),
        lambda: table.record_reading(reading((1, None, 2), Status.UNSURE, message="found 3 dice")),
        lambda: table.enter_dice([value % 6, 1, 1, 0]),
        table.confirm,
        table.reroll,
        table.void,
        table.next_round,
        lambda: table.end_game() if value == 0 else table.next_round(),  # rarely: ending stops the walk
        table.raid,
        table.resume,
    ]
    commands[which % len(commands)]()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example([(2, 0), (3, 0), (10, 0), (2, 0), (3, 0), (8, 0), (3, 0), (7, 0), (10, 0), (0, 1), (12, 0), (13, 0)])
@example([(1, 1), (11, 1), (2, 0), (3, 0), (10, 0), (2, 0), (3, 0), (9, 0), (10, 0), (0, 3), (1, 3), (11, 0)])
@given(st.lists(st.tuples(st.integers(0, 13), st.integers(0, 11)), min_size=20, max_size=80))
def test_every_journaled_event_is_a_declared_move(walk: list[tuple[int, int]]) -> None:
    with TemporaryDirectory() as folder:
        journal = Journal(Path(folder))
        try:
            table = Table(journal, GAME)
            for which, value in walk:
                with contextlib.suppress(RulesError, TableError):  # a refused command journals nothing
                    _command(table, which, value)
            rows = journal.events()
        finally:
            journal.close()
    state = FANTAN.start(FANTAN.decode(rows[0].kind, rows[0].data))
    for row in rows[1:]:
        before = state.stage
        state = FANTAN.apply(state, FANTAN.decode(row.kind, row.data), row.at)
        after = state.stage
        declared = {TRANSITIONS.get((before, action)) for action in ACTIONS_OF_KIND[row.kind]}
        if before is Stage.RAIDED:
            declared = {after} if row.kind == "resumed" else set()  # back to where the raid found it
        assert after in declared, f"{row.kind} moved {before} to {after}; the table declares {declared}"
