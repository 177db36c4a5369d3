"""The page on a hostile house network (issue 18's figures): requests a second held under attack, the stream
limit, PIN guesses that get through in an hour, and the server's memory under a 100 MB body attack.

The table and its page run in a child process (as ``fantan-table run`` serves them), the attackers and the
measuring phone in this one, all on loopback addresses (the whole 127.0.0.0/8 block reaches this machine).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
from common import Row

from fantan_table.rules.game import GameConfig, Player, Suit
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.table import Table
from fantan_table.table.wiring.banker_pin import hash_pin
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import Owner
from fantan_table.web.app import CSRF_COOKIE, WebContext, create_app
from fantan_table.web.security import MAX_LOCKOUT_SECONDS, PinGuard
from fantan_table.web.server import Listen, WebServer

MEASURE_SECONDS = 3.0
PHONES = 10
"""Phones measuring, each from its own address: one phone's own request budget is 20 a second."""
SLOW_CLIENTS = 500
STREAM_TRIES = 2_000
PIN_GUESSERS = 20
BODY_ATTACKS = 8
BODY_MB = 100
CSRF = b"Cookie: fantan_csrf=x\r\nX-CSRF-Token: x"
"""A matching CSRF pair: the body attack gets past the guard to the body reading, as a page's own request would."""


def _serve(state_dir: Path, ready: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    game = GameConfig(players=(Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS)))
    owner = Owner(Night(state_dir, Table(Journal(state_dir), game)))
    owner.start()
    ctx = WebContext(owner, hash_pin("246813"), simulated=False, guard=PinGuard(state_dir))
    web = WebServer(create_app(ctx), Listen("127.0.0.1", 0))
    web.start()
    ready.put(web.port)
    threading.Event().wait()  # until terminated


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _phones(port: int, first: int) -> tuple[float, float]:
    """:data:`PHONES` phones asking for the state as fast as they are answered (each within its own request
    budget): answered requests a second in all, and the slowest answer's median over the phones, in ms."""
    answered, medians = [0] * PHONES, [0.0] * PHONES

    def phone(n: int) -> None:
        transport = httpx.HTTPTransport(local_address=f"127.0.{first}.{n + 1}")
        times, end = [], time.monotonic() + MEASURE_SECONDS
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=10) as client:
            while time.monotonic() < end:
                started = time.monotonic()
                with contextlib.suppress(httpx.HTTPError):
                    answered[n] += client.get("/api/state").status_code == 200
                times.append(time.monotonic() - started)
        medians[n] = statistics.median(times) * 1e3

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(PHONES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(answered) / MEASURE_SECONDS, max(medians)


def _attack(port: int, stop: threading.Event) -> list[socket.socket]:
    """Stream tries from one address, slow clients from 50, PIN guessers from many: held until ``stop``."""
    held = []
    for _ in range(STREAM_TRIES):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=("127.0.200.1", 0))
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: t\r\n\r\n")
            if b" 200 " in sock.recv(64):
                held.append(sock)
            else:
                sock.close()
        except OSError:
            pass

    for n in range(SLOW_CLIENTS):
        try:
            sock = socket.create_connection(
                ("127.0.0.1", port), timeout=2, source_address=(f"127.0.{1 + n // 10}.9", 0)
            )
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHo")
            held.append(sock)
        except OSError:
            pass

    def guess(n: int) -> None:
        with httpx.Client(
            base_url=f"http://127.0.0.1:{port}", transport=httpx.HTTPTransport(local_address=f"127.0.201.{n}")
        ) as guesser:
            guesser.get("/")
            csrf = {"X-CSRF-Token": guesser.cookies.get(CSRF_COOKIE) or ""}
            while not stop.is_set():
                guesser.post("/api/banker/login", json={"pin": f"{n:06d}"}, headers=csrf)

    for n in range(1, PIN_GUESSERS + 1):
        threading.Thread(target=guess, args=(n,), daemon=True).start()
    return held


def _body_attack(port: int) -> None:
    """Bodies of 100 MB, declared and chunked, several at once."""

    def one(n: int) -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(f"127.0.202.{n}", 0)) as sock:
            try:
                length = b"Content-Length: 104857600" if n % 2 else b"Transfer-Encoding: chunked"
                sock.sendall(b"POST /api/banker/login HTTP/1.1\r\nHost: t\r\n%s\r\n%s\r\n\r\n" % (CSRF, length))
                chunk = b"%x\r\n%s\r\n" % (2**16, b"9" * 2**16)
                for _ in range(BODY_MB * 16):
                    sock.sendall(chunk)
            except OSError:
                pass  # refused and closed by the server before the 100 MB were sent: as it should be

    threads = [threading.Thread(target=one, args=(n,)) for n in range(1, BODY_ATTACKS + 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _pin_guesses_through(hours: int) -> list[int]:
    """PIN checks that get through in each hour of guessing without pause, by the page's own budget."""
    clock = [0.0]
    with tempfile.TemporaryDirectory() as folder:
        guard = PinGuard(Path(folder), wall=lambda: clock[0])
        through = [0] * hours
        while clock[0] < hours * 3600:
            wait = guard.wait()
            if wait > 0:
                clock[0] += wait
                continue
            through[int(clock[0] // 3600)] += 1
            guard.failed()
            clock[0] += 1.0  # a scrypt check and a round trip, at the most
    return through


def run() -> list[Row]:
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as folder:
        ready: multiprocessing.Queue = context.Queue()  # type: ignore[type-arg]
        server = context.Process(target=_serve, args=(Path(folder), ready), daemon=True)
        server.start()
        port = ready.get(timeout=60)
        quiet, quiet_ms = _phones(port, 100)
        stop = threading.Event()
        held = _attack(port, stop)
        streams = sum(1 for s in held if s.getsockname()[0] == "127.0.200.1")
        attacked, attacked_ms = _phones(port, 101)
        stop.set()
        for sock in held:
            sock.close()
        time.sleep(1)
        before = _rss_mb(server.pid or 0)
        _body_attack(port)
        grown = _rss_mb(server.pid or 0) - before
        after, _ = _phones(port, 102)
        server.terminate()
        server.join(timeout=10)
    hours = _pin_guesses_through(24)
    return [
        Row(f"page: /api/state answered a second, {PHONES} phones, quiet", f"{quiet:.0f}/s", "-"),
        Row(
            f"page: the same under attack ({SLOW_CLIENTS} slow clients, {STREAM_TRIES} stream tries, "
            f"{PIN_GUESSERS} PIN guessers)",
            f"{attacked:.0f}/s",
            f"{quiet:.0f}/s",
        ),
        Row(
            "page: a phone's median answer under attack",
            f"{attacked_ms:.0f} ms",
            f"{quiet_ms:.0f} ms",
            "<= 250 ms",
            lambda: attacked_ms <= 250,
        ),
        Row("page: live streams one address got of 2,000 tries", f"{streams}", "-", "<= 4", lambda: streams <= 4),
        Row(
            f"page: memory grown by {BODY_ATTACKS} x {BODY_MB} MB bodies",
            f"{grown:.1f} MB",
            "-",
            "<= 20 MB",
            lambda: grown <= 20,
        ),
        Row("page: requests/s after the body attack", f"{after:.0f}/s", f"{quiet:.0f}/s"),
        Row(
            "page: PIN guesses through, first hour / each later hour",
            f"{hours[0]} / {max(hours[1:])}",
            "-",
            f"<= 20 / <= {3600 // MAX_LOCKOUT_SECONDS:.0f}",
            lambda: hours[0] <= 20 and max(hours[1:]) <= 3600 // MAX_LOCKOUT_SECONDS,
        ),
    ]
