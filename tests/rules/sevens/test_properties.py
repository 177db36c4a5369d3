"""Hypothesis: random deals and random legal play under every combination of options, real and virtual cards.

Each game is driven by ``driver.play_game``, which checks every step against the oracle (the deal, the turn,
chips conserved after every event, each revoke claim's fate, each hand's settlement); here we choose the games
and check what must have happened in them.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import fields

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantan_table.rules.errors import ConfigError
from fantan_table.rules.sevens.cards import Suit
from fantan_table.rules.sevens.events import SevensSetup
from fantan_table.rules.sevens.game import EndReason, Stage
from fantan_table.rules.sevens.options import (
    EQUAL_HANDS_MOST,
    Agreed,
    Ante,
    CardMode,
    Deal,
    Dummy,
    End,
    FirstDealer,
    NextDealer,
    Options,
    Players,
    Revoke,
    Scoring,
)

from .driver import play_game, replayed

MOST_PLAYERS_TRIED = 8
"""002's "any number" tried up to eight players: enough to pass six (the other documents' most) and stay quick."""

CHOICES = (Players, Dummy, FirstDealer, NextDealer, Deal, Suit, Ante, Revoke, Scoring, End)


def _valid(choice: tuple[object, ...]) -> Options | None:
    try:
        return Options(*choice)  # type: ignore[arg-type]
    except ConfigError:
        return None


ALL_OPTIONS = [o for o in map(_valid, itertools.product(*CHOICES)) if o is not None]
"""Every combination of options the rules accept (a points target with chips, or running out of chips with points,
are refused: ``test_options``)."""


@st.composite
def setups(draw: st.DrawFn, mode: CardMode | None = None) -> SevensSetup:
    options = draw(st.sampled_from(ALL_OPTIONS))
    fewest, most = options.players.bounds
    most = min(most, MOST_PLAYERS_TRIED, EQUAL_HANDS_MOST if options.deal is Deal.EQUAL_HANDS else most)
    seats = draw(st.integers(fewest, most))
    agreed = Agreed(
        hands=draw(st.integers(1, 3)),
        starting_chips=draw(st.integers(1, 40)),
        stake=draw(st.integers(1, 3)),
        points_target=draw(st.integers(1, 12)),
    )
    chosen = mode or draw(st.sampled_from(CardMode))
    return SevensSetup(tuple(f"P{i}" for i in range(seats)), options, agreed, chosen)


def test_every_option_value_is_in_some_valid_combination() -> None:
    """The games below draw from ALL_OPTIONS, so each choice of each option is played."""
    for field, enum_type in zip(fields(Options), CHOICES, strict=True):
        assert {getattr(o, field.name) for o in ALL_OPTIONS} == set(enum_type), field.name


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 2**32 - 1))
def test_random_games_conserve_chips_and_settle_as_the_oracle(setup: SevensSetup, seed: int) -> None:
    game = play_game(setup, seed, revoke_chance=0.2)
    state = game.state
    assert state.stage is Stage.OVER, "every game ends"
    options, agreed = setup.options, setup.agreed
    assert state.end is not None
    if state.end is EndReason.TARGET:
        assert max(state.points) >= agreed.points_target
        assert all(state.points[w] >= agreed.points_target for w in state.winners)
    elif state.end is EndReason.BROKE:
        assert min(state.chips.seats) <= 0 and len(state.results) <= (agreed.hands or 0)
    else:
        assert len(state.results) == agreed.hands
    if options.end is not End.POINTS_TARGET:
        score = state.points if options.scoring is Scoring.POINTS else state.chips.seats
        assert {score[w] for w in state.winners} == {max(score)}
    assert sum(state.chips.seats) == len(setup.players) * (agreed.starting_chips if options.chips_move else 0)


@settings(max_examples=60, deadline=None)
@given(setups(CardMode.PHYSICAL), st.integers(0, 2**32 - 1))
def test_replay_gives_the_state_folded_directly(setup: SevensSetup, seed: int) -> None:
    game = play_game(setup, seed, revoke_chance=0.3)
    for row in game.rows:
        assert json.loads(json.dumps(row.data)) == row.data, "the payload is JSON as it is"
    assert replayed(game) == game.state


@settings(max_examples=40, deadline=None)
@given(setups(CardMode.VIRTUAL), st.integers(0, 2**32 - 1))
def test_replay_of_virtual_cards_gives_the_same_hands(setup: SevensSetup, seed: int) -> None:
    game = play_game(setup, seed)
    assert replayed(game) == game.state


PENALISED = Options(players=Players.ANY, first_dealer=FirstDealer.HIGHEST_CUT, deal=Deal.WHOLE_PACK)


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32 - 1))
def test_revokes_with_real_cards_are_found_and_paid(seats: int, seed: int) -> None:
    """001/002: every revoke made on purpose is claimed and stands; every honest pass claimed is refused."""
    setup = SevensSetup(tuple(f"P{i}" for i in range(seats)), PENALISED, Agreed(hands=2), CardMode.PHYSICAL)
    game = play_game(setup, seed, revoke_chance=0.4)
    assert sum(len(r.revokes) for r in game.state.results) == game.revokes_found


def test_the_random_games_reach_every_penalty_case() -> None:
    """The property tests above are only as good as the cases they meet: this one counts them on fixed seeds."""
    setup = SevensSetup(("A", "B", "C", "D"), PENALISED, Agreed(hands=3), CardMode.PHYSICAL)
    games = [play_game(setup, seed, revoke_chance=0.4) for seed in range(12)]
    assert sum(g.passes for g in games) > 0
    assert sum(g.revokes_found for g in games) > 0
    assert sum(g.sevens_paid for g in games) > 0
    assert sum(g.sevens_one_hand for g in games) > 0
    assert sum(g.sevens_two_hands for g in games) > 0
    assert sum(g.claims_refused for g in games) > 0
    dummy = SevensSetup(
        ("A", "B"), Options(players=Players.TWO_TO_SIX, dummy=Dummy.DRAW_PILE), Agreed(hands=3), CardMode.VIRTUAL
    )
    assert sum(play_game(dummy, seed).draws for seed in range(4)) > 0
