"""A night of Collecting Tens as a fold of its events: every move declared in one table, every refusal named.

:func:`start` makes the state a setup event makes; :func:`apply` gives the state after one event, or refuses
it (a ``RulesError`` naming the rule) with the state unchanged: every check comes before the first change,
and the state is a frozen value, so a refusal cannot leave half a move behind.

A hand: everyone antes, the player whose turn it is to roll rolls four dice and counts off the first
player, the tiles are dealt, and then the player to move, holding ten tiles, declares a complete hand or
discards one; the next player takes that discard or draws, and holds ten in turn. A true declaration takes
the pot; a woodpile run dry draws the hand (:class:`~.options.WhenDry`). The roll passes one seat on each hand.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, replace
from typing import Final

from ..dice import DiceInUse
from ..errors import GameError
from ..money import format_cents
from ..names import normal_form, quoted_name
from .countoff import FIRST_ROLL_DICE, first_player
from .dominoes import domino_sets
from .errors import FalseDeclaration, TileError
from .events import (
    Dealt,
    Declared,
    Discarded,
    Drew,
    Ended,
    Faulted,
    NextHand,
    Rolled,
    Shown,
    TensEvent,
    TensSetup,
    Took,
)
from .hand import CompleteHand, check_hand
from .money import Money
from .options import TensConfig, WhenDry
from .tiles import Seen, Tiles


class Stage(enum.Enum):
    ROLLING = "rolling"
    """The antes are in: the player whose turn it is rolls four dice for the first player."""
    DEALING = "dealing"
    """The first player is known: the woodpile is built and dealt."""
    TAKING = "taking"
    """The player to move holds nine tiles: they take the last discard or draw."""
    HOLDING = "holding"
    """The player to move holds ten tiles: they declare a complete hand or discard."""
    SHOWING = "showing"
    """The hand is won or drawn, its result on show until the next hand."""
    OVER = "over"


class Action(enum.Enum):
    """What can happen; the value is how a refusal names it ("cannot <value> now")."""

    ROLL = "roll for the first player"
    DEAL = "deal the tiles"
    TAKE = "take the last discard"
    DRAW = "draw from the woodpile"
    DISCARD = "discard a tile"
    DISCARD_LAST = "discard with the woodpile empty"
    """The discard that leaves nothing to draw: the hand is drawn."""
    DECLARE = "declare a complete hand"
    DECLARE_FALSELY = "pay for a false declaration"
    SHOW = "show the result"
    NEXT = "start the next hand"
    END = "end the night"
    FAULT = "record a fault"


TRANSITIONS: Final[dict[tuple[Stage, Action], Stage]] = {
    (Stage.ROLLING, Action.ROLL): Stage.DEALING,
    (Stage.DEALING, Action.DEAL): Stage.HOLDING,
    (Stage.TAKING, Action.TAKE): Stage.HOLDING,
    (Stage.TAKING, Action.DRAW): Stage.HOLDING,
    (Stage.HOLDING, Action.DISCARD): Stage.TAKING,
    (Stage.HOLDING, Action.DISCARD_LAST): Stage.SHOWING,
    (Stage.HOLDING, Action.DECLARE): Stage.SHOWING,
    (Stage.HOLDING, Action.DECLARE_FALSELY): Stage.HOLDING,
    (Stage.SHOWING, Action.SHOW): Stage.SHOWING,
    (Stage.SHOWING, Action.NEXT): Stage.ROLLING,
    **{(stage, Action.END): Stage.OVER for stage in Stage if stage is not Stage.OVER},
    **{(stage, Action.FAULT): stage for stage in Stage},
}
"""Every allowed move, (stage, action) -> the stage after it. Anything not listed is refused."""

WHY_NOT: Final[dict[Stage, str]] = {
    Stage.ROLLING: "the first player is not known yet (roll the four dice)",
    Stage.DEALING: "the tiles are not dealt yet",
    Stage.TAKING: "the player to move holds nine tiles (take the last discard or draw first)",
    Stage.HOLDING: "the player to move holds ten tiles (declare or discard first)",
    Stage.SHOWING: "the hand is over (start the next hand)",
    Stage.OVER: "the night is over",
}
"""Why an action is refused in each stage."""


def refusal(action: Action, stage: Stage) -> str:
    return f"cannot {action.value} now: {WHY_NOT[stage]}"


@dataclass(frozen=True)
class FalseClaim:
    """A declared hand that was not complete, when the house charges for one."""

    player: str
    why: str
    penalty_cents: int
    """What was paid into the pot: the penalty, or all the player held if less."""


@dataclass(frozen=True)
class HandResult:
    hand: int
    winner: str | None
    """``None``: the woodpile ran dry and the hand was drawn."""
    pot_cents: int
    """What the winner took; for a drawn hand, what the pot held when it ran dry."""
    complete: CompleteHand | None = None
    """How the winning hand was made."""


@dataclass(frozen=True)
class TensState:
    config: TensConfig
    money: Money
    stage: Stage = Stage.ROLLING
    hand: int = 1
    """The hand under way or on show; the journal files events under it."""
    roller: int = 0
    """The seat that rolls for this hand's first player."""
    dice: tuple[int, ...] | None = None
    first: int | None = None
    to_move: int | None = None
    """The seat whose turn it is while the hand is played."""
    tiles: Tiles | None = None
    """Where every tile is, once dealt."""
    false_claims: tuple[FalseClaim, ...] = ()
    """This hand's."""
    results: tuple[HandResult, ...] = ()
    shown: bool = False
    over: str | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    @property
    def player_to_move(self) -> str | None:
        return None if self.to_move is None else self.players[self.to_move]

    def after(self, action: Action) -> Stage:
        target = TRANSITIONS.get((self.stage, action))
        if target is None:
            why = refusal(action, self.stage)
            raise GameError(f"{why} ({self.over})" if self.stage is Stage.OVER and self.over else why)
        return target


