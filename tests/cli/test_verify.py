"""``fantan-table verify`` finds every kind of damage and names where; the table refuses to start on any of it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fantan_table.cli import main
from fantan_table.table.core.journal import DATABASE, Damage, Event, Journal
from fantan_table.table.core.table import Table
from tests.table.conftest import GAME
from tests.table.test_journal_proof import DAMAGE, ROUNDS, edited_event, old_journal, play_night


@pytest.fixture
def night(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    play_night(state)
    return state


def verify(capsys: pytest.CaptureFixture[str], state: Path) -> tuple[int, dict]:
    code = main(["verify", "--state", str(state), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_sound_night_is_reported_sound(night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = verify(capsys, night)
    assert code == 0 and report["sound"] and report["damage"] is None
    assert report["schema"] == 2 and report["photos"] == ROUNDS and report["events"] > ROUNDS * 6
    assert (report["round"], report["stage"]) == (ROUNDS + 1, "betting")
    assert main(["verify", "--state", str(night)]) == 0
    out = capsys.readouterr().out
    assert "each follows from the one before" in out and f"photos: {ROUNDS}, each as taken" in out


@pytest.mark.parametrize("name", DAMAGE)
def test_verify_finds_each_kind_of_damage(night: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    damage, found = DAMAGE[name]
    damage(night)
    code, report = verify(capsys, night)
    assert code == 1 and not report["sound"]
    assert re.search(found, str_of(report["damage"])), report["damage"]
    assert main(["verify", "--state", str(night)]) == 1
    assert capsys.readouterr().out.startswith("DAMAGED: ")


def str_of(damage: dict) -> str:
    """The damage as the text report words it (where, then what)."""
    return str(Damage(**damage))


@pytest.mark.parametrize("name", DAMAGE)
def test_a_damaged_night_is_never_replaced_by_a_new_one(
    night: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    DAMAGE[name][0](night)
    before = {p: p.read_bytes() for p in night.rglob("*") if p.is_file()}
    assert main(["demo", "--rounds", "2", "--state", str(night), "--hand-entered"]) == 2
    err = capsys.readouterr().err
    assert f"verify --state {night}" in err or "newer fantan-table" in err
    assert "writable" not in err
    after = {p: p.read_bytes() for p in night.rglob("*") if p.is_file() and p.name != "lock"}
    assert after == before and not (night / "nights").exists()


def test_a_journal_that_cannot_be_replayed_names_the_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two tables once wrote one journal: closed, bet, closed. Each event is chained, yet the night is impossible."""
    state = tmp_path / "state"
    table = Table(Journal(state), GAME)
    table.close_bets()
    table.journal.append(Event("bet", 1, {"player": "Ann", "bet": "number:1", "coins": 1}))
    table.journal.close()
    code, report = verify(capsys, state)
    assert code == 1 and report["damage"]["kind"] == "bet" and "cannot place a bet now" in report["damage"]["problem"]
    assert main(["history", "--state", str(state)]) == 1
    assert "cannot be replayed (cannot place a bet now" in capsys.readouterr().err


def test_an_old_journal_is_read_as_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    old_journal(state)
    code, report = verify(capsys, state)
    assert code == 0 and report["schema"] == 1 and (state / DATABASE).exists()
    assert main(["verify", "--state", str(state)]) == 0 and "no chain yet" in capsys.readouterr().out


def test_history_and_export_refuse_a_damaged_night(night: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited_event(night)
    assert main(["history", "--state", str(night)]) == 1
    assert main(["export", "--state", str(night), "--csv", "-"]) == 1
    assert capsys.readouterr().err.count("is damaged: event") == 2


def test_no_night_there_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--state", str(tmp_path / "nowhere")]) == 2
    assert "no night in" in capsys.readouterr().err
