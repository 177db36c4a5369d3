"""A whole game of card Fan Tan: hands in turn, the dealer moving on, chips or points, and the end.

The state is the fold of the events (``events.py``), one event at a time, all or nothing: :func:`apply` checks
everything and returns a new state, or raises a :class:`RulesError` naming the rule and the state is as it was.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from ..errors import ConfigError, GameError, RulesError
from ..names import name_key, player_name
from .cards import Card
from .deal import first_dealer, left_of
from .events import (
    CardPlayed,
    DealerChosen,
    Drew,
    Faulted,
    HandDealt,
    Passed,
    ResultShown,
    RevokeClaimed,
    SevensEvent,
    SevensSetup,
    WentOut,
)
from .hand import Hand
from .options import CardMode, End, NextDealer, Revoke, Scoring, check_seats
from .revoke import Showing, claim
from .settlement import Chips, HandResult, antes, pass_chips, pay_antes, pay_revoke, settle


class Stage(enum.Enum):
    """Where a game stands; the value is what the page shows."""

    DEALER = "choosing the dealer"
    DEAL = "dealing"
    PLAY = "playing"
    OUT = "counting"
    """The last card is played; the cards left are counted (and, with real cards, revokes claimed)."""
    OVER = "over"


class EndReason(enum.Enum):
    HANDS = "the agreed hands are played"
    BROKE = "a player ran out of chips (001)"
    TARGET = "a player reached the points target (004)"


@dataclass(frozen=True)
class SevensState:
    setup: SevensSetup
    stage: Stage
    chips: Chips
    points: tuple[int, ...]
    dealer: int | None = None
    hand: Hand | None = None
    before: Chips | None = None
    """The chips when the hand under way was dealt (before its antes), for its line in the scoring table."""
    antes: tuple[int, ...] = ()
    showing: Showing = Showing()
    """The hands shown and revokes found in the hand under way (real cards)."""
    results: tuple[HandResult, ...] = ()
    shown: bool = True
    """Whether the last hand's result has been put on show (nothing to show counts as shown)."""
    end: EndReason | None = None
    winners: tuple[int, ...] = ()

    @property
    def seats(self) -> int:
        return len(self.setup.players)

    @property
    def round(self) -> int:
        """The hand under way, or on show until its result has been shown; then the next."""
        return len(self.results) + (1 if self.shown else 0)


def start(setup: SevensSetup) -> SevensState:
    """The state a setup makes: names checked, seats and agreed numbers fit for the options."""
    names = tuple(player_name(p) for p in setup.players)
    if len({name_key(n) for n in names}) != len(names):
        raise ConfigError(f"two players with one name: {', '.join(names)}")
    check_seats(setup.options, len(names))
    setup.agreed.check(setup.options)
    chips = setup.agreed.starting_chips if setup.options.chips_move else 0
    return SevensState(replace(setup, players=names), Stage.DEALER, Chips((chips,) * len(names)), (0,) * len(names))


def apply(state: SevensState, event: SevensEvent) -> SevensState:
    """The state after ``event``; refused with the rule's text and nothing changed."""
    if isinstance(event, Faulted):
        return state
    if isinstance(event, ResultShown):
        if state.shown:
            raise GameError("no hand's result waits to be shown")
        return replace(state, shown=True)
    if isinstance(event, SevensSetup):
        raise GameError("a game is set up once, at its start")
    if state.stage is Stage.OVER:
        raise GameError(f"the game is over: {state.end.value if state.end else ''}")
    match event:
        case DealerChosen(cards=cards):
            _expect(state, Stage.DEALER, "the first dealer is chosen once, before the first deal")
            dealer = first_dealer(state.setup.options.first_dealer, cards, state.seats)
            return replace(state, stage=Stage.DEAL, dealer=dealer)
        case HandDealt(order=order):
            _expect(state, Stage.DEAL, "a hand is dealt once the dealer is known and the last hand is settled")
            assert state.dealer is not None
            options = state.setup.options
            hand = Hand.deal(len(state.results) + 1, state.dealer, options, state.setup.mode, state.seats, order)
            due = antes(options, state.setup.agreed, hand)
            return replace(
                state,
                stage=Stage.PLAY,
                hand=hand,
                before=state.chips,
                chips=pay_antes(state.chips, due),
                antes=due,
                showing=Showing(),
                shown=True,
            )
        case CardPlayed(seat=seat, card=card):
            hand = _playing(state).play(seat, card)
            return replace(state, hand=hand, stage=Stage.OUT if hand.over else Stage.PLAY)
        case Passed(seat=seat):
            hand = _playing(state).pass_turn(seat)
            return replace(state, hand=hand, chips=state.chips.pay(seat, pass_chips(state.setup.options)))
        case Drew(seat=seat):
            return replace(state, hand=_playing(state).draw(seat))
        case RevokeClaimed(move=move, shown=shown):
            return _claim(state, move, dict(shown))
        case WentOut(cards_left=cards_left):
            return _settle(state, cards_left)
    raise GameError(f"not an event of a game of sevens: {event!r}")


def _expect(state: SevensState, stage: Stage, why: str) -> None:
    if state.stage is not stage:
        raise GameError(f"{why}: the game is {state.stage.value}")


def _playing(state: SevensState) -> Hand:
    _expect(state, Stage.PLAY, "cards are played, passed and drawn while a hand is played")
    assert state.hand is not None
    return state.hand


def _claim(state: SevensState, move: int, shown: dict[int, frozenset[Card]]) -> SevensState:
    _expect(state, Stage.OUT, "a revoke is claimed once the hand is over, before its chips are settled")
    assert state.hand is not None
    options = state.setup.options
    if state.setup.mode is CardMode.VIRTUAL:
        raise RulesError("with virtual cards the table refused every pass that could have been a play: no revoke")
    if options.revoke is Revoke.NOT_PENALISED or options.scoring is Scoring.POINTS:
        raise RulesError("these rules set no penalty for a revoke (004 only says a player who can play must)")
    showing, found = claim(state.hand, state.showing, move, shown)
    return replace(state, showing=showing, chips=pay_revoke(state.chips, options, found))


def _settle(state: SevensState, cards_left: tuple[int, ...]) -> SevensState:
    _expect(state, Stage.OUT, "a hand is settled once a player has played his last card")
    assert state.hand is not None and state.before is not None
    state.hand.check_cards_left(cards_left)
    options, agreed = state.setup.options, state.setup.agreed
    chips, result = settle(state.chips, state.before, state.hand, options, state.antes, state.showing.revokes)
    points = tuple(p + q for p, q in zip(state.points, result.points, strict=True))
    results = (*state.results, result)
    end: EndReason | None = None
    if options.end is End.POINTS_TARGET and max(points) >= agreed.points_target:
        end = EndReason.TARGET
    elif options.end is End.AGREED_HANDS_OR_BROKE and min(chips.seats) <= 0:
        end = EndReason.BROKE
    elif options.end is not End.POINTS_TARGET and len(results) == agreed.hands:
        end = EndReason.HANDS
    winners: tuple[int, ...] = ()
    if end is not None:
        score = points if options.scoring is Scoring.POINTS else chips.seats
        winners = tuple(s for s, v in enumerate(score) if v == max(score))
    next_dealer = result.winner if options.next_dealer is NextDealer.WINNER else left_of(result.dealer, state.seats)
    return replace(
        state,
        stage=Stage.DEAL if end is None else Stage.OVER,
        chips=chips,
        points=points,
        dealer=next_dealer,
        results=results,
        shown=False,
        end=end,
        winners=winners,
    )
