"""The banker of Collecting Tens: every move checked by the rules, journaled, and only then shown.

The loop is every hosted game's (:mod:`.hosting`); here are Collecting Tens' own actions. The roll for the
first player comes from the camera's reader or is typed by hand, both checked against the four dice in use.
Virtual dominoes are shuffled and dealt by the table (a seeded shuffle, or one from ``secrets``: the order
dealt is journaled, so a replay never shuffles again); physical dominoes are dealt by the players and the
table is told they were. A declared physical hand is entered tile by tile, then checked as a whole.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import cv2
import numpy as np

from ...rules.dice import DiceInUse
from ...rules.errors import GameError
from ...rules.events import FrameRef, ReadingRecord, typed_dice
from ...rules.names import normal_form, quoted_name
from ...rules.tens.countoff import FIRST_ROLL_DICE
from ...rules.tens.dominoes import Tile, check_available, domino_sets, parse_tile
from ...rules.tens.events import (
    Dealt,
    Declared,
    Discarded,
    Drew,
    Ended,
    Faulted,
    NextHand,
    Rolled,
    TensEvent,
    TensSetup,
    Took,
)
from ...rules.tens.game import Stage, TensState
from ...rules.tens.hand import HAND_TILES
from ...rules.tens.hosted import TENS
from ...rules.tens.options import TensConfig
from ...rules.tens.woodpile import shuffled
from ...vision.reader import Reading, Status
from .codec import reading_from_json, reading_record, reading_to_json
from .hosting import READING, HostedTable
from .journal import Journal

JPEG_QUALITY = 90

TileText = Tile | str
"""A tile, or how a player types one (``"6-2"``, ``"62"``)."""


class TensTable(HostedTable[TensState, TensEvent]):
    """A night of Collecting Tens: the banker's actions on the hosted-game loop."""

    def __init__(
        self,
        journal: Journal,
        config: TensConfig,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """Resume the night in ``journal``, or begin one with ``config`` when the journal is empty (a resumed
        night keeps the config it began with)."""
        super().__init__(journal, TENS, TensSetup(config), clock)
        self.dice = DiceInUse(self.state.config.dice_faces, FIRST_ROLL_DICE)
        """The four dice rolled for the first player: what the camera or the banker may report."""
        self._readings: dict[int, list[ReadingRecord]] = {}
        """Each hand's readings of the roll for its first player, in order: the camera's (with its photo) and the
        banker's typed dice, kept as the table's own journal rows so the page draws the roll as it was read."""
        for row in journal.events():
            if row.kind == READING:
                self._readings.setdefault(row.round, []).append(reading_from_json(row.data))
        self._entered: tuple[Tile, ...] = ()
        """The physical hand the player to move is typing in, tile by tile, before declaring it: kept by the
        table, not journaled (a restart mid-entry loses only the typing), emptied when a turn begins."""

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    def fault_event(self, reason: str) -> TensEvent:
        return Faulted(reason)

    # -- the roll for the first player -----------------------------------------------------------------------
    def roll(self, values: Sequence[int], by: str | None = None, for_hand: int | None = None) -> None:
        """The four dice as the banker typed them (the audited fallback to the camera): ``by`` names who typed
        them, kept with the roll as the table's record of a reading entered by hand. ``for_hand`` is the hand they
        were checked for (:meth:`check_roll`): the camera may have read the roll since, and the next hand begun."""
        self.dice.check(values)
        if for_hand is not None and for_hand != self.state.hand:
            raise GameError(f"those dice were checked for hand {for_hand}'s roll; it is hand {self.state.hand} now")
        if by is None:
            self._do(Rolled(tuple(values)))
            return
        with self._lock:
            self._check_roll(tuple(values))
            self._keep(ReadingRecord("hand", "ok", typed_dice(values), f"entered by {by}", None))
            self._do(Rolled(tuple(values)))

    def read_roll(self, reading: Reading) -> None:
        """The four dice as the camera's reader saw them: only a reading it is sure of counts; any other is
        refused, and the dice are rolled again (or typed by hand)."""
        if reading.status is not Status.OK:
            raise GameError(
                f"the dice could not be read for sure ({reading.message or reading.status.value}): roll again"
            )
        self.roll(reading.values)

    def record_reading(self, reading: Reading, frame: np.ndarray | None = None) -> None:
        """What the camera saw when its watcher decided: the photo kept (JPEG, hashed) and the reading journaled
        with it, then, if the reader was sure, the roll. An unsure reading is kept too (the page shows why) and the
        dice are rolled again: a reading is never guessed at. A sure reading the rules refuse as a roll (four
        blanks count off nobody) is kept as what the camera saw, and the refusal raised: roll again."""
        with self._lock:
            if self.state.stage is not Stage.ROLLING:
                raise GameError(f"no roll is awaited now (the hand is {self.state.stage.value})")
            ok = reading.status is Status.OK
            frame_ref = None
            if frame is not None:
                encoded, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
                if encoded:
                    tries = len(self._readings.get(self.state.hand, ())) + 1
                    saved = self.journal.save_frame(f"hand-{self.state.hand:04d}-roll-{tries}.jpg", jpeg.tobytes())
                    frame_ref = FrameRef(saved.file, saved.sha256, (frame.shape[1], frame.shape[0]))
            self._keep(reading_record(reading, frame_ref))
            if ok:
                self._do(Rolled(tuple(reading.values)))

    def check_roll(self, values: Sequence[int]) -> TensState:
        """Dice typed by hand, checked as :meth:`roll` checks them but not rolled: the state they would make, whose
        count-off names the first player. The banker sees who that is and confirms (a typing slip would pick the
        wrong first player)."""
        with self._lock:
            return self._check_roll(tuple(values))

    @property
    def latest_reading(self) -> ReadingRecord | None:
        """The last reading of this hand's roll for the first player, if any."""
        kept = self._readings.get(self.state.hand)
        return kept[-1] if kept else None

    def _check_roll(self, values: tuple[int, ...]) -> TensState:
        """Refuse a roll the rules would refuse, before its reading is kept as the roll; the state it would make."""
        self.dice.check(values)
        return self.game.apply(self.state, Rolled(values), self._clock())  # pure: the state is a frozen value

    def _keep(self, record: ReadingRecord) -> None:
        hand = self.state.hand  # on disk first: then the table and its screens know it
        self._table_row(READING, reading_to_json(record), lambda: self._readings.setdefault(hand, []).append(record))

    # -- the deal ---------------------------------------------------------------------------------------------
    def deal(self, seed: int | None = None) -> None:
        """Virtual dominoes: shuffle (by ``seed``, or from ``secrets`` when none is given) and deal. Physical
        dominoes: the players built the woodpile and dealt; the table is told so (no seed, no tiles)."""
        config = self.state.config
        if not config.virtual:
            if seed is not None:
                raise GameError("physical dominoes are shuffled by the players: the table takes no seed")
            self._begin_turn(Dealt())
        elif seed is None:
            order = list(domino_sets(config.sets_in_play))
            secrets.SystemRandom().shuffle(order)
            self._begin_turn(Dealt(tuple(order)))
        else:
            self._begin_turn(Dealt(shuffled(config.sets_in_play, seed)))

    # -- a turn -----------------------------------------------------------------------------------------------
    def took(self, player: str) -> None:
        """``player`` took the last discard."""
        self._begin_turn(Took(player))

    def drew(self, player: str) -> None:
        """``player`` drew the woodpile's next tile."""
        self._begin_turn(Drew(player))

    def discarded(self, player: str, tile: TileText | None = None) -> None:
        """``player`` laid a tile face up: which one with virtual dominoes; none is named with physical ones."""
        self._do(Discarded(player, None if tile is None else _tile(tile)))

    def enter_tile(self, player: str, tile: TileText) -> tuple[Tile, ...]:
        """One tile of the physical hand ``player`` is about to declare; the tiles entered so far."""
        with self._lock:
            tiles = (*self.entered(player), _tile(tile))
            if len(tiles) > HAND_TILES:
                raise GameError(f"a declared hand is {HAND_TILES} tiles: all are entered already")
            check_available(tiles, self.state.config.sets_in_play)
            self._entered = tiles
            return tiles

    def take_back_tile(self, player: str) -> tuple[Tile, ...]:
        """Undo the last tile ``player`` entered (a slip of the finger); the tiles entered so far."""
        with self._lock:
            if not self.entered(player):
                raise GameError("no tile has been entered: there is none to take back")
            self._entered = self._entered[:-1]
            return self._entered

    def entered(self, player: str) -> tuple[Tile, ...]:
        """The tiles of the hand ``player`` has entered so far this turn; they must be the player to move,
        holding ten physical tiles."""
        with self._lock:
            state = self.state
            if state.config.virtual:
                raise GameError("with virtual dominoes the table knows the hand: no tiles are entered")
            if state.stage is not Stage.HOLDING:
                raise GameError("a hand is entered by the player to move, holding ten tiles")
            if state.player_to_move != normal_form(player):
                raise GameError(f"{quoted_name(state.player_to_move or '')} is to move, not {quoted_name(player)}")
            return self._entered

    @property
    def entered_so_far(self) -> tuple[Tile, ...]:
        """The tiles entered of the hand about to be declared (for the page), whoever is to move."""
        return self._entered

    def declare(self, player: str) -> None:
        """``player`` declares a complete hand: the tiles entered with physical dominoes, the hand the table
        dealt with virtual ones. A hand that is not complete is refused with why (and, if the house sets a
        penalty, the claim is kept and paid for); the entered tiles stay, to be corrected."""
        with self._lock:
            if self.state.config.virtual:
                self._do(Declared(player))
                return
            tiles = self.entered(player)
            if len(tiles) != HAND_TILES:
                raise GameError(f"enter all {HAND_TILES} tiles of the hand before declaring ({len(tiles)} entered)")
            self._do(Declared(player, tiles))

    # -- between hands ----------------------------------------------------------------------------------------
    def next_hand(self) -> None:
        """Everyone antes and the next seat rolls."""
        self._do(NextHand())

    def end(self) -> None:
        """The banker ends the night (any time): the pot goes back to whoever put it in."""
        self._do(Ended())

    def _begin_turn(self, event: TensEvent) -> None:
        """A move after which a player holds ten tiles: a new turn, so no tiles are entered yet."""
        with self._lock:
            self._do(event)
            self._entered = ()


def _tile(tile: TileText) -> Tile:
    return tile if isinstance(tile, Tile) else parse_tile(tile)