def start(setup: TensSetup) -> TensState:
    """The first hand, its antes in, waiting for seat 0 to roll."""
    config = setup.config
    money = Money.starting((config.starting_cents,) * len(config.players)).anted(config.ante_cents)
    return TensState(config, money)


def apply(state: TensState, event: TensEvent) -> TensState:
    """The state after ``event``, or a refusal naming the rule with ``state`` unchanged."""
    match event:
        case Rolled(dice=dice):
            return _rolled(state, dice)
        case Dealt(order=order):
            return _dealt(state, order)
        case Took(player=player):
            stage = state.after(Action.TAKE)
            seat = _mover(state, player)
            return replace(state, stage=stage, tiles=_tiles(state).taken(seat))
        case Drew(player=player):
            stage = state.after(Action.DRAW)
            seat = _mover(state, player)
            return replace(state, stage=stage, tiles=_tiles(state).drawn(seat))
        case Discarded(player=player, tile=tile):
            return _discarded(state, player, tile)
        case Declared(player=player, tiles=tiles):
            return _declared(state, player, tiles)
        case Shown():
            stage = state.after(Action.SHOW)
            if state.shown:
                raise GameError(f"hand {state.hand}'s result is already shown")
            return replace(state, stage=stage, shown=True)
        case NextHand():
            return _next_hand(state)
        case Ended():
            stage = state.after(Action.END)
            return replace(state, stage=stage, money=state.money.refunded(), over="the night was ended")
        case Faulted():
            state.after(Action.FAULT)
            return state
        case TensSetup():
            raise GameError("a night is set up once, by its first event")


def _rolled(state: TensState, dice: tuple[int, ...]) -> TensState:
    stage = state.after(Action.ROLL)
    DiceInUse(state.config.dice_faces, FIRST_ROLL_DICE).check(dice)
    first = first_player(dice, state.roller, len(state.players))
    return replace(state, stage=stage, dice=dice, first=first)


