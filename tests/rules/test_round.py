"""The round machine: every (stage, action) pair, and random games that move only as the table declares."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantan_table.rules import TRANSITIONS, Action, Bet, Game, GameConfig, GameError, Player, RoundMachine, Stage, Suit
from fantan_table.rules.round import WHY_NOT, refusal

PAIRS = [(stage, action) for stage in Stage for action in Action]


@pytest.mark.parametrize(("stage", "action"), PAIRS, ids=[f"{s.value}-{a.name}" for s, a in PAIRS])
def test_every_pair_moves_as_declared_or_refuses_with_the_rule(stage: Stage, action: Action) -> None:
    machine = RoundMachine(stage, Stage.CLOSED if stage is Stage.RAIDED else None)
    target = TRANSITIONS.get((stage, action))
    if target is None:
        with pytest.raises(GameError) as refused:
            machine.after(action)
        assert str(refused.value) == f"cannot {action.value} now: {WHY_NOT[stage]}"
        assert not machine.allows(action)
    else:
        after = machine.after(action)
        assert machine.allows(action)
        assert after.stage is (Stage.CLOSED if stage is Stage.RAIDED else target)


@pytest.mark.parametrize("stage", [Stage.BETTING, Stage.CLOSED, Stage.CHECK, Stage.SHOWING])
def test_a_raid_remembers_where_it_found_the_round_and_resume_goes_back(stage: Stage) -> None:
    raided = RoundMachine(stage).after(Action.RAID)
    assert raided == RoundMachine(Stage.RAIDED, stage)
    assert raided.after(Action.RESUME) == RoundMachine(stage)


def test_nothing_moves_a_game_that_is_over() -> None:
    assert not [action for (stage, action) in TRANSITIONS if stage is Stage.OVER]
    assert refusal(Action.BET, Stage.OVER, "the agreed rounds are played") == (
        "cannot place a bet now: the game is over (the agreed rounds are played)"
    )


def test_every_stage_can_be_reached_and_every_refusal_has_a_text() -> None:
    reached = {Stage.BETTING} | {t for t in TRANSITIONS.values() if isinstance(t, Stage)}
    assert reached == set(Stage) == set(WHY_NOT)


# -- the game moves only as the table says -------------------------------------------------------
PLAYERS = (Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS))


def _try(game: Game, action: Action, coin: int) -> None:
    """Drive ``game`` with ``action`` through its public methods, as the table does."""
    match action:
        case Action.BET:
            game.place(PLAYERS[coin % 2].name, Bet.number(coin % 4))
        case Action.UNBET:
            game.remove(PLAYERS[coin % 2].name, Bet.number(coin % 4))
        case Action.CLOSE:
            game.close_bets()
        case Action.SETTLE:
            game.settle(coin % 4)
        case Action.VOID:
            game.void()
        case Action.NEXT | Action.GAME_OVER:
            game.next_round()
        case Action.END:
            game.end()
        case Action.RAID:
            game.raid()
        case Action.RESUME:
            game.resume()
        case _:
            game.step(action)


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from(Action), st.integers(0, 7)), max_size=60))
def test_random_games_agree_with_the_declared_table(walk: list[tuple[Action, int]]) -> None:
    game = Game(GameConfig(PLAYERS, starting_balance_cents=300))
    for action, coin in walk:
        before = game.machine
        try:
            _try(game, action, coin)
        except GameError:
            assert game.machine == before, "a refused action moved the round"
            continue
        except ValueError:  # a stake rule (no coin there, over the balance): the round did not move
            assert game.machine == before
            continue
        declared = TRANSITIONS.get((before.stage, action))
        if action in (Action.NEXT, Action.GAME_OVER):  # the game picks which, by whether it has ended
            declared = TRANSITIONS.get((before.stage, Action.GAME_OVER if game.is_over else Action.NEXT))
        assert declared is not None, f"{action} moved the game from {before.stage}, which the table refuses"
        expected = before.before_raid if action is Action.RESUME else declared
        assert game.stage is expected
