"""An independent model of card Fan Tan's deal, layout and end-of-hand chips, for checking the rules core against.

It shares no code with ``fantan_table.rules.sevens``: cards are plain text ("7H", "10S"), the layout is a set of
cards on the table, and the settlement is written out from the documents' sentences (001, 002, 004), one
transfer at a time, in a dictionary of each seat's change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]


def rank_of(text: str) -> int:
    return RANKS.index(text[:-1]) + 1


def suit_of(text: str) -> str:
    return text[-1]


def name(rank: int, suit: str) -> str:
    return RANKS[rank - 1] + suit


def pack() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


def can_play(text: str, on_table: set[str]) -> bool:
    """A seven not yet down; or the card next to one on the table, on the side away from the seven."""
    if text in on_table:
        return False
    rank, suit = rank_of(text), suit_of(text)
    if rank == 7:
        return True
    neighbour = rank + 1 if rank < 7 else rank - 1
    return name(neighbour, suit) in on_table


def taken_out(hands: int, suit: str, equal: bool) -> set[str]:
    """004: an Ace for three hands; Ace and King for five; Ace, 2, King and Queen for six."""
    if not equal:
        return set()
    return {r + suit for r in {3: ["A"], 5: ["A", "K"], 6: ["A", "2", "K", "Q"]}.get(hands, [])}


def deal(order: list[str], dealer: int, players: int, dummy: bool) -> tuple[list[list[str]], list[str]]:
    """Round by round: the dealer's left first, ..., the dealer, then the dummy hand."""
    receivers = [(dealer + k) % players for k in range(1, players + 1)] + (["dummy"] if dummy else [])
    hands: list[list[str]] = [[] for _ in range(players)]
    pile: list[str] = []
    for i, text in enumerate(order):
        who = receivers[i % len(receivers)]
        if who == "dummy":
            pile.append(text)
        else:
            hands[who].append(text)  # type: ignore[index]
    return hands, pile


@dataclass
class Revoked:
    seat: int
    holders: list[int] = field(default_factory=list)
    """For each seven held at the pass: the holder of its six, then of its eight."""


def ante_for(ante: str, deal_rule: str, stake: int, sizes: list[int]) -> list[int]:
    """001: one chip each, one more for a short hand; 002: the stake; 004's chips: nothing."""
    each = {"one-chip": 1, "stake": stake, "none": 0}[ante]
    most = max(sizes)
    return [each + (1 if deal_rule == "short-pays" and n < most else 0) for n in sizes]


def hand_changes(
    players: int,
    winner: int,
    cards_left: list[int],
    antes: list[int],
    passes: list[int],
    revokes: list[Revoked],
    chips: bool,
) -> tuple[list[int], list[int]]:
    """Each seat's chips and points won (or lost) over one hand, from what happened in it."""
    change = {seat: 0 for seat in range(players)}
    points = {seat: 0 for seat in range(players)}
    if not chips:
        points[winner] = sum(cards_left)
        return list(change.values()), list(points.values())
    pool = 0
    for seat in range(players):
        change[seat] -= antes[seat]
        pool += antes[seat]
        change[seat] -= passes[seat]  # one chip a pass
        pool += passes[seat]
    for revoke in revokes:
        change[revoke.seat] -= 3
        pool += 3
        for holder in revoke.holders:
            if holder != revoke.seat:
                change[revoke.seat] -= 5
                change[holder] += 5
    for seat in range(players):
        if seat != winner:
            change[seat] -= cards_left[seat]
            change[winner] += cards_left[seat]
    change[winner] += pool
    return list(change.values()), list(points.values())
