"""The journal proves itself: every kind of damage is found at start (and nothing is changed), old journals are
upgraded with a backup, newer ones refused, and a photo is never written over."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantan_table.durable import write_new_durably
from fantan_table.table.core.journal import (
    DATABASE,
    FRAMES,
    GENESIS,
    SCHEMA_VERSION,
    Event,
    Journal,
    JournalDamaged,
    JournalError,
    backup_name,
    chain_hash,
    read_frame,
)
from fantan_table.table.core.state import TableState
from fantan_table.table.core.table import Table

from .conftest import GAME, reading

ROUNDS = 4
DICE = ((1, 2, 3, 4), (0, 5, 5, 1), (2, 2, 4, 0), (3, 1, 0, 5))


def play_night(state: Path, rounds: int = ROUNDS) -> None:
    """A few rounds read by the camera (each with its photo), then closed so the database is one file."""
    table = Table(Journal(state), GAME)
    for n in range(rounds):
        table.place("Ann", "number:1", 2)
        table.place("Bob", "number:2")
        table.close_bets()
        frame = np.full((48, 64, 3), 40 * n, np.uint8)
        table.record_reading(reading(DICE[n % len(DICE)]), frame)
        table.next_round()
    table.journal.close()


@pytest.fixture
def night(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    play_night(state)
    return state


def sql(state: Path, *statements: str) -> None:
    db = sqlite3.connect(state / DATABASE)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def seq_of(state: Path, kind: str, round_: int) -> int:
    db = sqlite3.connect(state / DATABASE)
    (seq,) = db.execute("SELECT seq FROM events WHERE kind = ? AND round = ?", (kind, round_)).fetchone()
    db.close()
    return int(seq)


# -- the kinds of damage -----------------------------------------------------------------------------------------
def empty_file(state: Path) -> None:
    (state / DATABASE).write_bytes(b"")


def missing_file(state: Path) -> None:
    (state / DATABASE).unlink()


def truncated_file(state: Path) -> None:
    path = state / DATABASE
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def flipped_bytes(state: Path) -> None:
    """One byte of an event's payload, changed on disk as a failing card would."""
    path = state / DATABASE
    data = bytearray(path.read_bytes())
    at = data.index(b'"player": "Bob"') + len(b'"player": "')
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def edited_event(state: Path) -> None:
    """Round 2's dice and open number changed consistently: the night still replays, and pays someone else."""
    reading_seq, settled_seq = seq_of(state, "reading", 2), seq_of(state, "settled", 2)
    sql(
        state,
        f"UPDATE events SET data = replace(data, '\"value\": 0', '\"value\": 1') WHERE seq = {reading_seq}",
        f'UPDATE events SET data = replace(data, \'"dice": [0, 5, 5, 1], "open": 3\', \'"dice": [1, 5, 5, 1], '
        f'"open": 0\') WHERE seq = {settled_seq}',
    )


def edited_event_with_its_hash(state: Path) -> None:
    """An edit whose own hash is recomputed still breaks the next event's link."""
    seq = seq_of(state, "bet", 3)
    db = sqlite3.connect(state / DATABASE)
    previous = db.execute("SELECT hash FROM events WHERE seq = ?", (seq - 1,)).fetchone()[0]
    at, kind, rnd, data = db.execute("SELECT at, kind, round, data FROM events WHERE seq = ?", (seq,)).fetchone()
    data = data.replace('"coins": 2', '"coins": 3')
    db.execute(
        "UPDATE events SET data = ?, hash = ? WHERE seq = ?",
        (data, chain_hash(previous, seq, at, kind, rnd, data), seq),
    )
    db.commit()
    db.close()


def deleted_event(state: Path) -> None:
    sql(state, f"DELETE FROM events WHERE seq = {seq_of(state, 'closed', 2) - 1}")


def deleted_and_renumbered(state: Path) -> None:
    """A deleted bet, the events after it moved down so no number is missing."""
    gone = seq_of(state, "closed", 2) - 1
    sql(state, f"DELETE FROM events WHERE seq = {gone}", f"UPDATE events SET seq = seq - 1 WHERE seq > {gone}")


def reordered_events(state: Path) -> None:
    """Round 3's two bets swapped (with their hashes): each still carries a hash, none in its place."""
    first = seq_of(state, "bet", 3)
    db = sqlite3.connect(state / DATABASE)
    a = db.execute("SELECT at, kind, round, data, hash FROM events WHERE seq = ?", (first,)).fetchone()
    b = db.execute("SELECT at, kind, round, data, hash FROM events WHERE seq = ?", (first + 1,)).fetchone()
    for row, seq in ((b, first), (a, first + 1)):
        db.execute("UPDATE events SET at = ?, kind = ?, round = ?, data = ?, hash = ? WHERE seq = ?", (*row, seq))
    db.commit()
    db.close()


