"""Betting positions: what a coin on the layout covers, what it pays, and its text form.

A :class:`Bet` is a value: two coins on ``side:0-1`` are the same bet twice.
Only real positions on the layout can be built; the text forms are the ones
used on the command line, in JSON and in the journal::

    number:2  side:0-1  strong-side:0>1  corner:0  strong-corner:0
    diagonal:1-2  strong-diagonal:3>0
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from .errors import BetError, ConfigError
from .layout import DIAGONALS, SIDE_PAIRS, SIDES, TILES, corner, is_diagonal, is_side, neighbours, side_text


class Variant(enum.Flag):
    """Optional bet types from the seed's variants; a game enables any of them."""

    NONE = 0
    CORNERS = enum.auto()
    DIAGONALS = enum.auto()
    STRONG = enum.auto()
    ALL = CORNERS | DIAGONALS | STRONG


def parse_variants(text: str) -> Variant:
    """``"corners,diagonals,strong"`` -> the flags; ``""`` or ``"none"`` -> no variants."""
    names = {"corners": Variant.CORNERS, "diagonals": Variant.DIAGONALS, "strong": Variant.STRONG}
    result = Variant.NONE
    for word in (w.strip().lower() for w in text.split(",")):
        if word in ("", "none"):
            continue
        if word == "all":
            result |= Variant.ALL
        elif word in names:
            result |= names[word]
        else:
            raise ConfigError(f"unknown variant {word!r}: choose from corners, diagonals, strong (comma-separated)")
    return result


def format_variants(variants: Variant) -> str:
    """The inverse of :func:`parse_variants`: ``"corners,strong"`` or ``"none"``."""
    names = {Variant.CORNERS: "corners", Variant.DIAGONALS: "diagonals", Variant.STRONG: "strong"}
    words = [word for flag, word in names.items() if flag in variants]
    return ",".join(words) or "none"


class BetKind(enum.Enum):
    NUMBER = "number"
    SIDE = "side"
    STRONG_SIDE = "strong-side"
    CORNER = "corner"
    STRONG_CORNER = "strong-corner"
    DIAGONAL = "diagonal"
    STRONG_DIAGONAL = "strong-diagonal"

    @property
    def is_strong(self) -> bool:
        return self in (BetKind.STRONG_SIDE, BetKind.STRONG_CORNER, BetKind.STRONG_DIAGONAL)


@dataclass(frozen=True)
class Payout:
    """Winnings per $1 coin, in cents, not counting the coin itself (which the winner keeps).

    ``weak_cents`` is for strong bets when a covered number other than the strong
    one opens: ``0`` means money back (no win, no loss).
    """

    win_cents: int
    weak_cents: int | None = None


PAYOUTS: Final[dict[BetKind, Payout]] = {
    BetKind.NUMBER: Payout(300),
    BetKind.SIDE: Payout(100),
    BetKind.STRONG_SIDE: Payout(200, weak_cents=0),
    BetKind.CORNER: Payout(33),
    BetKind.STRONG_CORNER: Payout(100, weak_cents=0),
    BetKind.DIAGONAL: Payout(100),
    BetKind.STRONG_DIAGONAL: Payout(200, weak_cents=0),
}

#: The variants a game must enable before a bet kind is accepted. A strong corner is a
#: corner bet made strong, so it needs both variants; likewise the strong diagonal.
REQUIRED_VARIANTS: Final[dict[BetKind, Variant]] = {
    BetKind.NUMBER: Variant.NONE,
    BetKind.SIDE: Variant.NONE,
    BetKind.STRONG_SIDE: Variant.STRONG,
    BetKind.CORNER: Variant.CORNERS,
    BetKind.STRONG_CORNER: Variant.CORNERS | Variant.STRONG,
    BetKind.DIAGONAL: Variant.DIAGONALS,
    BetKind.STRONG_DIAGONAL: Variant.DIAGONALS | Variant.STRONG,
}

VALID_FORMS: Final = (
    "number:N, side:A-B, strong-side:S>W, corner:N, strong-corner:N, diagonal:A-B, strong-diagonal:S>W "
    "(tiles N are 0-3; sides are 0-1, 1-3, 3-2, 2-0; diagonals are 0-3, 1-2; S is the strong number, W the weak)"
)


