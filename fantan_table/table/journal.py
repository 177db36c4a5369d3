"""The table's journal: every event of the night, appended to SQLite and on disk before anything is shown.

The game's state is a replay of these events, so a power cut loses nothing that was shown. The
database runs in WAL mode with ``synchronous=FULL`` (each commit is fsynced); a settlement or a
void carries its round, and a unique index makes a second result for one round impossible. Each
round's deciding frame is kept as a JPEG beside the database, fsynced, with its SHA-256 in the
event that cites it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..durable import write_durably

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq   INTEGER PRIMARY KEY,
    at    TEXT NOT NULL,
    kind  TEXT NOT NULL,
    round INTEGER NOT NULL,
    data  TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS one_result_per_round ON events(round) WHERE kind IN ('settled', 'voided');
"""
DATABASE = "journal.sqlite3"
FRAMES = "frames"


class JournalError(RuntimeError):
    """The journal refused an event (a round settled twice) or cannot be written; the message says which."""


@dataclass(frozen=True)
class Event:
    kind: str
    round: int
    data: dict[str, Any] = field(default_factory=dict)
    at: datetime = field(default_factory=lambda: datetime.now(UTC))
    seq: int | None = None


@dataclass(frozen=True)
class FrameRef:
    file: str
    """Relative to the state directory."""
    sha256: str


class Journal:
    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        try:
            (state_dir / FRAMES).mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(state_dir / DATABASE, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(
                f"cannot open the journal in {state_dir}: {exc}; check that the folder is writable"
            ) from exc

    def append(self, event: Event) -> Event:
        """Write one event durably; returns it with its sequence number."""
        try:
            cursor = self._db.execute(
                "INSERT INTO events(at, kind, round, data) VALUES (?, ?, ?, ?)",
                (event.at.isoformat(), event.kind, event.round, json.dumps(event.data, sort_keys=True)),
            )
        except sqlite3.IntegrityError:
            raise JournalError(f"round {event.round} already has its result; it cannot be {event.kind} again") from None
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write to the journal in {self.state_dir}: {exc}") from exc
        return Event(event.kind, event.round, event.data, event.at, cursor.lastrowid)

    def events(self) -> list[Event]:
        rows = self._db.execute("SELECT seq, at, kind, round, data FROM events ORDER BY seq").fetchall()
        return [
            Event(kind, rnd, json.loads(data), datetime.fromisoformat(at), seq) for seq, at, kind, rnd, data in rows
        ]

    def save_frame(self, name: str, jpeg: bytes) -> FrameRef:
        """Keep a frame (already JPEG-encoded) under ``frames/``, fsynced before the event that cites it."""
        relative = f"{FRAMES}/{name}"
        write_durably(self.state_dir / relative, jpeg)
        return FrameRef(relative, hashlib.sha256(jpeg).hexdigest())

    def close(self) -> None:
        self._db.close()


def archive(state_dir: Path, stamp: str) -> Path:
    """Move a finished night's journal and frames into ``nights/STAMP/``, leaving the folder ready for a new one."""
    target = state_dir / "nights" / stamp
    target.mkdir(parents=True)
    for name in (DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", FRAMES):
        if (state_dir / name).exists():
            os.replace(state_dir / name, target / name)
    return target
