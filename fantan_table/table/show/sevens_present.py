"""What the display shows for a night of card Fan Tan (Sevens): whose turn, the pool, the chips; then who went out.

The seat whose turn it is is also lit (for up to four players, :data:`~fantan_table.rules.sevens.hosted.MOST_LIT`);
the display names the player for any number, so a table of five or six reads it there.
"""

from __future__ import annotations

from ...devices.display.screens import Screen, Status
from ...rules.sevens.game import SevensState, Stage
from ...rules.sevens.options import CardMode

PRESS_NEXT = "press NEXT ROUND"
"""What moves the night on between hands: the panel's button (or its twin on the banker's page)."""


def sevens_screens(state: SevensState) -> list[Screen]:
    """The screens to show, in turn, for this state (a settled hand's result, then what comes next)."""
    names, hand = state.setup.players, state.hand
    pool, virtual = state.chips.pool, state.setup.mode is CardMode.VIRTUAL
    match state.stage:
        case Stage.DEALER:
            how = PRESS_NEXT if virtual else "enter the cards"
            return [Status("SEVENS", "DEALER?", ("who deals first:", how))]
        case Stage.DEAL:  # what the banker does next: the table deals virtual cards, the dealer real ones
            assert state.dealer is not None
            dealer = names[state.dealer]
            lines = (f"{dealer}'s deal:", PRESS_NEXT) if virtual else (f"{dealer} deals,", "then NEXT ROUND")
            return [*_result(state), Status(f"Hand {state.round}  pool {pool}", "DEAL", lines)]
        case Stage.PLAY:
            assert hand is not None
            seat = hand.turn
            chips = _score(state, seat)
            return [Status(f"Hand {hand.number}  pool {pool}", names[seat], (chips, f"{hand.counts[seat]} cards"))]
        case Stage.OUT:
            assert hand is not None and hand.winner is not None
            return [Status(f"Hand {hand.number}", f"{names[hand.winner]} OUT", ("enter the cards left",))]
    assert state.end is not None
    best = ", ".join(names[s] for s in state.winners)
    return [*_result(state), Status("GAME OVER", best[:10], (state.end.value,))]


def _result(state: SevensState) -> list[Screen]:
    """The last hand's winner and what the pool held, while it is the news."""
    if not state.results:
        return []
    last, names = state.results[-1], state.setup.players
    took = f"took the pool ({last.pool_taken})" if state.setup.options.chips_move else f"+{last.points[last.winner]}"
    return [Status(f"Hand {last.number} won", names[last.winner], (took, _score(state, last.winner)))]


def _score(state: SevensState, seat: int) -> str:
    if state.setup.options.chips_move:
        return f"{state.chips.seats[seat]} chips"
    return f"{state.points[seat]} points"
