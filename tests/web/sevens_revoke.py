"""A hand of real cards with a revoke in it, entered move by move to its end: what the API and browser tests of a
revoke claim share.

Bob deals, so Cy plays first. Cy opens hearts with 7H; Ann passes (move 2) although she holds the 8H and the 7D
she plays later: a revoke, holding a seven. Bob passes too (move 3), honestly: he holds none of the cards he could
have played then. After the script every player plays the first card the layout takes that is not kept from him,
or passes, until someone is out; the cards nobody played are then shown, shared out by the table's count.
"""

from __future__ import annotations

from collections.abc import Callable

from fantan_table.rules.sevens.cards import PACK, Card, parse_card
from fantan_table.rules.sevens.events import SevensSetup
from fantan_table.rules.sevens.game import SevensState, Stage
from fantan_table.rules.sevens.hand import MoveKind
from fantan_table.rules.sevens.options import RULES_001, Agreed, CardMode

PLAYERS = ("Ann", "Bob", "Cy")
SETUP = SevensSetup(PLAYERS, RULES_001, Agreed(hands=2), CardMode.PHYSICAL)
DEALER_CARDS = ("4H", "JS")
"""Dealt face up from Ann: the first Jack falls to Bob, who deals; Cy, on his left, plays first."""
REVOKE, HONEST = 2, 3
"""Ann's pass while able to play (8H on 7H, and any seven), and Bob's pass while not."""
SCRIPT = {1: ("Cy", "7H"), 2: ("Ann", None), 3: ("Bob", None), 4: ("Cy", "7S"), 5: ("Ann", "8H"), 8: ("Ann", "7D")}
"""Moves by number: a card played, or None for a pass."""
KEPT_FROM = {"Bob": {"6H", "7C", "7D"}, "Ann": {"7D"}, "Cy": {"7D"}}
"""Cards a player does not play outside the script, nor shows: Bob could play none of them at his pass, and the
7D is Ann's, played at move 8."""

Enter = Callable[[str, str, str | None], None]
"""Enter one move as the banker would: ("play", player, card) or ("pass", player, None)."""


def play_to_the_end(state: Callable[[], SevensState], enter: Enter) -> None:
    """Enter the script, then every move after it, until a player is out."""
    move = 0
    while state().stage is Stage.PLAY:
        move += 1
        hand = state().hand
        assert hand is not None and move < 200, "the hand did not end"
        player = PLAYERS[hand.turn]
        if move in SCRIPT:
            scripted, card = SCRIPT[move]
            assert scripted == player, f"move {move} is {player}'s, not {scripted}'s"
        else:
            layout_takes = sorted(hand.layout.playable_cards() - hand.layout.cards())
            card = next((str(c) for c in layout_takes if str(c) not in KEPT_FROM.get(player, set())), None)
        enter("play" if card else "pass", player, card)
        after = state().hand
        assert after is not None and len(after.moves) == move, f"move {move} was not taken"


def hands_shown(state: SevensState) -> dict[str, list[str]]:
    """The cards nobody played, shared out to match the table's count of each hand; none kept from its holder."""
    hand = state.hand
    assert hand is not None and state.stage is Stage.OUT
    left = [str(c) for c in sorted(set(PACK) - hand.layout.cards())]
    shown: dict[str, list[str]] = {}
    for seat in sorted(range(len(PLAYERS)), key=lambda s: -len(KEPT_FROM.get(PLAYERS[s], ()))):  # Bob first
        name = PLAYERS[seat]
        mine = [c for c in left if c not in KEPT_FROM.get(name, set())][: hand.counts[seat]]
        assert len(mine) == hand.counts[seat], f"{name}'s hand cannot be shown"
        shown[name] = mine
        left = [c for c in left if c not in mine]
    assert not left
    return shown


def paid_for_the_seven(state: SevensState, shown: dict[str, list[str]]) -> dict[str, int]:
    """Who holds the 6D and the 8D for Ann's 7D (whoever played it after her pass, or shows it): five chips each,
    as 001 says, unless it is Ann herself."""
    hand = state.hand
    assert hand is not None
    paid = dict.fromkeys(PLAYERS, 0)
    for text in ("6D", "8D"):
        card: Card = parse_card(text)
        played = [PLAYERS[m.seat] for m in hand.moves[REVOKE:] if m.kind is MoveKind.PLAY and m.card == card]
        holder = played[0] if played else next(name for name, cards in shown.items() if text in cards)
        if holder != "Ann":
            paid[holder] += 5
            paid["Ann"] -= 5
    return paid
