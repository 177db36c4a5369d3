"""Every choice the three rule documents make differently, as named options, each with its document's default.

001 is CatsAtCards' Fan Tan (3-6 players, chips), 002 the "Card Dominoes / Parliament" text (any number, a
pool of units), 004 the French "Le fan-tan" (2-6 players, points or chips, a two-player dummy hand). Where all
three agree (a pass costs one chip to the pool; the winner takes the pool and one chip per card left in each
other hand) it is a rule, not an option. Where a document is silent, the preset says so in its comment.
docs/sevens.md tables every option with its document and its test.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from ..errors import ConfigError
from .cards import PACK, Suit


class Players(enum.Enum):
    """How many may play: 001 says 3 to 6, 002 "any reasonable number", 004 2 to 6."""

    THREE_TO_SIX = "3-6"
    ANY = "any"
    TWO_TO_SIX = "2-6"

    @property
    def bounds(self) -> tuple[int, int]:
        return _PLAYER_BOUNDS[self]


FEWEST_ANY: Final = 2
"""002's "any number": two at least, or nobody is held up by anyone."""
MOST_ANY: Final = len(PACK)
"""002's "any number": at most one player per card, so every player is dealt a card."""
_PLAYER_BOUNDS: Final = {Players.THREE_TO_SIX: (3, 6), Players.ANY: (FEWEST_ANY, MOST_ANY), Players.TWO_TO_SIX: (2, 6)}


class Dummy(enum.Enum):
    """004's two-player variant: a third hand dealt face down; a player who cannot play draws from it, one card
    at a time, until a playable card comes, instead of passing. It applies only when two play."""

    NONE = "none"
    DRAW_PILE = "draw-pile"


class FirstDealer(enum.Enum):
    """Who deals first: 001 deals face up until a Jack comes; 002 the highest cut; 004 the lowest cut."""

    FIRST_JACK = "first-jack"
    HIGHEST_CUT = "highest-cut"
    LOWEST_CUT = "lowest-cut"


class NextDealer(enum.Enum):
    """Who deals the next hand: 001 the hand's winner; 002 the deal passes to the left."""

    WINNER = "winner"
    LEFT = "left"


class Deal(enum.Enum):
    """How the pack is dealt. 001: all of it, and a player dealt a card fewer pays one more chip into the pool;
    002: all of it, nothing more; 004: cards of one suit taken out first so every hand is equal."""

    WHOLE_PACK_SHORT_PAYS = "short-pays"
    WHOLE_PACK = "whole-pack"
    EQUAL_HANDS = "equal-hands"


class Ante(enum.Enum):
    """What each player puts into the pool when a hand is dealt: 001 one chip; 002 the stake agreed ("the number of
    units they want to play for"); 004's chip game has none (its pool is the passes)."""

    ONE_CHIP = "one-chip"
    AGREED_STAKE = "stake"
    NONE = "none"


class Revoke(enum.Enum):
    """Passing while able to play. 001 and 002: three chips to the pool, and a player who passed holding a seven
    pays five chips each to the holders of that suit's six and eight. 004 only says a player who can play must."""

    PENALISED = "penalised"
    NOT_PENALISED = "not-penalised"


class Scoring(enum.Enum):
    """001 and 002 score with chips; 004 offers points (the winner scores one per card left in the others' hands)
    or chips. With points, no chip changes hands: ante, passes and penalties are chip rules."""

    CHIPS = "chips"
    POINTS = "points"


class End(enum.Enum):
    """When the game ends. 001: after the agreed number of hands, or at the end of the hand in which a player runs
    out of chips; 002 does not say (we stop after the agreed number of hands); 004: the first to the points
    target (50 for example)."""

    AGREED_HANDS = "hands"
    AGREED_HANDS_OR_BROKE = "hands-or-broke"
    POINTS_TARGET = "points-target"


class CardMode(enum.Enum):
    """Not a document's choice but the table's: real cards the table cannot see, or virtual cards it deals."""

    PHYSICAL = "physical"
    """The table knows the layout, the turns and how many cards each hand holds, not which: a play is checked
    against the layout only, a pass is taken (a revoke is claimed later, against the cards then shown)."""
    VIRTUAL = "virtual"
    """The table deals and knows every hand: it refuses a pass while a play is possible, so no revoke happens."""


