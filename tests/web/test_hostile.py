"""The page on a hostile house network: what one phone (or a few hundred loopback addresses) may throw at it.

Each attack runs against the real server (uvicorn on a loopback port) or the app, bounded in count and
time; after it, the ledger must equal its replay and a round must still play from the page.
"""

from __future__ import annotations

import contextlib
import errno
import json
import socket
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantan_table.settings import Scope, in_scope
from fantan_table.table.wiring.config import KEYS
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import OwnerError
from fantan_table.web.app import BANKER_COOKIE, CSRF_COOKIE, WebContext, create_app
from fantan_table.web.connections import (
    EVICT_AFTER_SECONDS,
    HEAD_SECONDS,
    MAX_CONNECTIONS_PER_ADDRESS,
    MAX_STREAMS,
    MAX_STREAMS_PER_ADDRESS,
    connection_cap,
)
from fantan_table.web.http import CONTENT_SECURITY_POLICY, MAX_JSON_BYTES
from fantan_table.web.security import FIRST_LOCKOUT_SECONDS, FREE_FAILURES, PinGuard
from fantan_table.web.server import Listen, WebServer, base_url

from .conftest import PIN, Rig, close_context, make_context, player_token
from .test_fuzz import check_ledger, json_values

SHORT_HEAD_SECONDS = 1.0
"""The head deadline in the slow-client test: the same code as the real ten seconds, a tenth of the wait."""
BATCH = 100
SETTLE_SECONDS = 0.3
"""Time for the server to accept a batch of connections and refuse those over the cap."""
"""Connections opened at once before their answers are looked at: a test never holds thousands of handles."""


@dataclass
class Served:
    ctx: WebContext
    port: int

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5, source_address=(source, 0))
        return sock

    def client(self, source: str = "127.0.0.1") -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=source)
        return httpx.Client(base_url=f"http://127.0.0.1:{self.port}", transport=transport, timeout=10)


def serve(state_dir: Path, head_seconds: float = HEAD_SECONDS) -> Iterator[Served]:
    ctx = make_context(state_dir, runner_devices=False)
    listen = Listen("127.0.0.1", 0)
    web = WebServer(create_app(ctx), listen, head_seconds=head_seconds, stall_seconds=head_seconds)
    web.start()
    ctx.base_url = base_url("", listen, web.port)
    yield Served(ctx, web.port)
    web.stop()
    close_context(ctx)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    yield from serve(tmp_path / "state")


@pytest.fixture
def impatient(tmp_path: Path) -> Iterator[Served]:
    yield from serve(tmp_path / "state", SHORT_HEAD_SECONDS)


def status_of(sock: socket.socket) -> int:
    """The status of the reply on ``sock`` (0: closed without one)."""
    reply = b""
    while b"\r\n" not in reply:
        chunk = sock.recv(4096)
        if not chunk:
            return 0
        reply += chunk
    return int(reply.split(b" ", 2)[1])


def request_head(path: str, method: str = "GET", extra: str = "") -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: table\r\n{extra}\r\n".encode()


def a_round_still_plays(served: Served, source: str = "127.0.0.9") -> None:
    """The ledger is its journal's replay, and a round plays from the page: bet, close, dice, settled."""
    ctx = served.ctx
    check_ledger(ctx.owner.night.state_dir, ctx.owner.view.state)
    with served.client(source) as page:
        page.get("/")
        csrf = {"X-CSRF-Token": page.cookies.get(CSRF_COOKIE) or ""}
        bet = page.post(
            "/api/bets", json={"bet": "number:1"}, headers={**csrf, "X-Player-Token": player_token(ctx, "Ann")}
        )
        assert bet.status_code == 200, bet.text
        ctx.guard.succeeded()  # a test that spent the PIN budget on purpose: the banker waits no more here
        assert page.post("/api/banker/login", json={"pin": PIN}, headers=csrf).status_code == 200
        round_ = page.get("/api/state").json()["round"]
        assert page.post("/api/banker/action", json={"action": "close"}, headers=csrf).status_code == 200
        settled = page.post("/api/banker/dice", json={"values": [1, 1, 1, 2], "confirm": True}, headers=csrf).json()
        assert settled["last_round"]["round"] == round_ and settled["last_round"]["open"] == 1
        page.post("/api/banker/action", json={"action": "next"}, headers=csrf)
    check_ledger(ctx.owner.night.state_dir, ctx.owner.view.state)


