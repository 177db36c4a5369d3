"""Serve a page from the table's own process: uvicorn on a thread beside the table's loop (or the capture prompt)."""

from __future__ import annotations

import errno
import os
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import uvicorn
from fastapi import FastAPI

from ..table.wiring.banker_pin import banker_pin_hash
from ..table.wiring.config import Config
from ..table.wiring.owner import Owner
from .app import WebContext
from .connections import (
    HEAD_SECONDS,
    KEEPALIVE_SECONDS,
    MAX_CONNECTIONS_PER_ADDRESS,
    WRITE_STALL_SECONDS,
    ConnectionCount,
    connection_cap,
    guarded_protocol,
    raise_file_limit,
)
from .security import PinGuard


@dataclass(frozen=True)
class Listen:
    """Where and how the page is served: ``[web]`` of the config, as the server needs it."""

    host: str
    port: int
    trusted_proxy: str = ""
    tls_certificate: str = ""
    tls_key: str = ""

    @property
    def scheme(self) -> str:
        return "https" if self.tls_certificate else "http"


def listen_on(config: Config) -> Listen:
    return Listen(
        config.web_host, config.web.port, config.web.trusted_proxy, config.web.tls_certificate, config.web.tls_key
    )


def web_context(
    owner: Owner, configured_pin_hash: str, simulated: bool, listen: Listen, api_description: bool = False
) -> tuple[WebContext, Path | None]:
    """The page's keys and limits; also the file holding a new banker PIN when the table had to make one up.

    The players' links start with ``ctx.base_url``, which is set once the server listens (see :func:`base_url`).
    """
    state_dir = owner.night.state_dir
    pin_hash, new_pin_file = banker_pin_hash(configured_pin_hash, state_dir)
    ctx = WebContext(
        owner,
        pin_hash,
        simulated,
        guard=PinGuard(state_dir),
        secure_cookies=bool(listen.tls_certificate),
        api_description=api_description,
    )
    return ctx, new_pin_file


class WebServer:
    def __init__(
        self,
        app: FastAPI,
        listen: Listen,
        head_seconds: float = HEAD_SECONDS,
        stall_seconds: float = WRITE_STALL_SECONDS,
    ) -> None:
        raise_file_limit()
        behind_proxy = bool(listen.trusted_proxy)
        count = ConnectionCount(
            connection_cap(),
            # behind a proxy every connection comes from the proxy's address: only the total cap applies
            per_address=connection_cap() if behind_proxy else MAX_CONNECTIONS_PER_ADDRESS,
        )
        config = uvicorn.Config(
            app,
            host=listen.host,
            port=listen.port,
            log_level="error",  # not a warning per malformed request: a flood of them would bury the table's own
            access_log=False,
            http=guarded_protocol(count, head_seconds, stall_seconds),
            ws="none",
            timeout_keep_alive=KEEPALIVE_SECONDS,
            proxy_headers=behind_proxy,
            forwarded_allow_ips=listen.trusted_proxy or None,
            server_header=False,
            ssl_certfile=listen.tls_certificate or None,
            ssl_keyfile=listen.tls_key or None,
        )
        try:
            config.load()  # here, not on the server's thread: a bad certificate or key is said at once
        except (OSError, ValueError) as exc:
            raise OSError(f"the page cannot serve HTTPS with [web] tls_certificate and tls_key: {exc}") from None
        self._server = uvicorn.Server(config)
        self._listen = listen
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)

    def _serve(self) -> None:
        try:
            self._server.run()
        except SystemExit:  # uvicorn ends its thread so when it cannot listen: start() says why in one line
            if self._server.started:
                raise  # after the start it is a fault like any other thread's end

    def start(self, timeout: float = 10.0) -> None:
        _check_free(self._listen.host, self._listen.port)
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
        if self._thread.ident is not None:  # a server that never started (its port was taken) has no thread to end
            self._thread.join(timeout=5)


BIND_HINTS: Final = {
    errno.EADDRINUSE: "is another program, or the table's service, serving there? (see [web] port)",
    errno.EADDRNOTAVAIL: "this machine has no such address now (see [web] host)",
    errno.EACCES: "ports below 1024 need more rights than the table runs with (see [web] port)",
}
"""What to do about the commonest reasons the page cannot listen, by the system's error number."""


def _check_free(host: str, port: int) -> None:
    """Raise OSError, with the system's reason and what to do, where the page cannot listen on ``host:port``.

    Asked before uvicorn starts: uvicorn logs its own lines about a port in use before it ends its thread, which
    would stand above the table's one line. It binds as asyncio's ``create_server`` (uvicorn's way) does: every
    address the host names, SO_REUSEADDR, IPv6 sockets for IPv6 alone, families the system lacks skipped. A port
    taken between this check and uvicorn's bind still ends in ``start``'s message. Port 0 (the system picks a free
    one) needs no check."""
    if port == 0:
        return
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise OSError(f"the web page cannot listen on {where}: no such host ({exc.strerror}; see [web] host)") from None
    probes = []
    try:
        for family, kind, protocol, _, address in addresses:
            try:
                probe = socket.socket(family, kind, protocol)
            except OSError:  # a family this system lacks (IPv6 turned off): asyncio skips it too
                continue
            probes.append(probe)
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            probe.bind(address)
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        hint = BIND_HINTS.get(exc.errno or 0, "see [web] host and port")
        raise OSError(f"the web page cannot listen on {where} ({reason}): {hint}") from None
    finally:
        for probe in probes:
            probe.close()


def base_url(configured: str, listen: Listen, port: int) -> str:
    """The start of every link the page gives out: the config's, or this machine's own address, never what a
    request's Host header claims (anyone can send any Host)."""
    return configured.rstrip("/") or f"{listen.scheme}://{address_for_phones(listen.host)}:{port}"


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
