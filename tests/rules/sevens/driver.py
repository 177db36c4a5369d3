"""Plays whole games through the rules core with random legal play, knowing the true hands (dealt by the
oracle), and checks at every step what the oracle says: the deal, the turn, the chips conserved, each claim's
fate and each hand's settlement. Tests call :func:`play_game` and look at what it returns."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from fantan_table.rules.errors import RulesError
from fantan_table.rules.games import replay
from fantan_table.rules.sevens.cards import PACK, parse_card
from fantan_table.rules.sevens.deal import dealer_cards, shuffled
from fantan_table.rules.sevens.events import (
    CardPlayed,
    DealerChosen,
    Drew,
    HandDealt,
    Passed,
    RevokeClaimed,
    SevensEvent,
    SevensSetup,
    WentOut,
)
from fantan_table.rules.sevens.game import SevensState, Stage
from fantan_table.rules.sevens.hosted import SEVENS
from fantan_table.rules.sevens.options import CardMode, Dummy, NextDealer, Revoke, Scoring

from . import oracle

AT = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Row:
    """A journal row as ``rules.games.replay`` reads one."""

    kind: str
    round: int
    data: dict[str, object]
    at: datetime = AT


@dataclass
class Played:
    """What a game driven by :func:`play_game` went through."""

    state: SevensState
    rows: list[Row] = field(default_factory=list)
    revokes_found: int = 0
    sevens_paid: int = 0
    sevens_one_hand: int = 0
    """Sevens passed on whose six and eight were in one other hand (that holder is paid ten chips)."""
    sevens_two_hands: int = 0
    claims_refused: int = 0
    draws: int = 0
    passes: int = 0
    hands: int = 0


def play_game(setup: SevensSetup, seed: int, revoke_chance: float = 0.0, most_hands: int = 40) -> Played:
    rng = random.Random(seed)
    state = SEVENS.start(setup)
    kind, data = SEVENS.encode(setup)
    game = Played(state, [Row(kind, state.round, {**data, "plays": SEVENS.name})])
    options, seats = setup.options, len(setup.players)
    total = state.chips.total

    def apply(event: SevensEvent) -> None:
        round_ = SEVENS.round_of(game.state)
        game.state = SEVENS.apply(game.state, event, AT)
        kind, data = SEVENS.encode(event)
        game.rows.append(Row(kind, round_, data))
        assert game.state.chips.total == total, "chips are conserved"

    apply(DealerChosen(dealer_cards(options.first_dealer, shuffled(PACK, rng.randrange(2**32)), seats)))
    while game.state.stage is not Stage.OVER and game.hands < most_hands:
        _play_hand(game, apply, rng, revoke_chance)
        game.hands += 1
    return game


def _play_hand(game: Played, apply: Callable[[SevensEvent], None], rng: random.Random, revoke_chance: float) -> None:
    state = game.state
    setup, options, seats = state.setup, state.setup.options, state.seats
    dummy = options.dummy is Dummy.DRAW_PILE and seats == 2
    physical = setup.mode is CardMode.PHYSICAL
    out = oracle.taken_out(seats + dummy, options.removed_suit.value, options.deal.value == "equal-hands")
    order = [c for c in oracle.pack() if c not in out]
    rng.shuffle(order)
    dealer = state.dealer
    assert dealer is not None
    hands, pile = oracle.deal(order, dealer, seats, dummy)
    apply(HandDealt(None if physical else tuple(parse_card(c) for c in order)))
    hand = game.state.hand
    assert hand is not None
    if not physical:
        assert hand.held == tuple(frozenset(parse_card(c) for c in h) for h in hands), "the deal is the oracle's"
    sizes = [len(h) for h in hands]
    antes = oracle.ante_for(options.ante.value, options.deal.value, setup.agreed.stake, sizes)
    before = list(game.state.before.seats) if game.state.before else []
    on_table: set[str] = set()
    turn = (dealer + 1) % seats
    passes_by = [0] * seats
    true_revokes: dict[int, oracle.Revoked] = {}
    moves = 0
    while True:
        assert game.state.hand is not None and game.state.hand.turn == turn, "turns go clockwise from the left"
        mine = hands[turn]
        playable = [c for c in mine if oracle.can_play(c, on_table)]
        moves += 1
        if playable and not (physical and not pile and rng.random() < revoke_chance):
            card = rng.choice(playable)
            apply(CardPlayed(turn, parse_card(card)))
            mine.remove(card)
            on_table.add(card)
            if not mine:
                break
            turn = (turn + 1) % seats
        elif pile and not playable:
            mine.append(pile.pop())
            apply(Drew(turn))
            game.draws += 1
        else:
            if playable:  # a revoke, made on purpose with real cards
                holders = []
                for seven in sorted(c for c in mine if oracle.rank_of(c) == 7):
                    for rank in (6, 8):
                        wanted = oracle.name(rank, oracle.suit_of(seven))
                        holders.append(next(s for s, h in enumerate(hands) if wanted in h))
                true_revokes[moves] = oracle.Revoked(turn, holders)
            apply(Passed(turn))
            passes_by[turn] += 1
            game.passes += 1
            turn = (turn + 1) % seats
    assert game.state.stage is Stage.OUT
    winner = turn
    cards_left = [len(h) for h in hands]
    penalised = physical and options.revoke is Revoke.PENALISED and options.scoring is Scoring.CHIPS
    if physical:
        shown_all = tuple((s, frozenset(parse_card(c) for c in h)) for s, h in enumerate(hands))
        pass_moves = [i + 1 for i, m in enumerate(game.state.hand.moves) if m.kind.value == "pass"]
        for move in pass_moves:
            revoker = game.state.hand.moves[move - 1].seat
            shown = shown_all if rng.random() < 0.5 else (shown_all[revoker],)
            if move in true_revokes and penalised:
                try:
                    apply(RevokeClaimed(move, shown))
                except RulesError as refused:
                    assert "show the hand that holds" in str(refused) and len(shown) == 1, refused
                    apply(RevokeClaimed(move, shown_all))
                game.revokes_found += 1
                holders = true_revokes[move].holders
                game.sevens_paid += len(holders) // 2
                for six, eight in zip(holders[::2], holders[1::2], strict=True):
                    if revoker not in (six, eight):
                        game.sevens_one_hand += six == eight
                        game.sevens_two_hands += six != eight
            else:
                kept = game.state
                with pytest.raises(RulesError):
                    apply(RevokeClaimed(move, shown))
                assert game.state is kept, "a refused claim changes nothing"
                game.claims_refused += 1
        apply(WentOut(tuple(cards_left)))
    else:
        assert not true_revokes
        assert SEVENS.follow_up(game.state) == WentOut(tuple(cards_left))
        apply(WentOut(tuple(cards_left)))
    settled = game.state
    result = settled.results[-1]
    revokes = list(true_revokes.values()) if penalised else []
    chips, points = oracle.hand_changes(
        seats, winner, cards_left, antes, passes_by, revokes, options.scoring is Scoring.CHIPS
    )
    assert result.winner == winner
    assert list(result.chips) == chips, "the settlement is the oracle's"
    assert list(result.points) == points
    assert [a - b for a, b in zip(settled.chips.seats, before, strict=True)] == chips
    assert settled.chips.pool == 0, "the winner takes the pool"
    agreed, hands_played = setup.agreed, len(settled.results)
    over = {
        "points-target": max(settled.points) >= agreed.points_target,
        "hands-or-broke": hands_played == agreed.hands or min(settled.chips.seats) <= 0,
        "hands": hands_played == agreed.hands,
    }[options.end.value]
    assert (settled.stage is Stage.OVER) == over, "the game ends when its end rule says, not before"
    if settled.stage is not Stage.OVER:
        expected = winner if options.next_dealer is NextDealer.WINNER else (dealer + 1) % seats
        assert settled.dealer == expected
    seen = SEVENS.seen(settled)
    assert seen is not None
    apply(seen)


def replayed(game: Played) -> SevensState:
    return replay(SEVENS, game.rows)