# -- bodies --------------------------------------------------------------------------------------------------
def test_a_huge_declared_body_is_refused_before_a_byte_is_read(served: Served) -> None:
    with served.connect() as sock:
        sock.sendall(request_head("/api/banker/login", "POST", "Content-Length: 104857600\r\n"))
        assert status_of(sock) == 413
    a_round_still_plays(served)


def test_a_huge_body_without_a_length_stops_being_read_at_the_cap(served: Served) -> None:
    with served.client() as page:
        page.get("/")
        csrf = {"X-CSRF-Token": page.cookies.get(CSRF_COOKIE) or ""}
        sent = 0

        def endless() -> Iterator[bytes]:  # 100 MB offered, chunked: the server must stop reading long before
            nonlocal sent
            yield b'{"pin": "'
            while sent < 100 * 2**20:
                sent += 2**16
                yield b"9" * 2**16

        try:
            reply = page.post("/api/banker/login", content=endless(), headers=csrf)
            assert reply.status_code == 413
        except (httpx.WriteError, httpx.RemoteProtocolError, httpx.ReadError):
            pass  # the server answered 413 and closed while the client was still sending: what we want
        assert sent < 10 * 2**20  # it stopped being read within the first few megabytes in flight
    a_round_still_plays(served)


@pytest.mark.parametrize("depth", [1_000, 5_000])
def test_json_nested_deep_is_a_400(rig: Rig, depth: int) -> None:
    raw = '{"pin": ' + "[" * depth + "]" * depth + "}"
    assert len(raw) <= MAX_JSON_BYTES
    reply = rig.post("/api/banker/login", raw=raw)
    assert reply.status_code == 400 and "nested too deep" in reply.json()["error"]


def test_a_body_over_the_cap_is_a_413(rig: Rig) -> None:
    reply = rig.post("/api/bets", raw=json.dumps({"bet": "number:1", "pad": "x" * MAX_JSON_BYTES}), player="Ann")
    assert reply.status_code == 413 and "KB" in reply.json()["error"]


GAME_FIELDS = [key.name for key in in_scope(KEYS, Scope.NEW_GAME)] + ["players", "abandon"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(GAME_FIELDS), json_values, max_size=6))
def test_any_json_in_the_new_game_form_is_an_answer_never_a_500(rig: Rig, form: dict) -> None:
    if not rig.client.cookies.get(BANKER_COOKIE):
        rig.login()
    reply = rig.post("/api/banker/game", {**form, "abandon": False})
    assert reply.status_code in (200, 400, 409), reply.text
    assert reply.status_code == 200 or reply.json()["error"]


# -- connections and streams ---------------------------------------------------------------------------------
def hold_connections(served: Served, sources: list[str]) -> tuple[int, int]:
    """Open an idle connection from each source, a batch at a time; how many the server holds open at the end,
    and how many it refused at once (503) or closed to make room for later ones."""
    sockets = []
    for start in range(0, len(sources), BATCH):
        sockets += [served.connect(source) for source in sources[start : start + BATCH]]
        time.sleep(SETTLE_SECONDS)
    time.sleep(SETTLE_SECONDS)
    still_open, turned_away = 0, 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            answer = sock.recv(4096)
        except BlockingIOError:
            still_open += 1  # held: the server waits for its request
        else:
            assert answer == b"" or answer.startswith(b"HTTP/1.1 503"), answer
            assert answer == b"" or b"content-security-policy:" in answer  # the protective headers, even here
            turned_away += 1
        sock.close()
    return still_open, turned_away


def test_one_address_cannot_hold_more_than_its_share_of_connections(served: Served) -> None:
    held, turned_away = hold_connections(served, ["127.0.0.1"] * 2_000)
    assert held == MAX_CONNECTIONS_PER_ADDRESS and turned_away == 2_000 - MAX_CONNECTIONS_PER_ADDRESS
    a_round_still_plays(served)


def test_many_addresses_meet_the_total_cap(served: Served) -> None:
    held, turned_away = hold_connections(served, [f"127.0.{1 + n // 20}.{1 + n % 20}" for n in range(2_000)])
    assert held == connection_cap() and turned_away == 2_000 - held
    time.sleep(0.2)  # the server hears of the closes
    a_round_still_plays(served)


def open_streams(served: Served, sources: list[str]) -> tuple[list[socket.socket], dict[int, int]]:
    """Ask for a live stream from each source; keep the ones that stream, count every status."""
    streams, statuses = [], {}
    for source in sources:
        sock = served.connect(source)
        sock.sendall(request_head("/api/events"))
        status = status_of(sock)
        statuses[status] = statuses.get(status, 0) + 1
        if status == 200:
            streams.append(sock)
        else:
            sock.close()
    return streams, statuses


