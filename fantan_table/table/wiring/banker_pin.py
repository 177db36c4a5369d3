"""The banker's PIN, kept only as a salted scrypt hash: in the config, or in the state directory when the
table made one up at its first start. A made-up PIN is written to a file only the table's own user (and
root) can read, and only that file's path is printed: on the Pi, what ``run`` prints goes to journald,
which more people may read than the banker.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path

from ...errors import FantanError

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
PIN_FILE = "banker-pin"
NEW_PIN_FILE = "first-banker-pin.txt"
MIN_PIN_LENGTH = 6
"""A million six-digit PINs: with the page's lockouts (``web/security.py``), years of guessing."""
SALT_BYTES, DIGEST_BYTES = 16, 32


class PinHashError(FantanError):
    """A PIN hash that is not one ``hash_pin`` makes: no PIN would ever match it."""


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """``scrypt$<salt hex>$<hash hex>``, for ``[web] banker_pin_hash``."""
    salt = salt or secrets.token_bytes(SALT_BYTES)
    digest = hashlib.scrypt(pin.encode(), salt=salt, dklen=DIGEST_BYTES, **SCRYPT)
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
    """Whether ``stored`` has the shape ``hash_pin`` gives: ``scrypt``, a 16-byte salt, a 32-byte digest, in hex."""
    parts = stored.split("$")
    return (
        len(parts) == 3
        and parts[0] == "scrypt"
        and [len(parts[1]), len(parts[2])] == [2 * SALT_BYTES, 2 * DIGEST_BYTES]
        and all(c in "0123456789abcdef" for c in parts[1] + parts[2])
    )


def private_file(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".part")
    temporary.write_text(text, encoding="ascii")
    temporary.chmod(0o600)
    temporary.replace(path)


def banker_pin_hash(configured: str, state_dir: Path) -> tuple[str, Path | None]:
    """The PIN hash to check against, and the file holding a new PIN when the table had to make one up."""
    if configured:
        if not valid_pin_hash(configured):
            raise PinHashError("[web] banker_pin_hash is not a PIN hash: make one with 'fantan-table pin-hash'")
        return configured, None
    path = state_dir / PIN_FILE
    if path.exists():
        stored = path.read_text(encoding="ascii", errors="replace").strip()
        if not valid_pin_hash(stored):
            raise PinHashError(
                f"{path} does not hold a PIN hash: delete it to have a new PIN made up at the next start, "
                "or set [web] banker_pin_hash"
            )
        return stored, None
    pin = f"{secrets.randbelow(10**MIN_PIN_LENGTH):0{MIN_PIN_LENGTH}d}"
    stored = hash_pin(pin)
    told = state_dir / NEW_PIN_FILE
    private_file(told, f"{pin}\n")
    private_file(path, stored)
    return stored, told
