"""What can happen at a card Fan Tan table, as typed events, and their stored form (kind text + JSON payload).

One frozen dataclass per kind; each ``kind`` is a :class:`Kind` whose value is the text the journal stores
(never change one: old nights use them). A game's state is the fold of these events, so a night resumes from
them (``game.py``). Cards are stored as their text ("7H", "10S").
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, get_type_hints

from ..errors import GameError
from .cards import Card, parse_card
from .options import Agreed, CardMode, Options


class Kind(enum.Enum):
    """An event's kind; the value is the text the journal stores."""

    SETUP = "setup"
    DEALER = "dealer"
    DEAL = "deal"
    PLAY = "play"
    PASS = "pass"
    DRAW = "draw"
    REVOKE = "revoke"
    OUT = "out"
    SHOWN = "shown"
    FAULT = "fault"


@dataclass(frozen=True)
class SevensSetup:
    """A game begins: the players by seat (clockwise), the documents' options, the numbers agreed, real or
    virtual cards."""

    kind: ClassVar[Kind] = Kind.SETUP
    players: tuple[str, ...]
    options: Options
    agreed: Agreed
    mode: CardMode


@dataclass(frozen=True)
class DealerChosen:
    """The cards that chose the first dealer: dealt face up up to the first Jack (001), or one cut per seat."""

    kind: ClassVar[Kind] = Kind.DEALER
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class HandDealt:
    """A hand is dealt: the shuffled order of the pack in play with virtual cards, ``None`` with real ones."""

    kind: ClassVar[Kind] = Kind.DEAL
    order: tuple[Card, ...] | None


@dataclass(frozen=True)
class CardPlayed:
    kind: ClassVar[Kind] = Kind.PLAY
    seat: int
    card: Card


@dataclass(frozen=True)
class Passed:
    kind: ClassVar[Kind] = Kind.PASS
    seat: int


@dataclass(frozen=True)
class Drew:
    """A player who cannot play draws the top card of 004's dummy hand."""

    kind: ClassVar[Kind] = Kind.DRAW
    seat: int


@dataclass(frozen=True)
class RevokeClaimed:
    """Real cards, the hand over: the pass at ``move`` (numbered from 1) is claimed a revoke, and these hands are
    shown to decide it."""

    kind: ClassVar[Kind] = Kind.REVOKE
    move: int
    shown: tuple[tuple[int, frozenset[Card]], ...]


@dataclass(frozen=True)
class WentOut:
    """The hand is settled: each seat's cards left as counted (the winner's none)."""

    kind: ClassVar[Kind] = Kind.OUT
    cards_left: tuple[int, ...]


@dataclass(frozen=True)
class ResultShown:
    """The hand's result has been put on show: after a restart it is not shown twice."""

    kind: ClassVar[Kind] = Kind.SHOWN


@dataclass(frozen=True)
class Faulted:
    """The table stopped on an unexpected error: kept for the record; the game is as it was."""

    kind: ClassVar[Kind] = Kind.FAULT
    reason: str


SevensEvent = (
    SevensSetup
    | DealerChosen
    | HandDealt
    | CardPlayed
    | Passed
    | Drew
    | RevokeClaimed
    | WentOut
    | ResultShown
    | Faulted
)


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in sorted(cards)] if isinstance(cards, frozenset) else [str(c) for c in cards]


def encode(event: SevensEvent) -> tuple[str, dict[str, Any]]:
    """The event as the journal stores it: its kind's text and a JSON-ready payload."""
    data: dict[str, Any]
    match event:
        case SevensSetup(players=players, options=options, agreed=agreed, mode=mode):
            data = {
                "players": list(players),
                "options": {f.name: getattr(options, f.name).value for f in fields(options)},
                "agreed": {f.name: getattr(agreed, f.name) for f in fields(agreed)},
                "mode": mode.value,
            }
        case DealerChosen(cards=cards):
            data = {"cards": _cards(cards)}
        case HandDealt(order=order):
            data = {"order": None if order is None else _cards(order)}
        case CardPlayed(seat=seat, card=card):
            data = {"seat": seat, "card": str(card)}
        case Passed(seat=seat) | Drew(seat=seat):
            data = {"seat": seat}
        case RevokeClaimed(move=move, shown=shown):
            data = {"move": move, "shown": [{"seat": seat, "cards": _cards(cards)} for seat, cards in shown]}
        case WentOut(cards_left=cards_left):
            data = {"cards_left": list(cards_left)}
        case Faulted(reason=reason):
            data = {"reason": reason}
        case ResultShown():
            data = {}
    return event.kind.value, data


_OPTION_TYPES = get_type_hints(Options)


def decode(kind: str, data: Mapping[str, Any]) -> SevensEvent:
    """The typed event a journal row holds; a kind this version does not know is refused with its name."""
    try:
        known = Kind(kind)
    except ValueError:
        raise GameError(f"unknown journal event {kind!r} in a game of sevens") from None
    try:
        match known:
            case Kind.SETUP:
                options = Options(**{name: _OPTION_TYPES[name](v) for name, v in data["options"].items()})
                return SevensSetup(tuple(data["players"]), options, Agreed(**data["agreed"]), CardMode(data["mode"]))
            case Kind.DEALER:
                return DealerChosen(tuple(parse_card(c) for c in data["cards"]))
            case Kind.DEAL:
                order = data["order"]
                return HandDealt(None if order is None else tuple(parse_card(c) for c in order))
            case Kind.PLAY:
                return CardPlayed(_int(data["seat"]), parse_card(data["card"]))
            case Kind.PASS:
                return Passed(_int(data["seat"]))
            case Kind.DRAW:
                return Drew(_int(data["seat"]))
            case Kind.REVOKE:
                shown = tuple((_int(h["seat"]), frozenset(parse_card(c) for c in h["cards"])) for h in data["shown"])
                return RevokeClaimed(_int(data["move"]), shown)
            case Kind.OUT:
                return WentOut(tuple(_int(n) for n in data["cards_left"]))
            case Kind.SHOWN:
                return ResultShown()
            case Kind.FAULT:
                return Faulted(str(data["reason"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"a {kind!r} event in the journal cannot be read ({exc!r}): {data!r}") from exc


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"{value!r} is not a whole number")
    return value