def test_live_streams_are_capped_per_address(served: Served) -> None:
    streams, statuses = open_streams(served, ["127.0.0.1"] * 2_000)
    assert statuses == {200: MAX_STREAMS_PER_ADDRESS, 429: 2_000 - MAX_STREAMS_PER_ADDRESS}
    for sock in streams:
        sock.close()
    a_round_still_plays(served)


def test_live_streams_are_capped_in_all(served: Served) -> None:
    sources = [f"127.0.{1 + n // 20}.{1 + n % 20}" for n in range(2_000)]
    streams, statuses = open_streams(served, sources)
    assert statuses == {200: MAX_STREAMS, 429: 2_000 - MAX_STREAMS}
    for sock in streams:
        sock.close()
    time.sleep(1.5)  # each stream notices its phone has gone within a second and gives back its slot
    more, _ = open_streams(served, ["127.0.0.1"])
    assert len(more) == 1
    more[0].close()
    a_round_still_plays(served)


def slow_clients(served: Served, count: int) -> list[socket.socket]:
    """``count`` clients from ten addresses each, each sending half a request head, then nothing."""
    slow = []
    for n in range(count):
        sock = served.connect(f"127.0.{1 + n // 10}.{1 + n % 10}")
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHo")
        slow.append(sock)
    return slow


def test_slow_clients_make_room_for_a_phone(served: Served) -> None:
    slow = slow_clients(served, 500)  # more than the total cap, from 50 addresses
    time.sleep(EVICT_AFTER_SECONDS + 0.2)
    with served.client("127.0.0.250") as page:  # a phone comes: the slowest client makes room
        started = time.monotonic()
        assert page.get("/api/state").status_code == 200
        assert time.monotonic() - started < 1.0
    for sock in slow:
        sock.close()
    a_round_still_plays(served)


def test_slow_clients_are_cut_off_at_the_head_deadline(impatient: Served) -> None:
    slow = slow_clients(impatient, 200)
    deadline = time.monotonic() + SHORT_HEAD_SECONDS + 3
    for sock in slow:  # each is closed by the deadline (or was refused at once at a cap)
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        data = sock.recv(4096)
        assert data == b"" or data.startswith(b"HTTP/1.1 503"), data
        sock.close()
    a_round_still_plays(impatient)


# -- the PIN ---------------------------------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_pin_guessing_from_many_addresses_meets_one_budget_that_outlives_a_restart(tmp_path: Path) -> None:
    state_dir, clock = tmp_path / "state", Clock()

    def page(ctx: WebContext, address: str) -> TestClient:
        client = TestClient(create_app(ctx), client=(address, 40000))
        client.get("/")
        client.headers["X-CSRF-Token"] = client.cookies.get(CSRF_COOKIE) or ""
        return client

    ctx = make_context(state_dir, runner_devices=False)
    ctx.guard = PinGuard(state_dir, wall=clock)
    replies = [page(ctx, f"10.0.0.{n}").post("/api/banker/login", json={"pin": f"{n:06d}"}) for n in range(1, 8)]
    assert [r.status_code for r in replies] == [401] * (FREE_FAILURES + 1) + [429]
    assert f"locked for {FIRST_LOCKOUT_SECONDS:.0f} s" in replies[FREE_FAILURES].json()["error"]
    assert page(ctx, "10.0.0.99").post("/api/banker/login", json={"pin": PIN}).status_code == 429  # even the right one
    logins = [e for e in ctx.owner.night.table.journal.events() if e.kind == "login"]
    assert [(e.data["address"], e.data["ok"]) for e in logins] == [(f"10.0.0.{n}", False) for n in range(1, 7)]
    close_context(ctx)

    ctx = make_context(state_dir, runner_devices=False)  # a restart: the journal resumes, the budget is as it was
    ctx.guard = PinGuard(state_dir, wall=clock)
    assert page(ctx, "10.0.1.1").post("/api/banker/login", json={"pin": PIN}).status_code == 429
    clock.now += FIRST_LOCKOUT_SECONDS + 1
    wrong = page(ctx, "10.0.1.2").post("/api/banker/login", json={"pin": "000000"})
    assert wrong.status_code == 401 and f"{2 * FIRST_LOCKOUT_SECONDS:.0f} s" in wrong.json()["error"]  # doubled
    clock.now += 2 * FIRST_LOCKOUT_SECONDS + 1
    assert page(ctx, "10.0.1.3").post("/api/banker/login", json={"pin": PIN}).status_code == 200
    assert ctx.guard.wait() == 0 and ctx.guard.failed() == 0  # a right PIN gave the budget back
    close_context(ctx)


