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

from .http import SECURITY_HEADERS, Refusal

MAX_CONNECTIONS = 256
"""Connections held at once, at most: a game night has a dozen phones, each with a few connections."""
RESERVED_HANDLES = 128
"""File handles kept back from the connection cap for the journal, photos, the camera, I2C and GPIO."""
MAX_CONNECTIONS_PER_ADDRESS = 32
"""One phone's browser opens about six connections; a few phones behind one address stay well within."""
HEAD_SECONDS = 10.0
"""Time for a request's head to arrive: a phone on poor Wi-Fi needs a second, not ten."""
WRITE_STALL_SECONDS = 10.0
"""A client that stops reading its answers (its buffers full) holds a connection and its memory: cut after this."""
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
    + b"".join(b"%s: %s\r\n" % header for header in SECURITY_HEADERS)
    + b"cache-control: no-store\r\ncontent-length: %d\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY)
)
"""The whole answer to a connection over the cap, written before it is closed."""


FILE_HANDLES = 4096
"""File handles the process asks for (the unit's LimitNOFILE): far above the connection cap, so that
connections the cap cannot see (a TLS handshake under way, before asyncio hands the connection over) must
come by the thousand before the journal or a photo cannot be opened."""


def raise_file_limit(wanted: int = FILE_HANDLES) -> None:
    """Raise this process's soft file-handle limit to ``wanted`` (or the hard limit, if lower)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


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


def guarded_protocol(
    count: ConnectionCount, head_seconds: float = HEAD_SECONDS, stall_seconds: float = WRITE_STALL_SECONDS
) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol with the caps and the head deadline above (all on uvicorn's event loop)."""

    class Guarded(H11Protocol):
        _address: str | None = None
        _deadline: asyncio.TimerHandle | None = None
        _stall: asyncio.TimerHandle | None = None

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

        def pause_writing(self) -> None:
            """The client stopped reading what it asked for: it has ``stall_seconds`` to start again."""
            super().pause_writing()
            if self._stall is None:
                self._stall = self.loop.call_later(stall_seconds, self._stalled)

        def resume_writing(self) -> None:
            if self._stall is not None:
                self._stall.cancel()
                self._stall = None
            super().resume_writing()

        def _stalled(self) -> None:
            self._stall = None
            self._release()
            self.transport.abort()  # not close(): that would wait to send what the client will never read

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
            if self._stall is not None:
                self._stall.cancel()
                self._stall = None
            if self._address is not None:
                count.release(self._address)
                self._address = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self._awaiting_head() and not self.transport.is_closing():
                self.evict()

    return Guarded


@dataclass(eq=False)
class StreamSlot:
    """One live stream's place: ``ended`` is set when the table takes it back for a newcomer."""

    address: str
    end: Callable[[], None]
    ended: bool = False


@dataclass
class StreamSlots:
    """Live-stream slots, per address and in total; taken when a stream opens, given back when it ends.

    When every slot is taken, a newcomer from an address with fewer streams than the busiest one takes the
    oldest stream of that address (which ends; its page asks for the state every few seconds meanwhile):
    a few addresses holding every slot cannot keep the other phones' pages from updating.
    """

    total: int = MAX_STREAMS
    per_address: int = MAX_STREAMS_PER_ADDRESS
    _open: list[StreamSlot] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, address: str, end: Callable[[], None]) -> StreamSlot:
        with self._lock:
            counts = Counter(slot.address for slot in self._open)
            if counts[address] >= self.per_address:
                raise Refusal(
                    429, f"this address already has {self.per_address} live pages open: close a tab, then reload"
                )
            if len(self._open) >= self.total:
                busiest, most = counts.most_common(1)[0]
                if most <= counts[address] + 1:
                    raise Refusal(429, f"the table already streams to {self.total} pages: it asks again in a while")
                oldest = next(slot for slot in self._open if slot.address == busiest)
                self._open.remove(oldest)
                oldest.ended = True
                oldest.end()
            slot = StreamSlot(address, end)
            self._open.append(slot)
            return slot

    def give_back(self, slot: StreamSlot) -> None:
        with self._lock:
            if slot in self._open:
                self._open.remove(slot)
