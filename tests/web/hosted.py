"""The page over a night of card Fan Tan or Collecting Tens, its loop running on simulated devices, each player
with a link: what the API and browser tests of those games share."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from fantan_table.table.core.journal import Journal
from fantan_table.table.wiring.config import load_config
from fantan_table.table.wiring.hardware import open_devices
from fantan_table.table.wiring.hosts import Loop, table_for
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import Owner
from fantan_table.table.wiring.setups import NightSetup
from fantan_table.vision.profile import Profile
from fantan_table.web.app import CSRF_COOKIE, WebContext, create_app
from fantan_table.web.security import PinGuard, RateLimiter, new_player_token
from fantan_table.web.server import Listen, WebServer, base_url

from .conftest import PIN, PIN_HASH, TABLE_DICE, close_context


def hosted_context(state_dir: Path, setup: NightSetup) -> tuple[WebContext, dict[str, str]]:
    """A started owner over a night of ``setup``'s game and the page's context; each player's link token."""
    devices = open_devices(replace(load_config(None, "sim"), debounce_ms=0))
    loop = Loop(devices, Profile(), still_frames=2)
    table = table_for(Journal(state_dir), setup, TABLE_DICE)
    owner = Owner(Night(state_dir, table, loop.runner_for(table), loop))
    owner.start()
    ctx = WebContext(
        owner,
        PIN_HASH,
        simulated=True,
        guard=PinGuard(state_dir),
        requests=RateLimiter(rate=10_000, burst=10_000),
        base_url="http://table.test:8080",
    )
    tokens = {}
    for name in table.players:
        token, digest = new_player_token()
        owner.call(lambda night, name=name, digest=digest: night.table.link(name, digest))
        tokens[name] = token
    return ctx, tokens


@dataclass
class HostedRig:
    client: TestClient
    ctx: WebContext
    tokens: dict[str, str]

    def post(self, path: str, body: Any = None, player: str | None = None) -> Any:
        headers = {"X-CSRF-Token": self.client.cookies.get(CSRF_COOKIE) or ""}
        if player is not None:
            headers["X-Player-Token"] = self.tokens.get(player, player)
        return self.client.post(path, content=json.dumps(body or {}), headers=headers)

    def state(self, player: str | None = None) -> dict[str, Any]:
        headers = {"X-Player-Token": self.tokens[player]} if player else {}
        reply = self.client.get("/api/state", headers=headers)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def login(self) -> None:
        assert self.post("/api/banker/login", {"pin": PIN}).status_code == 200


@contextmanager
def hosted_rig(state_dir: Path, setup: NightSetup) -> Iterator[HostedRig]:
    ctx, tokens = hosted_context(state_dir, setup)
    try:
        with TestClient(create_app(ctx)) as client:
            client.get("/")
            yield HostedRig(client, ctx, tokens)
    finally:
        close_context(ctx)


@contextmanager
def hosted_server(state_dir: Path, setup: NightSetup) -> Iterator[tuple[str, WebContext, dict[str, str]]]:
    """The page served over HTTP for a browser: its address, its context, the players' link tokens."""
    ctx, tokens = hosted_context(state_dir, setup)
    listen = Listen("127.0.0.1", 0)
    web = WebServer(create_app(ctx), listen)
    web.start()
    ctx.base_url = base_url("", listen, web.port)
    try:
        yield ctx.base_url, ctx, tokens
    finally:
        web.stop()
        close_context(ctx)
