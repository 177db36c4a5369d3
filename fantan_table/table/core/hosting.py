"""A night of any hosted game: its journal, the fold of its events, what follows by itself, and who is told.

Every game the table hosts (piecepack Fan Tan, card Fan Tan, Collecting Tens) runs on this one loop: an event is
applied all or nothing (a refusal changes nothing and writes nothing), then written to the journal (should that
fail, the state is rebuilt from the journal), and only then shown to the listeners; what the game says follows by
itself (a settlement, a hand's count) is done at once, also after a restart. The game's own actions are methods of
a subclass (Fan Tan's :class:`~.table.Table`, ...); they reach the state only through :meth:`HostedTable._do`.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final, Generic

from ...rules.errors import GameError
from ...rules.games import PLAYS, Ev, HostedGame, State, replay, stored_setup
from ...rules.names import name_key, quoted_name
from ...rules.sevens.hosted import SEVENS
from ...rules.tens.hosted import TENS
from .journal import Event, Journal, JournalError
from .state import FANTAN

GAMES: Final[dict[str, HostedGame[Any, Any]]] = {game.name: game for game in (FANTAN, SEVENS, TENS)}
"""Every game the table hosts, by the name a journal's setup stores under ``plays``."""

Listener = Callable[[State], None]

LINK, UNLINK, LOGIN, READING = "link", "unlink", "login", "reading"
TABLE_KINDS: Final = frozenset({LINK, UNLINK, LOGIN, READING})
"""The table's own rows in the journal of a game that has no such events (every game but piecepack Fan Tan, whose
events have always held them): a player's link (its token's hash), its end, a try at the banker's PIN, what the
camera's reader said of a roll (with its photo; the reading codec's JSON). The table folds them beside the game;
the game's replay never sees them."""


def table_row(game: HostedGame[Any, Any], row: Event) -> bool:
    """Whether ``row`` is one of the table's own rows rather than an event of ``game``."""
    return game.name != FANTAN.name and row.kind in TABLE_KINDS


def links_of(game: HostedGame[Any, Any], rows: list[Event]) -> dict[str, str]:
    """The player links (name -> token's SHA-256) the table's own rows leave standing."""
    links: dict[str, str] = {}
    for row in rows:
        if table_row(game, row) and row.kind == LINK:
            links[str(row.data["player"])] = str(row.data["token_sha256"])
        elif table_row(game, row) and row.kind == UNLINK:
            links.pop(str(row.data["player"]), None)
    return links


def night_of(journal: Journal) -> str | None:
    """The name of the game the journal holds (``None``: an empty journal)."""
    events = journal.events()
    return plays(events[0]) if events else None


def plays(setup: Event) -> str:
    """The name of the game a journal's setup row sets up; nights from before games were named are piecepack
    Fan Tan's."""
    return str(setup.data.get(PLAYS, FANTAN.name))


class HostedTable(ABC, Generic[State, Ev]):
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
        self._links: dict[str, str] = links_of(game, events)
        if events:
            self.state = self._replay(events)
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
                self.state = self._replay(self.journal.events())  # back to what is on disk
                raise
            self.version += 1
            self._advance()

    def _replay(self, rows: list[Event]) -> State:
        return replay(self.game, [row for row in rows if not table_row(self.game, row)])

    # -- what every game's table does the same way ---------------------------------------------------------------
    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """The players' names, by seat (or in the order of play)."""

    @property
    def links(self) -> dict[str, str]:
        """Each linked player's token's SHA-256: the phones that may act for them."""
        return dict(self._links)

    def player_named(self, player: str) -> str:
        """A player of this night by name (any case), or a refusal naming the players."""
        wanted = name_key(player)
        found = next((p for p in self.players if name_key(p) == wanted), None)
        if found is None:
            raise GameError(f"no player called {quoted_name(player)}; the players are {', '.join(self.players)}")
        return found

    def link(self, player: str, token_sha256: str) -> None:
        """Give ``player`` a new link for this night (its token's hash); the one before stops working."""
        self._table_row(LINK, {"player": self.player_named(player), "token_sha256": token_sha256})

    def unlink(self, player: str) -> None:
        """End ``player``'s link: a lost phone can no longer act for them."""
        self._table_row(UNLINK, {"player": self.player_named(player)})

    def record_login(self, address: str, ok: bool) -> None:
        """A try at the banker's PIN, kept in the night's record whether it was right or not."""
        self._table_row(LOGIN, {"address": address, "ok": ok})

    def _table_row(self, kind: str, data: dict[str, Any], fold: Callable[[], None] | None = None) -> None:
        """Journal one of the table's own rows (never Fan Tan's: its events hold these), fold it in (``fold``: what
        the subclass keeps of it), then tell the listeners."""
        with self._lock:
            self.journal.append(Event(kind, self.game.round_of(self.state), data, self._clock()))
            if kind == LINK:
                self._links[data["player"]] = data["token_sha256"]
            elif kind == UNLINK:
                self._links.pop(data["player"], None)
            if fold is not None:
                fold()
            self.version += 1
            for listener in self._listeners:
                listener(self.state)

    @abstractmethod
    def fault_event(self, reason: str) -> Ev:
        """The game's own record of a fault (each game's adapter decodes it and changes nothing)."""

    def record_fault(self, reason: str) -> None:
        """Journal a fault as it is, without folding it: the game may be what failed, and it changes nothing."""
        kind, data = self.game.encode(self.fault_event(reason))
        self.journal.append(Event(kind, self.game.round_of(self.state), data, self._clock()))

    @property
    def over(self) -> bool:
        return self.game.present(self.state).over is not None

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
