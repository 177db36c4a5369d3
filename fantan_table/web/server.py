"""Serve a page from the table's own process: uvicorn on a thread beside the table's loop (or the capture prompt)."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn
from fastapi import FastAPI

from ..table.wiring.banker_pin import banker_pin_hash
from ..table.wiring.owner import Owner
from .app import WebContext
from .security import Keys, RateLimiter, load_secret


def web_context(owner: Owner, configured_pin_hash: str, simulated: bool) -> tuple[WebContext, str | None]:
    """The page's keys and limits; also a new banker PIN to announce when the table had to make one up."""
    state_dir = owner.night.state_dir
    pin_hash, new_pin = banker_pin_hash(configured_pin_hash, state_dir)
    keys = Keys(load_secret(state_dir), pin_hash)
    ctx = WebContext(
        owner,
        keys,
        simulated,
        requests=RateLimiter(rate=20, burst=60),
        logins=RateLimiter(rate=5 / 60, burst=5),
    )
    return ctx, new_pin


class WebServer:
    def __init__(self, app: FastAPI, host: str, port: int) -> None:
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="web", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise OSError("the web page could not start: is the port already in use? (see [web] port)")
            time.sleep(0.02)

    @property
    def port(self) -> int:
        sockets = self._server.servers[0].sockets
        return int(sockets[0].getsockname()[1])

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=5)


def address_for_phones(host: str) -> str:
    """The address a phone on the house network types: this machine's own when serving on every interface.

    Finding it connects a UDP socket, which sends nothing; without a network it is the loopback address.
    """
    if host not in ("0.0.0.0", "::", ""):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
