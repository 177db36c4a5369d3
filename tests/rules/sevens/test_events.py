"""Events: every kind to its stored form (kind text + JSON payload) and back unchanged; a night of today's format
kept as a fixture replays to the same chips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules.errors import GameError
from fantan_table.rules.games import replay
from fantan_table.rules.sevens.cards import PACK
from fantan_table.rules.sevens.events import (
    CardPlayed,
    DealerChosen,
    Drew,
    Faulted,
    HandDealt,
    Kind,
    Passed,
    ResultShown,
    RevokeClaimed,
    SevensEvent,
    SevensSetup,
    WentOut,
)
from fantan_table.rules.sevens.hosted import SEVENS
from fantan_table.rules.sevens.options import Agreed, CardMode

from .driver import Row
from .test_properties import ALL_OPTIONS

NIGHT = Path(__file__).parent / "data" / "sevens-night-2026-11.json"
"""A night of real cards in the format of 2026-11-25 (three hands of 002 for four players, revokes claimed), with
its final chips: every journal ever written must still decode and replay to the same ledger."""

cards = st.sampled_from(PACK)
seats = st.integers(0, 51)
orders = st.permutations(PACK).map(tuple)

events: st.SearchStrategy[SevensEvent] = st.one_of(
    st.builds(
        SevensSetup,
        st.lists(st.text(min_size=1, max_size=24), min_size=2, max_size=6).map(tuple),
        st.sampled_from(ALL_OPTIONS),
        st.builds(
            Agreed,
            st.none() | st.integers(1, 99),
            st.integers(0, 500),
            st.integers(1, 9),
            st.integers(1, 200),
        ),
        st.sampled_from(CardMode),
    ),
    st.builds(DealerChosen, st.lists(cards, max_size=8, unique=True).map(tuple)),
    st.builds(HandDealt, st.none() | orders),
    st.builds(CardPlayed, seats, cards),
    st.builds(Passed, seats),
    st.builds(Drew, seats),
    st.builds(
        RevokeClaimed,
        st.integers(1, 500),
        st.lists(st.tuples(seats, st.frozensets(cards, max_size=13)), max_size=4, unique_by=lambda h: h[0]).map(tuple),
    ),
    st.builds(WentOut, st.lists(st.integers(0, 52), min_size=2, max_size=52).map(tuple)),
    st.just(ResultShown()),
    st.builds(Faulted, st.text()),
)


@given(events)
def test_every_event_goes_to_json_and_back_unchanged(event: SevensEvent) -> None:
    kind, data = SEVENS.encode(event)
    assert kind == event.kind.value
    stored = json.loads(json.dumps(data))
    assert SEVENS.decode(kind, stored) == event


def test_every_kind_has_its_event() -> None:
    """The strategy above covers every kind the journal may hold."""
    assert {k for k in Kind} == {
        t.kind
        for t in (
            SevensSetup,
            DealerChosen,
            HandDealt,
            CardPlayed,
            Passed,
            Drew,
            RevokeClaimed,
            WentOut,
            ResultShown,
            Faulted,
        )
    }


@pytest.mark.parametrize(
    ("kind", "data", "why"),
    [
        ("bet", {}, "unknown journal event 'bet'"),
        ("play", {"seat": 1}, "cannot be read"),
        ("play", {"seat": 1, "card": "7X"}, "cannot be read"),
        ("play", {"seat": "1", "card": "7H"}, "cannot be read"),
        ("out", {"cards_left": [1.5]}, "cannot be read"),
    ],
)
def test_a_row_that_is_no_sevens_event_is_refused(kind: str, data: dict[str, object], why: str) -> None:
    with pytest.raises(GameError, match=why):
        SEVENS.decode(kind, data)


def test_a_night_of_todays_format_replays_to_the_same_chips() -> None:
    night = json.loads(NIGHT.read_text())
    rows = [Row(r["kind"], r["round"], r["data"]) for r in night["rows"]]
    state = replay(SEVENS, rows)
    assert list(state.chips.seats) == night["chips"]
    assert len(state.results) == night["hands"]
    assert sum(len(r.revokes) for r in state.results) == night["revokes"] > 0


def test_a_night_of_another_game_is_refused() -> None:
    night = json.loads(NIGHT.read_text())
    first = night["rows"][0]
    with pytest.raises(GameError, match="holds a night of 'fantan'"):
        replay(SEVENS, [Row(first["kind"], 1, {**first["data"], "plays": "fantan"})])