def test_a_wall_clock_jumping_back_locks_no_longer_than_the_longest_lockout(tmp_path: Path) -> None:
    clock = Clock()
    guard = PinGuard(tmp_path, wall=clock)
    for _ in range(FREE_FAILURES + 20):
        guard.failed()
    clock.now -= 10 * 365 * 86400  # the Pi booted without network: its clock is years behind
    assert 0 < guard.wait() <= 3600


def test_an_unreadable_budget_file_is_the_worst_case_not_a_fresh_budget(tmp_path: Path) -> None:
    (tmp_path / "pin-guard.json").write_text("{not json")
    assert PinGuard(tmp_path).wait() > 0


def test_forwarded_for_from_loopback_is_not_believed(served: Served) -> None:
    with served.client() as page:
        page.get("/")
        headers = {"X-CSRF-Token": page.cookies.get(CSRF_COOKIE) or "", "X-Forwarded-For": "203.0.113.7"}
        page.post("/api/banker/login", json={"pin": "000000"}, headers=headers)
    login = served.ctx.owner.night.table.journal.events()[-1]
    assert login.kind == "login" and login.data["address"] == "127.0.0.1"


# -- sessions and links --------------------------------------------------------------------------------------
def test_a_banker_session_ends_by_the_monotonic_clock_though_the_wall_clock_went_back(rig: Rig) -> None:
    sessions = rig.ctx.sessions
    wall, tick = Clock(), Clock()
    sessions.wall, sessions.monotonic = wall, tick
    token = sessions.open()
    wall.now -= 6 * 3600  # the clock ran ahead when the cookie was made, and was put right since
    tick.now += sessions.lifetime - 1
    assert sessions.valid(token)
    tick.now += 2
    assert not sessions.valid(token)


def test_an_old_games_player_link_is_dead_in_the_next_game(rig: Rig) -> None:
    rig.login()
    old = rig.token("Ann")
    setup = {"players": [{"name": "Ann", "suit": "suns"}, {"name": "Bob", "suit": "moons"}], "abandon": True}
    assert rig.post("/api/banker/game", setup).status_code == 200
    assert rig.post("/api/bets", {"bet": "number:1"}, player=old).status_code == 403
    assert rig.client.get("/api/banker/players").json() == [
        {"name": "Ann", "linked": False},
        {"name": "Bob", "linked": False},
    ]


def test_links_start_with_the_tables_address_whatever_host_is_claimed(rig: Rig) -> None:
    rig.login()
    made = rig.client.post(
        "/api/banker/players/link",
        json={"player": "Ann"},
        headers={"Host": "evil.example", "X-CSRF-Token": rig.client.cookies.get(CSRF_COOKIE) or ""},
    ).json()
    assert made["link"].startswith("http://table.test:8080/?player=")


# -- headers -------------------------------------------------------------------------------------------------
def test_every_answer_carries_the_protective_headers(served: Served) -> None:
    with served.client() as page:
        answers = [
            page.get("/"),
            page.get("/api/state"),
            page.get("/static/app.js"),
            page.get("/static/../../etc/passwd"),
            page.get("/nowhere"),
            page.post("/api/bets", json={}),  # no CSRF: refused by the guard
            page.post("/api/banker/login", content=b"x" * (MAX_JSON_BYTES + 1)),
            page.get("/openapi.json"),
            page.get("/docs"),
        ]
        with page.stream("GET", "/api/events") as stream:
            stream_headers = stream.headers
    server_root = str(Path(__file__).parents[2])
    for headers, body in [(a.headers, a.text) for a in answers] + [(stream_headers, "")]:
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, body
        assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY and "unsafe-inline" not in CONTENT_SECURITY_POLICY
        assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer" and "server" not in headers
        assert headers["cache-control"] in ("no-store", "no-cache"), body
        assert server_root not in body and "site-packages" not in body
    assert [a.status_code for a in answers[7:9]] == [404, 404]  # no API description unless configured


def test_the_api_description_when_asked_for(tmp_path: Path) -> None:
    ctx = make_context(tmp_path / "state", runner_devices=False)
    ctx.api_description = True
    with TestClient(create_app(ctx)) as client, warnings.catch_warnings():
        warnings.simplefilter("error")  # FastAPI warns of an operation described twice (the page's GET and HEAD)
        description = client.get("/openapi.json").json()
    assert description["info"]["title"] == "fantan-table" and "/api/state" in description["paths"]
    close_context(ctx)


