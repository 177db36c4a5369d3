"""An independent model of the layout and the payout tables, for checking the rules core against.

It shares no code with ``fantan_table.rules``: tiles are points on a 2x2 grid, bets are read
with a regular expression, and payouts are the seed's dollar figures as decimal strings.
"""

from __future__ import annotations

import re
from decimal import Decimal
from itertools import permutations

PLACE = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (1, 1)}  # 0-1 on top, 2-3 below: clockwise 0-1-3-2

# kind: (payout per $1 when the open number is covered [strong part], weak payout or None)
SEED_PAYOUTS = {
    "number": ("3", None),
    "side": ("1", None),
    "strong-side": ("2", "MB"),
    "corner": ("0.33", None),
    "strong-corner": ("1", "MB"),
    "diagonal": ("1", None),
    "strong-diagonal": ("2", "MB"),
}


def manhattan(a: int, b: int) -> int:
    return abs(PLACE[a][0] - PLACE[b][0]) + abs(PLACE[a][1] - PLACE[b][1])


def covered(text: str) -> tuple[set[int], int | None]:
    """The numbers a bet covers and its strong number, by enumerating the tiles of the layout."""
    m = re.fullmatch(r"([a-z-]+):(\d)(?:([->])(\d))?", text)
    assert m, text
    kind, a, _, b = m.group(1), int(m.group(2)), m.group(3), m.group(4)
    strong = a if kind.startswith("strong") else None
    if kind in ("number",):
        return {a}, None
    if kind in ("corner", "strong-corner"):
        return {t for t in PLACE if manhattan(a, t) <= 1}, strong
    return {a, int(b)}, strong


def delta_cents(text: str, coins: int, open_number: int) -> int:
    kind = text.split(":")[0]
    numbers, strong = covered(text)
    win, weak = SEED_PAYOUTS[kind]
    if open_number not in numbers:
        return -100 * coins
    if strong is not None and open_number != strong:
        assert weak == "MB"
        return 0
    cents = Decimal(win) * 100 * coins
    assert cents == cents.to_integral_value()
    return int(cents)


def all_bet_texts() -> list[str]:
    """Every text a player may write, both orders of a pair included."""
    texts = [f"number:{t}" for t in PLACE] + [f"corner:{t}" for t in PLACE] + [f"strong-corner:{t}" for t in PLACE]
    for a, b in permutations(PLACE, 2):
        if manhattan(a, b) == 1:
            texts += [f"side:{a}-{b}", f"strong-side:{a}>{b}"]
        else:
            texts += [f"diagonal:{a}-{b}", f"strong-diagonal:{a}>{b}"]
    return texts


def needs(text: str) -> set[str]:
    kind = text.split(":")[0]
    wanted = set()
    if "corner" in kind:
        wanted.add("corners")
    if "diagonal" in kind:
        wanted.add("diagonals")
    if kind.startswith("strong"):
        wanted.add("strong")
    return wanted
