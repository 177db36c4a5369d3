"""One round at the table as a state machine, every move of it declared in one table.

The rules' :class:`~.game.Game` moves its round only through :meth:`RoundMachine.after`, and the
table's journal fold only through the game, so the two cannot disagree about what may happen when,
and a refusal reads the same wherever it comes from. The machine is pure: no I/O, no clock.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from .errors import GameError


class Stage(enum.Enum):
    CHOOSING = "choosing"
    """Before the first round: the players roll for the bank, the highest banks (``draw.BankDraw``)."""
    BETTING = "betting"
    CLOSED = "closed"
    """No more bets: waiting for the cup to be lifted and the dice read."""
    CHECK = "check"
    """The dice look exactly as last round's: waiting for the banker to confirm they were shaken."""
    SHOWING = "showing"
    """The round is settled (or void) and its result is on show until the next round."""
    RAIDED = "raided"
    """The police raided the house: everything waits, kept, until the game resumes."""
    OVER = "over"


class Action(enum.Enum):
    """What can happen to a round; the value is how a refusal names it ("cannot <value> now")."""

    BET = "place a bet"
    UNBET = "take a bet back"
    CLOSE = "close betting"
    READ = "record a reading"
    READ_UNSHAKEN = "record a reading that looks unshaken"
    CONFIRM = "confirm the dice"
    REROLL = "reject the reading"
    SETTLE = "settle the round"
    VOID = "void the round"
    SHOW = "show a result"
    NEXT = "open the next round"
    GAME_OVER = "close the game"
    """The game's end has come (agreed rounds, time, bankruptcy): play stops between rounds."""
    END = "end the game"
    """The banker ends the game between rounds."""
    RAID = "raid the house"
    RESUME = "resume the game"
    SEAT = "seat a player"
    """A player joins between rounds, with the money they bring."""
    LEAVE = "let a player leave"
    """A player leaves between rounds, taking their money."""


class _BeforeRaid(enum.Enum):
    STAGE = "the stage the raid interrupted"


BEFORE_RAID: Final = _BeforeRaid.STAGE
"""A resume goes back to where the raid found the round."""

_RAIDABLE: Final = (Stage.CHOOSING, Stage.BETTING, Stage.CLOSED, Stage.CHECK, Stage.SHOWING)

TRANSITIONS: Final[dict[tuple[Stage, Action], Stage | _BeforeRaid]] = {
    (Stage.CHOOSING, Action.READ): Stage.CHOOSING,
    (Stage.CHOOSING, Action.NEXT): Stage.BETTING,
    (Stage.CHOOSING, Action.END): Stage.OVER,
    (Stage.BETTING, Action.BET): Stage.BETTING,
    (Stage.BETTING, Action.UNBET): Stage.BETTING,
    (Stage.BETTING, Action.CLOSE): Stage.CLOSED,
    (Stage.BETTING, Action.END): Stage.OVER,
    (Stage.BETTING, Action.GAME_OVER): Stage.OVER,
    (Stage.CLOSED, Action.READ): Stage.CLOSED,
    (Stage.CLOSED, Action.READ_UNSHAKEN): Stage.CHECK,
    (Stage.CLOSED, Action.REROLL): Stage.CLOSED,
    (Stage.CLOSED, Action.SETTLE): Stage.SHOWING,
    (Stage.CLOSED, Action.VOID): Stage.SHOWING,
    (Stage.CHECK, Action.CONFIRM): Stage.CLOSED,
    (Stage.CHECK, Action.REROLL): Stage.CLOSED,
    (Stage.CHECK, Action.VOID): Stage.SHOWING,
    (Stage.SHOWING, Action.SHOW): Stage.SHOWING,
    (Stage.SHOWING, Action.NEXT): Stage.BETTING,
    (Stage.SHOWING, Action.GAME_OVER): Stage.OVER,
    **{(stage, action): stage for stage in (Stage.BETTING, Stage.SHOWING) for action in (Action.SEAT, Action.LEAVE)},
    **{(stage, Action.RAID): Stage.RAIDED for stage in _RAIDABLE},
    (Stage.RAIDED, Action.RESUME): BEFORE_RAID,
}
"""Every allowed move, (stage, action) -> the stage after it. Anything not listed is refused."""

WHY_NOT: Final[dict[Stage, str]] = {
    Stage.CHOOSING: "the players are rolling for the bank (the highest roll banks)",
    Stage.BETTING: "betting is open (call 'no more bets' first)",
    Stage.CLOSED: "betting is closed ('no more bets' was called)",
    Stage.CHECK: "the dice look unshaken; the banker must confirm or re-roll",
    Stage.SHOWING: "the last round's result is on show (press 'next round')",
    Stage.RAIDED: "the house was raided by the police (resume the game first)",
    Stage.OVER: "the game is over",
}
"""Why an action is refused in each stage: the one set of refusal texts for rules and table alike."""


def refusal(action: Action, stage: Stage, over_because: str | None = None) -> str:
    """The refusal of ``action`` in ``stage``; ``over_because`` says why a game that is over ended."""
    why = WHY_NOT[stage]
    if stage is Stage.OVER and over_because:
        why = f"{why} ({over_because})"
    return f"cannot {action.value} now: {why}"


@dataclass(frozen=True)
class RoundMachine:
    """Where the round stands, and (only while raided) where the raid found it."""

    stage: Stage = Stage.BETTING
    before_raid: Stage | None = None

    def allows(self, action: Action) -> bool:
        return (self.stage, action) in TRANSITIONS

    def after(self, action: Action, over_because: str | None = None) -> RoundMachine:
        """The machine after ``action``; refused (``GameError``, the rule's text) when the table does not list it."""
        target = TRANSITIONS.get((self.stage, action))
        if target is None:
            raise GameError(refusal(action, self.stage, over_because))
        if target is BEFORE_RAID:
            assert self.before_raid is not None, "a raided round always remembers its stage"
            return RoundMachine(self.before_raid)
        assert isinstance(target, Stage)
        return RoundMachine(target, self.stage if target is Stage.RAIDED else None)
