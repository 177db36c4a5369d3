"""How many connections the page holds, and for how long: a phone on the house network cannot exhaust the table.

The Pi has one process, a few hundred file handles and one core to spare for the page. Every connection
costs a handle; a live stream costs one for the whole night. So:

- connections are capped in total (below the process's file-handle limit) and per client address; at a cap,
  the connection that has waited longest for a request's head makes room (see :class:`ConnectionCount`),
  and when none may, the new one is answered 503 and closed at once, before a byte of its request is read;
- a connection must finish sending its request's head within :data:`HEAD_SECONDS` (a slow client that
  dribbles headers to hold a handle is cut off); uvicorn's keep-alive timeout ends idle ones;
- live streams are capped per address and in total (:class:`StreamSlots`), far below the connection cap,
  so streams can never crowd out the requests that move money.
"""

from __future__ import annotations

import asyncio
import resource
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from uvicorn.protocols.http.h11_impl import H11Protocol

from .http import Refusal

MAX_CONNECTIONS = 256
"""Connections held at once, at most: a game night has a dozen phones, each with a few connections."""
RESERVED_HANDLES = 128
"""File handles kept back from the connection cap for the journal, photos, the camera, I2C and GPIO."""
MAX_CONNECTIONS_PER_ADDRESS = 32
"""One phone's browser opens about six connections; a few phones behind one address stay well within."""
HEAD_SECONDS = 10.0
"""Time for a request's head to arrive: a phone on poor Wi-Fi needs a second, not ten."""
EVICT_AFTER_SECONDS = 1.0
"""A connection waiting this long for a head may be closed to make room for a new one when a cap is reached."""
KEEPALIVE_SECONDS = 5
"""An idle connection between two requests is closed after this (uvicorn's keep-alive timeout)."""
MAX_STREAMS = 64
"""Live streams open at once, in all: one or two per phone at the table."""
MAX_STREAMS_PER_ADDRESS = 4
"""Live streams from one address: a phone with a few tabs open."""

_BUSY_BODY = b'{"error": "the table is busy with other phones: try again soon"}'
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY)
)
"""The whole answer to a connection over the cap, written before it is closed."""


def connection_cap(soft_limit: int | None = None) -> int:
    """The total connection cap: :data:`MAX_CONNECTIONS`, or fewer when the file-handle limit is low."""
    if soft_limit is None:
        soft_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft_limit == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(1, min(MAX_CONNECTIONS, soft_limit - RESERVED_HANDLES))


class _Evictable(Protocol):
    def evict(self) -> None: ...


@dataclass
class ConnectionCount:
    """Open connections, in all and per address, and which of them wait for a request's head (shared by every
    connection of one server, on its event loop).

    When a cap is reached, the connection that has waited longest for a head (a slow client, or a phone's
    idle keep-alive connection), if it has waited :data:`EVICT_AFTER_SECONDS`, is closed to make room:
    a few addresses dribbling heads cannot shut the phones out until the deadline.
    """

    cap: int
    per_address: int = MAX_CONNECTIONS_PER_ADDRESS
    clock: Callable[[], float] = time.monotonic
    by_address: Counter[str] = field(default_factory=Counter)
    total: int = 0
    waiting: dict[_Evictable, tuple[str, float]] = field(default_factory=dict)
    """Connections waiting for a head: their address and since when, oldest first."""

    def admit(self, address: str) -> bool:
        if self.by_address[address] >= self.per_address:
            self._evict(address)
        if self.total >= self.cap:
            self._evict(None)
        if self.total >= self.cap or self.by_address[address] >= self.per_address:
            return False
        self.by_address[address] += 1
        self.total += 1
        return True

    def release(self, address: str) -> None:
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]

    def _evict(self, address: str | None) -> None:
        now = self.clock()
        for connection, (held_by, since) in self.waiting.items():
            if now - since < EVICT_AFTER_SECONDS:
                return  # oldest first: none after it has waited longer
            if address is None or held_by == address:
                connection.evict()  # which releases it and drops it from ``waiting``
                return


def guarded_protocol(count: ConnectionCount, head_seconds: float = HEAD_SECONDS) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol with the caps and the head deadline above (all on uvicorn's event loop)."""

    class Guarded(H11Protocol):
        _address: str | None = None
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else "?"
            if not count.admit(address):
                transport.write(BUSY)
                transport.close()
                return
            self._address = address
            self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._address is None:
                return  # refused or evicted: nothing more it sends is read
            super().data_received(data)
            if not self._awaiting_head():  # the head has arrived: the app answers it
                self._head_arrived()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._address is not None and not self.transport.is_closing() and self._awaiting_head():
                self._await_head()  # the next request on this connection gets its own deadline

        def evict(self) -> None:
            self._release()
            self.transport.close()

        def _awaiting_head(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _await_head(self) -> None:
            self._head_arrived()
            self._deadline = self.loop.call_later(head_seconds, self._too_slow)
            assert self._address is not None
            count.waiting[self] = (self._address, count.clock())

        def _head_arrived(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            count.waiting.pop(self, None)

        def _release(self) -> None:
            self._head_arrived()
            if self._address is not None:
                count.release(self._address)
                self._address = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self._awaiting_head() and not self.transport.is_closing():
                self.evict()

    return Guarded


@dataclass
class StreamSlots:
    """Live-stream slots, per address and in total; taken when a stream opens, given back when it ends."""

    total: int = MAX_STREAMS
    per_address: int = MAX_STREAMS_PER_ADDRESS
    _open: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, address: str) -> None:
        with self._lock:
            if sum(self._open.values()) >= self.total:
                raise Refusal(429, f"the table already streams to {self.total} pages: close one, or reload later")
            if self._open[address] >= self.per_address:
                raise Refusal(
                    429, f"this address already has {self.per_address} live pages open: close a tab, then reload"
                )
            self._open[address] += 1

    def give_back(self, address: str) -> None:
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]
