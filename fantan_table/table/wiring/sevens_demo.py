"""A night of card Fan Tan played by bots on virtual cards: ``fantan-table demo --game sevens``.

Every choice, the shuffles included, is drawn from (seed, hand, move), never from a generator whose place a
restart would lose: a night killed anywhere and resumed from its journal ends exactly as one never interrupted
(the crash test relies on it).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...rules.sevens.events import SevensSetup
from ...rules.sevens.game import SevensState, Stage
from ...rules.sevens.options import RULES_001, STARTING_CHIPS, Agreed, CardMode
from ..core.journal import Journal
from ..core.sevens_table import SevensTable

BOTS = ("North", "East", "South", "West", "Centre", "Corner")
"""The bots, by seat: as many as the night has players."""


def sevens_setup(hands: int, players: int, chips: int = STARTING_CHIPS) -> SevensSetup:
    """001's rules (its defaults) with virtual cards: ``players`` bots, ``hands`` hands (fewer when a bot runs out
    of chips, as 001 ends a game), ``chips`` each to start."""
    return SevensSetup(BOTS[:players], RULES_001, Agreed(hands=hands, starting_chips=chips), CardMode.VIRTUAL)


def hand_line(state: SevensState) -> dict[str, Any]:
    """The last hand settled, as one JSON line: who dealt and won, each seat's cards left and chips after."""
    result = state.results[-1]
    names = state.setup.players
    return {
        "hand": result.number,
        "dealer": names[result.dealer],
        "winner": names[result.winner],
        "pool": result.pool_taken,
        "cards_left": dict(zip(names, result.cards_left, strict=True)),
        "passes": dict(zip(names, result.passes, strict=True)),
        "chips": dict(zip(names, state.chips.seats, strict=True)),
    }


class SevensDemo:
    def __init__(self, state_dir: Path, hands: int, seed: int, players: int = 4, chips: int = STARTING_CHIPS) -> None:
        self.seed = seed
        self.table = SevensTable(
            Journal(state_dir), sevens_setup(hands, players, chips), seeds=lambda what, n: _derived(seed, what, n)
        )

    def play(self, emit: Callable[[dict[str, Any]], None]) -> dict[str, int]:
        """Play to the end of the night (or on from where a resumed one stopped), one line per hand settled."""
        table = self.table
        while table.state.stage is not Stage.OVER:
            settled = len(table.state.results)
            self._move()
            if len(table.state.results) > settled:
                emit(hand_line(table.state))
        return dict(zip(table.state.setup.players, table.state.chips.seats, strict=True))

    def close(self) -> None:
        self.table.journal.close()

    def _move(self) -> None:
        table, state = self.table, self.table.state
        match state.stage:
            case Stage.DEALER:
                table.choose_dealer()
            case Stage.DEAL:
                table.deal()
            case Stage.PLAY:
                hand = state.hand
                assert hand is not None
                seat = hand.turn
                playable = sorted(table.playable(seat))
                if playable:
                    pick = random.Random(_derived(self.seed, "play", hand.number * 1000 + len(hand.moves)))
                    table.play(seat, pick.choice(playable))
                elif hand.dummy_count:
                    table.draw(seat)
                else:
                    table.pass_turn(seat)
            case _:  # OUT is settled by the table itself with virtual cards
                raise AssertionError(f"a virtual game waits in {state.stage.value}")


def _derived(seed: int, what: str, n: int) -> int:
    """A number fixed by the night's seed, what it is for and which hand (or move): the same after a restart."""
    return random.Random(f"{seed}/{what}/{n}").getrandbits(64)
