"""Who banks first, decided by rolling the highest: each player rolls the dice in turn, ties roll again.

The rule document lets the players choose a banker "or one can be decided by rolling the highest". A
:class:`BankDraw` is that contest as a value: who is still in it, who has rolled what in this go, and who
won. It knows nothing of cameras: a roll comes in as the dice's values, read like any roll (an unsure
reading is no roll: the same player rolls again). Pure and deterministic, so a night's journal replays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import GameError


@dataclass(frozen=True)
class DrawRoll:
    """One roll in the contest: who rolled, in which go (1, then 2 for the tied players' roll-off...), what."""

    player: str
    go: int
    dice: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.dice)


@dataclass(frozen=True)
class BankDraw:
    """The contest for the bank: ``contenders`` roll in seat order; the single highest total wins."""

    contenders: tuple[str, ...]
    """Who rolls in this go, in seat order: every player with money at first, then only the tied."""
    rolls: tuple[DrawRoll, ...] = ()
    """Every roll so far, every go, in the order rolled."""
    go: int = 1

    def __post_init__(self) -> None:
        if len(self.contenders) < 2:
            raise GameError("rolling for the bank needs at least two players with money")

    @property
    def this_go(self) -> tuple[DrawRoll, ...]:
        return tuple(r for r in self.rolls if r.go == self.go)

    @property
    def to_roll(self) -> str | None:
        """Whose roll it is now; ``None`` once the bank is decided."""
        done = len(self.this_go)
        return self.contenders[done] if done < len(self.contenders) else None

    @property
    def winner(self) -> str | None:
        """The player who rolled the single highest total in the last go, once everyone in it has rolled."""
        rolled = self.this_go
        if len(rolled) < len(self.contenders):
            return None
        best = max(r.total for r in rolled)
        top = [r.player for r in rolled if r.total == best]
        return top[0] if len(top) == 1 else None

    def rolled(self, dice: Sequence[int]) -> BankDraw:
        """The contest after the player whose turn it is rolled ``dice``; a tie for the highest starts a
        roll-off between the tied players, in seat order."""
        player = self.to_roll
        if player is None:
            raise GameError(f"the bank is decided: {self.winner} banks, nobody rolls for it")
        if not dice or not all(type(v) is int and v >= 0 for v in dice):
            raise GameError(f"dice must be whole numbers from 0 up (got {list(dice)})")
        after = BankDraw(self.contenders, (*self.rolls, DrawRoll(player, self.go, tuple(dice))), self.go)
        rolled = after.this_go
        if len(rolled) < len(self.contenders) or after.winner is not None:
            return after
        best = max(r.total for r in rolled)
        tied = tuple(r.player for r in rolled if r.total == best)
        return BankDraw(tied, after.rolls, self.go + 1)
