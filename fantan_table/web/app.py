"""The scorer's page and its API, served by the ``run`` process on the house network.

Every request is checked here, the client is never trusted: a player's token names the only
player whose coins it may move, banker actions need the banker's session, state-changing requests
need the CSRF header, and the rules core has the last word. A refusal is a 4xx with a message and
changes nothing.

The routes never touch the table: they read the owner's latest immutable view, and submit what
changes it as a command to the table's owner, awaiting the answer without blocking uvicorn's loop.
The live stream is pushed when the owner publishes a new view.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

import cv2
import qrcode
import qrcode.image.svg
from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from PIL import Image

from ..devices.display.draw import draw
from ..devices.display.screens import Screen
from ..devices.pins import ButtonName
from ..rules.errors import BetError, RulesError
from ..rules.game import GameConfig
from ..settings import Key, Scope, Unfit, form_fields, in_scope
from ..table.core.journal import JournalError, read_frame
from ..table.core.table import Table, TableError
from ..table.show.history import write_scoring_csv
from ..table.wiring.banker_pin import check_pin
from ..table.wiring.config import KEYS, game_from_settings
from ..table.wiring.night import Night
from ..table.wiring.owner import COMMAND_TIMEOUT_SECONDS, Owner, OwnerError, View
from ..tomlfile import WANTED
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
KEEPALIVE_SECONDS = 15.0
"""A quiet live stream sends a comment this often, so a phone notices a dropped connection."""
HANGUP_CHECK_SECONDS = 1.0
"""How often a quiet live stream asks whether its phone has gone or the table is stopping, to end soon after."""
SIM_SETTLE_SECONDS = 0.3
"""After a simulated press, shake or lift, let the table's loop take in the change before answering."""

T = TypeVar("T")


