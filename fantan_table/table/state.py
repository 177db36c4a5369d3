"""The table's state as a fold over the journal: the game's ledger plus where the round stands.

:meth:`TableState.apply` is the only way the state changes, and it is all or nothing: every check
comes before the first change, so a refused event leaves the state as it was. Replaying a journal
after a power cut runs the very same code.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from ..rules.bets import parse_bet
from ..rules.errors import GameError
from ..rules.game import Game, RoundReport
from .codec import game_from_json
from .journal import DATABASE, Event, Journal

OnUnsure = Literal["reroll", "void"]
RECALL_ROUNDS = 10
SAME_PLACE = 0.25
"""Two dice are 'in the same place' when their centres are closer than this share of a die's side."""


class Stage(enum.Enum):
    BETTING = "betting"
    CLOSED = "closed"
    """No more bets: waiting for the cup to be lifted and the dice read."""
    CHECK = "check"
    """The dice look exactly as last round's: waiting for the banker to confirm they were shaken."""
    SHOWING = "showing"
    """The round is settled (or void) and its result is on show until the next round."""
    RAIDED = "raided"
    OVER = "over"


@dataclass(frozen=True)
class Die:
    value: int | None
    """``None`` for a die the reader could not read."""
    center: tuple[float, float]
    side: float
    angle: float = 0.0


@dataclass(frozen=True)
class ReadingRecord:
    source: str
    """"camera", or "hand" for dice the banker entered (an audited override)."""
    status: str
    dice: tuple[Die, ...]
    message: str
    frame: dict[str, str] | None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice if d.value is not None)


@dataclass(frozen=True)
class RoundRecord:
    """One finished round, for recall: what was bet, what the dice showed and what it paid."""

    report: RoundReport
    bets: dict[str, tuple[tuple[str, int], ...]]
    reading: ReadingRecord | None
    attempts: int
    """How many rolls were read before this result (1 unless the dice had to be rolled again)."""
    at: datetime


