"""The banker's behaviour: what it refuses, what it never settles, and what it survives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fantan_table.rules.errors import GameError, RulesError
from fantan_table.table.core.journal import Event, Journal, JournalError
from fantan_table.table.core.state import Stage, TableState
from fantan_table.table.core.table import Table, TableError
from fantan_table.vision.reader import Status

from .conftest import GAME, SPOTS, reading


def kinds(table: Table) -> list[str]:
    return [e.kind for e in table.journal.events()]


def test_a_bet_after_no_more_bets_is_refused_and_not_journaled(table: Table) -> None:
    table.place("Ann", "number:1", 2)
    table.close_bets()
    before = kinds(table)
    with pytest.raises(GameError, match="betting is closed"):
        table.place("Bob", "number:2")
    with pytest.raises(GameError, match="betting is closed"):
        table.remove("Ann", "number:1")
    assert kinds(table) == before and table.state.game.coins_staked("Bob") == 0


def test_a_refused_bet_changes_nothing(table: Table) -> None:
    table.place("Ann", "number:1", 5)
    before = kinds(table)
    for bad in (lambda: table.place("Ann", "number:2"), lambda: table.place("Zed", "number:2")):
        with pytest.raises(RulesError):
            bad()
    with pytest.raises(ValueError):
        table.place("Ann", "number:9")
    assert kinds(table) == before and table.state.game.coins_staked("Ann") == 5


def test_an_ok_reading_settles_at_once_and_is_shown(table: Table) -> None:
    table.place("Ann", "number:1", 2)
    table.close_bets()
    table.record_reading(reading((1, 2, 3, 3)), np.zeros((40, 40, 3), np.uint8))
    assert kinds(table)[-3:] == ["reading", "settled", "shown"]
    state = table.state
    assert state.stage is Stage.SHOWING and state.game.balance("Ann") == 5000 + 600
    photo = state.rounds[-1].reading.frame
    assert photo is not None and (table.journal.state_dir / photo.file).exists()


def test_an_unsure_reading_never_settles_under_the_reroll_rule(table: Table) -> None:
    table.place("Ann", "number:1", 2)
    table.close_bets()
    table.record_reading(reading((1, 2, 3), Status.UNSURE, message="found 3 dice, expected 4"))
    table.record_reading(reading((1, 2, None, 3), Status.UNSURE, message="die at (1, 2): pips do not form a face"))
    assert "settled" not in kinds(table) and table.state.stage is Stage.CLOSED
    assert table.state.game.coins_staked("Ann") == 2  # the bets stand for the re-roll
    table.record_reading(reading((0, 0, 0, 1)))
    assert table.state.rounds[-1].attempts == 3 and table.state.game.balance("Ann") == 5600


def test_the_void_rule_returns_every_stake(journal: Journal) -> None:
    table = Table(journal, GAME, on_unsure="void")
    table.place("Ann", "number:1", 3)
    table.place("Bob", "side:0-1", 2)
    table.close_bets()
    table.record_reading(reading((1, 2), Status.UNSURE, message="found 2 dice, expected 4"))
    report = table.state.rounds[-1].report
    assert report.voided and report.open_number is None
    assert table.state.game.balances == {"Ann": 5000, "Bob": 5000}
    assert table.state.rounds[-1].bets == {"Ann": (("number:1", 3),), "Bob": (("side:0-1", 2),)}
    assert kinds(table)[-3:] == ["reading", "voided", "shown"]


def test_the_banker_can_void_a_closed_round(table: Table) -> None:
    table.place("Bob", "number:0", 4)
    table.close_bets()
    table.void("the cup fell off the table")
    assert table.state.game.balances == {"Ann": 5000, "Bob": 5000} and table.state.rounds[-1].report.voided
    with pytest.raises(GameError):
        table.void()


def test_dice_entered_by_hand_are_an_audited_override(table: Table) -> None:
    table.place("Ann", "number:2", 1)
    table.close_bets()
    table.enter_dice([2, 2, 2, 0], by="Bob")
    event = next(e for e in table.journal.events() if e.kind == "reading")
    assert event.data["source"] == "hand" and event.data["message"] == "entered by Bob"
    assert table.state.rounds[-1].report.open_number == 2
    with pytest.raises(GameError, match="no ok reading|cannot record a reading"):
        table.enter_dice([1, 1, 1, 1])


def test_dice_typed_by_hand_are_checked_as_the_table_would_take_them_now(table: Table) -> None:
    before = len(table.journal.events())
    with pytest.raises(GameError, match=r"cannot record a reading now: betting is open"):
        table.check_dice([2, 2, 2, 0])
    table.close_bets()
    after_close = len(table.journal.events())
    table.check_dice([2, 2, 2, 0])
    with pytest.raises(RulesError, match="not a face"):
        table.check_dice([2, 2, 2, 9])
    assert len(table.journal.events()) == after_close > before  # checking journals nothing
    table.enter_dice([2, 2, 2, 0])
    with pytest.raises(GameError, match=r"cannot record a reading now: the last round's result is on show"):
        table.check_dice([1, 1, 1, 1])


def test_dice_that_lie_as_last_round_wait_for_confirm(table: Table) -> None:
    table.close_bets()
    table.record_reading(reading((1, 2, 3, 4)))
    table.next_round()
    table.place("Ann", "number:2", 1)
    table.close_bets()
    moved = tuple((x + 3, y - 2) for x, y in SPOTS)  # a few pixels: the same place
    table.record_reading(reading((2, 1, 4, 3), spots=(moved[1], moved[0], moved[3], moved[2])))
    assert table.state.stage is Stage.CHECK and "settled" not in kinds(table)[-2:]
    table.confirm()
    assert table.state.stage is Stage.SHOWING and table.state.game.balance("Ann") == 5300


def test_the_banker_can_reject_unshaken_dice_and_roll_again(table: Table) -> None:
    table.close_bets()
    table.record_reading(reading((1, 2, 3, 4)))
    table.next_round()
    table.close_bets()
    table.record_reading(reading((1, 2, 3, 4)))
    table.reroll()
    assert table.state.stage is Stage.CLOSED and not table.state.ready_to_settle
    far = tuple((x + 400, y) for x, y in SPOTS)
    table.record_reading(reading((1, 2, 3, 4), spots=far))  # same faces elsewhere: shaken
    assert table.state.stage is Stage.SHOWING


def test_same_values_in_other_places_are_no_warning(table: Table) -> None:
    table.close_bets()
    table.record_reading(reading((1, 2, 3, 4)))
    table.next_round()
    table.close_bets()
    table.record_reading(reading((4, 3, 2, 1)))  # the same multiset, but each die moved to another's place
    assert table.state.stage is Stage.SHOWING


def test_a_raid_stops_everything_and_resume_carries_on(table: Table) -> None:
    table.place("Ann", "number:1", 2)
    table.raid()
    with pytest.raises(GameError, match="raided"):
        table.place("Bob", "number:1")
    table.resume()
    assert table.state.stage is Stage.BETTING and table.state.game.coins_staked("Ann") == 2


def test_a_reading_when_none_is_awaited_is_refused_before_a_frame_is_kept(table: Table) -> None:
    with pytest.raises(TableError, match="no reading is awaited"):
        table.record_reading(reading((1, 1, 1, 1)), np.zeros((8, 8, 3), np.uint8))
    assert not list((table.journal.state_dir / "frames").iterdir())


def test_a_round_read_but_not_shown_is_shown_after_a_restart_not_read_again(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    first = Table(Journal(state_dir), GAME)
    first.place("Ann", "number:1", 1)
    first.close_bets()
    # The power went after the reading and the settlement were written, before the display was drawn:
    first.journal.append(
        Event(
            "reading",
            1,
            {
                "source": "camera",
                "status": "ok",
                "message": "",
                "frame": None,
                "dice": [{"value": v, "center": [0, 0], "side": 1} for v in (1, 1, 1, 2)],
            },
        )
    )
    first.journal.append(Event("settled", 1, {"open": 1, "dice": [1, 1, 1, 2]}))
    first.journal.close()
    shown: list[Stage] = []
    again = Table(Journal(state_dir), GAME)
    again.subscribe(lambda s: shown.append(s.stage))
    assert again.resumed and kinds(again).count("reading") == 1 and kinds(again)[-1] == "shown"
    assert shown == [Stage.SHOWING] and again.state.game.balance("Ann") == 5300


def test_an_ok_reading_without_its_settlement_is_settled_on_restart(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    first = Table(Journal(state_dir), GAME)
    first.close_bets()
    first.journal.append(
        Event(
            "reading",
            1,
            {
                "source": "hand",
                "status": "ok",
                "message": "",
                "frame": None,
                "dice": [{"value": v, "center": [0, 0], "side": 0} for v in (3, 3, 3, 3)],
            },
        )
    )
    first.journal.close()
    again = Table(Journal(state_dir), GAME)
    assert kinds(again)[-3:] == ["reading", "settled", "shown"] and again.state.rounds[-1].report.open_number == 0


def test_replaying_a_settlement_twice_is_impossible(table: Table) -> None:
    table.close_bets()
    table.enter_dice([1, 1, 1, 1])
    events = table.journal.events()
    settled = next(e for e in events if e.kind == "settled")
    with pytest.raises(GameError):
        TableState.replay([*events, settled])
    with pytest.raises(JournalError):
        table.journal.append(settled)


def test_a_journal_that_fails_leaves_the_state_as_on_disk(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    table.place("Ann", "number:1")

    def full_disk(event: Event) -> Event:
        raise JournalError("cannot write to the journal: database or disk is full")

    monkeypatch.setattr(table.journal, "append", full_disk)
    with pytest.raises(JournalError):
        table.place("Bob", "number:2")
    assert table.state.game.coins_staked("Bob") == 0 and table.state.game.coins_staked("Ann") == 1


def test_every_result_is_journaled_before_anyone_sees_it(table: Table) -> None:
    seen: list[tuple[Stage, int]] = []
    table.subscribe(lambda s: seen.append((s.stage, len(table.journal.events()))))
    table.close_bets()
    table.enter_dice([0, 1, 2, 3])
    showing = [count for stage, count in seen if stage is Stage.SHOWING]
    settled_at = kinds(table).index("settled") + 1
    assert showing and all(count >= settled_at for count in showing)


def test_the_banker_ends_the_game_between_rounds_only(table: Table) -> None:
    table.place("Ann", "number:1")
    with pytest.raises(GameError, match="coins are on the layout"):
        table.end_game()
    table.remove("Ann", "number:1")
    table.end_game()
    assert table.state.stage is Stage.OVER and table.state.game.end_reason.value == "the banker ended the game"
    with pytest.raises(GameError):
        table.place("Ann", "number:1")


def test_a_new_night_names_its_game_in_the_journal(table: Table) -> None:
    setup = table.journal.events()[0]
    assert setup.kind == "setup" and setup.data["plays"] == "fantan"


def test_a_settled_round_is_corrected_as_an_audited_entry_that_survives_a_restart(tmp_path: Path) -> None:
    table = Table(Journal(tmp_path), GAME)
    table.place("Ann", "number:2", 3)
    table.place("Bob", "number:3", 1)
    table.close_bets()
    table.record_reading(reading([1, 2, 3, 3]))  # read as 9, open 1: both lose
    table.next_round()
    assert table.state.game.balances == {"Ann": 4700, "Bob": 4900}
    with pytest.raises(TableError, match="say why"):
        table.correct(1, [2, 2, 3, 3], by="the banker", why="  ")
    table.correct(1, [2, 2, 3, 3], by="the banker", why="the 1 was a 2 under the glare")  # 10, open 2
    game = table.state.game
    assert game.balances == {"Ann": 5000 + 900, "Bob": 4900}
    assert game.scoring_table().labels == ("start", "1", "1 corrected")
    record = table.state.rounds[-1]
    assert record.report.corrected_from == 1 and record.report.open_number == 2
    assert (
        record.reading is not None
        and record.reading.message == "corrected by the banker: the 1 was a 2 under the glare"
    )
    kinds_now = kinds(table)
    assert kinds_now.count("settled") == 1 and kinds_now[-1] == "corrected"  # the first settlement stays
    table.correct(1, [1, 2, 3, 3], by="the banker", why="it was 1 after all")  # back to open 1
    assert table.state.game.balances == {"Ann": 4700, "Bob": 4900}
    table.journal.close()
    again = Table(Journal(tmp_path), GAME)
    assert again.state.game.balances == {"Ann": 4700, "Bob": 4900}
    assert again.state.game.scoring_table() == game.scoring_table().__class__(
        again.state.game.scoring_table().columns,
        ((5000, 5000), (4700, 4900), (5900, 4900), (4700, 4900)),
        ("start", "1", "1 corrected", "1 corrected"),
    )


def test_a_correction_waits_for_the_round_under_way_and_needs_a_settled_round(table: Table) -> None:
    with pytest.raises(GameError, match="was not settled"):
        table.correct(1, [1, 1, 1, 1], by="the banker", why="no round yet")
    table.close_bets()
    table.record_reading(reading([1, 1, 1, 1]))
    table.next_round()
    table.place("Ann", "number:1", 1)
    with pytest.raises(GameError, match="between rounds"):
        table.correct(1, [1, 1, 1, 2], by="the banker", why="misread")
    table.remove("Ann", "number:1", 1)
    with pytest.raises(GameError, match="settled on open 0 already"):
        table.correct(1, [2, 2, 0, 0], by="the banker", why="the same open number")