@dataclass
class WebContext:
    owner: Owner
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
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def notify(_: View) -> None:  # on the owner's thread: only hand the news to this loop
            with contextlib.suppress(RuntimeError):  # the loop has closed (the server is stopping)
                loop.call_soon_threadsafe(changed.set)

        async def stream() -> AsyncIterator[str]:
            unwatch = ctx.owner.watch(notify)
            try:
                last, quiet = 0, 0.0
                while not ctx.owner.stopping and not await request.is_disconnected():
                    changed.clear()
                    if ctx.owner.view.version != last:
                        last, quiet = ctx.owner.view.version, 0.0
                        yield f"data: {json.dumps(_state(request))}\n\n"
                    try:
                        await asyncio.wait_for(changed.wait(), HANGUP_CHECK_SECONDS)
                    except TimeoutError:
                        quiet += HANGUP_CHECK_SECONDS
                        if quiet >= KEEPALIVE_SECONDS:
                            quiet = 0.0
                            yield ": still here\n\n"
            finally:
                unwatch()

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    @app.get("/api/scoring.csv")
    async def scoring_csv() -> Response:
        out = io.StringIO()
        write_scoring_csv(ctx.owner.view.state.game.scoring_table(), out)
        return Response(
            out.getvalue(),
            media_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="fantan-scoring.csv"'},
        )

    @app.get("/api/rounds/{number}/photo.jpg")
    async def photo(number: int) -> Response:
        record = next((r for r in ctx.owner.view.state.rounds if r.report.round == number), None)
        if record is None or record.reading is None or record.reading.frame is None:
            raise Refusal(404, f"round {number} has no photo (not played yet, or its dice were entered by hand)")
        frame = record.reading.frame
        try:
            # reading and hashing a file is blocking work: off the event loop, which every phone shares
            photo = await asyncio.to_thread(read_frame, ctx.owner.night.state_dir, frame.file, frame.sha256)
        except JournalError as exc:
            raise Refusal(404, f"round {number}: {exc}") from None
        return Response(photo, media_type="image/jpeg")  # the page draws each die's box on it, from the reading

    @app.get("/api/display.png")
    async def display() -> Response:
        screen = ctx.owner.view.screen
        if screen is None:
            raise Refusal(404, "no display is attached to this table")
        return Response(
            await asyncio.to_thread(_display_png, screen), media_type="image/png", headers={"Cache-Control": "no-store"}
        )

    # -- players ---------------------------------------------------------------------------------------------
    @app.post("/api/bets")
    async def place(request: Request) -> dict[str, Any]:
        player, bet, coins = await _bet_request(request)
        await _command(lambda night: night.table.place(player, bet, coins))
        return _state(request)

    @app.post("/api/bets/remove")
    async def remove(request: Request) -> dict[str, Any]:
        player, bet, coins = await _bet_request(request)
        await _command(lambda night: night.table.remove(player, bet, coins))
        return _state(request)

    # -- the banker ------------------------------------------------------------------------------------------
    @app.post("/api/banker/login")
    async def login(request: Request) -> Response:
        client = request.client.host if request.client else "?"
        if not ctx.logins.allow(client):
            raise Refusal(429, "too many PIN attempts: wait a minute")
        body = await json_body(request)
        pin = body.get("pin")
        # scrypt is built to be slow: on the event loop it would stall every phone's page while it runs
        if not isinstance(pin, str) or not await asyncio.to_thread(check_pin, pin, ctx.keys.pin_hash):
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
        actions: dict[str, Callable[[Table], None]] = {
            "close": Table.close_bets,
            "next": Table.next_round,
            "end": Table.end_game,
            "raid": Table.raid,
            "resume": Table.resume,
            "confirm": Table.confirm,
            "reroll": Table.reroll,
            "void": Table.void,
        }
        name = body.get("action")
        if name not in actions:
            raise Refusal(400, f"unknown action {name!r}: one of {', '.join(actions)}")
        if name == "void":
            reason = _text(body.get("reason", "voided by the banker"), "reason")
            await _command(lambda night: night.table.void(reason))
        else:
            await _command(lambda night: actions[name](night.table))
        return _state(request)

    @app.post("/api/banker/dice")
    async def dice(request: Request) -> dict[str, Any]:
        _require_banker(request)
        values = (await json_body(request)).get("values")
        if not isinstance(values, list) or not values or not all(type(v) is int and 0 <= v <= 6 for v in values):
            raise Refusal(400, "values must be a list of the dice's faces, whole numbers 0 to 6, e.g. [0, 3, 5, 2]")
        await _command(lambda night: night.table.enter_dice(values, by="the banker (web)"))
        return _state(request)

    @app.post("/api/banker/game")
    async def new_game(request: Request) -> dict[str, Any]:
        _require_banker(request)
        body = await json_body(request)
        game = _game_from_form(body)
        on_unsure = _form_value(body, KEYS[("house", "on_unsure")])
        abandon = body.get("abandon") is True
        await _command(lambda night: night.new_game(game, on_unsure, abandon=abandon))
        return _state(request)

    @app.get("/api/game-form")
    async def game_form() -> dict[str, Any]:
        """The new-game form's fields, from the config's declaration: the page builds the form from them."""
        return {"fields": form_fields(KEYS, Scope.NEW_GAME)}

    @app.get("/api/banker/players")
    async def links(request: Request) -> list[dict[str, str]]:
        _require_banker(request)
        base = str(request.base_url).rstrip("/")
        out = []
        for p in ctx.owner.view.state.game.players:
            link = f"{base}/?player={ctx.keys.player_token(p.name)}"
            svg = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage).to_string(encoding="unicode")
            out.append({"name": p.name, "link": link, "qr_svg": svg})
        return out

    # -- the simulated table ---------------------------------------------------------------------------------
    @app.post("/api/sim/{what}")
    async def simulate(what: str, request: Request) -> dict[str, Any]:
        _require_banker(request)
        devices = ctx.owner.night.devices
        if not ctx.simulated or devices is None or devices.simulator is None or devices.sim_camera is None:
            raise Refusal(404, "this table runs real hardware: there is nothing to simulate")
        simulator, sim_camera = devices.simulator, devices.sim_camera
        body = await json_body(request)
        if what == "press":
            try:
                button = ButtonName(body.get("button"))
            except ValueError:
                raise Refusal(400, f"button must be one of {', '.join(b.value for b in ButtonName)}") from None
            await _command(lambda _: simulator.press(button))
        elif what == "shake":
            values = body.get("values")
            if values is not None and not (
                isinstance(values, list) and all(type(v) is int and 0 <= v <= 6 for v in values)
            ):
                raise Refusal(400, "values must be a list of faces 0 to 6, or left out for a random roll")
            await _command(lambda _: sim_camera.shake(values))
        elif what == "lift":
            await _command(lambda _: sim_camera.lift())
        else:
            raise Refusal(404, f"no simulated {what!r}: press, shake or lift")
        await asyncio.sleep(SIM_SETTLE_SECONDS)
        return _state(request)

    @app.get("/api/sim/camera.jpg")
    async def camera() -> Response:
        devices = ctx.owner.night.devices
        if not ctx.simulated or devices is None or devices.sim_camera is None:
            raise Refusal(404, "this table runs a real camera")
        sim_camera = devices.sim_camera
        frame = await _command(lambda _: sim_camera.peek())
        return jpeg(cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA))

    # -- helpers ---------------------------------------------------------------------------------------------
    async def _command(action: Callable[[Night], T]) -> T:
        """Have the table's owner do ``action`` and await its answer; a refusal or a fault becomes the reply."""
        return await _answer(ctx.owner.submit(action))

    def _state(request: Request) -> dict[str, Any]:
        view = ctx.owner.view
        fault = view.fault or ctx.owner.fault  # a hung owner publishes no view, but its watchdog names the fault
        data = snapshot(view.state, view.version, view.screen, view.device_problem, fault)
        token = request.headers.get(PLAYER_HEADER)
        names = [p.name for p in view.state.game.players]
        data["me"] = ctx.keys.player_for(token, names) if token else None
        data["banker"] = _is_banker(request)
        devices = ctx.owner.night.devices
        data["simulated"] = ctx.simulated and devices is not None and devices.sim_camera is not None
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
        player = ctx.keys.player_for(token, [p.name for p in ctx.owner.view.state.game.players])
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