def _dealt(state: TensState, order: tuple[Seen, ...]) -> TensState:
    stage = state.after(Action.DEAL)
    sets = state.config.sets_in_play
    full = domino_sets(sets)
    if state.config.virtual:
        if Counter(order) != Counter(full):
            raise TileError(f"virtual dominoes are dealt from every tile of {sets} set(s) once, in any order")
    elif order:
        raise TileError("physical dominoes are dealt on the table: the table is told no tiles")
    else:
        order = (None,) * len(full)
    assert state.first is not None, "a deal follows the roll"
    tiles = Tiles.dealt(order, len(state.players), state.first)
    return replace(state, stage=stage, tiles=tiles, to_move=state.first)


def _discarded(state: TensState, player: str, tile: Seen) -> TensState:
    state.after(Action.DISCARD)  # the stage first: before the deal there are no tiles to ask about
    tiles = _tiles(state)
    action = Action.DISCARD if tiles.woodpile else Action.DISCARD_LAST
    stage = state.after(action)
    seat = _mover(state, player)
    if state.config.virtual and tile is None:
        raise TileError("with virtual dominoes a discard names its tile")
    if not state.config.virtual and tile is not None:
        raise TileError("with physical dominoes the table is not told which tile is discarded")
    tiles = tiles.discarded(seat, tile)
    if action is Action.DISCARD:
        return replace(state, stage=stage, tiles=tiles, to_move=(seat + 1) % len(state.players))
    drawn = HandResult(state.hand, None, state.money.in_pot)
    money = state.money.refunded() if state.config.when_dry is WhenDry.REFUND else state.money
    return replace(state, stage=stage, tiles=tiles, to_move=None, money=money, results=(*state.results, drawn))


def _declared(state: TensState, player: str, declared: tuple[Seen, ...]) -> TensState:
    won_stage = state.after(Action.DECLARE)
    seat = _mover(state, player)
    config = state.config
    if config.virtual and declared:
        raise TileError("with virtual dominoes the table knows the hand: a declaration names no tiles")
    held = _tiles(state).hands[seat] if config.virtual else declared
    known = tuple(tile for tile in held if tile is not None)
    verdict = check_hand(known, config.pairs, config.sets_in_play)
    if verdict.complete is not None:
        won = HandResult(state.hand, player, state.money.in_pot, verdict.complete)
        return replace(
            state,
            stage=won_stage,
            to_move=None,
            money=state.money.won(seat),
            results=(*state.results, won),
        )
    why = f"the hand {quoted_name(player)} declared is not complete: {verdict.why_not}"
    if config.penalty_cents == 0:
        raise FalseDeclaration(why)  # only refused: nothing to keep
    # with a penalty the false claim is a fact of the night: journaled, paid into the pot, the turn goes on
    stage = state.after(Action.DECLARE_FALSELY)
    paid = min(config.penalty_cents, state.money.balances[seat])
    claim = FalseClaim(player, why, paid)
    return replace(state, stage=stage, money=state.money.put_in(seat, paid), false_claims=(*state.false_claims, claim))


def _next_hand(state: TensState) -> TensState:
    stage = state.after(Action.NEXT)
    ante = state.config.ante_cents
    short = [(name, held) for name, held in zip(state.players, state.money.balances, strict=True) if held < ante]
    if short:
        name, held = short[0]
        raise GameError(
            f"{quoted_name(name)} holds {format_cents(held)}, less than the {format_cents(ante)} ante: "
            "every player antes each hand, so the night must end"
        )
    return TensState(
        state.config,
        state.money.anted(ante),
        stage,
        hand=state.hand + 1,
        roller=(state.roller + 1) % len(state.players),
        results=state.results,
    )


def _mover(state: TensState, player: str) -> int:
    """The seat of ``player``, who must be the player to move."""
    wanted = normal_form(player)
    if wanted not in state.players:
        raise GameError(f"no player called {quoted_name(player)} plays at this table")
    if state.player_to_move != wanted:
        raise GameError(f"{quoted_name(state.player_to_move or '')} is to move, not {quoted_name(player)}")
    return state.players.index(wanted)


def _tiles(state: TensState) -> Tiles:
    assert state.tiles is not None, "tiles are dealt before anyone plays them"
    return state.tiles
