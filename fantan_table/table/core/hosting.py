"""A night of any hosted game: its journal, the fold of its events, what follows by itself, and who is told.

Every game the table hosts (piecepack Fan Tan, card Fan Tan, Collecting Tens) runs on this one loop: an event is
applied all or nothing (a refusal changes nothing and writes nothing), then written to the journal (should that
fail, the state is rebuilt from the journal), and only then shown to the listeners; what the game says follows by
itself (a settlement, a hand's count) is done at once, also after a restart. The game's own actions are methods of
a subclass (Fan Tan's :class:`~.table.Table`, ...); they reach the state only through :meth:`HostedTable._do`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final, Generic

from ...rules.games import PLAYS, Ev, HostedGame, State, replay, stored_setup
from ...rules.sevens.hosted import SEVENS
from ...rules.tens.hosted import TENS
from .journal import Event, Journal, JournalError
from .state import FANTAN

GAMES: Final[dict[str, HostedGame[Any, Any]]] = {game.name: game for game in (FANTAN, SEVENS, TENS)}
"""Every game the table hosts, by the name a journal's setup stores under ``plays``."""

Listener = Callable[[State], None]


def night_of(journal: Journal) -> str | None:
    """The name of the game the journal holds (``None``: an empty journal)."""
    events = journal.events()
    return plays(events[0]) if events else None


def plays(setup: Event) -> str:
    """The name of the game a journal's setup row sets up; nights from before games were named are piecepack
    Fan Tan's."""
    return str(setup.data.get(PLAYS, FANTAN.name))


class HostedTable(Generic[State, Ev]):
    """The night in ``journal`` of ``game``: resumed from the journal, or begun with ``setup`` when it is empty."""

    def __init__(
        self,
        journal: Journal,
        game: HostedGame[State, Ev],
        setup: Ev,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.journal, self.game, self._clock = journal, game, clock
        self._lock = threading.RLock()
        self._listeners: list[Listener[State]] = []
        self.version = 0
        """Counts the events applied since the table opened: a cheap way to notice a change."""
        events = journal.events()
        if events:
            self.state = replay(game, events)
            self.resumed = True
        else:
            kind, data = stored_setup(game, setup)
            journal.append(Event(kind, 1, data, clock()))
            self.state = game.start(setup)
            self.resumed = False
        self._advance()

    def subscribe(self, listener: Listener[State]) -> None:
        """Call ``listener`` with the state after every change (and once now)."""
        with self._lock:
            self._listeners.append(listener)
            listener(self.state)

    def _do(self, event: Ev) -> None:
        with self._lock:
            at, round_ = self._clock(), self.game.round_of(self.state)
            self.state = self.game.apply(self.state, event, at)  # all or nothing: a refusal raises before any change
            kind, data = self.game.encode(event)
            try:
                self.journal.append(Event(kind, round_, data, at))
            except JournalError:
                self.state = replay(self.game, self.journal.events())  # back to what is on disk
                raise
            self.version += 1
            self._advance()

    def _advance(self) -> None:
        """Do what follows by itself, then show, once."""
        state = self.state
        follow_up = self.game.follow_up(state)
        if follow_up is not None:
            self._do(follow_up)
            return
        for listener in self._listeners:
            listener(state)
        seen = self.game.seen(state)
        if seen is not None:
            self._do(seen)
