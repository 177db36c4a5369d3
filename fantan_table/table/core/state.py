"""The table's state as a fold over the journal: the game's ledger plus where the round stands.

:meth:`TableState.apply` is the only way the state changes, and it is all or nothing: every check
comes before the first change, so a refused event leaves the state as it was. Replaying a journal
after a power cut runs the very same code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, assert_never

from ...rules.dice import open_number
from ...rules.errors import GameError
from ...rules.events import (
    BankerLogin,
    BetPlaced,
    BetTaken,
    BettingClosed,
    Corrected,
    DiceConfirmed,
    DiceRead,
    Ended,
    FanTanEvent,
    Faulted,
    Left,
    LinkIssued,
    LinkRevoked,
    NextRound,
    Raided,
    ReadingRecord,
    Reroll,
    Resumed,
    Seated,
    Settled,
    Setup,
    Shown,
    Voided,
    typed_dice,
)
from ...rules.events import OnUnsure as OnUnsure  # the table's modules name the house rule from here
from ...rules.game import Game, RoundReport
from ...rules.games import HostedGame, Presentation, apply_stored, replay
from ...rules.round import Action
from ...rules.round import Stage as Stage  # the table's modules name the round's stages from here
from .codec import decode_event, encode_event
from .journal import Event, Journal, archive

RECALL_ROUNDS = 10
SAME_PLACE = 0.25
"""Two dice are 'in the same place' when their centres are closer than this share of a die's side."""


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
    readings: list[ReadingRecord] = field(default_factory=list)
    """This round's readings, the failed ones included (each re-roll adds one)."""
    bet_events: int = 0
    """Bets placed or taken back this round: a resumed bot knows where its plan stopped."""
    shown: bool = True
    last_settled: ReadingRecord | None = None
    rounds: list[RoundRecord] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)
    """Each player's link for this game, as the SHA-256 of its token (a player without one has no link yet)."""
    bank_rolls: list[ReadingRecord] = field(default_factory=list)
    """The readings of the roll for the first bank (the unsure and unshaken ones included), with their photos."""

    # -- what the table should do next (the same after a replay) ------------------------------------
    @property
    def stage(self) -> Stage:
        """Where the round stands: the game's own round machine, the only one."""
        return self.game.stage

    @property
    def awaits_dice(self) -> bool:
        """Whether a roll is awaited from the camera: betting closed (or the unshaken check), or a player's roll
        for the bank while it is undecided."""
        if self.stage is Stage.CHOOSING:
            return self.game.draw is not None and self.game.draw.to_roll is not None
        return self.stage in (Stage.CLOSED, Stage.CHECK)

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
        return self.game.round

    def recall(self) -> list[RoundRecord]:
        return self.rounds[-RECALL_ROUNDS:]

    # -- the fold ---------------------------------------------------------------------------------
    @classmethod
    def replay(cls, events: list[Event]) -> TableState:
        return replay(FANTAN, events)

    @classmethod
    def setup(cls, event: Setup) -> TableState:
        return cls(Game(event.game), on_unsure=event.on_unsure)

    def apply(self, event: Event) -> None:
        """Apply one journal event (decoded to its type first), all or nothing."""
        apply_stored(FANTAN, self, event)

    def apply_typed(self, event: FanTanEvent, at: datetime) -> None:
        """Apply one event, all or nothing: every check comes before the first change."""
        game = self.game
        match event:
            case Setup():
                raise GameError("a game is already set up in this journal")
            case BetPlaced(player=player, bet=bet, coins=coins):
                game.place(player, bet, coins)
                self.bet_events += 1
            case BetTaken(player=player, bet=bet, coins=coins):
                game.remove(player, bet, coins)
                self.bet_events += 1
            case BettingClosed():
                game.close_bets()
            case DiceRead(reading=reading):
                self._on_reading(reading)
            case DiceConfirmed():
                game.step(Action.CONFIRM)
            case Reroll():
                if game.machine.allows(Action.REROLL) and self.latest is None:
                    raise GameError("there is no reading to reject")
                game.step(Action.REROLL)
                assert self.latest is not None
                self.readings[-1] = replace(self.latest, status="rejected", message="the banker asked for a re-roll")
            case Settled(open_number=number):
                self._on_settled(number, at)
            case Voided():
                bets = self._layout()
                self._finish(game.void(at), bets, self.latest, at)
            case Shown():
                game.step(Action.SHOW)
                self.shown = True
            case NextRound():
                game.next_round(at)
            case Ended():
                game.end()
            case Raided():
                game.raid()
            case Resumed():
                game.resume()
            case Corrected(round=number, dice=dice, by=by, why=why):
                self._on_corrected(number, dice, f"corrected by {by}: {why}", at)
            case Faulted() | BankerLogin():
                pass  # kept for the record (why the table stopped, who tried the PIN); the game is as it was
            case LinkIssued(player=player, token_sha256=digest):
                self.links[game.config.player(player).name] = digest
            case LinkRevoked(player=player):
                self.links.pop(game.config.player(player).name, None)
            case Seated(player=player, cents=cents):
                game.seat(player, cents)
            case Left(player=player, cents=cents):
                name = game.config.player(player).name
                if game.balance(name) != cents:
                    raise GameError(f"{name} holds {game.balance(name)} cents, not the {cents} the record says")
                game.leave(name)
                self.links.pop(name, None)
            case _:
                assert_never(event)

    def _on_reading(self, record: ReadingRecord) -> None:
        dice = record.dice
        if record.ok and not (dice and all(type(d.value) is int and d.value >= 0 for d in dice)):
            raise GameError(f"dice must be whole numbers from 0 up (got {[d.value for d in dice]})")
        if self.stage is Stage.CHOOSING:
            self._on_bank_roll(record)
            return
        unshaken = record.ok and record.source == "camera" and _same_roll(record, self.last_settled)
        self.game.step(Action.READ_UNSHAKEN if unshaken else Action.READ)
        self.readings.append(record)

    def _on_bank_roll(self, record: ReadingRecord) -> None:
        """A roll for the bank counts when it is read ok and was shaken (not lying as the roll before it);
        otherwise the same player rolls again, as with any roll the table cannot trust."""
        last = next((r for r in reversed(self.bank_rolls) if r.ok), None)
        if record.ok and record.source == "camera" and _same_roll(record, last):
            record = replace(record, status="rejected", message="the dice lie as the roll before: shake them")
        if record.ok:
            self.game.roll_for_bank(record.values)
        else:
            self.game.step(Action.READ)
        self.bank_rolls.append(record)

    def _on_settled(self, number: int, at: datetime) -> None:
        if not self.ready_to_settle:
            raise GameError(f"round {self.round} has no ok reading to settle")
        reading = self.latest
        assert reading is not None
        if number != open_number(reading.values):
            raise GameError(f"open number {number} does not follow from the dice {list(reading.values)}")
        bets = self._layout()
        self._finish(self.game.settle(number, at), bets, reading, at)
        self.last_settled = reading

    def _on_corrected(self, number: int, dice: tuple[int, ...], message: str, at: datetime) -> None:
        if not dice or not all(type(v) is int and v >= 0 for v in dice):
            raise GameError(f"dice must be whole numbers from 0 up (got {list(dice)})")
        report = self.game.correct(number, open_number(dice))
        first = next(r for r in self.rounds if r.report.round == number)
        record = ReadingRecord("hand", "ok", typed_dice(dice), message, None)
        self.rounds.append(RoundRecord(report, first.bets, record, 0, at))

    # -- helpers ------------------------------------------------------------------------------------
    def _layout(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """Every player's coins on the layout, as bet text and coins."""
        return {p.name: tuple((str(w.bet), w.coins) for w in self.game.wagers(p.name)) for p in self.game.players}

    def _finish(
        self,
        report: RoundReport,
        bets: dict[str, tuple[tuple[str, int], ...]],
        reading: ReadingRecord | None,
        at: datetime,
    ) -> None:
        self.rounds.append(RoundRecord(report, bets, reading, len(self.readings), at))
        self.readings, self.bet_events = [], 0
        self.shown = False


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


def open_night(state_dir: Path, stamp: str) -> tuple[Journal, Path | None]:
    """The journal of the night to play in ``state_dir``, opened (and so checked whole) once, and where a night that
    was over went: it is moved to ``nights/STAMP`` first and a new journal begins."""
    journal = Journal(state_dir)
    events = journal.events()
    if not (events and TableState.replay(events).stage is Stage.OVER):
        return journal, None
    journal.close()
    moved = archive(state_dir, stamp)
    return Journal(state_dir), moved


class FanTan:
    """Piecepack Fan Tan as a hosted game (:class:`~fantan_table.rules.games.HostedGame`): the table's
    journal, replay and loop reach the rules, the events and the reading only through these methods."""

    name = "fantan"

    def start(self, setup: FanTanEvent) -> TableState:
        if not isinstance(setup, Setup):
            raise GameError("the journal does not start with a game's setup")
        return TableState.setup(setup)

    def apply(self, state: TableState, event: FanTanEvent, at: datetime) -> TableState:
        state.apply_typed(event, at)
        return state

    def round_of(self, state: TableState) -> int:
        return state.round

    def follow_up(self, state: TableState) -> FanTanEvent | None:
        """Settle an ok reading, or void an unreadable roll when the house rule says so (also after a restart)."""
        latest = state.latest
        if state.ready_to_settle and latest is not None:
            return Settled(open_number(latest.values), latest.values)
        if state.ready_to_void and latest is not None:
            return Voided(f"the dice could not be read: {latest.message}")
        return None

    def seen(self, state: TableState) -> FanTanEvent | None:
        return Shown() if state.stage is Stage.SHOWING and not state.shown else None

    def encode(self, event: FanTanEvent) -> tuple[str, dict[str, Any]]:
        return encode_event(event)

    def decode(self, kind: str, data: Mapping[str, Any]) -> FanTanEvent:
        return decode_event(kind, data)

    def present(self, state: TableState) -> Presentation:
        """Bets open lights the 'bets open' LED; a result on show lights its open tile (no LED while the players
        roll for the bank: the display names whose roll it is)."""
        showing = state.stage is Stage.SHOWING and bool(state.rounds)
        game = state.game
        return Presentation(
            stage=state.stage.value,
            round=state.round,
            accepting=state.stage is Stage.BETTING,
            lit=state.rounds[-1].report.open_number if showing else None,
            over=game.end_reason.value if state.stage is Stage.OVER and game.end_reason else None,
        )


FANTAN: HostedGame[TableState, FanTanEvent] = FanTan()
"""The first hosted game; the table uses it through the interface, so a second game plugs in beside it."""
