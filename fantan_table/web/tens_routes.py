"""Collecting Tens on the page: the pot, whose turn, the discard, the roll for the first player with its photo for
everyone; each phone's own tiles (virtual dominoes) for that phone only; the players' moves from their phones and
the banker's entries (real dominoes: took, drew, discarded, a declared hand entered tile by tile).

A hand is private: :func:`tens_snapshot` puts tiles in the answer only for the player whose link asked. The rules
and the hand checker have the last word; a refusal is a 409 naming the rule.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request, Response

from ..devices.display.screens import text_lines
from ..rules.money import format_cents
from ..rules.tens.game import Stage, TensState
from ..rules.tens.hosted import TENS
from ..table.core.codec import reading_to_json
from ..table.core.journal import JournalError, read_frame
from ..table.core.tens_table import TensTable
from ..table.show.tens_present import count_off
from ..table.wiring.owner import View
from .http import Refusal, json_body
from .routes import Routes

MAX_TILE_TEXT = 5
"""A tile's text is "6-2" or "62"; anything longer is not a tile."""
MAX_DICE_VALUE = 6


def tens_snapshot(view: View, fault: str | None, me: str | None) -> dict[str, Any]:
    """What the page shows of a night of Collecting Tens: public to all but ``mine``, ``me``'s own tiles."""
    state: TensState = view.state
    names, tiles, money = state.players, state.tiles, state.money
    shown = TENS.present(state)
    players = [
        {
            "name": name,
            "seat": seat,
            "balance_cents": money.balances[seat],
            "in_pot_cents": money.pot[seat],
            "tiles": len(tiles.hands[seat]) if tiles is not None else None,
            "turn": state.to_move == seat,
            "roller": state.roller == seat and state.stage is Stage.ROLLING,
            "first": state.first == seat,
        }
        for seat, name in enumerate(names)
    ]
    mine = None
    if me is not None and tiles is not None and state.config.virtual and me in names:
        mine = {"tiles": [str(t) for t in tiles.hands[names.index(me)] if t is not None]}
    last = state.results[-1] if state.results and state.stage is Stage.SHOWING else None
    discard = tiles.discards[-1] if tiles is not None and tiles.discards else None
    return {
        "version": view.version,
        "game": "tens",
        "stage": state.stage.value,
        "round": state.hand,
        "mode": state.config.dominoes.value,
        "pairs": state.config.pairs.value,
        "players": players,
        "pot_cents": money.in_pot,
        "pot": format_cents(money.in_pot),
        "roller": names[state.roller],
        "dice": list(state.dice) if state.dice is not None else None,
        "count_off": count_off(state) if state.dice is not None else [],
        "first": names[state.first] if state.first is not None else None,
        "turn": state.player_to_move,
        "discard": str(discard) if discard is not None else None,
        "discards": len(tiles.discards) if tiles is not None else 0,
        "woodpile": len(tiles.woodpile) if tiles is not None else None,
        "roll": None if view.roll is None else reading_to_json(view.roll),
        "entered": [str(t) for t in view.entered],
        "false_claims": [
            {"player": c.player, "why": c.why, "paid": format_cents(c.penalty_cents)} for c in state.false_claims
        ],
        "last_hand": None
        if last is None
        else {
            "hand": last.hand,
            "winner": last.winner,
            "pot": format_cents(last.pot_cents),
            "how": str(last.complete) if last.complete is not None else None,
        },
        "over": state.over,
        "lights": {"bets_open": shown.accepting and fault is None, "open_number": shown.lit if fault is None else None},
        "screen": text_lines(view.screen) if view.screen is not None else [],
        "device_problem": view.device_problem,
        "fault": fault,
        "mine": mine,
        "actions": banker_actions(state),
    }


def banker_actions(state: TensState) -> list[str]:
    """What the banker's page offers now (the rules still check each)."""
    physical = not state.config.virtual
    match state.stage:
        case Stage.ROLLING:
            return ["roll", "end"]
        case Stage.DEALING:
            return ["deal", "end"]
        case Stage.TAKING:
            return ["took", "drew", "end"] if physical else ["end"]
        case Stage.HOLDING:
            return ["discarded", "tile", "untile", "declare", "end"] if physical else ["end"]
        case Stage.SHOWING:
            return ["next", "end"]
    return []


