"""What the display shows for a night of Collecting Tens: the roll's total and its counting-off, the first player,
whose turn, the pot and the discard; then who won.

The seat whose turn it is is lit for up to four players; the display names the player for any number.
"""

from __future__ import annotations

from ...devices.display.screens import Screen, Status
from ...rules.money import format_cents
from ...rules.tens.game import Stage, TensState

PRESS_NEXT = "press NEXT ROUND"
"""What begins the next hand: the panel's button (or *Next hand* on the banker's page)."""
COUNT_SHOWN = 4
"""Names of a count-off the panel's line holds: the last few, ending at the first player."""


def count_off(state: TensState) -> list[str]:
    """The names counted, from the roller (as one) up to the dice's total: the last is the first player."""
    assert state.dice is not None
    names = state.players
    return [names[(state.roller + n) % len(names)] for n in range(sum(state.dice))]


def reading_screen(state: TensState) -> Screen:
    """The cup is off and the camera reads the roll for the first player: the hand's heading, as every other screen
    of the game has it (a Collecting Tens night has hands, not Fan Tan's rounds), and whose roll it is."""
    head = f"Hand {state.hand}  pot {format_cents(state.money.in_pot)}"
    return Status(head, "READING", ("the dice", f"{state.players[state.roller]}'s roll"))


def tens_screens(state: TensState) -> list[Screen]:
    names, pot = state.players, format_cents(state.money.in_pot)
    head = f"Hand {state.hand}  pot {pot}"
    match state.stage:
        case Stage.ROLLING:
            return [Status(head, names[state.roller], ("rolls four dice", "for the first player"))]
        case Stage.DEALING:
            assert state.dice is not None and state.first is not None
            counted = count_off(state)
            tail = " ".join(c[:3] for c in counted[-COUNT_SHOWN:])
            total = f"{' '.join(map(str, state.dice))} = {sum(state.dice)}"
            deal = "NEXT ROUND deals" if state.config.virtual else "deal, NEXT ROUND"  # the table's, or the players'
            return [Status(f"dice {total}", f"{names[state.first]} 1ST", (f"...{tail}", deal))]
        case Stage.TAKING:
            assert state.tiles is not None and state.to_move is not None
            shown = state.tiles.discards[-1] if state.tiles.discards else None
            discard = f"discard {shown}" if shown is not None else "a tile face up"
            return [Status(head, names[state.to_move], (discard, "take it or draw"))]
        case Stage.HOLDING:
            assert state.tiles is not None and state.to_move is not None
            pile = len(state.tiles.woodpile)
            return [Status(head, names[state.to_move], ("declare or discard", f"woodpile {pile}"))]
        case Stage.SHOWING:
            last = state.results[-1]
            if last.winner is None:
                return [Status(f"Hand {state.hand}", "DRAWN", ("the woodpile ran dry", PRESS_NEXT))]
            took = f"takes {format_cents(last.pot_cents)}"
            return [Status(f"Hand {state.hand} won", last.winner, (took, PRESS_NEXT))]
    return [Status("GAME OVER", "NIGHT ENDS", (state.over or "",))]
