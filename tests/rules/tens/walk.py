"""Moves a player or the banker might make at a Collecting Tens table, for random walks through a night.

Not only legal moves: a virtual declaration may be false, a physical one any ten tiles, the dice may show
four blanks, and ending the night is always on offer, so the walks meet the refusals too.
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from fantan_table.rules.games import StoredEvent, stored_setup
from fantan_table.rules.tens import TENS, Stage, TensState, Tile, domino_sets, shuffled
from fantan_table.rules.tens.countoff import FIRST_ROLL_DICE
from fantan_table.rules.tens.events import (
    Dealt,
    Declared,
    Discarded,
    Drew,
    Ended,
    Faulted,
    NextHand,
    Rolled,
    Shown,
    TensEvent,
    TensSetup,
    Took,
)
from fantan_table.rules.tens.hand import HAND_TILES

from . import oracle

NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@functools.cache
def complete_listed(sets: int) -> list[tuple[int, ...]]:
    return sorted(oracle.complete_hands(oracle.listed_pairs(), sets))


def a_complete_hand(rng: random.Random, sets: int) -> tuple[Tile, ...]:
    """Ten tiles built as a complete hand of the listed pairs (so complete under either rule)."""
    counts = rng.choice(complete_listed(sets))
    return tuple(Tile(*oracle.ORDER[i]) for i, n in enumerate(counts) for _ in range(n))


def moves(state: TensState, rng: random.Random) -> list[TensEvent]:
    config = state.config
    player = state.player_to_move or ""
    match state.stage:
        case Stage.ROLLING:
            found: list[TensEvent] = [Rolled(tuple(rng.choice(config.dice_faces) for _ in range(FIRST_ROLL_DICE)))]
        case Stage.DEALING:
            found = [Dealt(shuffled(config.sets_in_play, rng.randrange(2**32)) if config.virtual else ())]
        case Stage.TAKING:
            found = [Took(player), Drew(player)]
        case Stage.HOLDING if config.virtual:
            assert state.tiles is not None and state.to_move is not None
            held = state.tiles.hands[state.to_move]
            found = [Discarded(player, tile) for tile in sorted({t for t in held if t is not None})]
            found.append(Declared(player))
        case Stage.HOLDING:
            any_ten = tuple(rng.sample(domino_sets(config.sets_in_play), HAND_TILES))
            found = [Discarded(player), Discarded(player), Declared(player, any_ten)]
            found.append(Declared(player, a_complete_hand(rng, config.sets_in_play)))
        case Stage.SHOWING:
            found = [NextHand(), NextHand(), *([] if state.shown else [Shown()])]
        case Stage.OVER:
            return [Faulted("a stuck camera")]
    if rng.random() < 0.02:
        found.append(Ended())
    if rng.random() < 0.02:
        found.append(Faulted("a stuck camera"))
    return found


@dataclass(frozen=True)
class Row:
    """A journal row as ``rules.games`` reads one."""

    kind: str
    round: int
    data: dict[str, Any]
    at: datetime


def journal(setup: TensSetup, events: list[tuple[int, TensEvent]]) -> list[StoredEvent]:
    """The rows a journal would hold: the setup, then each event under its hand, through JSON and back."""
    kind, data = stored_setup(TENS, setup)
    rows = [Row(kind, 1, json.loads(json.dumps(data)), NOON)]
    for n, (hand, event) in enumerate(events, start=1):
        kind, data = TENS.encode(event)
        rows.append(Row(kind, hand, json.loads(json.dumps(data)), NOON + timedelta(seconds=n)))
    return list(rows)
