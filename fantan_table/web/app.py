"""The scorer's page and its API, served by the ``run`` process on the house network.

Every request is checked here, the client is never trusted: a player's token names the only
player whose coins it may move, banker actions need the banker's session, state-changing requests
need the CSRF header, and the rules core has the last word. A refusal is a 4xx with a message and
changes nothing.
"""

from __future__ import annotations

import asyncio
import io
import json
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import cv2
import qrcode
import qrcode.image.svg
from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from PIL import Image

from ..devices.display.draw import draw
from ..devices.pins import ButtonName
from ..rules.errors import BetError, RulesError
from ..rules.game import GameConfig
from ..table.banker_pin import check_pin
from ..table.codec import game_from_json
from ..table.config import CHOICES
from ..table.history import write_scoring_csv
from ..table.night import Night
from ..table.table import TableError
from ..vision.annotate import annotate
from ..vision.reader import DieReading, Reading, Status
from .http import Refusal, error, handle_refusals, jpeg, json_body, over_budget, serve_static, static_text
from .security import Keys, RateLimiter
from .snapshot import snapshot

CSRF_COOKIE, CSRF_HEADER, BANKER_COOKIE, PLAYER_HEADER = (
    "fantan_csrf",
    "x-csrf-token",
    "fantan_banker",
    "x-player-token",
)
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
EVENT_POLL_SECONDS = 0.2


@dataclass
class WebContext:
    night: Night
    keys: Keys
    simulated: bool
    requests: RateLimiter
    logins: RateLimiter


