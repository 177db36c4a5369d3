"""The money of a Collecting Tens night: each player's balance and what each has put in the pot, in cents.

Money only moves between a balance and the pot, so the night's total never changes. The pot remembers
whose money it holds, so a drawn hand (when the house says so) or a night ended mid-hand gives each
player back exactly what they put in.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Money:
    balances: tuple[int, ...]
    """By seat: what each player holds outside the pot."""
    pot: tuple[int, ...]
    """By seat: what each player has put in the pot and not yet been paid back."""

    @classmethod
    def starting(cls, balances: tuple[int, ...]) -> Money:
        return cls(balances, (0,) * len(balances))

    @property
    def in_pot(self) -> int:
        return sum(self.pot)

    @property
    def total(self) -> int:
        """Every cent of the night: it never changes."""
        return sum(self.balances) + self.in_pot

    def anted(self, cents: int) -> Money:
        """Every player puts ``cents`` in the pot (the caller checked each holds it)."""
        return Money(tuple(b - cents for b in self.balances), tuple(p + cents for p in self.pot))

    def put_in(self, seat: int, cents: int) -> Money:
        """``seat`` puts ``cents`` in the pot (a penalty)."""
        balances, pot = list(self.balances), list(self.pot)
        balances[seat] -= cents
        pot[seat] += cents
        return Money(tuple(balances), tuple(pot))

    def won(self, seat: int) -> Money:
        """``seat`` takes the whole pot."""
        balances = list(self.balances)
        balances[seat] += self.in_pot
        return Money(tuple(balances), (0,) * len(self.pot))

    def refunded(self) -> Money:
        """Everyone takes back what they put in."""
        return Money(tuple(b + p for b, p in zip(self.balances, self.pot, strict=True)), (0,) * len(self.pot))
