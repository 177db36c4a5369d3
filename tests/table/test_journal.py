"""The journal: events come back as written, a round's result is written once, frames are kept with their hash."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from fantan_table.table.core.journal import DATABASE, Event, Journal, JournalError, archive


def test_events_come_back_in_order_with_their_data(journal: Journal) -> None:
    first = journal.append(Event("bet", 1, {"player": "Ann", "bet": "number:1", "coins": 2}))
    journal.append(Event("closed", 1))
    events = journal.events()
    assert [(e.kind, e.round, e.data) for e in events] == [
        ("bet", 1, {"player": "Ann", "bet": "number:1", "coins": 2}),
        ("closed", 1, {}),
    ]
    assert events[0].seq == first.seq and events[0].at == first.at


def test_a_round_has_one_result_however_it_is_asked(journal: Journal) -> None:
    journal.append(Event("settled", 3, {"open": 1}))
    with pytest.raises(JournalError, match="round 3 already has its result"):
        journal.append(Event("settled", 3, {"open": 1}))
    with pytest.raises(JournalError, match="round 3 already has its result"):
        journal.append(Event("voided", 3, {"reason": "x"}))
    assert [e.kind for e in journal.events()] == ["settled"]


def test_the_database_is_durable_by_its_settings(journal: Journal) -> None:
    db = sqlite3.connect(journal.state_dir / DATABASE)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: fsync on every commit


def test_a_frame_is_kept_with_its_sha256(journal: Journal) -> None:
    ref = journal.save_frame("round-0001-roll-1.jpg", b"\xff\xd8 not really a jpeg")
    stored = (journal.state_dir / ref.file).read_bytes()
    assert ref.sha256 == hashlib.sha256(stored).hexdigest() and ref.file == "frames/round-0001-roll-1.jpg"
    assert not list((journal.state_dir / "frames").glob("*.part"))


def test_an_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(JournalError, match="cannot open the journal in .*writable"):
        Journal(blocker / "state")


def test_archive_moves_a_night_away(tmp_path: Path) -> None:
    state = tmp_path / "state"
    night = Journal(state)
    night.append(Event("closed", 1))
    night.save_frame("a.jpg", b"x")
    night.close()
    moved = archive(state, "20261122-2300")
    assert (moved / DATABASE).exists() and (moved / "frames" / "a.jpg").exists()
    assert Journal(state).events() == []