def create_app(ctx: WebContext) -> FastAPI:
    app = FastAPI(title="fantan-table", docs_url=None, redoc_url=None)

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if refused := over_budget(request, ctx.requests):
            return refused
        if request.method not in SAFE_METHODS:
            cookie, header = request.cookies.get(CSRF_COOKIE), request.headers.get(CSRF_HEADER)
            if not cookie or not header or not secrets.compare_digest(cookie, header):
                return error(403, "missing or wrong CSRF token: reload the page")
        return await call_next(request)

    handle_refusals(app)
    serve_static(app)

    # -- the page --------------------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    async def page(request: Request) -> Response:
        response = HTMLResponse(static_text("index.html"))
        token = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        response.set_cookie(CSRF_COOKIE, token, samesite="strict", httponly=False)
        response.headers["Cache-Control"] = "no-store"
        return response

    # -- reading the table -----------------------------------------------------------------------------------
    @app.get("/api/state")
    async def state(request: Request) -> dict[str, Any]:
        return _state(request)

    @app.get("/api/events")
    async def events(request: Request) -> StreamingResponse:
        async def stream() -> AsyncIterator[str]:
            last: tuple[int, int, object] | None = None
            while not await request.is_disconnected():
                night = ctx.night
                runner = night.runner
                now = (id(night.table), night.table.version, runner.screen if runner else None)
                if now != last:
                    last = now
                    yield f"data: {json.dumps(_state(request))}\n\n"
                await asyncio.sleep(EVENT_POLL_SECONDS)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    @app.get("/api/scoring.csv")
    async def scoring_csv() -> Response:
        out = io.StringIO()
        write_scoring_csv(ctx.night.table.state.game.scoring_table(), out)
        return Response(
            out.getvalue(),
            media_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="fantan-scoring.csv"'},
        )

    @app.get("/api/rounds/{number}/photo.jpg")
    async def photo(number: int) -> Response:
        record = next((r for r in ctx.night.table.state.rounds if r.report.round == number), None)
        if record is None or record.reading is None or record.reading.frame is None:
            raise Refusal(404, f"round {number} has no photo (not played yet, or its dice were entered by hand)")
        path = ctx.night.state_dir / record.reading.frame["file"]
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise Refusal(404, f"the photo of round {number} is missing from {path.parent}")
        seen = record.reading
        reading = Reading(
            Status.OK if seen.ok else Status.UNSURE,
            tuple(DieReading(d.value, d.center, (d.center, (d.side, d.side), d.angle), 1.0) for d in seen.dice),
            seen.message,
        )
        return jpeg(annotate(frame, reading))

    @app.get("/api/display.png")
    async def display() -> Response:
        runner = ctx.night.runner
        if runner is None or runner.screen is None:
            raise Refusal(404, "no display is attached to this table")
        image = draw(runner.screen).convert("L").resize((384, 192), Image.Resampling.NEAREST)
        out = io.BytesIO()
        image.save(out, format="PNG")
        return Response(out.getvalue(), media_type="image/png", headers={"Cache-Control": "no-store"})

    # -- players ---------------------------------------------------------------------------------------------
    @app.post("/api/bets")
    async def place(request: Request) -> dict[str, Any]:
        player, bet, coins = await _bet_request(request)
        _rules(lambda: ctx.night.table.place(player, bet, coins))
        return _state(request)

    @app.post("/api/bets/remove")
    async def remove(request: Request) -> dict[str, Any]:
        player, bet, coins = await _bet_request(request)
        _rules(lambda: ctx.night.table.remove(player, bet, coins))
        return _state(request)

    # -- the banker ------------------------------------------------------------------------------------------
    @app.post("/api/banker/login")
    async def login(request: Request) -> Response:
        client = request.client.host if request.client else "?"
        if not ctx.logins.allow(client):
            raise Refusal(429, "too many PIN attempts: wait a minute")
        body = await json_body(request)
        pin = body.get("pin")
        if not isinstance(pin, str) or not check_pin(pin, ctx.keys.pin_hash):
            raise Refusal(401, "wrong banker PIN")
        response = JSONResponse({"banker": True})
        response.set_cookie(BANKER_COOKIE, ctx.keys.banker_session(int(time.time())), httponly=True, samesite="strict")
        return response

    @app.post("/api/banker/logout")
    async def logout() -> Response:
        response = JSONResponse({"banker": False})
        response.delete_cookie(BANKER_COOKIE)
        return response

    @app.post("/api/banker/action")
    async def action(request: Request) -> dict[str, Any]:
        _require_banker(request)
        body = await json_body(request)
        table = ctx.night.table
        actions: dict[str, Callable[[], None]] = {
            "close": table.close_bets,
            "next": table.next_round,
            "end": table.end_game,
            "raid": table.raid,
            "resume": table.resume,
            "confirm": table.confirm,
            "reroll": table.reroll,
            "void": lambda: table.void(_text(body.get("reason", "voided by the banker"), "reason")),
        }
        name = body.get("action")
        if name not in actions:
            raise Refusal(400, f"unknown action {name!r}: one of {', '.join(actions)}")
        _rules(actions[name])
        return _state(request)

    @app.post("/api/banker/dice")
    async def dice(request: Request) -> dict[str, Any]:
        _require_banker(request)
        values = (await json_body(request)).get("values")
        if not isinstance(values, list) or not values or not all(type(v) is int and 0 <= v <= 6 for v in values):
            raise Refusal(400, "values must be a list of the dice's faces, whole numbers 0 to 6, e.g. [0, 3, 5, 2]")
        _rules(lambda: ctx.night.table.enter_dice(values, by="the banker (web)"))
        return _state(request)

    @app.post("/api/banker/game")
    async def new_game(request: Request) -> dict[str, Any]:
        _require_banker(request)
        body = await json_body(request)
        game = _game_from_form(body)
        on_unsure = body.get("on_unsure", "reroll")
        if on_unsure not in ("reroll", "void"):
            raise Refusal(400, "on_unsure must be 'reroll' or 'void'")
        _rules(lambda: ctx.night.new_game(game, on_unsure, abandon=body.get("abandon") is True))
        return _state(request)

    @app.get("/api/banker/players")
    async def links(request: Request) -> list[dict[str, str]]:
        _require_banker(request)
        base = str(request.base_url).rstrip("/")
        out = []
        for p in ctx.night.table.state.game.players:
            link = f"{base}/?player={ctx.keys.player_token(p.name)}"
            svg = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage).to_string(encoding="unicode")
            out.append({"name": p.name, "link": link, "qr_svg": svg})
        return out

    # -- the simulated table ---------------------------------------------------------------------------------
    @app.post("/api/sim/{what}")
    async def simulate(what: str, request: Request) -> dict[str, Any]:
        _require_banker(request)
        devices = ctx.night.devices
        if not ctx.simulated or devices is None or devices.simulator is None or devices.sim_camera is None:
            raise Refusal(404, "this table runs real hardware: there is nothing to simulate")
        body = await json_body(request)
        if what == "press":
            try:
                devices.simulator.press(ButtonName(body.get("button")))
            except ValueError:
                raise Refusal(400, f"button must be one of {', '.join(b.value for b in ButtonName)}") from None
        elif what == "shake":
            values = body.get("values")
            if values is not None and not (
                isinstance(values, list) and all(type(v) is int and 0 <= v <= 6 for v in values)
            ):
                raise Refusal(400, "values must be a list of faces 0 to 6, or left out for a random roll")
            devices.sim_camera.shake(values)
        elif what == "lift":
            devices.sim_camera.lift()
        else:
            raise Refusal(404, f"no simulated {what!r}: press, shake or lift")
        await asyncio.sleep(0.3)  # let the table's loop take in the change before answering
        return _state(request)

    @app.get("/api/sim/camera.jpg")
    async def camera() -> Response:
        devices = ctx.night.devices
        if not ctx.simulated or devices is None or devices.sim_camera is None:
            raise Refusal(404, "this table runs a real camera")
        frame = devices.sim_camera.peek()
        return jpeg(cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA))

    # -- helpers ---------------------------------------------------------------------------------------------
    def _state(request: Request) -> dict[str, Any]:
        night = ctx.night
        runner = night.runner
        data = snapshot(
            night.table.state,
            night.table.version,
            runner.screen if runner else None,
            runner.device_problem if runner else None,
        )
        token = request.headers.get(PLAYER_HEADER)
        names = [p.name for p in night.table.state.game.players]
        data["me"] = ctx.keys.player_for(token, names) if token else None
        data["banker"] = _is_banker(request)
        data["simulated"] = ctx.simulated and night.devices is not None and night.devices.sim_camera is not None
        return data

    def _is_banker(request: Request) -> bool:
        cookie = request.cookies.get(BANKER_COOKIE)
        return bool(cookie) and ctx.keys.is_banker_session(cookie or "", time.time())

    def _require_banker(request: Request) -> None:
        if not _is_banker(request):
            raise Refusal(401, "banker only: log in with the banker PIN")

    async def _bet_request(request: Request) -> tuple[str, str, int]:
        token = request.headers.get(PLAYER_HEADER)
        if not token:
            raise Refusal(401, "no player token: open the link the banker gave you")
        player = ctx.keys.player_for(token, [p.name for p in ctx.night.table.state.game.players])
        if player is None:
            raise Refusal(403, "this player link is not valid for the game at this table: ask the banker for yours")
        body = await json_body(request)
        bet, coins = body.get("bet"), body.get("coins", 1)
        if not isinstance(bet, str):
            raise Refusal(400, 'bet must be a bet\'s text form, e.g. "side:0-1"')
        if type(coins) is not int or not 1 <= coins <= 5:
            raise Refusal(400, "coins must be a whole number from 1 to 5")
        return player, bet, coins

    return app


