"""Nights journaled in today's format still decode, encode to the very same rows, and replay to their result."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from fantan_table.rules.games import PLAYS, replay
from fantan_table.rules.tens import TENS

from .walk import Row

DATA = Path(__file__).parent / "data"
NIGHTS = sorted(DATA.glob("tens-night-*.json"))


def rows_of(night: dict[str, Any]) -> list[Row]:
    return [Row(r["kind"], r["round"], json.loads(r["data"]), datetime.fromisoformat(r["at"])) for r in night["rows"]]


@pytest.mark.parametrize("path", NIGHTS, ids=lambda p: p.stem)
def test_a_stored_night_replays_to_its_result(path: Path) -> None:
    night = json.loads(path.read_text())
    state = replay(TENS, rows_of(night))
    expect = night["expect"]
    assert state.stage.value == expect["stage"] and state.hand == expect["hand"]
    assert list(state.money.balances) == expect["balances"] and list(state.money.pot) == expect["pot"]
    results = [[r.hand, r.winner, r.pot_cents, None if r.complete is None else str(r.complete)] for r in state.results]
    assert results == expect["results"]


@pytest.mark.parametrize("path", NIGHTS, ids=lambda p: p.stem)
def test_every_stored_row_encodes_back_to_itself(path: Path) -> None:
    for row in rows_of(json.loads(path.read_text())):
        data = {k: v for k, v in row.data.items() if k != PLAYS}
        assert TENS.encode(TENS.decode(row.kind, data)) == (row.kind, data)


def test_both_kinds_of_night_are_kept() -> None:
    assert [p.stem for p in NIGHTS] == ["tens-night-2026-12-physical", "tens-night-2026-12-virtual"]