def _display_png(screen: Screen) -> bytes:
    """The display as the page shows it: drawn, doubled in size, as PNG."""
    image = draw(screen).convert("L").resize((384, 192), Image.Resampling.NEAREST)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


async def _answer(future: Future[T]) -> T:
    """The owner's answer: what the rules refuse is a 409 with the rule, bad input a 400, a fault or no answer a 503."""
    try:
        return await asyncio.wait_for(asyncio.wrap_future(future), COMMAND_TIMEOUT_SECONDS)
    except BetError as exc:  # not a position on the layout: bad input
        raise Refusal(400, str(exc)) from None
    except (RulesError, TableError) as exc:  # a rule says no, now
        raise Refusal(409, str(exc)) from None
    except OwnerError as exc:
        raise Refusal(503, str(exc)) from None
    except TimeoutError:
        raise Refusal(503, f"the table did not answer within {COMMAND_TIMEOUT_SECONDS:g} s: try again") from None


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise Refusal(400, f"{name} must be a short text")
    return value


def _game_from_form(body: dict[str, Any]) -> GameConfig:
    """The banker's setup form, checked against the config's declaration of the game's keys (the same
    kinds, ranges and choices as the config file); every mistake is a 400 naming the field."""
    players = body.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("suit"), str) for p in players
    ):
        raise Refusal(400, 'players must be a list of {"name": ..., "suit": ...}')
    if isinstance(body.get("variants"), str):  # "corners,diagonals", as the page sent them before
        body = {**body, "variants": [body["variants"]]}
    seats = {"players": tuple(p["name"].strip() for p in players), "suits": tuple(p["suit"] for p in players)}
    game = {
        key.name: seats[key.name] if key.name in seats else _form_value(body, key)
        for key in in_scope(KEYS, Scope.NEW_GAME)
        if key.section == "game"
    }
    try:
        return game_from_settings(game)
    except (RulesError, ValueError, TypeError) as exc:
        raise Refusal(400, f"game setup: {exc}") from None


def _form_value(body: dict[str, Any], key: Key) -> Any:
    """The form's value for ``key`` as the key takes it (its default when not given), or a 400 naming it."""
    value = body.get(key.name)
    if value is None or (value == "" and key.kind is datetime):
        return key.default
    if key.kind is datetime and isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise Refusal(400, f"{key.name} must be {WANTED[datetime]} (got {value!r})") from None
    elif key.kind == "strings" and isinstance(value, list):
        value = [v.strip() if isinstance(v, str) else v for v in value]
    try:
        return key.taken(value)
    except Unfit as exc:
        raise Refusal(400, f"{key.name} {exc}") from None
