"""How a Collecting Tens night is set up: who plays, the money, and the house's choices, each with its default.

The choices the rule document leaves open are named here once: which pairs count (:class:`~.hand.PairRule`),
how many sets are used, what a woodpile that runs dry means for the pot (:class:`WhenDry`), a penalty for a
false declaration, and whether the tiles are physical or virtual (:class:`Dominoes`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from ..errors import ConfigError
from ..money import COIN_CENTS
from ..names import name_key, player_name, quoted_name
from ..odds import PIECEPACK_FACES
from .hand import PairRule
from .woodpile import check_sets, default_sets

MIN_PLAYERS: Final = 2
"""The rule document: two or more players."""
DEFAULT_ANTE_CENTS: Final = COIN_CENTS
"""One of the table's $1 coins from each player, each hand."""
DEFAULT_STARTING_CENTS: Final = 20 * COIN_CENTS
"""Twenty antes each: a night of a good few hands."""


class WhenDry(enum.Enum):
    """What becomes of the pot when the woodpile runs dry: the hand is drawn either way.

    The woodpile has run dry when a player discards and nothing is left to draw: that last discard is dead
    (taking discards alone could pass tiles round for ever), and nobody won the hand."""

    CARRY = "carry"
    """The pot stays where it is and goes to the winner of a later hand, every player anteing again on top."""
    REFUND = "refund"
    """Every player takes back what they put in."""


class Dominoes(enum.Enum):
    """Whose tiles: what the table knows of them."""

    PHYSICAL = "physical"
    """A real set on the table: the table keeps the turns and the pot, and checks a declared hand typed in."""
    VIRTUAL = "virtual"
    """The table builds the woodpile and deals: it knows every hand and checks a declaration itself."""


@dataclass(frozen=True)
class TensConfig:
    players: tuple[str, ...]
    """Names in the order of play, anticlockwise round the table: seat 0 rolls for the first hand."""
    starting_cents: int = DEFAULT_STARTING_CENTS
    ante_cents: int = DEFAULT_ANTE_CENTS
    pairs: PairRule = PairRule.LISTED
    """The document's own list by default: it is the most exact thing the document says about pairs."""
    sets: int | None = None
    """``None`` becomes :func:`~.woodpile.default_sets` for the number of players at once, so a stored
    setup names its sets and replays with them whatever tomorrow's default."""
    when_dry: WhenDry = WhenDry.CARRY
    penalty_cents: int = 0
    """Paid into the pot by a player whose declared hand is not complete; 0 (the default): the declaration
    is only refused, with the reason."""
    dominoes: Dominoes = Dominoes.PHYSICAL
    dice_faces: tuple[int, ...] = PIECEPACK_FACES
    """The faces of the four dice rolled for the first player (the table's piecepack dice by default)."""

    def __post_init__(self) -> None:
        names = tuple(player_name(name) for name in self.players)
        object.__setattr__(self, "players", names)
        if len(names) < MIN_PLAYERS:
            raise ConfigError(f"Collecting Tens needs {MIN_PLAYERS} players or more, not {len(names)}")
        keys = [name_key(name) for name in names]
        twice = next((name for name, key in zip(names, keys, strict=True) if keys.count(key) > 1), None)
        if twice is not None:
            raise ConfigError(f"two players are called {quoted_name(twice)}: give each a name of their own")
        for what, cents, minimum in (
            ("the ante", self.ante_cents, 1),
            ("the starting balance", self.starting_cents, self.ante_cents),
            ("the penalty", self.penalty_cents, 0),
        ):
            if type(cents) is not int or cents < minimum:
                raise ConfigError(f"{what} must be whole cents, at least {minimum} (got {cents!r})")
        if self.sets is None:
            object.__setattr__(self, "sets", default_sets(len(names)))
        else:
            check_sets(self.sets, len(names))
        if not self.dice_faces or any(type(f) is not int or f < 0 for f in self.dice_faces):
            raise ConfigError(f"dice faces are whole numbers from 0 up (got {self.dice_faces!r})")

    @property
    def sets_in_play(self) -> int:
        assert self.sets is not None, "set when the config is made"
        return self.sets

    @property
    def virtual(self) -> bool:
        return self.dominoes is Dominoes.VIRTUAL
