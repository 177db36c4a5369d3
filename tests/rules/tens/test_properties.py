"""Random nights of Collecting Tens: tiles and money are never made or lost, and the journal replays the night."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from fantan_table.rules.errors import RulesError
from fantan_table.rules.games import replay
from fantan_table.rules.odds import D6_FACES, PIECEPACK_FACES
from fantan_table.rules.tens import TENS, Dominoes, PairRule, Stage, TensConfig, TensState, WhenDry, domino_sets
from fantan_table.rules.tens.events import TensEvent, TensSetup

from .walk import NOON, journal, moves

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus")

configs = st.builds(
    TensConfig,
    players=st.integers(2, len(NAMES)).map(lambda n: NAMES[:n]),
    starting_cents=st.sampled_from([100, 300, 2000]),
    ante_cents=st.just(100),
    pairs=st.sampled_from(PairRule),
    when_dry=st.sampled_from(WhenDry),
    penalty_cents=st.sampled_from([0, 50, 250]),
    dominoes=st.sampled_from(Dominoes),
    dice_faces=st.sampled_from([PIECEPACK_FACES, D6_FACES]),
)


def check_invariants(state: TensState, money: int) -> None:
    assert state.money.total == money
    assert all(cents >= 0 for cents in (*state.money.balances, *state.money.pot))
    if state.stage in (Stage.TAKING, Stage.HOLDING, Stage.SHOWING) and state.tiles is not None:
        everywhere = state.tiles.everywhere
        full = domino_sets(state.config.sets_in_play)
        if state.config.virtual:
            assert Counter(everywhere) == Counter(full)
        else:
            assert len(everywhere) == len(full) and set(everywhere) == {None}
        sizes = [len(hand) for hand in state.tiles.hands]
        if state.stage is Stage.HOLDING:
            assert sizes[state.to_move or 0] == 10 and sorted(sizes)[:-1] == [9] * (len(sizes) - 1)
        elif state.stage is Stage.TAKING:
            assert sizes == [9] * len(sizes)
    if state.stage is Stage.OVER:
        assert state.money.in_pot == 0


@settings(max_examples=60)
@given(config=configs, seed=st.integers(0, 2**32 - 1))
def test_a_random_night_conserves_tiles_and_money_and_replays(config: TensConfig, seed: int) -> None:
    rng = random.Random(seed)
    setup = TensSetup(config)
    state = TENS.start(setup)
    money = len(config.players) * config.starting_cents
    played: list[tuple[int, TensEvent]] = []
    for _ in range(400):
        event = rng.choice(moves(state, rng))
        hand = TENS.round_of(state)
        try:
            after = TENS.apply(state, event, NOON)
        except RulesError:
            continue  # refused: the state is a frozen value, so nothing of the move is left behind
        played.append((hand, event))
        state = after
        check_invariants(state, money)
        if state.stage is Stage.OVER:
            break
    assert replay(TENS, journal(setup, played)) == state