def test_a_crash_in_a_route_answers_without_a_traceback(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError(f"secret detail in {Path(__file__)}")

    monkeypatch.setattr("fantan_table.web.app.write_scoring_csv", broken)
    client = TestClient(rig.client.app, raise_server_exceptions=False)
    reply = client.get("/api/scoring.csv")
    assert reply.status_code == 500 and "table's log" in reply.json()["error"]
    assert "secret" not in reply.text and "Traceback" not in reply.text
    assert reply.headers["x-content-type-options"] == "nosniff"


def test_a_client_that_stops_reading_is_cut_off(impatient: Served) -> None:
    """Pipelined requests whose answers it never reads: the server's buffers fill and it must not wait forever."""
    size = len(impatient.client().get("/static/app.js").content)
    asked = 400
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect(("127.0.0.1", impatient.port))
    sock.sendall(request_head("/static/app.js") * asked)
    time.sleep(SHORT_HEAD_SECONDS + 1.5)  # it reads nothing meanwhile
    got = 0
    sock.settimeout(2)
    try:
        while chunk := sock.recv(65536):
            got += len(chunk)
    except (ConnectionResetError, TimeoutError):
        pass
    sock.close()
    assert got < asked * size / 2  # cut off: what the server still held for it was dropped
    a_round_still_plays(impatient)


def test_sixteen_addresses_cannot_keep_a_phone_from_live_updates(served: Served) -> None:
    hogs = [f"127.0.9.{n}" for n in range(1, MAX_STREAMS // MAX_STREAMS_PER_ADDRESS + 1)]
    streams, statuses = open_streams(served, [a for a in hogs for _ in range(MAX_STREAMS_PER_ADDRESS)])
    assert statuses == {200: MAX_STREAMS}
    mine, _ = open_streams(served, ["127.0.0.77"])
    assert len(mine) == 1  # a newcomer gets a stream: the oldest of a busiest address made room
    oldest, data = streams[0], b""
    oldest.settimeout(3)
    with contextlib.suppress(TimeoutError):
        while not data.endswith(b"0\r\n\r\n") and (chunk := oldest.recv(65536)):
            data += chunk
    assert data.endswith(b"0\r\n\r\n")  # its stream ended (its page asks every few seconds, then again)
    for sock in streams:
        sock.close()
    mine[0].close()


def test_a_pin_budget_after_thousands_of_wrong_pins_still_locks(tmp_path: Path) -> None:
    (tmp_path / "pin-guard.json").write_text('{"failures": 5000, "locked_until": 0}')
    guard = PinGuard(tmp_path)
    assert guard.failed() == 3600 and 3590 < guard.wait() <= 3600


def test_odd_requests_are_answered_400_never_500(rig: Rig) -> None:
    assert rig.post("/api/banker/action", {"action": []}).status_code == 401  # the banker's, first
    rig.login()
    for action in ([], {}, 7, None):
        reply = rig.post("/api/banker/action", {"action": action})
        assert reply.status_code == 400 and "unknown action" in reply.json()["error"]
    reply = rig.client.get("/api/rounds/abc/photo.jpg")
    assert reply.status_code == 400 and reply.json()["error"]
    latin = {"X-CSRF-Token": "\u00e9".encode("latin-1"), "Cookie": "fantan_csrf=\u00e9".encode("latin-1")}
    assert rig.client.post("/api/bets", content=b"{}", headers=latin).status_code == 401  # past CSRF; not a 500


def test_the_simulated_cup_takes_only_the_tables_dice(rig: Rig) -> None:
    rig.login()
    reply = rig.post("/api/sim/shake", {"values": [1] * 35})
    assert reply.status_code == 400 and "a roll at this table is 4 dice" in reply.json()["error"]
    assert rig.ctx.owner.fault is None and rig.post("/api/sim/shake", {"values": [1, 2, 3, 4]}).status_code == 200


def test_a_faults_message_reaches_phones_without_the_servers_paths(rig: Rig) -> None:
    def disk_full(night: Night) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(night.state_dir / "frames" / "round-0001.jpg"))

    with pytest.raises(OwnerError):
        rig.ctx.owner.call(disk_full)
    fault = rig.client.get("/api/state").json()["fault"]
    assert "No space left on device" in fault and str(rig.ctx.owner.night.state_dir) not in fault
    refused = rig.post("/api/bets", {"bet": "number:1"}, player="Ann")
    assert refused.status_code == 503 and str(rig.ctx.owner.night.state_dir) not in refused.text