@dataclass
class TableState:
    game: Game
    on_unsure: OnUnsure = "reroll"
    stage: Stage = Stage.BETTING
    readings: list[ReadingRecord] = field(default_factory=list)
    """This round's readings, the failed ones included (each re-roll adds one)."""
    bet_events: int = 0
    """Bets placed or taken back this round: a resumed bot knows where its plan stopped."""
    shown: bool = True
    last_settled: ReadingRecord | None = None
    rounds: list[RoundRecord] = field(default_factory=list)
    _before_raid: Stage | None = None

    # -- what the table should do next (the same after a replay) ------------------------------------
    @property
    def latest(self) -> ReadingRecord | None:
        return self.readings[-1] if self.readings else None

    @property
    def ready_to_settle(self) -> bool:
        """An ok reading that nothing holds back: settle it (also after a restart, without reading again)."""
        return self.stage is Stage.CLOSED and self.latest is not None and self.latest.ok

    @property
    def ready_to_void(self) -> bool:
        """The reader could not read the dice and the house rule voids such a round."""
        latest = self.latest
        return (
            self.stage is Stage.CLOSED
            and latest is not None
            and latest.status in ("unsure", "error")
            and self.on_unsure == "void"
        )

    @property
    def attempts(self) -> int:
        """Rolls read this round so far (each re-roll is one more)."""
        return len(self.readings)

    @property
    def round(self) -> int:
        """The round being played, or the one on show."""
        return self.game.round - 1 if self.stage is Stage.SHOWING or self._showing_before_raid else self.game.round

    @property
    def _showing_before_raid(self) -> bool:
        return self.stage is Stage.RAIDED and self._before_raid is Stage.SHOWING

    def recall(self) -> list[RoundRecord]:
        return self.rounds[-RECALL_ROUNDS:]

    # -- the fold ---------------------------------------------------------------------------------
    @classmethod
    def replay(cls, events: list[Event]) -> TableState:
        if not events or events[0].kind != "setup":
            raise GameError("the journal does not start with a game's setup")
        state = cls.setup(events[0])
        for event in events[1:]:
            state.apply(event)
        return state

    @classmethod
    def setup(cls, event: Event) -> TableState:
        return cls(Game(game_from_json(event.data["game"])), on_unsure=event.data["on_unsure"])

    def apply(self, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind == "setup":
            raise GameError("a game is already set up in this journal")
        if event.round != self.round:
            raise GameError(f"an event for round {event.round} cannot apply in round {self.round}")
        if self.stage is Stage.RAIDED and kind != "resumed":
            raise GameError("the table was raided: resume the game first")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise GameError(f"unknown journal event {kind!r}")
        handler(data, event)

    def _on_bet(self, data: dict[str, Any], event: Event) -> None:
        self._require(Stage.BETTING, "place a bet")
        self.game.place(data["player"], parse_bet(data["bet"]), data["coins"])
        self.bet_events += 1

    def _on_unbet(self, data: dict[str, Any], event: Event) -> None:
        self._require(Stage.BETTING, "take a bet back")
        self.game.remove(data["player"], parse_bet(data["bet"]), data["coins"])
        self.bet_events += 1

    def _on_closed(self, data: dict[str, Any], event: Event) -> None:
        self._require(Stage.BETTING, "close betting")
        self.game.close_bets()
        self.stage = Stage.CLOSED

    def _on_reading(self, data: dict[str, Any], event: Event) -> None:
        self._require(Stage.CLOSED, "record a reading")
        dice = tuple(
            Die(d["value"], (d["center"][0], d["center"][1]), d["side"], d.get("angle", 0.0)) for d in data["dice"]
        )
        record = ReadingRecord(data["source"], data["status"], dice, data["message"], data.get("frame"))
        if record.ok and not (dice and all(type(d.value) is int and d.value >= 0 for d in dice)):
            raise GameError(f"dice must be whole numbers from 0 up (got {[d.value for d in dice]})")
        self.readings.append(record)
        if record.ok and record.source == "camera" and _same_roll(record, self.last_settled):
            self.stage = Stage.CHECK

    def _on_confirmed(self, data: dict[str, Any], event: Event) -> None:
        self._require(Stage.CHECK, "confirm the dice")
        self.stage = Stage.CLOSED

    def _on_reroll(self, data: dict[str, Any], event: Event) -> None:
        """The banker rejects the reading (the dice looked unshaken, or were read wrong): shake again."""
        if self.stage not in (Stage.CLOSED, Stage.CHECK) or self.latest is None:
            raise GameError("there is no reading to reject")
        self.readings[-1] = replace(self.readings[-1], status="rejected", message="the banker asked for a re-roll")
        self.stage = Stage.CLOSED

    def _on_settled(self, data: dict[str, Any], event: Event) -> None:
        if not self.ready_to_settle:
            raise GameError(f"round {self.round} has no ok reading to settle")
        reading = self.latest
        assert reading is not None
        if data["open"] != sum(reading.values) % 4:
            raise GameError(f"open number {data['open']} does not follow from the dice {list(reading.values)}")
        bets = self._layout()
        self._finish(self.game.settle(data["open"], event.at), bets, reading, event)
        self.last_settled = reading

    def _on_voided(self, data: dict[str, Any], event: Event) -> None:
        if self.stage not in (Stage.CLOSED, Stage.CHECK):
            raise GameError(f"cannot void round {self.round}: betting has not been closed")
        bets = self._layout()
        self._finish(self.game.void(event.at), bets, self.latest, event)

    def _on_shown(self, data: dict[str, Any], event: Event) -> None:
        self._require(Stage.SHOWING, "show a result")
        self.shown = True

    def _on_next(self, data: dict[str, Any], event: Event) -> None:
        self._require(Stage.SHOWING, "open the next round")
        self.stage = Stage.OVER if self.game.is_over else Stage.BETTING
        if self.stage is Stage.BETTING and self.game.finish_if_due(event.at):
            self.stage = Stage.OVER

    def _on_ended(self, data: dict[str, Any], event: Event) -> None:
        self._require(Stage.BETTING, "end the game")
        self.game.end()
        self.stage = Stage.OVER

    def _on_raid(self, data: dict[str, Any], event: Event) -> None:
        self.game.raid()
        self._before_raid, self.stage = self.stage, Stage.RAIDED

    def _on_resumed(self, data: dict[str, Any], event: Event) -> None:
        if self.stage is not Stage.RAIDED or self._before_raid is None:
            raise GameError("only a raided table can resume")
        self.game.resume()
        self.stage, self._before_raid = self._before_raid, None

    # -- helpers ------------------------------------------------------------------------------------
    def _layout(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """Every player's coins on the layout, as bet text and coins."""
        return {p.name: tuple((str(w.bet), w.coins) for w in self.game.wagers(p.name)) for p in self.game.players}

    def _finish(
        self,
        report: RoundReport,
        bets: dict[str, tuple[tuple[str, int], ...]],
        reading: ReadingRecord | None,
        event: Event,
    ) -> None:
        self.rounds.append(RoundRecord(report, bets, reading, len(self.readings), event.at))
        self.readings, self.bet_events = [], 0
        self.stage, self.shown = Stage.SHOWING, False

    def _require(self, stage: Stage, action: str) -> None:
        if self.stage is not stage:
            raise GameError(f"cannot {action} now: {_WHY[self.stage]}")


_WHY = {
    Stage.BETTING: "betting is open (call 'no more bets' first)",
    Stage.CLOSED: "betting is closed ('no more bets' was called)",
    Stage.CHECK: "the dice look unshaken; the banker must confirm or re-roll",
    Stage.SHOWING: "the last round's result is on show (press 'next round')",
    Stage.RAIDED: "the table was raided",
    Stage.OVER: "the game is over",
}


def _same_roll(new: ReadingRecord, old: ReadingRecord | None) -> bool:
    """Whether every die shows the same value in the same place as last round: the cup was probably not shaken."""
    if old is None or old.source != "camera" or sorted(new.values) != sorted(old.values):
        return False
    unmatched = list(old.dice)
    for die in new.dice:
        match = next(
            (
                o
                for o in unmatched
                if o.value == die.value and math.dist(o.center, die.center) < SAME_PLACE * max(o.side, die.side)
            ),
            None,
        )
        if match is None:
            return False
        unmatched.remove(match)
    return True


def has_finished_night(state_dir: Path) -> bool:
    """Whether the journal in ``state_dir`` holds a night whose game is over."""
    if not (state_dir / DATABASE).exists():
        return False
    journal = Journal(state_dir)
    try:
        events = journal.events()
        return bool(events) and TableState.replay(events).stage is Stage.OVER
    finally:
        journal.close()
