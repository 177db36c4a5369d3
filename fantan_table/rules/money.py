"""Money is whole cents in an ``int``: exact, and never a float."""

from __future__ import annotations

from typing import Final

COIN_CENTS: Final = 100
"""Every stake is made of $1 coins."""


def format_cents(cents: int) -> str:
    """``5033`` -> ``"$50.33"``, ``-99`` -> ``"-$0.99"``."""
    if type(cents) is not int:
        raise TypeError(f"money must be whole cents as an int, got {cents!r}")
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars}.{rest:02d}"


def format_delta(cents: int) -> str:
    """A change of balance with its sign: ``"+$2.00"``, ``"-$1.00"``, ``"$0.00"``."""
    return ("+" if cents > 0 else "") + format_cents(cents)
