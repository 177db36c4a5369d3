"""Collecting Tens events as the journal stores them (kind text + JSON payload) and back.

A tile is stored as its text (``"6-2"``), a setup as its config with every choice written out (the default
of the day is not assumed on replay), and a payload this version cannot read is refused with its kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import GameError
from .dominoes import Tile, parse_tile
from .events import (
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
from .hand import PairRule
from .options import Dominoes, TensConfig, WhenDry


def config_to_json(config: TensConfig) -> dict[str, Any]:
    return {
        "players": list(config.players),
        "starting_cents": config.starting_cents,
        "ante_cents": config.ante_cents,
        "pairs": config.pairs.value,
        "sets": config.sets_in_play,
        "when_dry": config.when_dry.value,
        "penalty_cents": config.penalty_cents,
        "dominoes": config.dominoes.value,
        "dice_faces": list(config.dice_faces),
    }


def config_from_json(data: Mapping[str, Any]) -> TensConfig:
    return TensConfig(
        players=tuple(data["players"]),
        starting_cents=data["starting_cents"],
        ante_cents=data["ante_cents"],
        pairs=PairRule(data["pairs"]),
        sets=data["sets"],
        when_dry=WhenDry(data["when_dry"]),
        penalty_cents=data["penalty_cents"],
        dominoes=Dominoes(data["dominoes"]),
        dice_faces=tuple(data["dice_faces"]),
    )


def _tiles_to_json(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(tile) for tile in tiles]


def _tiles_from_json(texts: list[str]) -> tuple[Tile, ...]:
    return tuple(parse_tile(text) for text in texts)


def encode(event: TensEvent) -> tuple[str, dict[str, Any]]:
    """The event as the journal stores it: its kind's text and a JSON-ready payload."""
    data: dict[str, Any]
    match event:
        case TensSetup(config=config):
            data = {"config": config_to_json(config)}
        case Rolled(dice=dice):
            data = {"dice": list(dice)}
        case Dealt(order=order):
            data = {"order": _tiles_to_json(order)}
        case Took(player=player) | Drew(player=player):
            data = {"player": player}
        case Discarded(player=player, tile=tile):
            data = {"player": player, "tile": None if tile is None else str(tile)}
        case Declared(player=player, tiles=tiles):
            data = {"player": player, "tiles": _tiles_to_json(tiles)}
        case Faulted(reason=reason):
            data = {"reason": reason}
        case Shown() | NextHand() | Ended():
            data = {}
    return event.kind.value, data


def decode(kind: str, data: Mapping[str, Any]) -> TensEvent:
    """The typed event a journal row holds; a kind or payload this version cannot read is refused with its name."""
    try:
        known = Kind(kind)
    except ValueError:
        raise GameError(f"unknown Collecting Tens journal event {kind!r}") from None
    try:
        match known:
            case Kind.SETUP:
                return TensSetup(config_from_json(data["config"]))
            case Kind.ROLLED:
                return Rolled(tuple(data["dice"]))
            case Kind.DEALT:
                return Dealt(_tiles_from_json(data["order"]))
            case Kind.TOOK:
                return Took(data["player"])
            case Kind.DREW:
                return Drew(data["player"])
            case Kind.DISCARDED:
                tile = data["tile"]
                return Discarded(data["player"], None if tile is None else parse_tile(tile))
            case Kind.DECLARED:
                return Declared(data["player"], _tiles_from_json(data["tiles"]))
            case Kind.SHOWN:
                return Shown()
            case Kind.NEXT:
                return NextHand()
            case Kind.ENDED:
                return Ended()
            case Kind.FAULT:
                return Faulted(data["reason"])
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"a {kind!r} event in the journal cannot be read ({exc!r}): {data!r}") from exc
