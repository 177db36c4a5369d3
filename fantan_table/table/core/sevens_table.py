"""A night of card Fan Tan (Sevens): the scorer's actions on the hosted-game loop.

The table keeps the pool, every player's chips and whose turn it is. With virtual cards it shuffles and deals
the pack itself and knows every hand (so it refuses a pass while a play is possible); with real cards it knows
only the layout, and the hands are shown when one is over. A shuffle's seed comes from ``seeds`` (a fresh random
number by default; a demo passes its own so the same night comes out every time), and the order it gave is
journaled with the deal, so a replay never shuffles again.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

from ...rules.errors import RulesError
from ...rules.names import normal_form
from ...rules.sevens.cards import PACK, Card, parse_card
from ...rules.sevens.deal import dealer_cards, pack_in_play, shuffled
from ...rules.sevens.events import (
    CardPlayed,
    DealerChosen,
    Drew,
    Faulted,
    HandDealt,
    Passed,
    RevokeClaimed,
    SevensEvent,
    SevensSetup,
    WentOut,
)
from ...rules.sevens.game import SevensState, Stage
from ...rules.sevens.hosted import SEVENS
from ...rules.sevens.options import CardMode
from .hosting import HostedTable
from .journal import Journal

SEED_BITS = 64
"""A shuffle's seed: far more orders than a pack has that anyone could guess."""

Seeds = Callable[[str, int], int]
"""A shuffle's seed for what is shuffled ("dealer", "deal") and the hand's number."""


def random_seeds(_what: str, _hand: int) -> int:
    return secrets.randbits(SEED_BITS)


SEAT_NUMBERS = re.compile(r"\bseats? (\d+(?:(?:, | and )\d+)*)\b")
"""A seat, or seats, as the rules core's refusals number them: "seat 2", "seats 0, 2", "seats 1 and 2"."""


def seats_named(text: str, players: Sequence[str]) -> str:
    """A refusal of the rules core in the words of the table: each seat by its player's name. The core numbers seats
    from 0, which nobody at the table does ("not your turn: it is seat 4's" means Eve). A number that is no seat is
    left as it is."""

    def named(found: re.Match[str]) -> str:
        seats = [int(n) for n in re.findall(r"\d+", found.group(1))]
        if not all(0 <= seat < len(players) for seat in seats):
            return found.group(0)
        names = [players[seat] for seat in seats]
        return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]

    return SEAT_NUMBERS.sub(named, text)


class SevensTable(HostedTable[SevensState, SevensEvent]):
    """The night in ``journal``: resumed, or begun with ``setup``."""

    def __init__(
        self,
        journal: Journal,
        setup: SevensSetup,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        seeds: Seeds = random_seeds,
    ) -> None:
        self.seeds = seeds
        super().__init__(journal, SEVENS, setup, clock)

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.setup.players

    def _do(self, event: SevensEvent) -> None:
        """Every move on the hosted loop; a refusal names the players, not the rules core's seat numbers."""
        try:
            super()._do(event)
        except RulesError as exc:
            named = seats_named(str(exc), self.players)
            if named == str(exc):
                raise
            raise type(exc)(named) from exc

    def fault_event(self, reason: str) -> SevensEvent:
        return Faulted(reason)

    @property
    def virtual(self) -> bool:
        return self.state.setup.mode is CardMode.VIRTUAL

    def seat_of(self, player: str | int) -> int:
        """A seat by its number or its player's name."""
        players = self.state.setup.players
        if isinstance(player, int):
            if not 0 <= player < len(players):
                raise RulesError(f"no seat {player}: the seats are 0 to {len(players) - 1}")
            return player
        wanted = normal_form(player)
        if wanted not in players:
            raise RulesError(f"no player called {player}; the players are {', '.join(players)}")
        return players.index(wanted)

    # -- the actions ------------------------------------------------------------------------------------------
    def choose_dealer(self, cards: Sequence[str | Card] | None = None) -> None:
        """The first dealer: with virtual cards the table deals the cards that choose; with real cards the cards
        turned up (up to the first Jack, or one cut per seat) are entered."""
        if cards is None:
            if not self.virtual:
                raise RulesError("with real cards, enter the cards turned up to choose the dealer")
            order = shuffled(PACK, self.seeds("dealer", 0))
            chosen = dealer_cards(self.state.setup.options.first_dealer, order, self.state.seats)
        else:
            chosen = tuple(_card(c) for c in cards)
        self._do(DealerChosen(chosen))

    def deal(self) -> None:
        """A new hand: with virtual cards the table shuffles and deals; with real cards the dealer has dealt."""
        order = None
        if self.virtual:
            pack = pack_in_play(self.state.setup.options, self.state.seats)
            order = shuffled(pack, self.seeds("deal", len(self.state.results) + 1))
        self._do(HandDealt(order))

    def play(self, player: str | int, card: str | Card) -> None:
        self._do(CardPlayed(self.seat_of(player), _card(card)))

    def pass_turn(self, player: str | int) -> None:
        self._do(Passed(self.seat_of(player)))

    def draw(self, player: str | int) -> None:
        """From the dummy hand (004, two players), for a player who cannot play."""
        self._do(Drew(self.seat_of(player)))

    def claim_revoke(self, move: int, shown: Mapping[str | int, Sequence[str | Card]]) -> None:
        """A pass claimed as a revoke (real cards): the move's number and the hands shown, checked by the rules."""
        hands = tuple((self.seat_of(p), frozenset(_card(c) for c in cards)) for p, cards in shown.items())
        self._do(RevokeClaimed(move, hands))

    def out(self, cards_left: Sequence[int]) -> None:
        """The hand is over (real cards): each seat's cards left, counted at the table."""
        self._do(WentOut(tuple(cards_left)))

    # -- what a player may do now (virtual cards) ---------------------------------------------------------------
    def playable(self, player: str | int) -> frozenset[Card]:
        hand = self.state.hand
        if self.state.stage is not Stage.PLAY or hand is None:
            return frozenset()
        return hand.playable_in_hand(self.seat_of(player))


def _card(card: str | Card) -> Card:
    return card if isinstance(card, Card) else parse_card(card)
