"""Collecting Tens at the table: the banker's actions journal, replay to the same night, refuse without a trace,
follow up once; the bots' demo night is the same for a seed, also when it is cut short and resumed."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from fantan_table.rules.dice import DiceInUse
from fantan_table.rules.errors import ConfigError, DiceError, GameError, RulesError
from fantan_table.rules.games import replay
from fantan_table.rules.tens import TENS, Dominoes, FalseDeclaration, TensConfig, TensState, TileError, parse_tile
from fantan_table.rules.tens.dominoes import domino_sets
from fantan_table.rules.tens.game import Stage
from fantan_table.rules.tens.hand import PairRule, check_hand
from fantan_table.rules.tens.woodpile import shuffled
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.table import Table
from fantan_table.table.core.tens_table import TensTable
from fantan_table.table.wiring.tens_bot import best_discard, takes, worth
from fantan_table.table.wiring.tens_demo import BOTS, TensDemo, demo_config, roll_for, shuffle_seed
from fantan_table.vision.reader import Status
from tests.table.conftest import GAME, reading

NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
PLAYERS = ("Ann", "Bob", "Cy")
"""Three players: two sets by default, so a hand of three 1-1 can be entered."""
COMPLETE = ["2-2", "2-2", "6-2", "1-1", "5-3", "1-1", "4-4", "1-1", "3-3", "3-1"]
"""A complete hand under the listed pairs (twins 2-2; 6-2+1-1, 5-3+1-1, 4-4+1-1, 3-3+3-1)."""
NOT_COMPLETE = ["1-1", "2-1", "3-1", "3-1", "3-3", "3-3", "4-3", "4-4", "5-3", "6-6"]
"""Five listed pairs and no twins: the bots' first heuristic took it for complete."""


def config(dominoes: Dominoes, **choices: Any) -> TensConfig:
    return TensConfig(players=PLAYERS, dominoes=dominoes, **choices)


def open_table(state_dir: Path, dominoes: Dominoes = Dominoes.VIRTUAL, **choices: Any) -> TensTable:
    return TensTable(Journal(state_dir), config(dominoes, **choices), clock=lambda: NOON)


@pytest.fixture
def virtual(tmp_path: Path) -> Iterator[TensTable]:
    table = open_table(tmp_path / "virtual")
    yield table
    table.journal.close()


@pytest.fixture
def physical(tmp_path: Path) -> Iterator[TensTable]:
    table = open_table(tmp_path / "physical", Dominoes.PHYSICAL)
    yield table
    table.journal.close()


def rows(table: TensTable) -> list[tuple[str, int, dict[str, Any]]]:
    return [(e.kind, e.round, dict(e.data)) for e in table.journal.events()]


def mover(table: TensTable) -> str:
    player = table.state.player_to_move
    assert player is not None
    return player


def held(table: TensTable) -> list[Any]:
    state = table.state
    assert state.tiles is not None and state.to_move is not None
    return list(state.tiles.hands[state.to_move])


def rolled_and_dealt(table: TensTable, seed: int | None = 3) -> None:
    table.roll((1, 0, 0, 0))  # counts off the roller: seat 0 plays first
    table.deal(seed) if table.state.config.virtual else table.deal()


# -- the journal is the night ---------------------------------------------------------------------------------
def test_a_virtual_night_replays_from_its_journal_to_the_very_state(virtual: TensTable, tmp_path: Path) -> None:
    rolled_and_dealt(virtual)
    assert virtual.state.first == 0 and held(virtual) == list(shuffled(2, 3)[:10])
    for move in range(5):  # discard, then the next player takes it or draws
        virtual.discarded(mover(virtual), held(virtual)[0])
        (virtual.took if move % 2 else virtual.drew)(mover(virtual))
    virtual.end()
    assert virtual.state.stage is Stage.OVER
    assert replay(TENS, virtual.journal.events()) == virtual.state
    kinds = [kind for kind, _, _ in rows(virtual)]
    assert kinds[:3] == ["setup", "rolled", "dealt"] and kinds[-1] == "ended"
    state, before = virtual.state, rows(virtual)
    virtual.journal.close()
    again = TensTable(Journal(tmp_path / "virtual"), config(Dominoes.PHYSICAL))  # the journal's config wins
    assert again.resumed and again.state == state and rows(again) == before
    assert again.state.config.virtual
    again.journal.close()