def _rules(action: Callable[[], object]) -> None:
    """Run a table action; what the rules refuse is a 409 with the rule, bad input a 400."""
    try:
        action()
    except BetError as exc:  # not a position on the layout: bad input
        raise Refusal(400, str(exc)) from None
    except (RulesError, TableError) as exc:  # a rule says no, now
        raise Refusal(409, str(exc)) from None


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise Refusal(400, f"{name} must be a short text")
    return value


def _game_from_form(body: dict[str, Any]) -> GameConfig:
    """The banker's setup form, in the journal's words for a game; every mistake is a 400 naming the field."""
    players = body.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("suit"), str) for p in players
    ):
        raise Refusal(400, 'players must be a list of {"name": ..., "suit": ...}')
    dollars = body.get("starting_dollars", 50)
    if type(dollars) is not int or not 1 <= dollars <= 1_000_000:
        raise Refusal(400, "starting_dollars must be a whole number of dollars, 1 or more")
    data = {
        "players": [{"name": p["name"].strip(), "suit": p["suit"]} for p in players],
        "starting_balance_cents": dollars * 100,
        "variants": body.get("variants", "none"),
        "banker": {
            "mode": body.get("banker", "house"),
            "balance_cents": _whole(body.get("house_bank_dollars", 500), "house_bank_dollars") * 100,
            "every_rounds": _whole(body.get("rotate_every", 4), "rotate_every"),
            "first": body.get("first_banker") or None,
        },
        "end": {
            "kind": body.get("end", "raid"),
            "rounds": _whole(body.get("end_rounds", 20), "end_rounds"),
            "deadline": body.get("end_time"),
        },
    }
    for field, key, value in (("banker", "banker", data["banker"]["mode"]), ("end", "end", data["end"]["kind"])):
        choices = CHOICES[("game", key)]
        if value not in choices:
            raise Refusal(400, f"{field} must be one of {', '.join(choices)}")
    try:
        return game_from_json(data)
    except (RulesError, ValueError, TypeError) as exc:
        raise Refusal(400, f"game setup: {exc}") from None


def _whole(value: Any, name: str) -> int:
    if type(value) is not int or value < 1:
        raise Refusal(400, f"{name} must be a whole number, 1 or more")
    return value
