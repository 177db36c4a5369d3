"""What a game must offer for the table to host it: the smallest shape that lets a second game plug in.

A hosted game is a pure rules module plus an adapter that satisfies :class:`HostedGame`: its state,
its events (frozen dataclasses, one per kind), how each event changes the state (all or nothing),
how an event is stored (kind text + JSON payload) and read back, what follows by itself, and what
the table's lights show. The journal, the replay after a power cut and the table's loop use a game
only through this interface; piecepack Fan Tan (``table.core.state.FANTAN``) is the first such game.
See docs/adding-a-game.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Protocol, TypeVar

from .errors import GameError

PLAYS: Final = "plays"
"""The key in a setup's stored payload that names the game it sets up (``HostedGame.name``), added by
:func:`stored_setup`: a journal says which game replays it."""

State = TypeVar("State")
Ev = TypeVar("Ev")


@dataclass(frozen=True)
class Presentation:
    """What the table's own devices show for any game: the same LEDs and page header, whatever is played."""

    stage: str
    """The game's own name for where it stands ("betting", "playing", ...), as the page shows it."""
    round: int
    """The round (or hand) under way, or the one whose result is on show."""
    accepting: bool
    """Whether players may act now: the 'bets open' light."""
    lit: int | None
    """Which of the four LEDs (tiles, or seats) to light, if any."""
    over: str | None
    """Why the game has ended, once it has."""


class StoredEvent(Protocol):
    """A journal row as the game sees it (the journal's ``Event`` is one)."""

    @property
    def kind(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def data(self) -> Mapping[str, Any]: ...
    @property
    def at(self) -> datetime: ...


class HostedGame(Protocol[State, Ev]):
    """A game the table can host. Every method is pure but :meth:`apply`, which may fold into ``state``."""

    name: str
    """The game's name in the journal's setup and on the command line (``fantan``, ``sevens``, ``tens``)."""

    def start(self, setup: Ev) -> State:
        """The state a setup event makes; any other event is refused (``GameError``)."""
        ...

    def apply(self, state: State, event: Ev, at: datetime) -> State:
        """The state after ``event`` at time ``at``; refused (a ``RulesError`` naming the rule) with
        ``state`` unchanged. The state passed in may be the one returned, changed: use only the result."""
        ...

    def round_of(self, state: State) -> int:
        """The round new events are filed under."""
        ...

    def follow_up(self, state: State) -> Ev | None:
        """What happens by itself before anyone sees ``state`` (Fan Tan: settle an ok reading), or nothing."""
        ...

    def seen(self, state: State) -> Ev | None:
        """The event recording that a result was shown, when one is on show for the first time; else nothing.
        Journaled after the listeners ran, so a result is not shown twice after a restart."""
        ...

    def encode(self, event: Ev) -> tuple[str, dict[str, Any]]:
        """The event as the journal stores it: its kind's text and a JSON-ready payload."""
        ...

    def decode(self, kind: str, data: Mapping[str, Any]) -> Ev:
        """The event a journal row holds; every row any version of the game wrote must still decode."""
        ...

    def present(self, state: State) -> Presentation: ...


def stored_setup(game: HostedGame[State, Ev], setup: Ev) -> tuple[str, dict[str, Any]]:
    """A setup event as the journal stores it: the game's own payload, with the game's name."""
    kind, data = game.encode(setup)
    return kind, {**data, PLAYS: game.name}


def apply_stored(game: HostedGame[State, Ev], state: State, row: StoredEvent) -> State:
    """Fold one journal row into ``state``: it must belong to the round under way."""
    if row.round != game.round_of(state):
        raise GameError(f"an event for round {row.round} cannot apply in round {game.round_of(state)}")
    return game.apply(state, game.decode(row.kind, row.data), row.at)


def replay(game: HostedGame[State, Ev], rows: Sequence[StoredEvent]) -> State:
    """The state a journal holds: its setup, then every event after it, through the very code that made them."""
    if not rows:
        raise GameError("the journal does not start with a game's setup")
    # a setup stored before games were named is the first game's (piecepack Fan Tan's)
    named = rows[0].data.get(PLAYS, game.name)
    if named != game.name:
        raise GameError(f"the journal holds a night of {named!r}, not of {game.name!r}: another game replays it")
    state = game.start(game.decode(rows[0].kind, {k: v for k, v in rows[0].data.items() if k != PLAYS}))
    for row in rows[1:]:
        state = apply_stored(game, state, row)
    return state
