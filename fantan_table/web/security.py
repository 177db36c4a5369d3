"""Who may do what on the house network: the banker's sessions, the players' links, PIN guessing, rate limits.

- The banker's PIN is kept only as a salted scrypt hash (see ``table/wiring/banker_pin.py``); a right PIN
  opens a **session** held here, in memory: logging out ends it, and it ends after
  :data:`SESSION_SECONDS` by the monotonic clock as well as the wall clock (the Pi has no real-time clock,
  so its wall clock may jump hours at boot). A restart ends every session.
- A player's link carries a random token made for that player in that game; the night's journal keeps
  only its SHA-256, so the link survives a restart, the banker can end it (a lost phone), and it means
  nothing in the next game, whose journal never heard of it.
- PIN guessing has one budget for the whole table, not per address (addresses are cheap on a house
  network): after :data:`FREE_FAILURES` wrong PINs, each further one locks the PIN out for twice as long
  as the last, up to :data:`MAX_LOCKOUT_SECONDS`. The count is kept in the state directory, so a restart
  does not reset it; a right PIN does.
- State-changing requests must repeat the ``fantan_csrf`` cookie in the ``X-CSRF-Token`` header
  (double submit; a page from another site can do neither).
- Each client address has a request budget.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..durable import write_durably

SESSION_SECONDS = 12 * 3600
"""A banker's session lasts a game night, then the PIN is asked again."""
MAX_SESSIONS = 16
"""Banker sessions held at once: the banker's phone and a laptop or two; the oldest ends first."""
FREE_FAILURES = 5
"""Wrong PINs before any lockout: enough for a banker's typing slips."""
FIRST_LOCKOUT_SECONDS = 30.0
MAX_LOCKOUT_SECONDS = 3600.0
"""The longest lockout: at most one guess an hour gets through, and the banker waits no longer than that."""
LONGEST_DOUBLING = 32
"""Doublings counted at most: far past MAX_LOCKOUT_SECONDS, and 2**32 stays a float however long the guessing."""
GUARD_FILE = "pin-guard.json"
MAX_TRACKED_ADDRESSES = 4096
"""Addresses whose request budget is remembered; beyond this the ones with a full budget are forgotten."""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_player_token() -> tuple[str, str]:
    """A player link's token and the SHA-256 the journal keeps of it."""
    token = secrets.token_urlsafe(24)
    return token, token_digest(token)


def player_for(token: str, links: Mapping[str, str]) -> str | None:
    """Whose link ``token`` is, among this game's links (player -> token's SHA-256), if anyone's."""
    digest = token_digest(token)
    found = None
    for player, kept in links.items():
        if hmac.compare_digest(kept, digest):  # every link compared: the time taken says nothing of which
            found = player
    return found


@dataclass
class _Session:
    wall: float
    monotonic: float


@dataclass
class Sessions:
    """The banker's sessions, by the SHA-256 of the cookie that names each (a leaked table holds no cookie)."""

    wall: Callable[[], float] = time.time
    monotonic: Callable[[], float] = time.monotonic
    lifetime: float = SESSION_SECONDS
    _open: dict[str, _Session] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def open(self) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            while len(self._open) >= MAX_SESSIONS:
                del self._open[next(iter(self._open))]
            self._open[token_digest(token)] = _Session(self.wall(), self.monotonic())
        return token

    def valid(self, token: str) -> bool:
        key = token_digest(token)
        with self._lock:
            session = self._open.get(key)
            if session is None:
                return False
            wall_age, age = self.wall() - session.wall, self.monotonic() - session.monotonic
            if age > self.lifetime or wall_age > self.lifetime:
                del self._open[key]
                return False
            return True

    def end(self, token: str) -> None:
        with self._lock:
            self._open.pop(token_digest(token), None)


@dataclass
class PinGuard:
    """The table's one budget of wrong PINs (see the module's docstring), kept in ``state_dir``."""

    state_dir: Path
    wall: Callable[[], float] = time.time
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _failures: int = 0
    _locked_until: float = 0.0

    def __post_init__(self) -> None:
        try:
            kept = json.loads((self.state_dir / GUARD_FILE).read_text(encoding="utf-8"))
            self._failures, self._locked_until = int(kept["failures"]), float(kept["locked_until"])
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError):
            # unreadable: assume the worst rather than hand out a fresh budget
            self._failures, self._locked_until = FREE_FAILURES + 1, self.wall() + FIRST_LOCKOUT_SECONDS

    def wait(self) -> float:
        """Seconds until the next PIN may be tried (0: now). Never more than the longest lockout, even when
        the wall clock has jumped back since the lockout began."""
        with self._lock:
            return max(0.0, min(self._locked_until - self.wall(), MAX_LOCKOUT_SECONDS))

    def failed(self) -> float:
        """Count a wrong PIN; the lockout it starts, in seconds (0: none)."""
        with self._lock:
            self._failures += 1
            beyond = min(self._failures - FREE_FAILURES, LONGEST_DOUBLING)  # a bounded power: no float overflow
            lockout = min(FIRST_LOCKOUT_SECONDS * 2 ** (beyond - 1), MAX_LOCKOUT_SECONDS) if beyond > 0 else 0.0
            self._locked_until = self.wall() + lockout
            self._keep()
            return lockout

    def succeeded(self) -> None:
        with self._lock:
            self._failures, self._locked_until = 0, 0.0
            self._keep()

    def _keep(self) -> None:
        data = {"failures": self._failures, "locked_until": self._locked_until}
        write_durably(self.state_dir / GUARD_FILE, json.dumps(data).encode())


@dataclass
class RateLimiter:
    """A token bucket per client: ``rate`` requests a second on average, ``burst`` at once."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def allow(self, client: str) -> bool:
        with self._lock:
            now = self.clock()
            if len(self._buckets) >= MAX_TRACKED_ADDRESSES:
                self._forget_full(now)
            tokens, since = self._buckets.get(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - since) * self.rate)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                return False
            self._buckets[client] = (tokens - 1, now)
            return True

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled up again: forgetting them changes nothing for their clients."""
        full = [c for c, (tokens, since) in self._buckets.items() if tokens + (now - since) * self.rate >= self.burst]
        for client in full:
            del self._buckets[client]
        if len(self._buckets) >= MAX_TRACKED_ADDRESSES:  # a flood of fresh addresses: forget the oldest half
            for client in list(self._buckets)[: MAX_TRACKED_ADDRESSES // 2]:
                del self._buckets[client]