def test_a_shuffle_from_secrets_is_journaled_and_replays(virtual: TensTable) -> None:
    virtual.roll((2, 3, 1, 0))
    virtual.deal()
    order = rows(virtual)[-1][2]["order"]
    assert sorted(order) == sorted(str(tile) for tile in domino_sets(2))
    assert replay(TENS, virtual.journal.events()) == virtual.state


def test_the_dice_read_by_the_camera_count_only_when_sure(virtual: TensTable) -> None:
    before = rows(virtual)
    with pytest.raises(GameError, match="could not be read for sure .*two dice touch.*roll again"):
        virtual.read_roll(reading([1, 2, None, 3], Status.UNSURE, message="two dice touch"))
    assert rows(virtual) == before and virtual.state.stage is Stage.ROLLING
    virtual.read_roll(reading([1, 2, 0, 3]))
    assert virtual.state.dice == (1, 2, 0, 3) and virtual.state.first == (0 + 6 - 1) % 3
    assert virtual.dice == DiceInUse((0, 1, 2, 3, 4, 5), 4)


# -- refusals change nothing --------------------------------------------------------------------------------
REFUSED: list[tuple[str, Callable[[TensTable], None], type[RulesError], str]] = [
    ("three dice", lambda t: t.roll((1, 2, 3)), DiceError, "4 dice"),
    ("a six on piecepack dice", lambda t: t.roll((1, 2, 3, 6)), DiceError, "6 is not a face"),
    ("a blank roll", lambda t: t.roll((0, 0, 0, 0)), GameError, "counts off nobody"),
    ("a deal before the roll", lambda t: t.deal(1), GameError, "cannot deal the tiles now"),
    ("the next hand mid-hand", lambda t: t.next_hand(), GameError, "cannot start the next hand now"),
]
REFUSED_DEALT: list[tuple[str, Callable[[TensTable], None], type[RulesError], str]] = [
    ("a draw holding ten", lambda t: t.drew("Ann"), GameError, "holds ten tiles"),
    ("a discard out of turn", lambda t: t.discarded("Bob", "6-6"), GameError, "'Ann' is to move, not 'Bob'"),
    ("a stranger", lambda t: t.discarded("Zed", "6-6"), GameError, "no player called 'Zed'"),
    ("a tile not held", lambda t: t.discarded("Ann", _missing(t)), GameError, "not in the hand"),
    ("no tile named", lambda t: t.discarded("Ann"), TileError, "names its tile"),
    ("a tile that is none", lambda t: t.discarded("Ann", "7-1"), TileError, "two halves of 1 to 6 pips"),
    ("a hand not complete", lambda t: t.declare("Ann"), FalseDeclaration, "not complete"),
    ("a virtual hand entered", lambda t: t.enter_tile("Ann", "6-6"), GameError, "knows the hand"),
    ("a second deal", lambda t: t.deal(2), GameError, "cannot deal the tiles now"),
]


def _missing(table: TensTable) -> str:
    return next(str(tile) for tile in domino_sets(2) if tile not in held(table))


