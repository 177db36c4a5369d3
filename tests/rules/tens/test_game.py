"""A night of Collecting Tens, move by move: the declared machine, a won hand, a dry woodpile, the refusals."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from fantan_table.rules.errors import ConfigError, DiceError, GameError
from fantan_table.rules.tens import (
    TENS,
    Dominoes,
    FalseDeclaration,
    PairRule,
    Stage,
    TensConfig,
    TensState,
    Tile,
    TileError,
    WhenDry,
    domino_sets,
    parse_tile,
)
from fantan_table.rules.tens.events import (
    Dealt,
    Declared,
    Discarded,
    Drew,
    Ended,
    Faulted,
    NextHand,
    Rolled,
    Shown,
    TensEvent,
    TensSetup,
    Took,
)
from fantan_table.rules.tens.game import TRANSITIONS, WHY_NOT, Action, apply, start

from .walk import NOON

COMPLETE = "6-6 6-6 6-2 1-1 5-3 1-1 4-2 3-1 3-3 2-2"
"""Complete under either rule: 6-6 twice, 6-2 1-1, 5-3 1-1, 4-2 3-1, 3-3 2-2."""
FIRST = (1, 0, 0, 0)
"""A roll of 1: the roller plays first."""


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(t) for t in text.split())


def order_with(*hands: str, sets: int = 1) -> tuple[Tile, ...]:
    """A woodpile whose first hands are these, in the order dealt, the rest of the sets after them."""
    head = [tile for hand in hands for tile in tiles(hand)]
    rest = Counter(domino_sets(sets))
    rest.subtract(head)
    return (*head, *sorted(rest.elements()))


def night(players: int = 2, **options: object) -> TensState:
    config = TensConfig(("Ann", "Bob", "Cy", "Di", "Ed")[:players], **options)  # type: ignore[arg-type]
    return start(TensSetup(config))


def play(state: TensState, *events: TensEvent) -> TensState:
    for event in events:
        state = TENS.apply(state, event, NOON)
    return state


# -- the machine ----------------------------------------------------------------------------------------
PAIRS = [(stage, action) for stage in Stage for action in Action]


@pytest.mark.parametrize(("stage", "action"), PAIRS, ids=[f"{s.value}-{a.name}" for s, a in PAIRS])
def test_every_pair_moves_as_declared_or_refuses_with_the_rule(stage: Stage, action: Action) -> None:
    state = replace(night(), stage=stage)
    target = TRANSITIONS.get((stage, action))
    if target is None:
        with pytest.raises(GameError) as refused:
            state.after(action)
        assert str(refused.value) == f"cannot {action.value} now: {WHY_NOT[stage]}"
    else:
        assert state.after(action) is target


def test_nothing_but_a_fault_moves_a_night_that_is_over() -> None:
    assert [action for (stage, action) in TRANSITIONS if stage is Stage.OVER] == [Action.FAULT]
    over = play(night(), Ended())
    with pytest.raises(GameError, match=r"cannot start the next hand now: the night is over \(the night was ended\)"):
        play(over, NextHand())


# -- a hand ------------------------------------------------------------------------------------------------
def test_antes_go_in_at_the_start_of_each_hand() -> None:
    state = night(3, starting_cents=500, ante_cents=100)
    assert state.money.balances == (400, 400, 400) and state.money.pot == (100, 100, 100)
    assert state.stage is Stage.ROLLING and state.roller == 0 and TENS.present(state).lit == 0


def test_the_first_player_wins_on_the_deal() -> None:
    state = night(2, dominoes=Dominoes.VIRTUAL)
    state = play(state, Rolled((2, 0, 0, 0)), Dealt(order_with(COMPLETE)))
    assert state.first == 1 and state.player_to_move == "Bob" and state.stage is Stage.HOLDING
    assert sorted(state.tiles.hands[1]) == sorted(tiles(COMPLETE))  # type: ignore[union-attr]
    assert TENS.present(state).lit == 1 and TENS.present(state).accepting
    won = play(state, Declared("Bob"))
    assert won.stage is Stage.SHOWING and won.money.balances == (1900, 2100) and won.money.in_pot == 0
    result = won.results[-1]
    assert (
        result.winner == "Bob"
        and result.pot_cents == 200
        and str(result.complete) == ("6-6 6-6 | 6-2 1-1 | 5-3 1-1 | 4-2 3-1 | 3-3 2-2")
    )
    assert TENS.seen(won) == Shown() and TENS.seen(play(won, Shown())) is None
    assert TENS.present(won).lit == 1


def test_taking_the_discard_completes_a_hand() -> None:
    almost = COMPLETE.replace(" 2-2", "")
    state = play(
        night(2, dominoes=Dominoes.VIRTUAL),
        Rolled(FIRST),
        Dealt(order_with("2-2 6-5 6-5 6-4 6-4 6-1 6-1 5-1 5-1 6-3", almost)),
        Discarded("Ann", Tile(2, 2)),
    )
    assert state.stage is Stage.TAKING and state.player_to_move == "Bob"
    with pytest.raises(FalseDeclaration):
        play(state, Drew("Bob"), Declared("Bob"))  # the draw is not the 2-2
    won = play(state, Took("Bob"), Declared("Bob"))
    assert won.results[-1].winner == "Bob" and won.tiles.discards == ()  # type: ignore[union-attr]


def test_a_physical_declaration_is_checked_as_entered() -> None:
    state = play(night(3), Rolled(FIRST), Dealt())
    assert state.tiles is not None and state.tiles.hands[0] == (None,) * 10 and len(state.tiles.woodpile) == 64 - 28
    with pytest.raises(FalseDeclaration, match=r"the hand 'Ann' declared is not complete: setting aside 6-6 6-6"):
        play(state, Declared("Ann", tiles(COMPLETE.replace("2-2", "5-4"))))
    with pytest.raises(TileError, match="a hand is checked with 10 tiles, not 9"):
        play(state, Declared("Ann", tiles(COMPLETE)[:9]))
    assert play(state, Declared("Ann", tiles(COMPLETE))).results[-1].winner == "Ann"


def test_a_false_declaration_pays_the_penalty_into_the_pot_when_the_house_sets_one() -> None:
    state = play(night(2, penalty_cents=300, starting_cents=500), Rolled(FIRST), Dealt())
    wrong = tiles(COMPLETE.replace("2-2", "5-4"))
    fined = play(state, Declared("Ann", wrong))
    assert fined.stage is Stage.HOLDING and fined.money.balances == (100, 400) and fined.money.pot == (400, 100)
    assert fined.false_claims[-1].penalty_cents == 300 and "not complete" in fined.false_claims[-1].why
    broke = play(fined, Declared("Ann", wrong))
    assert broke.money.balances == (0, 400) and broke.false_claims[-1].penalty_cents == 100  # all Ann held
    assert play(broke, Declared("Ann", tiles(COMPLETE))).money.balances == (600, 400)


@pytest.mark.parametrize("when_dry", list(WhenDry))
def test_a_dry_woodpile_draws_the_hand(when_dry: WhenDry) -> None:
    state = play(night(2, when_dry=when_dry, starting_cents=500), Rolled(FIRST), Dealt(), Discarded("Ann"))
    turns = 0
    while state.stage is Stage.TAKING:
        mover = state.player_to_move or ""
        state = play(state, Drew(mover), Discarded(mover))
        turns += 1
    assert turns == 32 - 19 and state.stage is Stage.SHOWING
    assert state.results[-1].winner is None and state.results[-1].pot_cents == 200
    assert TENS.present(state).lit is None
    if when_dry is WhenDry.CARRY:
        assert state.money.pot == (100, 100)
        following = play(state, NextHand())
        assert following.money.pot == (200, 200) and following.money.balances == (300, 300)
        assert following.roller == 1 and following.hand == 2 and following.tiles is None
    else:
        assert state.money.pot == (0, 0) and state.money.balances == (500, 500)


def test_the_roll_passes_round_and_the_dice_must_be_the_tables() -> None:
    state = night(3)
    with pytest.raises(DiceError):
        play(state, Rolled((6, 6, 6, 6)))  # piecepack dice show 0-5
    with pytest.raises(DiceError):
        play(state, Rolled((1, 2, 3)))
    with pytest.raises(GameError, match="counts off nobody"):
        play(state, Rolled((0, 0, 0, 0)))
    assert play(night(3, dice_faces=(1, 2, 3, 4, 5, 6)), Rolled((6, 6, 6, 6))).first == 2  # 24: seat 23 % 3


def test_turns_and_tiles_are_the_players_own() -> None:
    state = play(night(2, dominoes=Dominoes.VIRTUAL), Rolled(FIRST), Dealt(order_with(COMPLETE)))
    with pytest.raises(GameError, match="'Ann' is to move, not 'Bob'"):
        play(state, Discarded("Bob", Tile(6, 6)))
    with pytest.raises(GameError, match="no player called 'Zed'"):
        play(state, Discarded("Zed", Tile(6, 6)))
    with pytest.raises(GameError, match="cannot discard 6-5: it is not in the hand"):
        play(state, Discarded("Ann", Tile(6, 5)))
    with pytest.raises(TileError, match="a discard names its tile"):
        play(state, Discarded("Ann"))
    with pytest.raises(TileError, match="the table knows the hand"):
        play(state, Declared("Ann", tiles(COMPLETE)))
    with pytest.raises(GameError, match="cannot take the last discard now"):
        play(state, Took("Ann"))


def test_a_deal_is_every_tile_once_or_none_at_all() -> None:
    virtual = play(night(2, dominoes=Dominoes.VIRTUAL), Rolled(FIRST))
    with pytest.raises(TileError, match="every tile of 1 set"):
        play(virtual, Dealt(order_with(COMPLETE)[:-1]))
    with pytest.raises(TileError):
        play(virtual, Dealt())
    with pytest.raises(TileError, match="physical dominoes are dealt on the table"):
        play(play(night(2), Rolled(FIRST)), Dealt(order_with(COMPLETE)))


def test_a_player_who_cannot_ante_ends_the_night_and_the_pot_goes_back() -> None:
    state = play(night(2, starting_cents=150, ante_cents=100), Rolled(FIRST), Dealt())
    won = play(state, Declared("Ann", tiles(COMPLETE)))
    assert won.money.balances == (250, 50)
    with pytest.raises(GameError, match=r"'Bob' holds \$0.50, less than the \$1.00 ante"):
        play(won, NextHand())
    mid_hand = play(night(2), Rolled(FIRST), Dealt(), Discarded("Ann"), Ended())
    assert mid_hand.stage is Stage.OVER and mid_hand.money.balances == (2000, 2000)
    assert TENS.present(mid_hand).over == "the night was ended"


def test_a_fault_changes_nothing() -> None:
    state = play(night(2), Rolled(FIRST))
    assert play(state, Faulted("the camera hung")) == state


def test_more_players_than_lights_light_none() -> None:
    assert TENS.present(night(4)).lit == 0
    assert TENS.present(night(5)).lit is None


def test_a_setup_is_the_first_event_only() -> None:
    with pytest.raises(GameError):
        TENS.start(Rolled(FIRST))
    with pytest.raises(GameError):
        apply(night(), TensSetup(TensConfig(("Ann", "Bob"))))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": ("Ann",)}, "needs 2 players or more"),
        ({"players": ("Ann", "ann")}, "two players are called 'Ann'"),
        ({"ante_cents": 0}, "the ante must be whole cents, at least 1"),
        ({"starting_cents": 50}, "the starting balance must be whole cents, at least 100"),
        ({"penalty_cents": -1}, "the penalty"),
        ({"players": ("A", "B", "C", "D"), "sets": 1}, "4 players hold 37 tiles"),
        ({"dice_faces": ()}, "dice faces"),
    ],
)
def test_a_setup_the_rules_do_not_allow(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        TensConfig(**{"players": ("Ann", "Bob"), **options})  # type: ignore[arg-type]


def test_the_default_choices() -> None:
    config = TensConfig(("Ann", "Bob", "Cy"))
    assert config.pairs is PairRule.LISTED and config.when_dry is WhenDry.CARRY
    assert config.penalty_cents == 0 and config.dominoes is Dominoes.PHYSICAL and config.sets == 2
