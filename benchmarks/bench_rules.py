"""The rules core: exact odds by residue convolution against brute-force enumeration of every roll,
and settlement throughput (a game night's worth of rounds must settle in no noticeable time)."""

from __future__ import annotations

import random
import time
from collections import Counter
from fractions import Fraction
from itertools import product

from common import Row

from fantan_table.rules import (
    PIECEPACK_FACES,
    Game,
    GameConfig,
    HouseBank,
    Player,
    Suit,
    Variant,
    all_positions,
    open_distribution,
    open_number,
)


def _enumerate(dice: int) -> tuple[Fraction, ...]:
    counts = Counter(open_number(r) for r in product(PIECEPACK_FACES, repeat=dice))
    return tuple(Fraction(counts[k], 6**dice) for k in range(4))


def _time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _night(rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    players = tuple(Player(n, s) for n, s in zip(("A", "B", "C", "D"), Suit, strict=True))
    game = Game(GameConfig(players, 5000, Variant.ALL, HouseBank(10**9)))
    positions = all_positions()
    for _ in range(rounds):
        for p in players:
            affordable = min(5, game.balance(p.name) // 100) if game.can_bet(p.name) else 0
            for _ in range(rng.randint(0, affordable)):
                game.place(p.name, rng.choice(positions))
        game.close_bets()
        game.settle(rng.randrange(4))
        game.next_round()


def run() -> list[Row]:
    ours = _time(lambda: open_distribution(8), 5)
    base = _time(lambda: _enumerate(8), 1)
    assert open_distribution(8) == _enumerate(8)
    night = _time(lambda: _night(1000, 1), 3)
    return [
        Row(
            "odds, 8 dice (exact)", f"{ours * 1e3:.3f} ms", f"{base * 1e3:.0f} ms", "<= baseline", lambda: ours <= base
        ),
        Row("settle 1,000 rounds x 4 players", f"{night * 1e3:.0f} ms", "-", "< 1000 ms", lambda: night < 1.0),
    ]