def add_tens_routes(app: FastAPI, routes: Routes, owner_view: Any) -> None:
    """``owner_view`` is the page's context: its owner's view and the state folder the photos are kept in."""

    # -- a player's own moves, from their phone (virtual dominoes; the banker enters real ones) ----------------
    @app.post("/api/tens/{move}")
    async def move(move: str, request: Request) -> dict[str, Any]:
        player = routes.player_of(request)
        match move:
            case "take":
                await routes.command(lambda night: night.tens.took(player))
            case "draw":
                await routes.command(lambda night: night.tens.drew(player))
            case "discard":
                tile = _tile_text((await json_body(request)).get("tile"))
                await routes.command(lambda night: night.tens.discarded(player, tile))
            case "declare":
                await routes.command(lambda night: night.tens.declare(player))
            case _:
                raise Refusal(404, f"no move {move!r}: take, draw, discard or declare")
        return routes.state(request)

    @app.get("/api/tens/roll/photo.jpg")
    async def roll_photo() -> Response:
        """The photo of this hand's last roll for the first player (the page draws each die's box on it)."""
        roll = owner_view.owner.view.roll
        if roll is None or roll.frame is None:
            raise Refusal(404, "no roll for the first player with a photo (none yet, or its dice were typed)")
        try:
            photo = await asyncio.to_thread(
                read_frame, owner_view.owner.night.state_dir, roll.frame.file, roll.frame.sha256
            )
        except JournalError:
            raise Refusal(404, "the photo of the roll is missing or not as it was kept") from None
        return Response(photo, media_type="image/jpeg")

    # -- the banker's entries ----------------------------------------------------------------------------------
    @app.post("/api/banker/tens")
    async def banker(request: Request) -> dict[str, Any]:
        """The banker's entry: ``roll`` (the four dice typed, the camera's fallback: checked and answered with the
        first player they count off; only a second request with ``"confirm": true`` rolls them), ``deal``,
        ``took``, ``drew``, ``discarded`` (real dominoes: no tile named), ``tile`` (one tile of a hand being
        declared), ``untile`` (take the last back), ``declare``, ``next``, ``end``."""
        routes.require_banker(request)
        body = await json_body(request)
        action = body.get("action")
        match action:
            case "roll":
                values = body.get("values")
                if not isinstance(values, list) or not all(type(v) is int and 0 <= v <= MAX_DICE_VALUE for v in values):
                    raise Refusal(400, "values must be the four dice's faces, e.g. [0, 3, 5, 2]")
                if body.get("confirm") is not True:
                    return {"preview": await routes.command(lambda night: _roll_preview(night.tens, values))}
                hand = body.get("hand")  # the hand the preview was for: the camera may have read a roll since
                if hand is not None and type(hand) is not int:
                    raise Refusal(400, "hand is the number of the hand whose roll the dice were checked for")
                await routes.command(lambda night: night.tens.roll(values, by="the banker (web)", for_hand=hand))
            case "deal":
                await routes.command(lambda night: night.tens.deal())
            case "took" | "drew" | "discarded" | "declare":
                player = routes.known_player(body.get("player"))
                await routes.command(lambda night: _turn(night.tens, action, player))
            case "tile":
                tile = _tile_text(body.get("tile"))
                await routes.command(lambda night: night.tens.enter_tile(night.tens.state.player_to_move or "", tile))
            case "untile":
                await routes.command(lambda night: night.tens.take_back_tile(night.tens.state.player_to_move or ""))
            case "next":
                await routes.command(lambda night: night.tens.next_hand())
            case "end":
                await routes.command(lambda night: night.tens.end())
            case _:
                raise Refusal(
                    400,
                    f"unknown action {action!r}: roll, deal, took, drew, discarded, tile, untile, declare, next or end",
                )
        return routes.state(request)


def _roll_preview(table: TensTable, values: list[int]) -> dict[str, Any]:
    """What typed dice would do, nothing changed: their total and the count-off to the first player."""
    after = table.check_roll(values)
    assert after.first is not None  # a roll the rules take names the first player
    first = after.players[after.first]
    return {"hand": after.hand, "dice": values, "total": sum(values), "count_off": count_off(after), "first": first}


def _turn(table: Any, action: str, player: str) -> None:
    {"took": table.took, "drew": table.drew, "discarded": table.discarded, "declare": table.declare}[action](player)


def _tile_text(tile: Any) -> str:
    if not isinstance(tile, str) or not 0 < len(tile) <= MAX_TILE_TEXT:
        raise Refusal(400, 'tile must be a tile\'s text, e.g. "6-2" or "62"')
    return tile