@pytest.mark.parametrize(("what", "action", "error", "why"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_refusal_names_the_rule_and_leaves_the_journal_as_it_was(
    virtual: TensTable, what: str, action: Callable[[TensTable], None], error: type[RulesError], why: str
) -> None:
    state, before, version = virtual.state, rows(virtual), virtual.version
    with pytest.raises(error, match=why):
        action(virtual)
    assert virtual.state == state and rows(virtual) == before and virtual.version == version


def test_a_discard_before_the_deal_is_refused_by_the_rule(virtual: TensTable) -> None:
    before = rows(virtual)
    with pytest.raises(GameError, match="cannot discard a tile now"):
        virtual.discarded("Ann", "6-6")
    assert rows(virtual) == before


@pytest.mark.parametrize(("what", "action", "error", "why"), REFUSED_DEALT, ids=[r[0] for r in REFUSED_DEALT])
def test_a_refusal_mid_hand_leaves_the_journal_as_it_was(
    virtual: TensTable, what: str, action: Callable[[TensTable], None], error: type[RulesError], why: str
) -> None:
    rolled_and_dealt(virtual, seed=11)
    assert not check_hand(held(virtual), PairRule.LISTED, 2).ok, "the refused declaration needs a hand not complete"
    state, before = virtual.state, rows(virtual)
    with pytest.raises(error, match=why):
        action(virtual)
    assert virtual.state == state and rows(virtual) == before


def test_physical_dominoes_take_no_seed_and_no_tile_names(physical: TensTable) -> None:
    physical.roll((1, 0, 0, 0))
    before = rows(physical)
    with pytest.raises(GameError, match="shuffled by the players"):
        physical.deal(5)
    assert rows(physical) == before
    physical.deal()
    assert physical.state.stage is Stage.HOLDING and held(physical) == [None] * 10
    with pytest.raises(TileError, match="not told which tile"):
        physical.discarded("Ann", "6-6")
    physical.discarded("Ann")
    physical.drew("Bob")
    assert physical.state.tiles is not None and len(physical.state.tiles.woodpile) == 64 - 28 - 1


# -- a physical hand entered tile by tile ---------------------------------------------------------------------
def test_a_physical_hand_is_entered_tile_by_tile_and_wins_the_pot(physical: TensTable) -> None:
    rolled_and_dealt(physical)
    with pytest.raises(GameError, match="'Ann' is to move, not 'Bob'"):
        physical.enter_tile("Bob", "6-6")
    with pytest.raises(GameError, match="enter all 10 tiles .*0 entered"):
        physical.declare("Ann")
    for text in COMPLETE[:-1]:
        physical.enter_tile("Ann", text)
    physical.enter_tile("Ann", "6-6")  # a slip of the finger
    assert physical.take_back_tile("Ann")[-1] == parse_tile("3-3")
    physical.take_back_tile("Ann")
    physical.enter_tile("Ann", "11")  # the fourth 1-1 of two sets
    with pytest.raises(TileError, match="5 x 1-1, but 2 sets hold only 4"):
        physical.enter_tile("Ann", "1-1")
    assert len(physical.entered("Ann")) == 9, "the refused tile was not kept"
    physical.take_back_tile("Ann")
    before = rows(physical)
    physical.enter_tile("Ann", "3-3")
    physical.enter_tile("Ann", "3-1")
    assert rows(physical) == before, "entering is typing: nothing is journaled"
    with pytest.raises(GameError, match="all are entered"):
        physical.enter_tile("Ann", "6-6")
    pot = physical.state.money.in_pot
    physical.declare("Ann")
    state = physical.state
    assert state.stage is Stage.SHOWING and state.results[-1].winner == "Ann" and state.results[-1].pot_cents == pot
    assert rows(physical)[-2][2]["tiles"] == COMPLETE and rows(physical)[-1][0] == "shown"


def test_a_false_physical_declaration_keeps_the_entry_and_a_new_turn_empties_it(tmp_path: Path) -> None:
    table = open_table(tmp_path / "night", Dominoes.PHYSICAL, penalty_cents=50)
    rolled_and_dealt(table)
    for text in NOT_COMPLETE:
        table.enter_tile("Ann", text)
    table.declare("Ann")  # with a penalty the false claim is journaled and paid; the turn goes on
    state = table.state
    assert state.stage is Stage.HOLDING and state.false_claims[-1].penalty_cents == 50
    assert "do not make four pairs" in state.false_claims[-1].why
    assert table.entered("Ann") == tuple(map(parse_tile, NOT_COMPLETE)), "kept, to be corrected"
    table.discarded("Ann")
    table.took("Bob")
    assert table.entered("Bob") == ()
    table.discarded("Bob")
    table.drew("Cy")
    table.discarded("Cy")
    table.drew("Ann")
    assert table.entered("Ann") == (), "Ann's entry of an earlier turn is gone"
    table.journal.close()


def test_an_entry_is_only_made_while_holding(physical: TensTable) -> None:
    with pytest.raises(GameError, match="holding ten tiles"):
        physical.enter_tile("Ann", "6-6")


# -- what follows by itself -------------------------------------------------------------------------------------
def test_a_result_is_shown_once_and_not_again_after_a_restart(tmp_path: Path) -> None:
    table = open_table(tmp_path / "night", Dominoes.PHYSICAL)
    seen: list[tuple[Stage, bool]] = []
    table.subscribe(lambda state: seen.append((state.stage, state.shown)))
    rolled_and_dealt(table)
    for text in COMPLETE:
        table.enter_tile("Ann", text)
    table.declare("Ann")
    showing = [(Stage.SHOWING, False), (Stage.SHOWING, True)]  # shown to the listeners, then journaled as shown
    assert seen == [(Stage.ROLLING, False), (Stage.DEALING, False), (Stage.HOLDING, False), *showing]
    assert [kind for kind, _, _ in rows(table)][-2:] == ["declared", "shown"] and table.state.shown
    before = rows(table)
    table.journal.close()
    again = open_table(tmp_path / "night", Dominoes.PHYSICAL)
    assert rows(again) == before, "shown once: the restart does not show it again"
    again.next_hand()
    assert again.state.hand == 2 and again.state.roller == 1 and rows(again)[-1][:2] == ("next", 1)
    again.journal.close()


def test_a_result_shown_by_a_table_that_crashed_before_journaling_it_is_shown_on_restart(tmp_path: Path) -> None:
    table = open_table(tmp_path / "night", Dominoes.PHYSICAL)
    rolled_and_dealt(table)
    for text in COMPLETE:
        table.enter_tile("Ann", text)

    def crash(state: TensState) -> None:
        if state.stage is Stage.SHOWING:
            raise KeyboardInterrupt("the power goes while the result is drawn")

    table.subscribe(crash)
    with pytest.raises(KeyboardInterrupt):
        table.declare("Ann")
    assert rows(table)[-1][0] == "declared"
    table.journal.close()
    again = open_table(tmp_path / "night", Dominoes.PHYSICAL)
    assert [kind for kind, _, _ in rows(again)][-2:] == ["declared", "shown"]
    again.journal.close()


def test_a_night_of_another_game_is_refused_by_name(tmp_path: Path) -> None:
    fantan = Table(Journal(tmp_path / "night"), GAME)
    fantan.journal.close()
    journal = Journal(tmp_path / "night")
    with pytest.raises(GameError, match="holds a night of 'fantan', not of 'tens'"):
        TensTable(journal, config(Dominoes.VIRTUAL))
    journal.close()
    with pytest.raises(GameError, match="holds a night of 'fantan'"):
        TensDemo(tmp_path / "night", hands=2, seed=1)


# -- the bot ------------------------------------------------------------------------------------------------------
def test_the_bot_counts_a_hand_complete_only_with_twins() -> None:
    tiles = [parse_tile(text) for text in COMPLETE]
    assert worth(tiles, PairRule.LISTED) == 10
    assert worth([parse_tile(text) for text in NOT_COMPLETE], PairRule.LISTED) == 8
    nine = tiles[:-1]  # 3-1 missing: 3-3 is left alone
    assert worth(nine, PairRule.LISTED) == 8
    assert takes(nine, parse_tile("3-1"), PairRule.LISTED)
    assert not takes(nine, parse_tile("6-5"), PairRule.LISTED)
    assert best_discard([*nine, parse_tile("6-5")], PairRule.LISTED) == parse_tile("6-5")


# -- the demo -----------------------------------------------------------------------------------------------------
def play(state_dir: Path, hands: int, seed: int, players: int = 4) -> tuple[list[dict[str, Any]], dict[str, int]]:
    demo = TensDemo(state_dir, hands, seed, players)
    lines: list[dict[str, Any]] = []
    try:
        final = demo.play(lines.append)
    finally:
        demo.close()
    return lines, final


def journal_rows(state_dir: Path) -> list[tuple[str, int, str]]:
    """The night as journaled, every byte of it but the clock's."""
    journal = Journal(state_dir)
    try:
        return [(e.kind, e.round, json.dumps(e.data, sort_keys=True)) for e in journal.events()]
    finally:
        journal.close()


def ledger(state_dir: Path) -> tuple[Stage, tuple[Any, ...], tuple[int, ...]]:
    """Everything money: each hand's result and every balance."""
    journal = Journal(state_dir)
    try:
        state = replay(TENS, journal.events())
    finally:
        journal.close()
    return state.stage, state.results, state.money.balances


def test_the_same_seed_plays_the_same_night_byte_for_byte(tmp_path: Path) -> None:
    lines, final = play(tmp_path / "a", hands=6, seed=7, players=3)
    again, final_again = play(tmp_path / "b", hands=6, seed=7, players=3)
    assert json.dumps(lines) == json.dumps(again) and final == final_again
    assert journal_rows(tmp_path / "a") == journal_rows(tmp_path / "b")
    assert [line["hand"] for line in lines] == list(range(1, 7))
    assert set(lines[0]) == {"hand", "first", "roll", "winner", "drawn", "how", "pot_cents", "balances"}
    assert set(final) == set(BOTS[:3]) and sum(final.values()) == 3 * demo_config(3, 6).starting_cents
    other, _ = play(tmp_path / "c", hands=6, seed=8, players=3)
    assert other != lines


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_demo_line_adds_up(tmp_path: Path, players: int) -> None:
    lines, final = play(tmp_path / "night", hands=8, seed=players, players=players)
    start = demo_config(players, 8).starting_cents
    for line in lines:
        assert line["drawn"] == (line["winner"] is None) and (line["how"] is None) == line["drawn"]
        assert sum(line["balances"].values()) + (0 if line["winner"] else line["pot_cents"]) == players * start
        roller = (line["hand"] - 1) % players
        assert BOTS.index(line["first"]) == (roller + sum(line["roll"]) - 1) % players
    assert sum(final.values()) == players * start, "ended: every cent out of the pot"


def test_the_rolls_and_shuffles_follow_from_seed_and_hand_alone() -> None:
    assert roll_for(1, 2, 0) == roll_for(1, 2, 0) != roll_for(1, 2, 1)
    assert shuffle_seed(1, 2) == shuffle_seed(1, 2) != shuffle_seed(1, 3)


class Crash(BaseException):
    """Stands for SIGKILL: nothing after it runs."""


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo night of four hands (193 events), never interrupted."""
    state_dir = tmp_path_factory.mktemp("whole")
    play(state_dir, hands=4, seed=21)
    return state_dir


@pytest.mark.parametrize("after_events", [1, 2, 3, 40, 57, 58, 59, 123, 190])
def test_a_demo_cut_short_anywhere_and_resumed_ends_with_the_uninterrupted_ledger(
    tmp_path: Path, whole: Path, after_events: int
) -> None:
    cut = tmp_path / "cut"
    demo = TensDemo(cut, 4, 21)
    calls = iter(range(after_events, -1, -1))

    def crash(state: TensState) -> None:
        if next(calls) == 0:
            raise Crash

    demo.table.subscribe(crash)
    with pytest.raises(Crash):
        demo.play(lambda line: None)
    demo.close()
    resumed = TensDemo(cut, 4, 21)
    assert resumed.table.resumed
    resumed.play(lambda line: None)
    resumed.close()
    assert ledger(cut) == ledger(whole) and ledger(whole)[0] is Stage.OVER
    assert journal_rows(cut) == journal_rows(whole)


def test_a_finished_demo_night_is_archived_and_played_again(tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = play(state, hands=2, seed=3)
    assert play(state, hands=2, seed=3) == first
    assert len(list((state / "nights").iterdir())) == 1


def test_the_demo_seats_two_to_six_bots(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="2 to 6 bots"):
        TensDemo(tmp_path / "night", hands=1, seed=1, players=7)
    with pytest.raises(GameError, match="at least one hand"):
        TensDemo(tmp_path / "night", hands=0, seed=1)
    with pytest.raises(ConfigError):
        TensConfig(("Solo",))


def test_a_night_resumed_for_more_hands_than_its_bots_can_ante_ends_when_one_runs_short(tmp_path: Path) -> None:
    state_dir = tmp_path / "night"
    demo = TensDemo(state_dir, hands=1, seed=5)  # money for 20 antes each: the house's default
    demo.table.roll(roll_for(5, 1, 0))
    demo.close()
    lines, final = play(state_dir, hands=1000, seed=5)
    assert 1 < len(lines) < 1000 and min(lines[-1]["balances"].values()) < demo_config(4, 1).ante_cents
    assert ledger(state_dir)[0] is Stage.OVER and sum(final.values()) == 4 * demo_config(4, 1).starting_cents
