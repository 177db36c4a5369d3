"""The hosting interface: a second, made-up game plugs in beside Fan Tan and replays through the same code."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import pytest

from fantan_table.rules import GameConfig, Player, Suit
from fantan_table.rules.bets import Bet
from fantan_table.rules.errors import GameError
from fantan_table.rules.events import BetPlaced, Setup
from fantan_table.rules.games import PLAYS, HostedGame, Presentation, replay, stored_setup
from fantan_table.table.core.state import FANTAN, TableState

NOON = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


# -- Odd or Even: one call per round, then the dice total decides; its state is immutable ---------------
@dataclass(frozen=True)
class Start:
    players: tuple[str, ...]


@dataclass(frozen=True)
class Call:
    player: str
    odd: bool


@dataclass(frozen=True)
class Rolled:
    total: int


OddEvent = Start | Call | Rolled


@dataclass(frozen=True)
class OddState:
    players: tuple[str, ...]
    round: int = 1
    calls: tuple[Call, ...] = ()
    wins: tuple[str, ...] = ()


class OddOrEven:
    name = "odd-or-even"

    def start(self, setup: OddEvent) -> OddState:
        if not isinstance(setup, Start):
            raise GameError("the journal does not start with a game's setup")
        return OddState(setup.players)

    def apply(self, state: OddState, event: OddEvent, at: datetime) -> OddState:
        match event:
            case Call(player=player) if player in state.players:
                return replace(state, calls=(*state.calls, event))
            case Rolled(total=total) if state.calls:
                won = tuple(c.player for c in state.calls if c.odd == (total % 2 == 1))
                return OddState(state.players, state.round + 1, (), state.wins + won)
        raise GameError(f"cannot {event} now")

    def round_of(self, state: OddState) -> int:
        return state.round

    def follow_up(self, state: OddState) -> OddEvent | None:
        return None

    def seen(self, state: OddState) -> OddEvent | None:
        return None

    def encode(self, event: OddEvent) -> tuple[str, dict[str, Any]]:
        kind = type(event).__name__.lower()
        return kind, dict(event.__dict__) | ({"players": list(event.players)} if isinstance(event, Start) else {})

    def decode(self, kind: str, data: Mapping[str, Any]) -> OddEvent:
        match kind:
            case "start":
                return Start(tuple(data["players"]))
            case "call":
                return Call(data["player"], data["odd"])
            case "rolled":
                return Rolled(data["total"])
        raise GameError(f"unknown journal event {kind!r}")

    def present(self, state: OddState) -> Presentation:
        return Presentation("calling", state.round, accepting=True, lit=None, over=None)


ODD: HostedGame[OddState, OddEvent] = OddOrEven()


@dataclass(frozen=True)
class Row:
    """A journal row, as the journal hands it back: kind text, round, JSON payload, time."""

    kind: str
    round: int
    data: Mapping[str, Any]
    at: datetime


def journaled(game: HostedGame[Any, Any], events: list[Any]) -> list[Row]:
    """Play ``events`` as the table does (apply, then store as kind text + JSON), and return the rows."""
    state, rows = game.start(events[0]), []
    kind, data = stored_setup(game, events[0])
    rows.append(Row(kind, 1, json.loads(json.dumps(data)), NOON))
    for event in events[1:]:
        round_ = game.round_of(state)
        state = game.apply(state, event, NOON)
        kind, data = game.encode(event)
        rows.append(Row(kind, round_, json.loads(json.dumps(data)), NOON))
    return rows


def test_a_second_game_replays_through_the_same_fold() -> None:
    events: list[OddEvent] = [
        Start(("Ann", "Bob")),
        Call("Ann", True),
        Call("Bob", False),
        Rolled(7),
        Call("Bob", True),
    ]
    state = replay(ODD, journaled(ODD, events))
    assert state == OddState(("Ann", "Bob"), 2, (Call("Bob", True),), ("Ann",))
    assert ODD.present(state).round == 2


def test_a_row_filed_under_another_round_is_refused_for_any_game() -> None:
    rows = journaled(ODD, [Start(("Ann", "Bob")), Call("Ann", True), Rolled(3)])
    with pytest.raises(GameError, match="an event for round 1 cannot apply in round 2"):
        replay(ODD, [*rows, rows[1]])
    with pytest.raises(GameError, match="does not start with a game's setup"):
        replay(ODD, rows[1:])


def test_fan_tan_is_hosted_the_same_way() -> None:
    setup = Setup(GameConfig((Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS))))
    rows = journaled(FANTAN, [setup, BetPlaced("Ann", Bet.number(2), 3)])
    state = replay(FANTAN, rows)
    assert isinstance(state, TableState) and state.game.coins_staked("Ann") == 3
    assert FANTAN.present(state) == Presentation("betting", 1, accepting=True, lit=None, over=None)
    assert FANTAN.follow_up(state) is None and FANTAN.seen(state) is None


def test_a_journal_names_its_game_and_another_game_refuses_to_replay_it() -> None:
    fan_tan = journaled(FANTAN, [Setup(GameConfig((Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS))))])
    odd = journaled(ODD, [Start(("Ann", "Bob")), Call("Ann", True)])
    assert fan_tan[0].data[PLAYS] == "fantan" and odd[0].data[PLAYS] == "odd-or-even"
    with pytest.raises(GameError, match="a night of 'fantan', not of 'odd-or-even'"):
        replay(ODD, fan_tan)
    with pytest.raises(GameError, match="a night of 'odd-or-even', not of 'fantan'"):
        replay(FANTAN, odd)


def test_a_setup_stored_before_games_were_named_is_replayed_by_the_game_asked() -> None:
    rows = journaled(FANTAN, [Setup(GameConfig((Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS))))])
    unnamed = [replace(rows[0], data={k: v for k, v in rows[0].data.items() if k != PLAYS})]
    assert replay(FANTAN, unnamed).game.round == 1
