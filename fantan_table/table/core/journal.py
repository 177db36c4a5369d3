"""The table's journal: every event of the night, appended to SQLite and on disk before anything is shown.

The game's state is a replay of these events, so a power cut loses nothing that was shown. The
database runs in WAL mode with ``synchronous=FULL`` (each commit is fsynced); a settlement or a
void carries its round, and a unique index makes a second result for one round impossible. Each
round's deciding frame is kept as a JPEG beside the database, fsynced, never written over, with its
SHA-256 in the event that cites it.

The journal proves itself. Each event carries a SHA-256 over the one before's hash and its own
stored fields (sequence number, time, kind, round, payload text), so an edited, inserted, deleted
or reordered event breaks the chain at that event. Opening a journal checks, before anything is
replayed: that the file is a sound SQLite database (``PRAGMA integrity_check``), its schema version
(a newer one is refused, an older one upgraded in place after a backup copy), the whole chain, and
every photo's hash. A damaged journal is never replaced by a new night: opening it fails with what
was found and what to do.

What the chain does not prove: someone who can write the folder can rewrite every hash after an
edit, or drop the last events; the chain finds accidents and careless edits, not a determined
forger (that would need a key kept away from the folder).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from ...durable import write_new_durably
from ...errors import FantanError

DATABASE = "journal.sqlite3"
FRAMES = "frames"
SCHEMA_VERSION = 2
"""1: the events alone (journals from before versions, which carry none); 2: each event carries its chain hash."""
GENESIS = "0" * 64
"""The hash "before" the first event."""
FIRST_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq   INTEGER PRIMARY KEY,
    at    TEXT NOT NULL,
    kind  TEXT NOT NULL,
    round INTEGER NOT NULL,
    data  TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS one_result_per_round ON events(round) WHERE kind IN ('settled', 'voided');
"""
MAX_FRAME_NAMES = 100
"""A frame whose name is taken (left by a save that a crash cut short) gets ``-2``, ``-3``... up to this."""


class JournalError(FantanError, RuntimeError):
    """The journal refused an event (a round settled twice) or cannot be written; the message says which."""


@dataclass(frozen=True)
class Damage:
    """The first thing found wrong with a journal or its photos: where, and what."""

    problem: str
    seq: int | None = None
    kind: str | None = None
    photo: str | None = None

    def __str__(self) -> str:
        where = f"event {self.seq} ({self.kind}): " if self.seq is not None else ""
        return where + (f"photo {self.photo}: " if self.photo else "") + self.problem


class JournalDamaged(JournalError):
    """The journal (or a photo it cites) is not what was written: nothing is replayed or appended."""

    def __init__(self, state_dir: Path, damage: Damage) -> None:
        self.state_dir, self.damage = state_dir, damage
        super().__init__(
            f"the journal in {state_dir} is damaged: {damage}. Nothing was changed. "
            f"See the whole report with `fantan-table verify --state {state_dir}`; restore {DATABASE} "
            f"(and {FRAMES}/) from a backup, or move them into {state_dir / 'nights'} to begin a new night"
        )


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


