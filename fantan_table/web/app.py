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
import logging
import math
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import cv2
import qrcode
import qrcode.image.svg
from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from PIL import Image
from starlette.types import Receive, Send
from starlette.types import Scope as AsgiScope

from ..devices.camera.simulated import SimulatedCamera
from ..devices.display.draw import draw
from ..devices.display.screens import Screen
from ..devices.pins import ButtonName
from ..rules.dice import open_number
from ..rules.errors import BetError, DiceError, RulesError
from ..rules.events import FrameRef
from ..rules.game import GameConfig
from ..rules.money import COIN_CENTS
from ..settings import Key, Scope, Unfit, form_fields, in_scope
from ..table.core.journal import JournalError, read_frame
from ..table.core.state import Stage, TableState
from ..table.core.table import Table, TableError
from ..table.show.history import write_scoring_csv
from ..table.wiring.banker_pin import check_pin
from ..table.wiring.config import KEYS, MAX_DOLLARS, game_from_settings, night_from_settings
from ..table.wiring.night import Night
from ..table.wiring.owner import COMMAND_TIMEOUT_SECONDS, Owner, OwnerError, View
from ..table.wiring.setups import FANTAN_NAME, SEVENS_NAME, TENS_NAME, FanTanNight, NightSetup
from ..tomlfile import WANTED
from .connections import StreamSlots
from .http import (
    Guarded,
    Refusal,
    error,
    handle_refusals,
    jpeg,
    json_body,
    over_budget,
    page_route,
    serve_static,
    static_text,
    without_paths,
)
from .routes import Routes
from .security import PinGuard, RateLimiter, Sessions, new_player_token, player_for
from .sevens_routes import add_sevens_routes, sevens_snapshot
from .snapshot import snapshot
from .tens_routes import add_tens_routes, tens_snapshot

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
"""After a simulated press, shake or lift, and the loop's turn that took it in, let the camera's next frames come
before answering (a lifted cup's dice are read over a few still frames)."""
MAX_PIN_CHECKS_WAITING = 4
"""PIN checks queued for the one scrypt worker, at most: more would only queue guesses the lockout refuses."""
MAX_PIN_LENGTH = 64
"""Longer than any PIN anyone types; a longer one is refused before scrypt spends time on it."""

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PendingGame:
    """The config's game, when it differs from the night under way: the banker may begin it from the page."""

    setup: NightSetup
    changes: list[str]


@dataclass
class WebContext:
    """What the page needs besides the table: the banker's PIN hash, its guards and limits, where links point."""

    owner: Owner
    pin_hash: str
    simulated: bool
    guard: PinGuard
    requests: RateLimiter = field(default_factory=lambda: RateLimiter(rate=20, burst=60))
    logins: RateLimiter = field(default_factory=lambda: RateLimiter(rate=5 / 60, burst=5))
    sessions: Sessions = field(default_factory=Sessions)
    streams: StreamSlots = field(default_factory=StreamSlots)
    base_url: str = ""
    """The start of the players' links, set once the server listens (``web/server.py``); never the Host header."""
    secure_cookies: bool = False
    api_description: bool = False
    pin_checker: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="pin-check")
    )
    """scrypt's one worker: PIN checks queue here, off the event loop and away from every other worker."""
    pin_checks_waiting: int = 0
    config_game: PendingGame | None = None
    """Set at start when the config sets up another game than the night it resumed (``cli/run.py``)."""


