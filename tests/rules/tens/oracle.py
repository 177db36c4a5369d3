"""An independent model of Collecting Tens hands, for checking the hand checker against.

It shares no code with ``fantan_table.rules.tens``: a tile is a pair of ints, the document's pairs are typed
again from the rule document, and complete hands are *built* (twins plus any four allowed pairs) rather
than searched for. A hand is a tuple of counts per kind, kinds in the order of :data:`ORDER`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

ORDER = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]
"""The 21 kinds, 6-6 first: the same order as the rules' KINDS (checked in the tests)."""

DUPLICATED = {(6, 6), (1, 1), (4, 4), (1, 3), (5, 5), (3, 3), (2, 2), (5, 6), (4, 6), (1, 6), (1, 5)}
"""The Civil suit as Culin lists it (low-high written as the book writes some of them)."""

DOCUMENT_PAIRS = (
    "6-6 + 6-2, 6-6 + 5-3, 6-6 + 4-4, 6-4 + 6-4, 5-5 + 5-5, "
    "6-2 + 1-1, 5-3 + 1-1, 5-2 + 2-1, 4-4 + 1-1, 4-2 + 3-1, 4-2 + 2-2, 3-4 + 2-1, 3-3 + 3-1, 3-3 + 2-2"
)
"""The rule document's lists of twenties and tens, as text."""


def kind(text: str) -> tuple[int, int]:
    a, b = (int(x) for x in text.strip().split("-"))
    return (max(a, b), min(a, b))


def limit(k: tuple[int, int], sets: int) -> int:
    duplicated = k in DUPLICATED or (k[1], k[0]) in DUPLICATED
    return (2 if duplicated else 1) * sets


def listed_pairs() -> set[tuple[int, int]]:
    """The document's pairs as (index, index) with the first index not after the second."""
    pairs = set()
    for text in DOCUMENT_PAIRS.split(","):
        a, b = (ORDER.index(kind(t)) for t in text.split("+"))
        pairs.add((min(a, b), max(a, b)))
    return pairs


def summing_pairs() -> set[tuple[int, int]]:
    """Any two kinds (the same kind twice too) whose four halves total 10 or 20."""
    return {
        (i, j) for i, j in itertools.combinations_with_replacement(range(21), 2) if sum(ORDER[i] + ORDER[j]) in (10, 20)
    }


def complete_hands(pairs: set[tuple[int, int]], sets: int) -> set[tuple[int, ...]]:
    """Every hand the sets can hold made of twins and four of ``pairs``: built, not searched."""
    limits = [limit(k, sets) for k in ORDER]
    hands = set()
    for fours in itertools.combinations_with_replacement(sorted(pairs), 4):
        counts = [0] * 21
        for a, b in fours:
            counts[a] += 1
            counts[b] += 1
        for twins in range(21):
            hand = list(counts)
            hand[twins] += 2
            if all(n <= most for n, most in zip(hand, limits, strict=True)):
                hands.add(tuple(hand))
    return hands


def all_hands(sets: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ten tiles the sets can hold, as counts: each half of the kinds enumerated once and
    joined by size, so each hand is one tuple concatenation."""
    limits = [limit(k, sets) for k in ORDER]
    halves = []
    for part in (limits[:11], limits[11:]):
        by_size: dict[int, list[tuple[int, ...]]] = {}
        for counts in itertools.product(*(range(min(most, 10) + 1) for most in part)):
            if sum(counts) <= 10:
                by_size.setdefault(sum(counts), []).append(counts)
        halves.append(by_size)
    left, right = halves
    for size, lefts in left.items():
        rights = right.get(10 - size, [])
        for a in lefts:
            for b in rights:
                yield a + b


def multisets_of_ten(sets: int) -> int:
    """How many hands :func:`all_hands` should give: the coefficient of x^10 in prod (1 + x + ... + x^limit)."""
    poly = [1]
    for k in ORDER:
        term = [1] * (min(limit(k, sets), 10) + 1)
        poly = [sum(poly[i] * term[n - i] for i in range(len(poly)) if 0 <= n - i < len(term)) for n in range(11)]
    return poly[10]
