"""What can happen at a Fan Tan table, as typed events: one frozen dataclass per kind, one kind each.

The journal keeps each event as its kind's text and a JSON payload (``table/core/codec.py`` turns one
into the other); the table's state is the fold of these events, so a night resumes from them.
A reading keeps everything the reader said about each die, so the page can show it as it was seen.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from .bets import Bet
from .game import GameConfig, Player

OnUnsure = Literal["reroll", "void"]
"""The house rule for dice the reader cannot read: roll again, or call the round off."""


class Kind(enum.Enum):
    """An event's kind; the value is the text the journal stores (never change one: old nights use them)."""

    SETUP = "setup"
    BET = "bet"
    UNBET = "unbet"
    CLOSED = "closed"
    READING = "reading"
    CONFIRMED = "confirmed"
    REROLL = "reroll"
    SETTLED = "settled"
    VOIDED = "voided"
    SHOWN = "shown"
    NEXT = "next"
    ENDED = "ended"
    RAID = "raid"
    RESUMED = "resumed"
    FAULT = "fault"
    LOGIN = "login"
    LINK = "link"
    UNLINK = "unlink"
    CORRECTED = "corrected"
    SEATED = "seated"
    LEFT = "left"


# -- what the reader saw ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Box:
    """A die's outline as a rotated rectangle in frame pixels (OpenCV's convention: degrees, clockwise)."""

    center: tuple[float, float]
    size: tuple[float, float]
    angle: float = 0.0


@dataclass(frozen=True)
class DieSeen:
    value: int | None
    """Pips on the top face, ``None`` for a die the reader could not read."""
    center: tuple[float, float]
    box: Box
    confidence: float | None = None
    """How sure the reader was, 0-1; ``None`` when not measured (dice entered by hand, nights before it was kept)."""
    problem: str | None = None
    """Why this die made the reading unsure, if it did."""

    @property
    def side(self) -> float:
        return max(self.box.size)


NOWHERE = (0.0, 0.0)
"""Where a die typed by hand lies: it was never seen, so it has no place in a photo."""


def typed_dice(values: Sequence[int]) -> tuple[DieSeen, ...]:
    """Dice the banker typed, as the journal keeps dice."""
    return tuple(DieSeen(v, NOWHERE, Box(NOWHERE, (0.0, 0.0))) for v in values)


@dataclass(frozen=True)
class FrameRef:
    file: str
    """The photo, relative to the state directory."""
    sha256: str
    size: tuple[int, int] | None = None
    """The photo's width and height in pixels (``None`` in nights before it was kept), for drawing the boxes on it."""


@dataclass(frozen=True)
class ReadingRecord:
    source: str
    """"camera", or "hand" for dice the banker entered (an audited override)."""
    status: str
    """"ok", "unsure" or "error" as the reader said; "rejected" once the banker asked for a re-roll."""
    dice: tuple[DieSeen, ...]
    message: str
    frame: FrameRef | None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice if d.value is not None)


# -- the events --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    kind: ClassVar[Kind] = Kind.SETUP
    game: GameConfig
    on_unsure: OnUnsure = "reroll"


@dataclass(frozen=True)
class BetPlaced:
    kind: ClassVar[Kind] = Kind.BET
    player: str
    bet: Bet
    coins: int = 1


@dataclass(frozen=True)
class BetTaken:
    kind: ClassVar[Kind] = Kind.UNBET
    player: str
    bet: Bet
    coins: int = 1


@dataclass(frozen=True)
class BettingClosed:
    kind: ClassVar[Kind] = Kind.CLOSED


@dataclass(frozen=True)
class DiceRead:
    kind: ClassVar[Kind] = Kind.READING
    reading: ReadingRecord


@dataclass(frozen=True)
class DiceConfirmed:
    """The banker says the dice that looked unshaken were shaken after all."""

    kind: ClassVar[Kind] = Kind.CONFIRMED


@dataclass(frozen=True)
class Reroll:
    """The banker rejects the reading (the dice looked unshaken, or were read wrong): shake again."""

    kind: ClassVar[Kind] = Kind.REROLL


@dataclass(frozen=True)
class Settled:
    kind: ClassVar[Kind] = Kind.SETTLED
    open_number: int
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Voided:
    kind: ClassVar[Kind] = Kind.VOIDED
    reason: str


@dataclass(frozen=True)
class Shown:
    """The result has been put on show (display, LEDs, page): after a restart it is not shown twice."""

    kind: ClassVar[Kind] = Kind.SHOWN


@dataclass(frozen=True)
class NextRound:
    kind: ClassVar[Kind] = Kind.NEXT


@dataclass(frozen=True)
class Ended:
    kind: ClassVar[Kind] = Kind.ENDED


@dataclass(frozen=True)
class Raided:
    kind: ClassVar[Kind] = Kind.RAID


@dataclass(frozen=True)
class Resumed:
    kind: ClassVar[Kind] = Kind.RESUMED


@dataclass(frozen=True)
class Faulted:
    """The table stopped on an unexpected error: kept for the record of why; the game is as it was."""

    kind: ClassVar[Kind] = Kind.FAULT
    reason: str


@dataclass(frozen=True)
class Corrected:
    """The banker settles a past round again on the dice it really showed: the first settlement stays in the
    journal, this entry reverses it and settles the round's bets anew, with who did it and why."""

    kind: ClassVar[Kind] = Kind.CORRECTED
    round: int
    dice: tuple[int, ...]
    by: str
    why: str


@dataclass(frozen=True)
class Seated:
    """A player joins between rounds with money from outside the table, let in by the banker."""

    kind: ClassVar[Kind] = Kind.SEATED
    player: Player
    cents: int
    by: str


@dataclass(frozen=True)
class Left:
    """A player leaves between rounds and takes their balance, ``cents``, out of the game (kept for the record:
    the fold checks it is what they held)."""

    kind: ClassVar[Kind] = Kind.LEFT
    player: str
    cents: int
    by: str


# -- who came to the page ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class BankerLogin:
    """A try at the banker's PIN from the page, right or wrong: the night's record of who tried when."""

    kind: ClassVar[Kind] = Kind.LOGIN
    address: str
    ok: bool


@dataclass(frozen=True)
class LinkIssued:
    """A player's link for this game: only the SHA-256 of its random token is kept; it replaces any before."""

    kind: ClassVar[Kind] = Kind.LINK
    player: str
    token_sha256: str


@dataclass(frozen=True)
class LinkRevoked:
    """The banker ended a player's link (a lost phone): the player needs a new one to bet from the page."""

    kind: ClassVar[Kind] = Kind.UNLINK
    player: str


FanTanEvent = (
    Setup
    | BetPlaced
    | BetTaken
    | BettingClosed
    | DiceRead
    | DiceConfirmed
    | Reroll
    | Settled
    | Voided
    | Shown
    | NextRound
    | Ended
    | Raided
    | Resumed
    | Faulted
    | Corrected
    | Seated
    | Left
    | BankerLogin
    | LinkIssued
    | LinkRevoked
)
