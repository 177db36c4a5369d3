"""Who plays first: four dice are rolled, and the roller counts the players off anticlockwise up to the total.

Seats are numbered in the order of play, anticlockwise: seat ``s + 1`` plays after seat ``s``. The roller
counts themself as one, so a total of ``t`` stops ``t - 1`` seats after the roller, going round as often
as it takes. Piecepack dice have a blank face, so four of them can total 0, which counts off nobody: that
roll is refused and rolled again (pipped dice never show it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..errors import GameError

FIRST_ROLL_DICE: Final = 4
"""The rule document rolls four dice for the first player."""


def first_player(dice: Sequence[int], roller: int, players: int) -> int:
    """The seat the count-off of ``dice`` stops at, counting from ``roller`` (as one) among ``players`` seats."""
    if players < 2 or not 0 <= roller < players:
        raise GameError(f"counting off needs two players or more and a roller among them (seat {roller} of {players})")
    total = sum(dice)
    if total < 1:
        raise GameError(f"the dice total {total}, which counts off nobody: roll the four dice again")
    return (roller + total - 1) % players
