"""Who may do what on the house network: the banker's PIN, the players' links, CSRF and rate limits.

- The banker's PIN is kept only as a salted scrypt hash (see ``table/wiring/banker_pin.py``).
- A player's link carries a token derived from a secret kept in the state directory (HMAC of the
  player's name), so links survive a restart and one player's token says nothing of another's.
- State-changing requests must repeat the ``fantan_csrf`` cookie in the ``X-CSRF-Token`` header
  (double submit; a page from another site can do neither).
- Each client address has a request budget, and a much smaller one for PIN attempts.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..table.wiring.banker_pin import private_file

SECRET_FILE = "web-secret"


def load_secret(state_dir: Path) -> bytes:
    path = state_dir / SECRET_FILE
    if not path.exists():
        private_file(path, secrets.token_hex(32))
    return bytes.fromhex(path.read_text(encoding="ascii").strip())


@dataclass
class Keys:
    secret: bytes
    pin_hash: str

    def player_token(self, player: str) -> str:
        return hmac.new(self.secret, f"player:{player}".encode(), hashlib.sha256).hexdigest()[:32]

    def player_for(self, token: str, players: list[str]) -> str | None:
        for name in players:
            if hmac.compare_digest(self.player_token(name), token):
                return name
        return None

    def banker_session(self, issued: int) -> str:
        mac = hmac.new(self.secret, f"banker:{issued}:{self.pin_hash}".encode(), hashlib.sha256).hexdigest()
        return f"{issued}.{mac}"

    def is_banker_session(self, cookie: str, now: float, lifetime: float = 12 * 3600) -> bool:
        issued, _, _ = cookie.partition(".")
        if not issued.isdigit() or now - int(issued) > lifetime:
            return False
        return hmac.compare_digest(self.banker_session(int(issued)), cookie)


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
            tokens, since = self._buckets.get(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - since) * self.rate)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                return False
            self._buckets[client] = (tokens - 1, now)
            return True