def inserted_event(state: Path) -> None:
    """A bet slipped in after betting closed in round 1, the events after it moved up to make room."""
    at = seq_of(state, "closed", 1)
    sql(
        state,
        f"UPDATE events SET seq = -seq - 1 WHERE seq > {at}",
        "UPDATE events SET seq = -seq WHERE seq < 0",
        f"INSERT INTO events(seq, at, kind, round, data, hash) SELECT {at + 1}, at, 'bet', 1, "
        f'\'{{"bet": "number:3", "coins": 1, "player": "Ann"}}\', hash FROM events WHERE seq = {at}',
    )


def swapped_photo(state: Path) -> None:
    one, two = sorted((state / FRAMES).glob("*.jpg"))[:2]
    first, second = one.read_bytes(), two.read_bytes()
    one.write_bytes(second)
    two.write_bytes(first)


def missing_photo(state: Path) -> None:
    sorted((state / FRAMES).glob("*.jpg"))[-1].unlink()


def emptied_events(state: Path) -> None:
    sql(state, "DELETE FROM events")


def dropped_table(state: Path) -> None:
    sql(state, "DROP TABLE events")


def newer_schema(state: Path) -> None:
    sql(state, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "empty file": (empty_file, "is empty.*photo"),
    "missing file": (missing_file, "is missing.*photo"),
    "truncated file": (truncated_file, "integrity check failed|not a readable SQLite database"),
    "flipped bytes": (flipped_bytes, r"event \d+ \(bet\): it is not the event that was written"),
    "edited event": (edited_event, r"event \d+ \(reading\): it is not the event that was written"),
    "edited event and its hash": (edited_event_with_its_hash, r"event \d+ \(bet\): it is not the event"),
    "deleted event": (deleted_event, r"event \d+ \(closed\): events \d+ to \d+ are missing"),
    "deleted and renumbered": (deleted_and_renumbered, r"event \d+ \(closed\): it is not the event"),
    "reordered events": (reordered_events, r"event \d+ \(bet\): it is not the event"),
    "inserted event": (inserted_event, r"event \d+ \(bet\): it is not the event"),
    "swapped photo": (swapped_photo, r"photo frames/round-000\d-roll-1.jpg: .*SHA-256 differs"),
    "missing photo": (missing_photo, r"photo frames/round-0004-roll-1.jpg: .*cannot be read"),
    "emptied events": (emptied_events, r"holds no events, yet frames/ holds \d+ photo"),
    "dropped table": (dropped_table, r"not a journal as this table writes it \(no such table: events\)"),
    "newer schema": (newer_schema, rf"made by a newer fantan-table \(schema {SCHEMA_VERSION + 1}"),
}


@pytest.mark.parametrize("name", DAMAGE)
def test_every_kind_of_damage_is_refused_at_start_and_nothing_is_changed(night: Path, name: str) -> None:
    damage, found = DAMAGE[name]
    damage(night)
    before = {p: p.read_bytes() for p in night.rglob("*") if p.is_file()}
    for write in (True, False):
        with pytest.raises(JournalError, match=found) as refused:
            Journal(night, write=write)
        assert "\n" not in str(refused.value)  # one line, as the command line prints it
    assert {p: p.read_bytes() for p in night.rglob("*") if p.is_file()} == before


def test_a_damaged_journal_says_what_to_do(night: Path) -> None:
    edited_event(night)
    db = sqlite3.connect(night / DATABASE)
    rows = db.execute("SELECT seq, at, kind, round, data FROM events ORDER BY seq").fetchall()
    db.close()
    edited = TableState.replay([Event(k, r, json.loads(d), datetime.fromisoformat(a), s) for s, a, k, r, d in rows])
    assert edited.rounds[1].report.open_number == 0  # the edit replays, and would pay number 0 instead of 3
    with pytest.raises(JournalDamaged) as refused:
        Journal(night)
    assert refused.value.damage.kind == "reading" and refused.value.damage.seq == seq_of(night, "reading", 2)
    assert f"fantan-table verify --state {night}" in str(refused.value) and "nights" in str(refused.value)
    assert "writable" not in str(refused.value)


def test_a_sound_night_reopens_and_goes_on(night: Path) -> None:
    journal = Journal(night)
    before = journal.events()
    assert len(before) > ROUNDS * 6
    journal.append(Event("bet", ROUNDS + 1, {"player": "Ann", "bet": "number:1", "coins": 1}))
    journal.close()
    again = Journal(night)
    assert again.events()[: len(before)] == before and len(again.events()) == len(before) + 1
    again.close()


def test_a_new_folder_and_an_empty_file_without_photos_are_a_new_night(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / DATABASE).write_bytes(b"")  # a start killed before SQLite wrote its header
    for state in (tmp_path / "a", tmp_path / "b"):
        journal = Journal(state)
        assert journal.events() == [] and journal.schema == SCHEMA_VERSION
        journal.close()