@dataclass(frozen=True)
class Bet:
    """One betting position: its kind, the numbers it covers and, for strong bets, the strong number."""

    kind: BetKind
    numbers: frozenset[int]
    strong: int | None = None

    def __post_init__(self) -> None:
        if not _is_position(self.kind, self.numbers, self.strong):
            raise BetError(f"no such position on the layout: {self.kind.value} on {sorted(self.numbers)}")

    # -- constructors, one per kind ------------------------------------------------
    @classmethod
    def number(cls, n: int) -> Bet:
        return cls(BetKind.NUMBER, frozenset({n}))

    @classmethod
    def side(cls, a: int, b: int) -> Bet:
        return cls(BetKind.SIDE, frozenset({a, b}))

    @classmethod
    def strong_side(cls, strong: int, weak: int) -> Bet:
        return cls(BetKind.STRONG_SIDE, frozenset({strong, weak}), strong)

    @classmethod
    def corner(cls, tile: int) -> Bet:
        return cls(BetKind.CORNER, corner(tile))

    @classmethod
    def strong_corner(cls, tile: int) -> Bet:
        return cls(BetKind.STRONG_CORNER, corner(tile), tile)

    @classmethod
    def diagonal(cls, a: int, b: int) -> Bet:
        return cls(BetKind.DIAGONAL, frozenset({a, b}))

    @classmethod
    def strong_diagonal(cls, strong: int, weak: int) -> Bet:
        return cls(BetKind.STRONG_DIAGONAL, frozenset({strong, weak}), strong)

    @classmethod
    def parse(cls, text: str) -> Bet:
        """Read a bet's text form; anything that is not a real position raises :class:`BetError`."""
        return parse_bet(text)

    # -- what it does ----------------------------------------------------------------
    @property
    def payout(self) -> Payout:
        return PAYOUTS[self.kind]

    @property
    def required_variants(self) -> Variant:
        return REQUIRED_VARIANTS[self.kind]

    def covers(self, open_number: int) -> bool:
        return open_number in self.numbers

    @property
    def weak_numbers(self) -> frozenset[int]:
        """The covered numbers that pay the weak payout (empty for bets that are not strong)."""
        return self.numbers - {self.strong} if self.strong is not None else frozenset()

    @property
    def corner_tile(self) -> int:
        """For a corner bet, the tile the coin sits on: the covered number next to both others."""
        (tile,) = (t for t in self.numbers if neighbours(t) <= self.numbers)
        return tile

    def __str__(self) -> str:
        kind = self.kind
        if kind is BetKind.NUMBER:
            (n,) = self.numbers
            return f"number:{n}"
        if kind in (BetKind.CORNER, BetKind.STRONG_CORNER):
            return f"{kind.value}:{self.corner_tile}"
        if kind.is_strong:
            (weak,) = self.weak_numbers
            return f"{kind.value}:{self.strong}>{weak}"
        if kind is BetKind.SIDE:
            return f"side:{side_text(self.numbers)}"
        a, b = sorted(self.numbers)
        return f"{kind.value}:{a}-{b}"

    def sort_key(self) -> tuple[int, tuple[int, ...], int]:
        """Kinds in the seed's order, then by the numbers covered, strong number first."""
        order = list(BetKind).index(self.kind)
        return (order, tuple(sorted(self.numbers)), -1 if self.strong is None else self.strong)


def _is_position(kind: BetKind, numbers: frozenset[int], strong: int | None) -> bool:
    if not numbers <= set(TILES):
        return False
    if kind.is_strong != (strong is not None) or (strong is not None and strong not in numbers):
        return False
    if kind is BetKind.NUMBER:
        return len(numbers) == 1
    if kind in (BetKind.SIDE, BetKind.STRONG_SIDE):
        return numbers in SIDES
    if kind in (BetKind.DIAGONAL, BetKind.STRONG_DIAGONAL):
        return numbers in DIAGONALS
    # corners: three numbers, and a strong corner's strong number is the tile the coin sits on
    return len(numbers) == 3 and (strong is None or corner(strong) == numbers)


def _tile(text: str, whole: str) -> int:
    if len(text) == 1 and text in "0123":
        return int(text)
    raise BetError(f"{whole!r}: {text!r} is not a tile (tiles are 0-3); valid forms: {VALID_FORMS}")


def _pair(args: str, sep: str, whole: str) -> tuple[int, int]:
    parts = args.split(sep)
    if len(parts) != 2:
        raise BetError(f"{whole!r}: expected two tiles joined by {sep!r}; valid forms: {VALID_FORMS}")
    a, b = (_tile(p.strip(), whole) for p in parts)
    if a == b:
        raise BetError(f"{whole!r}: the two tiles must differ; valid forms: {VALID_FORMS}")
    return a, b


def parse_bet(text: str) -> Bet:
    """Read ``"side:0-1"`` and the like; see :data:`VALID_FORMS`."""
    if not isinstance(text, str):
        raise BetError(f"a bet is written as text, got {text!r}; valid forms: {VALID_FORMS}")
    whole = text.strip()
    name, colon, args = whole.partition(":")
    try:
        kind = BetKind(name.strip().lower())
    except ValueError:
        raise BetError(f"{text!r} is not a bet; valid forms: {VALID_FORMS}") from None
    if not colon:
        raise BetError(f"{text!r}: say where the coin lies after a colon; valid forms: {VALID_FORMS}")
    args = args.strip()
    if kind is BetKind.NUMBER:
        return Bet.number(_tile(args, whole))
    if kind in (BetKind.CORNER, BetKind.STRONG_CORNER):
        tile = _tile(args, whole)
        return Bet.corner(tile) if kind is BetKind.CORNER else Bet.strong_corner(tile)
    if kind.is_strong:
        strong, weak = _pair(args, ">", whole)
    else:
        strong, weak = _pair(args, "-", whole)
    is_pair = is_side if kind in (BetKind.SIDE, BetKind.STRONG_SIDE) else is_diagonal
    if not is_pair(strong, weak):
        what = "a side (tiles sharing an edge)" if is_pair is is_side else "a diagonal (tiles meeting at the centre)"
        raise BetError(f"{text!r}: {strong} and {weak} are not {what}; valid forms: {VALID_FORMS}")
    return Bet(kind, frozenset({strong, weak}), strong if kind.is_strong else None)


def all_positions(variants: Variant = Variant.ALL) -> tuple[Bet, ...]:
    """Every betting position on the layout that ``variants`` allow, in display order."""
    bets: list[Bet] = [Bet.number(t) for t in TILES]
    bets += [Bet.side(a, b) for a, b in SIDE_PAIRS]
    bets += [Bet.strong_side(a, b) for s in SIDE_PAIRS for a, b in (s, s[::-1])]
    bets += [Bet.corner(t) for t in TILES]
    bets += [Bet.strong_corner(t) for t in TILES]
    bets += [Bet.diagonal(*sorted(d)) for d in DIAGONALS]
    bets += [Bet.strong_diagonal(a, b) for d in DIAGONALS for a, b in (sorted(d), sorted(d, reverse=True))]
    return tuple(b for b in bets if b.required_variants in variants)