def chain_hash(previous: str, seq: int, at: str, kind: str, round_: int, data: str) -> str:
    """An event's link in the chain, over its fields exactly as stored (the payload's JSON text included)."""
    canonical = json.dumps([previous, seq, at, kind, round_, data], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


class Journal:
    def __init__(self, state_dir: Path, *, write: bool = True) -> None:
        """Open the journal in ``state_dir`` after checking all of it; ``write=False`` only reads (and changes nothing).

        A writer creates a new journal when there is none (and no night's photos without one) and
        upgrades an older schema; a reader reads what is there.
        """
        self.state_dir, self.schema = state_dir, SCHEMA_VERSION
        self._head: tuple[int, str] = (0, GENESIS)
        path = state_dir / DATABASE
        self._check_not_lost(state_dir, path)
        if not write and not path.exists():
            raise JournalError(f"no journal in {state_dir}: give the table's state directory with --state DIR")
        try:
            if write:
                (state_dir / FRAMES).mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(
                f"cannot open the journal in {state_dir}: {exc}; check that the folder is writable"
            ) from exc
        try:
            self._open(write)
        except sqlite3.Error as exc:
            self._db.close()
            raise self._explain(exc) from exc
        except JournalError:
            self._db.close()
            raise

    # -- opening ----------------------------------------------------------------------------------------
    @staticmethod
    def _check_not_lost(state_dir: Path, path: Path) -> None:
        """A missing or empty journal is a new night only when no night's photos lie beside it."""
        if path.exists() and path.stat().st_size > 0:
            return
        photos = _photos_on_disk(state_dir)
        if photos:
            found = "is empty (0 bytes)" if path.exists() else "is missing"
            raise JournalDamaged(
                state_dir, Damage(f"{DATABASE} {found}, yet {FRAMES}/ holds {photos} photo(s) of a night")
            )

    def _open(self, write: bool) -> None:
        db = self._db
        if write:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        problems = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            found = " ".join(" ".join(problems).split())  # SQLite's report spans lines: the message is one
            raise JournalDamaged(self.state_dir, Damage(f"SQLite's integrity check failed: {found}"))
        version = db.execute("PRAGMA user_version").fetchone()[0]
        has_events = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").fetchone()
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"the journal in {self.state_dir} was made by a newer fantan-table (schema {version}; this one "
                f"knows up to {SCHEMA_VERSION}): upgrade fantan-table, or move {DATABASE} and {FRAMES}/ "
                f"into {self.state_dir / 'nights'} to begin a new night with this version"
            )
        self.schema = max(version, 1 if has_events else 0)
        if self.schema < SCHEMA_VERSION and write:
            if self.schema:
                self._backup(self.schema)
            self._upgrade()
        self._check_chain()
        self._check_photos()

    def _backup(self, version: int) -> None:
        """A copy of the journal as it was before an upgrade, beside it (once: an earlier copy is kept)."""
        target = self.state_dir / backup_name(version)
        if target.exists():
            return
        part = target.with_name(target.name + ".part")
        part.unlink(missing_ok=True)
        copy = sqlite3.connect(part)
        try:
            self._db.backup(copy)
        finally:
            copy.close()
        with part.open("rb") as written:
            os.fsync(written.fileno())
        os.replace(part, target)

    def _upgrade(self) -> None:
        """Bring the journal to :data:`SCHEMA_VERSION` in one transaction: all of it, or none if the power goes."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            _run_script(db, FIRST_SCHEMA)
            if self.schema < 2:
                db.execute("ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT ''")
                previous = GENESIS
                for seq, at, kind, rnd, data in db.execute(
                    "SELECT seq, at, kind, round, data FROM events ORDER BY seq"
                ).fetchall():
                    previous = chain_hash(previous, seq, at, kind, rnd, data)
                    db.execute("UPDATE events SET hash = ? WHERE seq = ?", (previous, seq))
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self.schema = SCHEMA_VERSION

    def _check_chain(self) -> None:
        if self.schema < 2:
            return  # an old journal read as it is: it has no chain yet
        previous, last_seq = GENESIS, 0
        for seq, at, kind, rnd, data, stored in self._db.execute(
            "SELECT seq, at, kind, round, data, hash FROM events ORDER BY seq"
        ):
            if seq != last_seq + 1:
                raise JournalDamaged(
                    self.state_dir, Damage(f"events {last_seq + 1} to {seq - 1} are missing", seq, kind)
                )
            previous = chain_hash(previous, seq, at, kind, rnd, data)
            if stored != previous:
                raise JournalDamaged(
                    self.state_dir,
                    Damage("it is not the event that was written (edited, inserted or moved)", seq, kind),
                )
            last_seq = seq
        self._head = (last_seq, previous)

    def _check_photos(self) -> None:
        events = self.events()
        photos = _photos_on_disk(self.state_dir)
        if not events and photos:  # emptied, not new: the photos beside it are a night's
            raise JournalDamaged(
                self.state_dir, Damage(f"{DATABASE} holds no events, yet {FRAMES}/ holds {photos} photo(s) of a night")
            )
        for event in events:
            for ref in frame_refs(event.data):
                problem = frame_problem(self.state_dir, ref)
                if problem is not None:
                    raise JournalDamaged(self.state_dir, Damage(problem, event.seq, event.kind, ref.get("file")))

    def _explain(self, exc: sqlite3.Error) -> JournalError:
        """SQLite's own failure as what the user can do: a damaged file is not a folder to make writable."""
        name = getattr(exc, "sqlite_errorname", "")
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            return JournalDamaged(self.state_dir, Damage(f"{DATABASE} is not a readable SQLite database ({exc})"))
        if name.startswith("SQLITE_FULL"):
            return JournalError(f"cannot open the journal in {self.state_dir}: the disk is full; free some space")
        if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_IOERR")):
            return JournalError(
                f"cannot open the journal in {self.state_dir}: {exc}; check that the folder is writable"
            )
        # a readable database that is not a journal as written (a table dropped, a column renamed)
        return JournalDamaged(self.state_dir, Damage(f"{DATABASE} is not a journal as this table writes it ({exc})"))

    # -- writing and reading ----------------------------------------------------------------------------------
    def append(self, event: Event) -> Event:
        """Write one event durably, chained to the one before; returns it with its sequence number."""
        last_seq, last_hash = self._head
        seq, at, data = last_seq + 1, event.at.isoformat(), json.dumps(event.data, sort_keys=True)
        digest = chain_hash(last_hash, seq, at, event.kind, event.round, data)
        try:
            self._db.execute(
                "INSERT INTO events(seq, at, kind, round, data, hash) VALUES (?, ?, ?, ?, ?, ?)",
                (seq, at, event.kind, event.round, data, digest),
            )
        except sqlite3.IntegrityError as exc:
            if "events.round" in str(exc):
                raise JournalError(
                    f"round {event.round} already has its result; it cannot be {event.kind} again"
                ) from None
            raise JournalError(f"cannot write to the journal in {self.state_dir}: {exc}") from exc
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write to the journal in {self.state_dir}: {exc}") from exc
        self._head = (seq, digest)
        return Event(event.kind, event.round, event.data, event.at, seq)

    def events(self) -> list[Event]:
        if not self.schema:
            return []  # a reader of a journal that was created but never written to
        rows = self._db.execute("SELECT seq, at, kind, round, data FROM events ORDER BY seq").fetchall()
        return [
            Event(kind, rnd, json.loads(data), datetime.fromisoformat(at), seq) for seq, at, kind, rnd, data in rows
        ]

    def save_frame(self, name: str, jpeg: bytes) -> FrameRef:
        """Keep a frame (already JPEG-encoded) under ``frames/``, fsynced before the event that cites it.

        A frame is never written over: when ``name`` is taken (by a save a crash cut short before its
        event was written), the frame gets the next free name.
        """
        stem, dot, suffix = name.rpartition(".")
        for n in range(1, MAX_FRAME_NAMES + 1):
            candidate = name if n == 1 else f"{stem}-{n}{dot}{suffix}"
            try:
                write_new_durably(self.state_dir / FRAMES / candidate, jpeg)
            except FileExistsError:
                continue
            return FrameRef(f"{FRAMES}/{candidate}", hashlib.sha256(jpeg).hexdigest())
        raise JournalError(f"cannot keep the frame {name}: {MAX_FRAME_NAMES} frames of that name are in {FRAMES}/")

    def close(self) -> None:
        self._db.close()


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """Run DDL inside the caller's transaction (``executescript`` would commit it first)."""
    for statement in filter(str.strip, script.split(";")):
        db.execute(statement)


