"""The journal's codec: a game's setup, every event and every reading go to JSON and come back the same."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules.bets import Variant, all_positions
from fantan_table.rules.errors import GameError
from fantan_table.rules.events import (
    BankerLogin,
    BetPlaced,
    BetTaken,
    BettingClosed,
    Box,
    Corrected,
    DiceConfirmed,
    DiceRead,
    DieSeen,
    Ended,
    FanTanEvent,
    Faulted,
    FrameRef,
    Kind,
    Left,
    LinkIssued,
    LinkRevoked,
    NextRound,
    Raided,
    ReadingRecord,
    Reroll,
    Resumed,
    Seated,
    Settled,
    Setup,
    Shown,
    Voided,
)
from fantan_table.rules.game import (
    AfterRounds,
    AtTime,
    BankerBankrupt,
    FirstBankrupt,
    GameConfig,
    HouseBank,
    HouseScorer,
    Player,
    RotatingBanker,
    SecondLastBankrupt,
    ShortBank,
    Suit,
    UntilRaid,
)
from fantan_table.table.core.codec import (
    decode_event,
    encode_event,
    game_from_json,
    game_to_json,
    reading_from_json,
    reading_record,
    reading_to_json,
)
from fantan_table.table.core.journal import Event
from fantan_table.table.core.state import TableState
from fantan_table.vision.reader import DieReading, Reading, Status

PLAYERS = (Player("Ann", Suit.ARMS), Player("Bob", Suit.CROWNS), Player("Cy", Suit.SUNS))


BANKERS = [HouseScorer(), HouseBank(12345), RotatingBanker(3), RotatingBanker(2, "Cy"), RotatingBanker(2, by_roll=True)]


@pytest.mark.parametrize("banker", BANKERS)
@pytest.mark.parametrize(
    "end",
    [
        UntilRaid(),
        AfterRounds(7),
        AtTime(datetime(2026, 11, 22, 23, 30, tzinfo=UTC)),
        FirstBankrupt(),
        SecondLastBankrupt(),
        BankerBankrupt(),
    ],
)
@pytest.mark.parametrize("variants", [Variant.NONE, Variant.CORNERS | Variant.STRONG, Variant.ALL])
def test_to_json_and_back_is_the_same_game(banker, end, variants) -> None:
    if isinstance(end, BankerBankrupt) and isinstance(banker, HouseScorer):
        return  # not a valid game
    game = GameConfig(PLAYERS, 4200, variants, banker, end)
    assert game_from_json(json.loads(json.dumps(game_to_json(game)))) == game


# -- events ---------------------------------------------------------------------------------------------
NIGHT = Path(__file__).parent / "data" / "night-2026-11.json"


def test_a_night_journaled_before_typed_events_still_replays_to_the_same_ledger() -> None:
    night = json.loads(NIGHT.read_text())
    events = [
        Event(r["kind"], r["round"], json.loads(r["data"]), datetime.fromisoformat(r["at"]), r["seq"])
        for r in night["rows"]
    ]
    state = TableState.replay(events)
    expect = night["expect"]
    assert state.stage.value == expect["stage"] and state.round == expect["round"]
    assert dict(state.game.balances) == expect["balances"] and state.game.house_cents == expect["house_cents"]
    assert [list(r) for r in state.game.scoring_table().rows] == expect["scoring_rows"]
    assert len(state.rounds) == expect["rounds"]
    first = state.rounds[0].reading
    assert first is not None and first.frame is not None and first.frame.size is None  # not kept then
    # a square of the die's side, the longer edge of the box then read:
    assert [d.box.size for d in first.dice] == [(60.0, 60.0)] * 4 and all(d.confidence is None for d in first.dice)


def test_every_old_row_decodes_and_encodes_back_to_the_stored_json() -> None:
    """Kinds and payload keys did not change: a typed event written today reads as the old row did."""
    for row in json.loads(NIGHT.read_text())["rows"]:
        kind, data = encode_event(decode_event(row["kind"], json.loads(row["data"])))
        stored = json.loads(row["data"])
        assert kind == row["kind"]
        if kind == "reading":  # today's dice carry their box, confidence and problem instead of a bare side
            assert [d["value"] for d in data["dice"]] == [d["value"] for d in stored["dice"]]
            assert {k: v for k, v in data.items() if k != "dice"} == {k: v for k, v in stored.items() if k != "dice"}
        else:
            assert data == stored


points = st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4))
dice_seen = st.builds(
    DieSeen,
    st.one_of(st.none(), st.integers(0, 5)),
    points,
    st.builds(Box, points, st.tuples(st.floats(0, 500), st.floats(0, 500)), st.floats(-90, 90)),
    st.one_of(st.none(), st.floats(0, 1)),
    st.one_of(st.none(), st.text(max_size=20)),
)
readings = st.builds(
    ReadingRecord,
    st.sampled_from(["camera", "hand"]),
    st.sampled_from(["ok", "unsure", "error", "rejected"]),
    st.lists(dice_seen, max_size=5).map(tuple),
    st.text(max_size=30),
    st.one_of(
        st.none(),
        st.builds(
            FrameRef, st.text(min_size=1), st.text(), st.one_of(st.none(), st.tuples(st.integers(1), st.integers(1)))
        ),
    ),
)
events = st.one_of(
    st.builds(Setup, st.just(GameConfig(PLAYERS)), st.sampled_from(["reroll", "void"])),
    st.builds(
        BetPlaced,
        st.sampled_from(PLAYERS).map(lambda p: p.name),
        st.sampled_from(all_positions(Variant.ALL)),
        st.integers(1, 5),
    ),
    st.builds(
        BetTaken,
        st.sampled_from(PLAYERS).map(lambda p: p.name),
        st.sampled_from(all_positions(Variant.ALL)),
        st.integers(1, 5),
    ),
    st.builds(DiceRead, readings),
    st.builds(Settled, st.integers(0, 3), st.lists(st.integers(0, 5), max_size=4).map(tuple)),
    st.builds(Voided, st.text()),
    st.builds(Faulted, st.text()),
    st.builds(BankerLogin, st.text(), st.booleans()),
    st.builds(LinkIssued, st.sampled_from(PLAYERS).map(lambda p: p.name), st.text(alphabet="0123456789abcdef")),
    st.builds(LinkRevoked, st.sampled_from(PLAYERS).map(lambda p: p.name)),
    st.builds(
        Corrected,
        st.integers(1, 99),
        st.lists(st.integers(0, 6), min_size=1, max_size=8).map(tuple),
        st.text(),
        st.text(),
    ),
    st.builds(Seated, st.sampled_from(PLAYERS), st.integers(100, 10**9), st.text()),
    st.builds(Left, st.sampled_from(PLAYERS).map(lambda p: p.name), st.integers(0, 10**9), st.text()),
    st.sampled_from([BettingClosed(), DiceConfirmed(), Reroll(), Shown(), NextRound(), Ended(), Raided(), Resumed()]),
)


@given(events)
def test_every_event_goes_through_the_journal_unchanged(event: FanTanEvent) -> None:
    kind, data = encode_event(event)
    assert kind == event.kind.value
    assert decode_event(kind, json.loads(json.dumps(data))) == event


def test_every_kind_has_one_event_type() -> None:
    types = get_args(FanTanEvent)
    assert sorted(t.kind.value for t in types) == sorted(k.value for k in Kind)


@pytest.mark.parametrize(
    ("kind", "data", "message"),
    [
        ("dealt", {}, "unknown journal event 'dealt'"),
        ("bet", {"player": "Ann"}, "'bet' event in the journal cannot be read"),
    ],
)
def test_a_row_this_version_cannot_read_is_refused_by_name(kind: str, data: dict[str, object], message: str) -> None:
    with pytest.raises(GameError, match=message):
        decode_event(kind, data)


def test_what_the_reader_said_reaches_the_record_whole() -> None:
    said = Reading(
        Status.UNSURE,
        (
            DieReading(3, (10.5, 20.25), ((10.5, 20.25), (30.0, 28.5), -12.5), 0.875),
            DieReading(None, (60.0, 20.0), ((60.0, 20.0), (29.0, 31.0), 7.0), 0.25, "pips do not form a face"),
        ),
        "die at (60, 20): pips do not form a face",
    )
    record = reading_record(said, FrameRef("frames/r.jpg", "ab", (640, 480)))
    back = reading_from_json(json.loads(json.dumps(reading_to_json(record))))
    assert back == record and back.status == "unsure" and back.message == said.message
    for die, seen in zip(said.dice, back.dice, strict=True):
        assert (seen.value, seen.center, seen.confidence, seen.problem) == (
            die.value,
            die.center,
            die.confidence,
            die.problem,
        )
        assert (seen.box.center, seen.box.size, seen.box.angle) == die.box


def test_a_game_whose_bank_pays_in_proportion_goes_through_the_journal() -> None:
    config = GameConfig(PLAYERS, banker=HouseBank(1000), short_bank=ShortBank.IN_PROPORTION)
    kind, data = encode_event(Setup(config, "reroll"))
    assert data["game"]["short_bank"] == "in-proportion"
    assert decode_event(kind, json.loads(json.dumps(data))) == Setup(config, "reroll")


def test_a_correction_keeps_who_and_why_in_the_journal() -> None:
    event = Corrected(3, (2, 2, 3, 3), "the banker (web)", "a 2 was typed as 1")
    kind, data = encode_event(event)
    assert kind == "corrected" and decode_event(kind, json.loads(json.dumps(data))) == event
