"""The banker of piecepack Fan Tan: every action checked against the rules, journaled, and only then shown.

The loop is every hosted game's (:mod:`.hosting`): an event is applied all or nothing, journaled, then shown
(the panel's LEDs, the display, the web page). Here are Fan Tan's own actions: a settlement follows an ok
reading at once; a reading that is not ok waits for a re-roll, or voids the round, as the house rule says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

from ...rules.bets import parse_bet
from ...rules.dice import ANY_DICE, DiceInUse
from ...rules.errors import RulesError
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
    FrameRef,
    Left,
    LinkIssued,
    LinkRevoked,
    NextRound,
    Raided,
    ReadingRecord,
    Reroll,
    Resumed,
    Seated,
    Setup,
    Voided,
    typed_dice,
)
from ...rules.game import GameConfig, Player, Suit
from ...rules.round import Action
from ...vision.reader import Reading
from .codec import reading_record
from .hosting import HostedTable
from .journal import Journal
from .state import FANTAN, OnUnsure, Stage, TableState

JPEG_QUALITY = 90
MAX_WHY = 200
"""A correction's reason, at most: a sentence for the record, not a letter."""


class TableError(RulesError):
    """An action the table refuses; the message says why and what to do instead."""


class Table(HostedTable[TableState, FanTanEvent]):
    """A night of piecepack Fan Tan: the banker's actions on the hosted-game loop."""

    def __init__(
        self,
        journal: Journal,
        setup: GameConfig,
        on_unsure: OnUnsure = "reroll",
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        dice: DiceInUse = ANY_DICE,
    ) -> None:
        """Resume the night in ``journal``, or start one with ``setup`` when the journal is empty. ``dice`` are the
        dice in use: what the banker may type by hand."""
        self.dice = dice
        super().__init__(journal, FANTAN, Setup(setup, on_unsure), clock)

    # -- the actions -----------------------------------------------------------------------------------
    def place(self, player: str, bet: str, coins: int = 1) -> None:
        self._do(BetPlaced(player, parse_bet(bet), coins))

    def remove(self, player: str, bet: str, coins: int = 1) -> None:
        self._do(BetTaken(player, parse_bet(bet), coins))

    def close_bets(self) -> None:
        self._do(BettingClosed())

    def record_reading(self, reading: Reading, frame: np.ndarray | None = None) -> None:
        """What the camera saw when it decided (its frame kept as JPEG, hashed, before the event)."""
        with self._lock:
            state = self.state
            if not state.awaits_dice or state.stage is Stage.CHECK:
                raise TableError(f"no reading is awaited now (the table is {state.stage.value})")
            frame_ref = None
            if frame is not None:
                ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
                if ok:
                    if state.stage is Stage.CHOOSING:
                        name = f"bank-roll-{len(state.bank_rolls) + 1}.jpg"
                    else:
                        name = f"round-{state.round:04d}-roll-{state.attempts + 1}.jpg"
                    saved = self.journal.save_frame(name, jpeg.tobytes())
                    frame_ref = FrameRef(saved.file, saved.sha256, (frame.shape[1], frame.shape[0]))
            self._do(DiceRead(reading_record(reading, frame_ref)))

    def enter_dice(self, values: Sequence[int], by: str = "banker", for_bank: str | None = None) -> None:
        """The banker's own count of the dice, used instead of the camera's: journaled as an override. Only the
        table's dice are taken (their number, their faces): a slip of the finger must not pay the wrong tile.

        While the players roll for the bank, ``for_bank`` names whose roll the banker checked the dice as: refused
        if the turn has moved on since (the camera read a roll meanwhile)."""
        self.check_dice(values)
        draw = self.state.game.draw
        if self.state.stage is Stage.CHOOSING and draw is not None and for_bank != draw.to_roll:
            raise TableError(
                f"these dice were checked as {for_bank or 'nobody'}'s roll for the bank, but {draw.to_roll} rolls "
                "now: check them again"
            )
        dice = typed_dice(values)
        self._do(DiceRead(ReadingRecord("hand", "ok", dice, f"entered by {by}", None)))

    def check_dice(self, values: Sequence[int]) -> None:
        """Dice typed by hand, checked as ``enter_dice`` would take them now, changing nothing: the preview the banker
        confirms must not offer to settle on dice the table would refuse (betting still open, say)."""
        self.dice.check(values)
        self.state.game.check_allowed(Action.READ)

    def confirm(self) -> None:
        """The dice were shaken after all: settle the reading that looked like last round's."""
        self._do(DiceConfirmed())

    def reroll(self) -> None:
        self._do(Reroll())

    def void(self, reason: str = "voided by the banker") -> None:
        self._do(Voided(reason))

    def next_round(self) -> None:
        self._do(NextRound())

    def end_game(self) -> None:
        """The banker ends the game between rounds; the final scoring table stays on show."""
        self._do(Ended())

    def raid(self) -> None:
        self._do(Raided())

    def resume(self) -> None:
        self._do(Resumed())

    # -- what every game's table has -------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.state.game.players)

    @property
    def links(self) -> dict[str, str]:
        """Fan Tan's links are its own events (they were before other games came): folded into its state."""
        return dict(self.state.links)

    def fault_event(self, reason: str) -> FanTanEvent:
        return Faulted(reason)

    # -- the page's guests -------------------------------------------------------------------------------
    def settled_on(self, round_number: int, values: Sequence[int]) -> int | None:
        """The open number round ``round_number`` stands settled on, once ``values`` are checked as the table's
        dice: what a correction to ``values`` would change, for the banker to confirm."""
        self.dice.check(values)
        return self.state.game.settlements_of(round_number)[-1].open_number

    def correct(self, round_number: int, values: Sequence[int], by: str, why: str) -> None:
        """Settle a past round again on the dice it really showed, as an audited correcting entry (the first
        settlement stays); only the table's dice, between rounds, with who and why."""
        self.dice.check(values)
        why = why.strip()
        if not why or len(why) > MAX_WHY:
            raise TableError(f"say why the round is corrected, in {MAX_WHY} characters at most")
        self._do(Corrected(round_number, tuple(values), by, why))

    def seat(self, player: str, suit: str, cents: int, by: str = "banker") -> None:
        """``player`` joins between rounds with the coins of ``suit`` and ``cents`` brought to the table."""
        try:
            coins = Suit(suit)
        except ValueError:
            raise TableError(f"no suit {suit!r}: one of {', '.join(s.value for s in Suit)}") from None
        self._do(Seated(Player(player, coins), cents, by))

    def leave(self, player: str, by: str = "banker") -> int:
        """``player`` leaves between rounds with their balance: what they take, in cents (their link ends)."""
        with self._lock:
            name = self.state.game.config.player(player).name
            cents = self.state.game.balance(name)
            self._do(Left(name, cents, by))
            return cents

    def record_login(self, address: str, ok: bool) -> None:
        """A try at the banker's PIN, kept in the night's record whether it was right or not."""
        self._do(BankerLogin(address, ok))

    def link(self, player: str, token_sha256: str) -> None:
        """Give ``player`` a new link for this game (its token's hash); the one before stops working."""
        self._do(LinkIssued(player, token_sha256))

    def unlink(self, player: str) -> None:
        """End ``player``'s link: a lost phone can no longer move their coins."""
        self._do(LinkRevoked(player))


def open_table(state_dir: Path, setup: GameConfig, on_unsure: OnUnsure = "reroll") -> Table:
    return Table(Journal(state_dir), setup, on_unsure)