def backup_name(version: int) -> str:
    return f"journal-schema{version}-backup.sqlite3"


def frame_refs(data: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every photo an event's payload cites (a ``{"file", "sha256"}`` object, at any depth)."""
    for value in data.values():
        if isinstance(value, Mapping):
            if "file" in value and "sha256" in value:
                yield value
            else:
                yield from frame_refs(value)


def frame_problem(state_dir: Path, ref: Mapping[str, Any]) -> str | None:
    """What is wrong with a cited photo (missing, outside ``frames/``, or not the one hashed), or ``None``."""
    try:
        read_frame(state_dir, str(ref["file"]), str(ref["sha256"]))
    except JournalError as exc:
        return str(exc)
    return None


def read_frame(state_dir: Path, file: str, sha256: str) -> bytes:
    """A cited photo's bytes, once they match the SHA-256 its event holds; else a :class:`JournalError` saying why."""
    relative = PurePosixPath(file)
    if relative.is_absolute() or ".." in relative.parts or relative.parts[:1] != (FRAMES,):
        raise JournalError(f"the photo's name {str(relative)!r} does not lie in {FRAMES}/")
    try:
        data = (state_dir / relative).read_bytes()
    except OSError as exc:
        raise JournalError(f"the photo {relative} cannot be read ({exc.strerror})") from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise JournalError(f"the photo {relative} is not the one taken (its SHA-256 differs from the journal's)")
    return data


def _photos_on_disk(state_dir: Path) -> int:
    frames = state_dir / FRAMES
    return sum(1 for p in frames.iterdir() if p.suffix == ".jpg") if frames.is_dir() else 0


def archive(state_dir: Path, stamp: str) -> Path:
    """Move a finished night's journal and frames into ``nights/STAMP/``, leaving the folder ready for a new one."""
    target = state_dir / "nights" / stamp
    target.mkdir(parents=True)
    for name in (DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", FRAMES, *map(backup_name, range(1, SCHEMA_VERSION))):
        if (state_dir / name).exists():
            os.replace(state_dir / name, target / name)
    return target
