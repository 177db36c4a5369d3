"""The banker's PIN, kept only as a salted scrypt hash: in the config, or in the state directory when the
table made one up at its first start (and said it on its own console, which only the banker sees).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
PIN_FILE = "banker-pin"


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """``scrypt$<salt hex>$<hash hex>``, for ``[web] banker_pin_hash``."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_pin(pin: str, stored: str) -> bool:
    try:
        kind, salt, _ = stored.split("$")
        if kind != "scrypt":
            return False
        return hmac.compare_digest(hash_pin(pin, bytes.fromhex(salt)), stored)
    except ValueError:
        return False


def valid_pin_hash(stored: str) -> bool:
    parts = stored.split("$")
    return len(parts) == 3 and parts[0] == "scrypt" and all(c in "0123456789abcdef" for c in parts[1] + parts[2])


def private_file(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".part")
    temporary.write_text(text, encoding="ascii")
    temporary.chmod(0o600)
    temporary.replace(path)


def banker_pin_hash(configured: str, state_dir: Path) -> tuple[str, str | None]:
    """The PIN hash to check against, and a new PIN to announce when the table had to make one up."""
    if configured:
        return configured, None
    path = state_dir / PIN_FILE
    if path.exists():
        return path.read_text(encoding="ascii").strip(), None
    pin = f"{secrets.randbelow(10**6):06d}"
    stored = hash_pin(pin)
    private_file(path, stored)
    return stored, pin
