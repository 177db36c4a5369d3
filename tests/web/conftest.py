from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fantan_table.rules.bets import Variant
from fantan_table.rules.dice import DiceInUse
from fantan_table.rules.game import GameConfig, Player, Suit
from fantan_table.rules.odds import D6_FACES
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.table import Table
from fantan_table.table.wiring.banker_pin import hash_pin
from fantan_table.table.wiring.config import load_config
from fantan_table.table.wiring.hardware import open_devices
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import Owner
from fantan_table.table.wiring.runner import TableRunner
from fantan_table.vision.profile import Profile
from fantan_table.web.app import CSRF_COOKIE, WebContext, create_app
from fantan_table.web.security import PinGuard, RateLimiter, new_player_token

PIN = "246813"
TABLE_DICE = DiceInUse((0, *D6_FACES), 4)
"""Four pipped dice with a blank face: what `run` makes of the built-in profile and [reader] expect = 4."""
GAME = GameConfig(
    players=(Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS), Player("Cy", Suit.CROWNS)),
    variants=Variant.ALL,
)


@dataclass
class Rig:
    client: TestClient
    ctx: WebContext

    @property
    def table(self) -> Table:
        return self.ctx.owner.night.table

    def token(self, player: str) -> str:
        return player_token(self.ctx, player)

    def post(self, path: str, body: Any = None, player: str | None = None, csrf: bool = True, raw: str | None = None):
        headers = {}
        if csrf:
            headers["X-CSRF-Token"] = self.client.cookies.get(CSRF_COOKIE) or ""
        if player is not None:
            headers["X-Player-Token"] = self.token(player) if player in ("Ann", "Bob", "Cy") else player
        content = raw if raw is not None else __import__("json").dumps(body if body is not None else {})
        return self.client.post(path, content=content, headers=headers)

    def login(self) -> None:
        assert self.post("/api/banker/login", {"pin": PIN}).status_code == 200

    def journal_length(self) -> int:
        return len(self.table.journal.events())


def make_context(state_dir: Path, runner_devices: bool, requests: RateLimiter | None = None) -> WebContext:
    """A page over a table whose owner runs (started here: close it with ``close_context``)."""
    table = Table(Journal(state_dir), GAME, dice=TABLE_DICE)
    runner = None
    if runner_devices:
        devices = open_devices(replace(load_config(None, "sim"), debounce_ms=0))
        runner = TableRunner(table, devices, Profile(), still_frames=2)
    owner = Owner(Night(state_dir, table, runner))
    owner.start()
    ctx = WebContext(
        owner,
        PIN_HASH,
        simulated=runner_devices,
        guard=PinGuard(state_dir),
        requests=requests or RateLimiter(rate=10_000, burst=10_000),
        base_url="http://table.test:8080",
    )
    for player in GAME.players:
        token, digest = new_player_token()
        owner.submit(lambda night, name=player.name, digest=digest: night.table.link(name, digest)).result()
        TOKENS[(id(ctx), player.name)] = token
    return ctx


TOKENS: dict[tuple[int, str], str] = {}
"""Each player's link token, by page and player: the journal keeps only hashes, as on a real night."""
PIN_HASH = hash_pin(PIN, b"s" * 16)


def player_token(ctx: WebContext, player: str) -> str:
    return TOKENS[(id(ctx), player)]


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    """The page over a simulated table whose loop runs, as under `fantan-table run --sim`."""
    ctx = make_context(tmp_path / "state", runner_devices=True)
    with TestClient(create_app(ctx)) as client:
        client.get("/")
        yield Rig(client, ctx)
    close_context(ctx)


def close_context(ctx: WebContext) -> None:
    """Stop the table's owner, then close what it owned; a test that let it fault says so."""
    ctx.owner.stop()
    if ctx.owner.night.devices is not None:
        ctx.owner.night.devices.close()
    ctx.owner.night.table.journal.close()