@dataclass(frozen=True)
class Options:
    """One choice per rule the documents differ on. The defaults are 001's; :data:`PRESETS` has each document's."""

    players: Players = Players.THREE_TO_SIX
    dummy: Dummy = Dummy.NONE
    first_dealer: FirstDealer = FirstDealer.FIRST_JACK
    next_dealer: NextDealer = NextDealer.WINNER
    deal: Deal = Deal.WHOLE_PACK_SHORT_PAYS
    removed_suit: Suit = Suit.SPADES
    """The suit whose cards :attr:`Deal.EQUAL_HANDS` takes out: 004 says "of the same suit" without naming one."""
    ante: Ante = Ante.ONE_CHIP
    revoke: Revoke = Revoke.PENALISED
    scoring: Scoring = Scoring.CHIPS
    end: End = End.AGREED_HANDS_OR_BROKE

    def __post_init__(self) -> None:
        if self.end is End.POINTS_TARGET and self.scoring is not Scoring.POINTS:
            raise ConfigError("a points target ends a game scored by points (004): choose scoring by points")
        if self.end is End.AGREED_HANDS_OR_BROKE and self.scoring is not Scoring.CHIPS:
            raise ConfigError("running out of chips ends a game scored with chips (001): choose scoring by chips")

    @property
    def chips_move(self) -> bool:
        return self.scoring is Scoring.CHIPS


RULES_001: Final = Options()
"""CatsAtCards' Fan Tan (001), as written."""
RULES_002: Final = Options(
    players=Players.ANY,
    first_dealer=FirstDealer.HIGHEST_CUT,
    next_dealer=NextDealer.LEFT,
    deal=Deal.WHOLE_PACK,
    ante=Ante.AGREED_STAKE,
    end=End.AGREED_HANDS,  # 002 does not say when the game ends
)
"""The Card Dominoes / Parliament text (002), as written."""
RULES_004: Final = Options(
    players=Players.TWO_TO_SIX,
    dummy=Dummy.DRAW_PILE,
    first_dealer=FirstDealer.LOWEST_CUT,
    next_dealer=NextDealer.LEFT,  # 004 does not say: the deal passes to the left, as in 002
    deal=Deal.EQUAL_HANDS,
    ante=Ante.NONE,
    revoke=Revoke.NOT_PENALISED,
    scoring=Scoring.POINTS,
    end=End.POINTS_TARGET,
)
"""Le fan-tan (004) with its points system and its two-player dummy hand."""
PRESETS: Final = {"001": RULES_001, "002": RULES_002, "004": RULES_004}
"""Each document's options by the document's number."""

STARTING_CHIPS: Final = 50
"""Each player's chips at the start: 001 gives "such as 50 or 100"."""
POINTS_TARGET: Final = 50
"""The points that win: 004's example ("par exemple 50 points")."""
SMALLEST_STAKE: Final = 1
"""002's stake is what the players agree; one unit unless they say more."""


@dataclass(frozen=True)
class Agreed:
    """The numbers the players agree before a game: the documents leave each to them."""

    hands: int | None = None
    """How many hands make the game (001: "a set number of hands"); needed unless a points target ends it."""
    starting_chips: int = STARTING_CHIPS
    stake: int = SMALLEST_STAKE
    """Each player's ante under :attr:`Ante.AGREED_STAKE` (002)."""
    points_target: int = POINTS_TARGET

    def check(self, options: Options) -> None:
        """Refuse numbers the options cannot play with (a :class:`ConfigError` naming the rule)."""
        if self.hands is None and options.end is not End.POINTS_TARGET:
            raise ConfigError("agree a number of hands: the game ends after them (001)")
        if self.hands is not None and self.hands < 1:
            raise ConfigError(f"a game of {self.hands} hands: agree one hand at least")
        if self.starting_chips < 0:
            raise ConfigError(f"{self.starting_chips} chips to start: a player starts with none or more")
        if self.stake < 1:
            raise ConfigError(f"a stake of {self.stake}: the agreed stake is one unit or more (002)")
        if self.points_target < 1:
            raise ConfigError(f"a target of {self.points_target} points: agree one point or more (004)")


EQUAL_HANDS_MOST: Final = 6
"""004 says which cards to take out for up to six players; beyond, it does not say."""


def check_seats(options: Options, seats: int) -> None:
    """Refuse a number of players the options do not allow (a :class:`ConfigError` naming the document)."""
    fewest, most = options.players.bounds
    if not fewest <= seats <= most:
        raise ConfigError(f"{seats} players: these rules ({options.players.value}) are for {fewest} to {most}")
    if options.deal is Deal.EQUAL_HANDS and seats > EQUAL_HANDS_MOST:
        raise ConfigError(f"{seats} players: 004 makes hands equal for 2 to {EQUAL_HANDS_MOST} players only")
