"""Small helpers for tests that set a table up by hand: a game with a chosen dealer, a deal with chosen cards."""

from __future__ import annotations

from fantan_table.rules.sevens.cards import Card, Rank, Suit, parse_card
from fantan_table.rules.sevens.deal import hand_sizes, has_dummy, pack_in_play
from fantan_table.rules.sevens.events import DealerChosen, HandDealt, SevensEvent, SevensSetup
from fantan_table.rules.sevens.game import SevensState, apply, start
from fantan_table.rules.sevens.options import Agreed, CardMode, FirstDealer, Options

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", *(f"P{i}" for i in range(6, 52)))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def game(
    options: Options, seats: int, mode: CardMode = CardMode.PHYSICAL, agreed: Agreed | None = None, dealer: int = 0
) -> SevensState:
    """A game whose first dealer is ``dealer``, by the options' own way of choosing one."""
    state = start(SevensSetup(NAMES[:seats], options, agreed or Agreed(hands=3), mode))
    if options.first_dealer is FirstDealer.FIRST_JACK:
        chosen = (*(Card(Suit.CLUBS, Rank(r)) for r in range(2, 2 + dealer)), Card(Suit.HEARTS, Rank.JACK))
    else:
        best = Rank.KING if options.first_dealer is FirstDealer.HIGHEST_CUT else Rank.ACE
        others = [Card(Suit.CLUBS, Rank(r)) for r in range(3, 3 + seats)]
        chosen = tuple(Card(Suit.SPADES, best) if s == dealer else others[s] for s in range(seats))
    state = apply(state, DealerChosen(chosen))
    assert state.dealer == dealer
    return state


def arrange(state: SevensState, wanted: dict[int, str]) -> tuple[Card, ...]:
    """A deal order giving each seat in ``wanted`` those cards (the dummy hand is seat ``seats``: its cards come off
    its top in the order given), the rest of the pack in play filling the hands in the pack's order."""
    options, seats, dealer = state.setup.options, state.seats, state.dealer
    assert dealer is not None
    sizes, dummy = hand_sizes(options, dealer, seats)
    hands = {s: list(cards(wanted.get(s, ""))) for s in range(seats + 1)}
    placed = {c for h in hands.values() for c in h}
    rest = [c for c in pack_in_play(options, seats) if c not in placed]
    for s, size in enumerate((*sizes, dummy)):
        while len(hands[s]) < size:
            hands[s].append(rest.pop(0))
    hands[seats].reverse()  # the last card dealt to the dummy hand is on top
    receivers = [(dealer + 1 + i) % seats for i in range(seats)] + ([seats] if has_dummy(options, seats) else [])
    rounds = max(len(h) for h in hands.values())
    return tuple(hands[p][r] for r in range(rounds) for p in receivers if r < len(hands[p]))


def dealt(state: SevensState, wanted: dict[int, str]) -> SevensState:
    """``state`` with a virtual hand dealt as :func:`arrange` says."""
    return apply(state, HandDealt(arrange(state, wanted)))


def run(state: SevensState, *events: SevensEvent) -> SevensState:
    for event in events:
        state = apply(state, event)
    return state