def create_app(ctx: WebContext) -> FastAPI:
    app = FastAPI(
        title="fantan-table",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if ctx.api_description else None,
    )

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if refused := over_budget(request, ctx.requests):
            return refused
        if request.method not in SAFE_METHODS:
            cookie, header = request.cookies.get(CSRF_COOKIE), request.headers.get(CSRF_HEADER)
            # as bytes: compare_digest refuses str holding non-ASCII, and a header may hold any Latin-1
            if not cookie or not header or not secrets.compare_digest(cookie.encode(), header.encode()):
                return error(403, "missing or wrong CSRF token: reload the page")
        return await call_next(request)

    app.add_middleware(Guarded)  # added last, so outermost: its headers go on every answer, the guard's too
    handle_refusals(app)
    serve_static(app)

    # -- the page --------------------------------------------------------------------------------------------
    @page_route(app)
    async def page(request: Request) -> Response:
        response = HTMLResponse(static_text("index.html"))
        token = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        response.set_cookie(CSRF_COOKIE, token, samesite="strict", httponly=False, secure=ctx.secure_cookies)
        return response

    # -- reading the table -----------------------------------------------------------------------------------
    @app.get("/api/state")
    async def state(request: Request) -> dict[str, Any]:
        return _state(request)

    @app.get("/api/events")
    async def events(request: Request) -> StreamingResponse:
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        # a 429 when this address, or the table, has all the streams it may; ended when a newcomer needs it
        slot = ctx.streams.take(_client(request), changed.set)  # taken and ended on this loop's thread

        def notify(_: View) -> None:  # on the owner's thread: only hand the news to this loop
            with contextlib.suppress(RuntimeError):  # the loop has closed (the server is stopping)
                loop.call_soon_threadsafe(changed.set)

        async def stream() -> AsyncIterator[str]:
            unwatch = ctx.owner.watch(notify)
            try:
                last, quiet = 0, 0.0
                while not ctx.owner.stopping and not slot.ended and not await request.is_disconnected():
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

        return _SlotStream(lambda: ctx.streams.give_back(slot), stream(), media_type="text/event-stream")

    @app.get("/api/scoring.csv")
    async def scoring_csv() -> Response:
        out = io.StringIO()
        write_scoring_csv(_fantan_state().game.scoring_table(), out)
        return Response(
            out.getvalue(),
            media_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="fantan-scoring.csv"'},
        )

    @app.get("/api/rounds/{number}/photo.jpg")
    async def photo(number: int) -> Response:
        record = next((r for r in _fantan_state().rounds if r.report.round == number), None)
        if record is None or record.reading is None or record.reading.frame is None:
            raise Refusal(404, f"round {number} has no photo (not played yet, or its dice were entered by hand)")
        # the page draws each die's box on it, from the reading
        return await _kept_photo(record.reading.frame, f"round {number}: its photo")

    @app.get("/api/reading/photo.jpg")
    async def deciding_photo() -> Response:
        """The photo of the reading the banker is asked about now (SHAKEN?: confirm or re-roll)."""
        latest = _fantan_state().latest
        if latest is None or latest.frame is None:
            raise Refusal(404, "no reading with a photo waits for the banker")
        return await _kept_photo(latest.frame, "the photo of this reading")

    @app.get("/api/bank-roll/photo.jpg")
    async def bank_roll_photo() -> Response:
        """The photo of the last roll for the first bank (the page draws each die's box on it)."""
        rolls = _fantan_state().bank_rolls
        if not rolls or rolls[-1].frame is None:
            raise Refusal(404, "no roll for the bank with a photo (none yet, or it was entered by hand)")
        return await _kept_photo(rolls[-1].frame, "the photo of the roll for the bank")

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
        await _command(lambda night: night.fantan.place(player, bet, coins))
        return _state(request)

    @app.post("/api/bets/remove")
    async def remove(request: Request) -> dict[str, Any]:
        player, bet, coins = await _bet_request(request)
        await _command(lambda night: night.fantan.remove(player, bet, coins))
        return _state(request)

    # -- the banker ------------------------------------------------------------------------------------------
    @app.post("/api/banker/login")
    async def login(request: Request) -> Response:
        client = _client(request)
        if not ctx.logins.allow(client):
            raise Refusal(429, "too many PIN attempts from this address: wait a minute")
        pin = (await json_body(request)).get("pin")
        if not isinstance(pin, str) or len(pin) > MAX_PIN_LENGTH:
            raise Refusal(400, "pin must be the banker's PIN, as text")
        if (wait := ctx.guard.wait()) > 0:
            raise Refusal(429, f"too many wrong PINs: the PIN is locked for {math.ceil(wait)} s more")
        if ctx.pin_checks_waiting >= MAX_PIN_CHECKS_WAITING:
            raise Refusal(429, "PIN checks are queued up: try again in a moment")
        ctx.pin_checks_waiting += 1  # only the event loop's thread counts: no lock needed
        try:
            # scrypt is built to be slow: on its own worker, never on the event loop every phone shares
            ok, lockout = await asyncio.get_running_loop().run_in_executor(
                ctx.pin_checker, _try_pin, ctx.guard, pin, ctx.pin_hash
            )
        finally:
            ctx.pin_checks_waiting -= 1
        if ok is None:
            raise Refusal(429, f"too many wrong PINs: the PIN is locked for {math.ceil(lockout)} s more")
        await _record_login(client, ok)
        if not ok:
            locked = f"; the PIN is locked for {math.ceil(lockout)} s" if lockout else ""
            raise Refusal(401, f"wrong banker PIN{locked}")
        response = JSONResponse({"banker": True})
        response.set_cookie(
            BANKER_COOKIE, ctx.sessions.open(), httponly=True, samesite="strict", secure=ctx.secure_cookies
        )
        return response

    @app.post("/api/banker/logout")
    async def logout(request: Request) -> Response:
        if cookie := request.cookies.get(BANKER_COOKIE):
            ctx.sessions.end(cookie)  # ended here, not only forgotten by this browser: a copied cookie is dead too
        response = JSONResponse({"banker": False})
        response.delete_cookie(BANKER_COOKIE, httponly=True, samesite="strict", secure=ctx.secure_cookies)
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
        if not isinstance(name, str) or name not in actions:
            raise Refusal(400, f"unknown action {name!r}: one of {', '.join(actions)}")
        if name == "void":
            reason = _text(body.get("reason", "voided by the banker"), "reason")
            await _command(lambda night: night.fantan.void(reason))
        else:
            await _command(lambda night: actions[name](night.fantan))
        return _state(request)

    @app.post("/api/banker/bets/remove")
    async def remove_for(request: Request) -> dict[str, Any]:
        """The banker takes a coin back for a player (a coin put down by mistake, a player who left the table)."""
        _require_banker(request)
        body = await json_body(request)
        player = _known_player(body.get("player"))
        bet, coins = body.get("bet"), body.get("coins", 1)
        if not isinstance(bet, str) or type(coins) is not int or not 1 <= coins <= 5:
            raise Refusal(400, 'give the bet\'s text form and 1 to 5 coins, e.g. {"bet": "side:0-1", "coins": 1}')
        await _command(lambda night: night.fantan.remove(player, bet, coins))
        return _state(request)

    @app.post("/api/banker/dice")
    async def dice(request: Request) -> dict[str, Any]:
        """Dice typed by the banker: checked against the table's dice and shown with their open number; only a
        second request with ``"confirm": true`` settles on them (a typing slip pays the wrong tile)."""
        _require_banker(request)
        body = await json_body(request)
        values = body.get("values")
        if not isinstance(values, list) or not all(type(v) is int for v in values):
            raise Refusal(400, "values must be a list of the dice's faces, whole numbers, e.g. [0, 3, 5, 2]")
        if body.get("confirm") is not True:
            await _command(lambda night: night.fantan.check_dice(values))
            state = _fantan_state()
            draw = state.game.draw
            for_bank = draw.to_roll if draw is not None and state.stage is Stage.CHOOSING else None
            return {"preview": {**_dice_preview(values), "for_bank": for_bank}}
        for_bank = body.get("for_bank")  # whose roll for the bank the preview said: the turn may have moved on
        if for_bank is not None and not isinstance(for_bank, str):
            raise Refusal(400, "for_bank is the name of the player whose roll for the bank these dice are")
        await _command(lambda night: night.fantan.enter_dice(values, by="the banker (web)", for_bank=for_bank))
        return _state(request)

    @app.post("/api/banker/correct")
    async def correct(request: Request) -> dict[str, Any]:
        """Settle a past round again on the dice it really showed: checked and shown first (with the open number
        it was settled on); only a second request with ``"confirm": true`` corrects it, journaled with why."""
        _require_banker(request)
        body = await json_body(request)
        number, values, why = body.get("round"), body.get("values"), body.get("why")
        if type(number) is not int or not isinstance(values, list) or not all(type(v) is int for v in values):
            raise Refusal(400, 'give the round\'s number and its dice, e.g. {"round": 3, "values": [0, 3, 5, 2]}')
        why = _text(why, "why")
        if body.get("confirm") is not True:
            was = await _command(lambda night: night.fantan.settled_on(number, values))
            return {"preview": {"round": number, **_dice_preview(values), "was": was}}
        await _command(lambda night: night.fantan.correct(number, values, "the banker (web)", why))
        return _state(request)

    @app.post("/api/banker/game")
    async def new_game(request: Request) -> dict[str, Any]:
        _require_banker(request)
        body = await json_body(request)
        setup = _night_from_form(body)
        abandon = body.get("abandon") is True
        await _command(lambda night: night.begin(setup, abandon=abandon))
        return _state(request)

    @app.post("/api/banker/config-game")
    async def config_game(request: Request) -> dict[str, Any]:
        """The banker's choice when the config sets up another game than the night it resumed: begin it (the night
        so far is kept in nights/) or carry on with the night."""
        _require_banker(request)
        begin = (await json_body(request)).get("begin")
        pending = ctx.config_game
        if not isinstance(begin, bool):
            raise Refusal(400, 'say "begin": true to begin the config\'s game, or false to carry on with the night')
        if pending is None:
            raise Refusal(409, "the config's game is the night's: there is nothing to choose")
        if begin:
            await _command(lambda night: night.begin(pending.setup, abandon=True))
        ctx.config_game = None
        return _state(request)

    @app.get("/api/game-form")
    async def game_form() -> dict[str, Any]:
        """The new-game form's fields, from the config's declaration: the page builds the form from them."""
        return {"fields": form_fields(KEYS, Scope.NEW_GAME)}

    @app.get("/api/banker/players")
    async def links(request: Request) -> list[dict[str, Any]]:
        """Who has a link: a link is shown once, when made; the journal keeps only its token's hash."""
        _require_banker(request)
        view = ctx.owner.view
        return [{"name": name, "linked": name in (view.links or {})} for name in view.players]

    @app.post("/api/banker/players/link")
    async def new_link(request: Request) -> dict[str, str]:
        """A new link for a player (their old one stops working), with its QR code, shown to the banker once."""
        _require_banker(request)
        player = await _player_named(request)
        if not ctx.base_url:
            raise Refusal(503, "the page does not know its own address yet: try again in a moment")
        token, digest = new_player_token()
        await _command(lambda night: night.table.link(player, digest))
        link = f"{ctx.base_url}/?player={token}"
        svg = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage).to_string(encoding="unicode")
        return {"name": player, "link": link, "qr_svg": svg}

    @app.post("/api/banker/players/seat")
    async def seat(request: Request) -> dict[str, Any]:
        """A player joins between rounds with the money they bring, in whole dollars (their link is made after)."""
        _require_banker(request)
        body = await json_body(request)
        name, suit, dollars = body.get("name"), body.get("suit"), body.get("dollars")
        if not isinstance(name, str) or not isinstance(suit, str) or type(dollars) is not int:
            raise Refusal(
                400, 'give the name, the suit and whole dollars, e.g. {"name": "Dee", "suit": "arms", "dollars": 50}'
            )
        if not 1 <= dollars <= MAX_DOLLARS:  # the same range as a player's money at the start
            raise Refusal(400, f"a player brings $1 to ${MAX_DOLLARS} (got ${dollars})")
        await _command(lambda night: night.fantan.seat(name, suit, dollars * COIN_CENTS, by="the banker (web)"))
        return _state(request)

    @app.post("/api/banker/players/leave")
    async def leave(request: Request) -> dict[str, Any]:
        """A player leaves between rounds and takes their balance (the page asks the banker first)."""
        _require_banker(request)
        player = await _player_named(request)
        await _command(lambda night: night.fantan.leave(player, by="the banker (web)"))
        return _state(request)

    @app.post("/api/banker/players/unlink")
    async def end_link(request: Request) -> list[dict[str, Any]]:
        """End a player's link (a lost phone): nobody can bet with it any more."""
        _require_banker(request)
        player = await _player_named(request)
        await _command(lambda night: night.table.unlink(player))
        return await links(request)

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
            await _command(lambda _: simulator.press(button), after_turn=True)
        elif what == "shake":
            values = body.get("values")
            if values is not None and not (
                isinstance(values, list) and all(type(v) is int and 0 <= v <= 6 for v in values)
            ):
                raise Refusal(400, "values must be a list of faces 0 to 6, or left out for a random roll")
            await _command(lambda night: _shake(night, sim_camera, values), after_turn=True)
        elif what == "lift":
            await _command(lambda _: sim_camera.lift(), after_turn=True)
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
    async def _command(action: Callable[[Night], T], after_turn: bool = False) -> T:
        """Have the table's owner do ``action`` and await its answer; a refusal or a fault becomes the reply.

        ``after_turn``: answer once the loop has taken in what the action set off (``Owner.submit``)."""
        return await _answer(ctx.owner.submit(action, after_turn))

    async def _kept_photo(frame: FrameRef, what: str) -> Response:
        """A kept photo, checked against its hash; a missing or changed one is a 404 that names no file."""
        try:
            # reading and hashing a file is blocking work: off the event loop, which every phone shares
            photo = await asyncio.to_thread(read_frame, ctx.owner.night.state_dir, frame.file, frame.sha256)
        except JournalError:
            log.warning("%s (%s) is missing or not as kept", what, frame.file, exc_info=True)
            raise Refusal(404, f"{what} is missing or not as it was kept") from None
        return Response(photo, media_type="image/jpeg")

    async def _record_login(client: str, ok: bool) -> None:
        """Keep the try in the night's journal; a table that cannot take it (a fault) does not stop a login."""
        try:
            await _command(lambda night: night.table.record_login(client, ok))
        except Refusal as refusal:
            log.warning("a PIN try from %s (%s) could not be journaled: %s", client, ok, refusal.message)

    async def _player_named(request: Request) -> str:
        return _known_player((await json_body(request)).get("player"))

    def _known_player(player: Any) -> str:
        names = list(ctx.owner.view.players)
        if player not in names:
            raise Refusal(404, f"player must be one of this game's players: {', '.join(names)}")
        return str(player)

    def _state(request: Request) -> dict[str, Any]:
        view = ctx.owner.view
        fault = view.fault or ctx.owner.fault  # a hung owner publishes no view, but its watchdog names the fault
        fault = without_paths(fault) if fault else None
        token = request.headers.get(PLAYER_HEADER)
        me = player_for(token, view.links or {}) if token else None
        if view.plays == SEVENS_NAME:
            data = sevens_snapshot(view.state, view.version, view.screen, view.device_problem, fault, me)
        elif view.plays == TENS_NAME:
            data = tens_snapshot(view, fault, me)
        else:
            data = snapshot(view.state, view.version, view.screen, view.device_problem, fault)
        data["plays"] = view.plays
        data["me"] = me
        data["banker"] = _is_banker(request)
        pending = ctx.config_game
        data["config_changes"] = pending.changes if pending is not None and data["banker"] else None
        devices = ctx.owner.night.devices
        data["simulated"] = ctx.simulated and devices is not None and devices.sim_camera is not None
        return data

    def _fantan_state() -> TableState:
        """The night's state when it is piecepack Fan Tan's; Fan Tan's routes are a 404 on another game's night."""
        view = ctx.owner.view
        if view.plays != FANTAN_NAME:
            raise Refusal(404, f"tonight the table plays {view.plays}: this is piecepack Fan Tan's")
        state: TableState = view.state
        return state

    def _player_of(request: Request) -> str:
        """The player whose link the request carries: only that player's own hand and moves are theirs."""
        token = request.headers.get(PLAYER_HEADER)
        if not token:
            raise Refusal(401, "no player token: open the link the banker gave you")
        player = player_for(token, ctx.owner.view.links or {})
        if player is None:
            raise Refusal(403, "this player link is not valid for the game at this table: ask the banker for yours")
        return player

    def _is_banker(request: Request) -> bool:
        cookie = request.cookies.get(BANKER_COOKIE)
        return bool(cookie) and ctx.sessions.valid(cookie or "")

    def _require_banker(request: Request) -> None:
        if not _is_banker(request):
            raise Refusal(401, "banker only: log in with the banker PIN")

    async def _bet_request(request: Request) -> tuple[str, str, int]:
        token = request.headers.get(PLAYER_HEADER)
        if not token:
            raise Refusal(401, "no player token: open the link the banker gave you")
        player = player_for(token, ctx.owner.view.links or {})
        if player is None:
            raise Refusal(403, "this player link is not valid for the game at this table: ask the banker for yours")
        body = await json_body(request)
        bet, coins = body.get("bet"), body.get("coins", 1)
        if not isinstance(bet, str):
            raise Refusal(400, 'bet must be a bet\'s text form, e.g. "side:0-1"')
        if type(coins) is not int or not 1 <= coins <= 5:
            raise Refusal(400, "coins must be a whole number from 1 to 5")
        return player, bet, coins

    routes = Routes(_command, _state, _require_banker, _player_of, _known_player)
    add_sevens_routes(app, routes)
    add_tens_routes(app, routes, ctx)
    return app


