"""What can happen at a Collecting Tens table, as typed events: one frozen dataclass per kind.

The journal keeps each as its kind's text and a JSON payload (:mod:`.codec`); a night is the fold of them
(:mod:`.game`), so it resumes from its journal. Players are named, never numbered, so a journal reads as
what happened; a tile is ``None`` where the table cannot see it (physical dominoes).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from .dominoes import Tile
from .options import TensConfig


class Kind(enum.Enum):
    """An event's kind; the value is the text the journal stores (never change one: old nights use them)."""

    SETUP = "setup"
    ROLLED = "rolled"
    DEALT = "dealt"
    TOOK = "took"
    DREW = "drew"
    DISCARDED = "discarded"
    DECLARED = "declared"
    SHOWN = "shown"
    NEXT = "next"
    ENDED = "ended"
    FAULT = "fault"


@dataclass(frozen=True)
class TensSetup:
    kind: ClassVar[Kind] = Kind.SETUP
    config: TensConfig


@dataclass(frozen=True)
class Rolled:
    """The four dice rolled for the first player, by the player whose turn it is to roll."""

    kind: ClassVar[Kind] = Kind.ROLLED
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Dealt:
    """The woodpile is built and dealt: with virtual dominoes, every tile in the order dealt; with physical
    ones, nothing (the players built it)."""

    kind: ClassVar[Kind] = Kind.DEALT
    order: tuple[Tile, ...] = ()


@dataclass(frozen=True)
class Took:
    """The player to move took the last discard."""

    kind: ClassVar[Kind] = Kind.TOOK
    player: str


@dataclass(frozen=True)
class Drew:
    """The player to move drew the woodpile's next tile."""

    kind: ClassVar[Kind] = Kind.DREW
    player: str


@dataclass(frozen=True)
class Discarded:
    """The player to move laid a tile face up: which one with virtual dominoes, ``None`` with physical ones."""

    kind: ClassVar[Kind] = Kind.DISCARDED
    player: str
    tile: Tile | None = None


@dataclass(frozen=True)
class Declared:
    """The player to move declared a complete hand: with physical dominoes its ten tiles as entered; with
    virtual ones nothing (the table knows the hand)."""

    kind: ClassVar[Kind] = Kind.DECLARED
    player: str
    tiles: tuple[Tile, ...] = ()


@dataclass(frozen=True)
class Shown:
    """The hand's result has been put on show: after a restart it is not shown twice."""

    kind: ClassVar[Kind] = Kind.SHOWN


@dataclass(frozen=True)
class NextHand:
    """The next hand begins: everyone antes and the next player rolls."""

    kind: ClassVar[Kind] = Kind.NEXT


@dataclass(frozen=True)
class Ended:
    """The night ends: whatever the pot holds goes back to whoever put it in."""

    kind: ClassVar[Kind] = Kind.ENDED


@dataclass(frozen=True)
class Faulted:
    """The table stopped on an unexpected error: kept for the record; the game is as it was."""

    kind: ClassVar[Kind] = Kind.FAULT
    reason: str


TensEvent = TensSetup | Rolled | Dealt | Took | Drew | Discarded | Declared | Shown | NextHand | Ended | Faulted
