"""A night of Collecting Tens with nobody at the table: bots play virtual dominoes, the dice are typed in.

Every choice follows from the seed and where the night stands, never from how far a previous run got: each
hand's roll from (seed, hand, attempt), its shuffle from (seed, hand), and each bot's move from its hand and
the discard (:mod:`.tens_bot`, which has no chance in it). So a night killed at any moment and resumed from
its journal goes on exactly as an uninterrupted one: the crash test relies on it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import count
from pathlib import Path
from typing import Any, Final

from ...rules.errors import GameError
from ...rules.games import replay
from ...rules.odds import PIECEPACK_FACES
from ...rules.tens.countoff import FIRST_ROLL_DICE, first_player
from ...rules.tens.dominoes import Tile
from ...rules.tens.game import Stage, TensState
from ...rules.tens.hosted import TENS
from ...rules.tens.options import DEFAULT_ANTE_CENTS, DEFAULT_STARTING_CENTS, MIN_PLAYERS, Dominoes, TensConfig
from ..core.hosting import night_of
from ..core.journal import Journal, archive
from ..core.tens_table import TensTable
from .tens_bot import best_discard, takes, worth

BOTS: Final = ("North", "East", "South", "West", "Centre", "Corner")
"""The bots, by seat: as many as the night has players."""
SHUFFLE_SEEDS: Final = 2**63
"""Each hand's shuffle seed is drawn below this: any of them orders the woodpile."""


def roll_for(seed: int, hand: int, attempt: int) -> tuple[int, ...]:
    """The four dice of ``hand``'s roll for the first player, its ``attempt``-th try (a roll that counts off
    nobody is rolled again)."""
    rng = random.Random(f"tens-demo:{seed}:{hand}:roll:{attempt}")
    return tuple(rng.choice(PIECEPACK_FACES) for _ in range(FIRST_ROLL_DICE))


def shuffle_seed(seed: int, hand: int) -> int:
    """The seed of ``hand``'s shuffle."""
    return random.Random(f"tens-demo:{seed}:{hand}:deal").randrange(SHUFFLE_SEEDS)


def demo_config(players: int, hands: int) -> TensConfig:
    """The house's defaults, with virtual dominoes (the table deals and the bots see their hands), and money
    enough for every bot to ante every hand asked for: a bot loses at most its ante a hand (the demo has no
    penalty), so the night plays all its hands rather than ending when a bot runs short."""
    if not MIN_PLAYERS <= players <= len(BOTS):
        raise GameError(f"the demo seats {MIN_PLAYERS} to {len(BOTS)} bots (not {players})")
    starting = max(DEFAULT_STARTING_CENTS, hands * DEFAULT_ANTE_CENTS)
    return TensConfig(players=BOTS[:players], starting_cents=starting, dominoes=Dominoes.VIRTUAL)


def hand_line(state: TensState) -> dict[str, Any]:
    """The hand on show, as one JSON-ready line."""
    result = state.results[-1]
    assert state.dice is not None and state.first is not None, "a hand on show was rolled for"
    return {
        "hand": result.hand,
        "first": state.players[state.first],
        "roll": list(state.dice),
        "winner": result.winner,
        "drawn": result.winner is None,
        "how": None if result.complete is None else str(result.complete),
        "pot_cents": result.pot_cents,
        "balances": dict(zip(state.players, state.money.balances, strict=True)),
    }


class TensDemo:
    """``hands`` hands of Collecting Tens among ``players`` bots, journaled in ``state_dir``: an unfinished
    night found there is resumed, a finished one archived under ``nights/`` and a new one begun."""

    def __init__(self, state_dir: Path, hands: int, seed: int, players: int = 4) -> None:
        if hands < 1:
            raise GameError(f"a night plays at least one hand (not {hands})")
        self.hands, self.seed = hands, seed
        config = demo_config(players, hands)
        journal = _open_night(state_dir)
        try:
            self.table = TensTable(journal, config)
        except BaseException:
            journal.close()  # another game's night, say: refused, and the folder left as it was
            raise

    def play(self, emit: Callable[[dict[str, Any]], None]) -> dict[str, int]:
        """Play until the night ends; ``emit`` gets one line per hand played. Returns the final balances."""
        while (state := self.table.state).stage is not Stage.OVER:
            match state.stage:
                case Stage.ROLLING:
                    self._roll(state)
                case Stage.DEALING:
                    self.table.deal(shuffle_seed(self.seed, state.hand))
                case Stage.TAKING:
                    self._take_or_draw(state)
                case Stage.HOLDING:
                    self._declare_or_discard(state)
                case Stage.SHOWING:
                    emit(hand_line(state))
                    self._after_hand(state)
        return dict(zip(state.players, state.money.balances, strict=True))

    def close(self) -> None:
        self.table.journal.close()

    def _roll(self, state: TensState) -> None:
        for attempt in count():
            dice = roll_for(self.seed, state.hand, attempt)
            try:
                first_player(dice, state.roller, len(state.players))
            except GameError:
                continue  # counts off nobody: the rules say roll again
            self.table.roll(dice)
            return

    def _take_or_draw(self, state: TensState) -> None:
        player, hand = self._mover(state)
        assert state.tiles is not None and state.tiles.discards, "a turn to take follows a discard"
        discard = state.tiles.discards[-1]
        assert discard is not None, "virtual dominoes"
        if takes(hand, discard, state.config.pairs):
            self.table.took(player)
        else:
            self.table.drew(player)

    def _declare_or_discard(self, state: TensState) -> None:
        player, hand = self._mover(state)
        if worth(hand, state.config.pairs) == len(hand):
            self.table.declare(player)
        else:
            self.table.discarded(player, best_discard(hand, state.config.pairs))

    def _after_hand(self, state: TensState) -> None:
        if state.hand >= self.hands:
            self.table.end()
            return
        try:
            self.table.next_hand()
        except GameError:
            self.table.end()  # a bot cannot pay the next ante (a night resumed for more hands than it began with)

    @staticmethod
    def _mover(state: TensState) -> tuple[str, tuple[Tile, ...]]:
        assert state.to_move is not None and state.tiles is not None, "a turn is under way"
        hand = tuple(tile for tile in state.tiles.hands[state.to_move] if tile is not None)
        return state.players[state.to_move], hand


def _open_night(state_dir: Path) -> Journal:
    """The journal to play in: a finished night of Collecting Tens found there is archived first (another
    game's night is left alone: the table refuses to replay it, naming the game)."""
    journal = Journal(state_dir)
    events = journal.events()
    if night_of(journal) != TENS.name or replay(TENS, events).stage is not Stage.OVER:
        return journal
    journal.close()
    archive(state_dir, datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f"))
    return Journal(state_dir)