def _dice_preview(values: list[int]) -> dict[str, Any]:
    """Dice typed by the banker as the page shows them before they count: with their total and open number."""
    return {"dice": values, "total": sum(values), "open": open_number(values)}


def _shake(night: Night, camera: SimulatedCamera, values: list[int] | None) -> None:
    """On the owner's thread: the simulated cup over ``values`` (the table's dice only) or a random roll."""
    if values is not None:
        night.dice.check(values)
    camera.shake(values)


def _client(request: Request) -> str:
    """The client's address: the connection's, or the trusted proxy's word for it (uvicorn sets it only then)."""
    return request.client.host if request.client else "?"


def _try_pin(guard: PinGuard, pin: str, pin_hash: str) -> tuple[bool | None, float]:
    """On the PIN worker: right or wrong (``None``: locked meanwhile), and the lockout that follows, in seconds."""
    if (wait := guard.wait()) > 0:
        return None, wait
    if check_pin(pin, pin_hash):
        guard.succeeded()
        return True, 0.0
    return False, guard.failed()


class _SlotStream(StreamingResponse):
    """A live stream that gives its slot back when it ends, however it ends (a phone gone, the server stopping)."""

    def __init__(self, give_back: Callable[[], None], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._give_back = give_back

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._give_back()


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
    except (BetError, DiceError) as exc:  # not a position on the layout, not the table's dice: bad input
        raise Refusal(400, str(exc)) from None
    except (RulesError, TableError) as exc:  # a rule says no, now
        raise Refusal(409, str(exc)) from None
    except OwnerError as exc:
        raise Refusal(503, without_paths(str(exc))) from None
    except TimeoutError:
        raise Refusal(503, f"the table did not answer within {COMMAND_TIMEOUT_SECONDS:g} s: try again") from None


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise Refusal(400, f"{name} must be a short text")
    return value


def _night_from_form(body: dict[str, Any]) -> NightSetup:
    """The banker's new-game form: every field checked against the config's declaration (the same kinds, ranges
    and choices as the config file), then the night of the game it plays; every mistake is a 400 naming the
    field, or the rule."""
    seats = ("players", "suits")  # the form's list of seats, not the config's list of names
    values = {key: _form_value(body, key) for key in in_scope(KEYS, Scope.NEW_GAME) if key.name not in seats}
    plays = values[KEYS[("game", "plays")]]
    if plays == FANTAN_NAME:
        return FanTanNight(_game_from_form(body), values[KEYS[("house", "on_unsure")]])
    players = body.get("players")
    if not isinstance(players, list) or not all(_named(p) for p in players):
        raise Refusal(400, 'players must be a list of {"name": ...}')

    def section(name: str) -> dict[str, Any]:
        return {key.name: value for key, value in values.items() if key.section == name}

    game = section("game") | {"players": tuple(p["name"].strip() for p in players)}
    try:
        return night_from_settings(game, section("sevens"), section("tens"), None, values[KEYS[("house", "on_unsure")]])
    except (RulesError, ValueError, TypeError) as exc:
        raise Refusal(400, f"game setup: {exc}") from None


def _named(seat: Any) -> bool:
    return isinstance(seat, dict) and isinstance(seat.get("name"), str)


def _game_from_form(body: dict[str, Any]) -> GameConfig:
    """Piecepack Fan Tan's setup form, checked against the config's declaration of the game's keys (the same
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
