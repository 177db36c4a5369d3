"""Collecting Tens hosted like any game: every event to JSON and back, a journal replayed, another night refused."""

from __future__ import annotations

import json
import random

import pytest

from fantan_table.rules.errors import GameError
from fantan_table.rules.games import PLAYS, replay, stored_setup
from fantan_table.rules.tens import TENS, Dominoes, PairRule, Stage, TensConfig, Tile, WhenDry
from fantan_table.rules.tens.codec import decode, encode
from fantan_table.rules.tens.events import (
    Dealt,
    Declared,
    Discarded,
    Drew,
    Ended,
    Faulted,
    Kind,
    NextHand,
    Rolled,
    Shown,
    TensEvent,
    TensSetup,
    Took,
)

from .walk import NOON, Row, journal, moves

EVERY_KIND: list[TensEvent] = [
    TensSetup(
        TensConfig(
            ("Ann", "Bob", "Cy"), 700, 50, PairRule.TEN_OR_TWENTY, 3, WhenDry.REFUND, 25, Dominoes.VIRTUAL, (1, 2, 3)
        )
    ),
    TensSetup(TensConfig(("Ann", "Bob"))),
    Rolled((0, 5, 3, 1)),
    Dealt((Tile(6, 6), Tile(2, 1))),
    Dealt(),
    Took("Ann"),
    Drew("Bob"),
    Discarded("Cy", Tile(4, 2)),
    Discarded("Cy"),
    Declared("Ann", (Tile(6, 6), Tile(5, 5))),
    Declared("Ann"),
    Shown(),
    NextHand(),
    Ended(),
    Faulted("the display stopped answering"),
]  # fmt: skip


@pytest.mark.parametrize("event", EVERY_KIND, ids=lambda e: type(e).__name__)
def test_every_event_goes_to_json_and_back_unchanged(event: TensEvent) -> None:
    kind, data = encode(event)
    assert kind == event.kind.value
    assert decode(kind, json.loads(json.dumps(data))) == event


def test_every_kind_is_covered() -> None:
    assert {event.kind for event in EVERY_KIND} == set(Kind)


@pytest.mark.parametrize(
    ("kind", "data"),
    [("shuffled", {}), ("rolled", {}), ("dealt", {"order": ["6-0"]}), ("setup", {"config": {"players": ["Ann"]}})],
)
def test_a_row_this_version_cannot_read_is_refused_with_its_kind(kind: str, data: dict[str, object]) -> None:
    with pytest.raises(GameError, match=repr(kind)):
        decode(kind, data)


@pytest.mark.parametrize("seed", range(8))
def test_a_journal_replays_to_the_night_it_recorded(seed: int) -> None:
    rng = random.Random(seed)
    config = TensConfig(("Ann", "Bob", "Cy"), dominoes=Dominoes.VIRTUAL if seed % 2 else Dominoes.PHYSICAL)
    setup = TensSetup(config)
    state = TENS.start(setup)
    played: list[tuple[int, TensEvent]] = []
    while len(played) < 300 and state.stage is not Stage.OVER:
        event = rng.choice(moves(state, rng))
        try:
            after = TENS.apply(state, event, NOON)
        except GameError:
            continue
        played.append((TENS.round_of(state), event))
        state = after
    rows = journal(setup, played)
    assert rows[0].data[PLAYS] == "tens"
    assert replay(TENS, rows) == state


def test_a_night_of_another_game_is_refused() -> None:
    kind, data = stored_setup(TENS, TensSetup(TensConfig(("Ann", "Bob"))))
    other = Row(kind, 1, {**data, PLAYS: "fantan"}, NOON)
    with pytest.raises(GameError, match="the journal holds a night of 'fantan', not of 'tens'"):
        replay(TENS, [other])


def test_a_row_filed_under_another_hand_is_refused() -> None:
    setup = TensSetup(TensConfig(("Ann", "Bob")))
    with pytest.raises(GameError, match="an event for round 2 cannot apply in round 1"):
        replay(TENS, journal(setup, [(2, Rolled((1, 0, 0, 0)))]))