# -- the chain -------------------------------------------------------------------------------------------------------
@settings(max_examples=25)
@given(st.lists(st.tuples(st.sampled_from(["bet", "unbet", "closed"]), st.integers(1, 9)), min_size=1, max_size=8))
def test_the_stored_chain_is_the_hash_of_each_stored_event_after_the_one_before(
    tmp_path_factory: pytest.TempPathFactory, kinds: list[tuple[str, int]]
) -> None:
    state = tmp_path_factory.mktemp("chain")
    journal = Journal(state)
    for kind, rnd in kinds:
        journal.append(Event(kind, rnd, {"n": rnd, "text": "ünïcode"}))
    journal.close()
    db = sqlite3.connect(state / DATABASE)
    previous = GENESIS
    for seq, at, kind, rnd, data, stored in db.execute("SELECT seq, at, kind, round, data, hash FROM events"):
        previous = chain_hash(previous, seq, at, kind, rnd, data)
        assert stored == previous
    db.close()


def test_each_field_of_an_event_is_in_its_hash() -> None:
    fields = [GENESIS, 1, "2026-11-23T12:00:00+00:00", "bet", 1, '{"coins": 1}']
    base = chain_hash(*fields)  # type: ignore[arg-type]
    changed = ["1" * 64, 2, "2026-11-23T12:00:01+00:00", "unbet", 2, '{"coins": 2}']
    for i, other in enumerate(changed):
        assert chain_hash(*fields[:i], other, *fields[i + 1 :]) != base  # type: ignore[arg-type]


# -- schema versions -------------------------------------------------------------------------------------------------
def old_journal(state: Path) -> list[tuple[int, str, str, int, str]]:
    """A journal as fantan-table wrote it before versions: no user_version, no hash column."""
    play_night(state, 2)
    sql(state, "ALTER TABLE events DROP COLUMN hash", "PRAGMA user_version = 0")
    db = sqlite3.connect(state / DATABASE)
    rows = db.execute("SELECT seq, at, kind, round, data FROM events ORDER BY seq").fetchall()
    db.close()
    return rows


def test_an_old_journal_is_upgraded_in_place_with_a_backup(tmp_path: Path) -> None:
    state = tmp_path / "state"
    rows = old_journal(state)
    reader = Journal(state, write=False)  # a reader changes nothing, and reads the old journal as it is
    assert reader.schema == 1 and len(reader.events()) == len(rows)
    reader.close()
    journal = Journal(state)
    assert journal.schema == SCHEMA_VERSION and [e.seq for e in journal.events()] == [r[0] for r in rows]
    journal.close()
    db = sqlite3.connect(state / DATABASE)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT seq, at, kind, round, data FROM events ORDER BY seq").fetchall() == rows
    db.close()
    backup = sqlite3.connect(state / backup_name(1))
    assert backup.execute("SELECT * FROM events ORDER BY seq").fetchall() == rows
    backup.close()
    edited_event(state)  # the upgraded journal is chained like a new one
    with pytest.raises(JournalDamaged, match="reading"):
        Journal(state)


def test_an_upgrade_cut_short_leaves_the_old_journal_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state"
    rows = old_journal(state)
    calls = 0

    def failing(*fields: object) -> str:
        nonlocal calls
        calls += 1
        if calls > 3:
            raise OSError(28, "No space left on device")
        return chain_hash(*fields)  # type: ignore[arg-type]

    monkeypatch.setattr("fantan_table.table.core.journal.chain_hash", failing)
    with pytest.raises(OSError):
        Journal(state)
    db = sqlite3.connect(state / DATABASE)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    assert db.execute("SELECT * FROM events ORDER BY seq").fetchall() == rows  # no hash column: all rolled back
    db.close()


# -- photos ---------------------------------------------------------------------------------------------------------
def test_a_photo_is_never_written_over(journal: Journal) -> None:
    first = journal.save_frame("round-0001-roll-1.jpg", b"first")
    again = journal.save_frame("round-0001-roll-1.jpg", b"second")  # e.g. the same roll, read again after a crash
    assert first.file == "frames/round-0001-roll-1.jpg" and again.file == "frames/round-0001-roll-1-2.jpg"
    assert read_frame(journal.state_dir, first.file, first.sha256) == b"first"
    assert read_frame(journal.state_dir, again.file, again.sha256) == b"second"
    assert not list((journal.state_dir / FRAMES).glob("*.part"))
    with pytest.raises(FileExistsError):
        write_new_durably(journal.state_dir / first.file, b"third")
    assert (journal.state_dir / first.file).read_bytes() == b"first"


def test_a_photo_is_read_only_when_it_is_the_one_taken(journal: Journal) -> None:
    ref = journal.save_frame("a.jpg", b"taken")
    taken = hashlib.sha256(b"taken").hexdigest()
    assert read_frame(journal.state_dir, ref.file, taken) == b"taken"
    with pytest.raises(JournalError, match="SHA-256 differs"):
        read_frame(journal.state_dir, ref.file, hashlib.sha256(b"other").hexdigest())
    for outside in ("../journal.sqlite3", "/etc/passwd", "journal.sqlite3", "frames/../journal.sqlite3"):
        with pytest.raises(JournalError, match="does not lie in frames/"):
            read_frame(journal.state_dir, outside, taken)
