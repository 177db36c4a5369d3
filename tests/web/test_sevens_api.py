"""Card Fan Tan on the page: each phone gets its own hand and never another's, plays only for its own player,
and the rules refuse what they refuse (must-play with virtual cards); the banker enters real cards."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fantan_table.rules.sevens.cards import parse_card
from fantan_table.rules.sevens.events import SevensSetup
from fantan_table.rules.sevens.options import RULES_001, Agreed, CardMode
from fantan_table.table.core.sevens_table import SevensTable

from . import sevens_revoke as revoke
from .hosted import HostedRig, hosted_rig

PLAYERS = ("Ann", "Bob", "Cy")
VIRTUAL = SevensSetup(PLAYERS, RULES_001, Agreed(hands=1), CardMode.VIRTUAL)
PHYSICAL = SevensSetup(PLAYERS, RULES_001, Agreed(hands=1), CardMode.PHYSICAL)
CARD_TEXT = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")
"""A card as the API writes it ("7H", "10S"): found anywhere in an answer."""


def sevens(rig: HostedRig) -> SevensTable:
    table = rig.ctx.owner.night.table
    assert isinstance(table, SevensTable)
    return table


def dealt(rig: HostedRig) -> None:
    rig.login()
    assert rig.post("/api/banker/sevens", {"action": "dealer"}).status_code == 200
    assert rig.post("/api/banker/sevens", {"action": "deal"}).status_code == 200


def test_a_phone_sees_its_own_hand_and_no_other_card_held(tmp_path: Path) -> None:
    with hosted_rig(tmp_path / "state", VIRTUAL) as rig:
        dealt(rig)
        table = sevens(rig)
        for _ in range(6):  # a few moves in, so the layout and the moves name cards too
            hand = table.state.hand
            assert hand is not None
            name = PLAYERS[hand.turn]
            playable = sorted(table.playable(name))
            path, body = ("/api/sevens/play", {"card": str(playable[0])}) if playable else ("/api/sevens/pass", {})
            assert rig.post(path, body, player=name).status_code == 200
        hand = table.state.hand
        assert hand is not None and hand.held is not None
        on_table = {str(c) for c in hand.layout.cards()}
        for seat, name in enumerate(PLAYERS):
            own = {str(c) for c in hand.held[seat]}
            refused = rig.post("/api/sevens/draw", {}, player=name)  # no dummy hand: refused, and says no card
            assert refused.status_code == 409
            for answer in (rig.state(name), refused.json()):
                named = set(CARD_TEXT.findall(json.dumps(answer)))
                assert named <= own | on_table, f"{name}'s phone was told of cards it does not hold"
            mine = rig.state(name)["mine"]
            assert set(mine["cards"]) == own
            assert set(mine["playable"]) == ({str(c) for c in table.playable(name)} if hand.turn == seat else set())
        watching = rig.client.get("/api/state").json()
        assert watching["mine"] is None and set(CARD_TEXT.findall(json.dumps(watching))) <= on_table


def test_a_phone_plays_only_for_its_player_and_must_play_when_it_can(tmp_path: Path) -> None:
    with hosted_rig(tmp_path / "state", VIRTUAL) as rig:
        dealt(rig)
        table = sevens(rig)
        hand = table.state.hand
        assert hand is not None and hand.held is not None
        turn, other = PLAYERS[hand.turn], PLAYERS[(hand.turn + 1) % 3]
        theirs = sorted(hand.held[PLAYERS.index(other)])[0]
        refused = rig.post("/api/sevens/play", {"card": str(theirs)}, player=turn)
        assert refused.status_code == 409 and refused.json()["error"].startswith(("not in your hand", "a card not"))
        late = rig.post("/api/sevens/play", {"card": str(theirs)}, player=other)
        assert late.status_code == 409 and "not your turn" in late.json()["error"]
        if table.playable(turn):
            must = rig.post("/api/sevens/pass", {}, player=turn)
            assert must.status_code == 409 and must.json()["error"].startswith("you can play: a pass is refused")
        assert rig.post("/api/sevens/play", {"card": "7H"}).status_code == 401  # no link
        assert rig.post("/api/sevens/play", {"card": "7H"}, player="forged").status_code == 403
        assert rig.post("/api/sevens/play", {"card": "Joker!"}, player=turn).status_code == 400
        assert table.state.hand == hand  # nothing refused changed anything


def test_the_banker_enters_real_cards_and_each_bad_entry_is_refused_by_its_rule(tmp_path: Path) -> None:
    with hosted_rig(tmp_path / "state", PHYSICAL) as rig:
        assert rig.post("/api/banker/sevens", {"action": "deal"}).status_code == 401  # banker only
        rig.login()
        bad = rig.post("/api/banker/sevens", {"action": "dealer", "cards": ["JS", "4H"]})
        assert bad.status_code == 409 and "the first dealer gets the first Jack" in bad.json()["error"]
        rig.post("/api/banker/sevens", {"action": "dealer", "cards": ["4H", "JS"]})  # Bob deals: Cy plays first
        state = rig.post("/api/banker/sevens", {"action": "deal"}).json()
        assert state["turn"] == "Cy" and state["mine"] is None and state["pool"] == 5
        wrong = rig.post("/api/banker/sevens", {"action": "play", "player": "Cy", "card": "8H"})
        assert wrong.status_code == 409 and "a card not playable on the layout: 8" in wrong.json()["error"]
        assert rig.post("/api/banker/sevens", {"action": "play", "player": "Cy", "card": "7H"}).status_code == 200
        again = rig.post("/api/banker/sevens", {"action": "play", "player": "Ann", "card": "7H"})
        assert again.status_code == 409 and "already played" in again.json()["error"]
        early = rig.post("/api/banker/sevens", {"action": "out", "cards_left": {"Ann": 0, "Bob": 1, "Cy": 1}})
        assert early.status_code == 409 and "once a player has played his last card" in early.json()["error"]
        passed = rig.post("/api/banker/sevens", {"action": "pass", "player": "Ann"}).json()
        assert passed["pool"] == 6 and passed["players"][0]["chips"] == 47  # ante, short hand, the pass (001)
        assert passed["moves"][-1] == {"n": 2, "player": "Ann", "kind": "pass", "card": None}
        assert parse_card("7H") in sevens(rig).state.hand.layout.cards()  # type: ignore[union-attr]


def test_a_revoke_is_claimed_against_the_hands_shown_and_paid_before_the_hand_is_settled(tmp_path: Path) -> None:
    with hosted_rig(tmp_path / "state", revoke.SETUP) as rig:
        rig.login()
        table = sevens(rig)
        rig.post("/api/banker/sevens", {"action": "dealer", "cards": list(revoke.DEALER_CARDS)})
        rig.post("/api/banker/sevens", {"action": "deal"})

        def enter(action: str, player: str, card: str | None) -> None:
            body = {"action": action, "player": player} | ({"card": card} if card else {})
            reply = rig.post("/api/banker/sevens", body)
            assert reply.status_code == 200, reply.text

        early = rig.post("/api/banker/sevens", {"action": "revoke", "move": 2, "shown": {}})
        assert early.status_code == 409 and "once the hand is over" in early.json()["error"]
        revoke.play_to_the_end(lambda: table.state, enter)
        state = table.state
        shown = revoke.hands_shown(state)
        before = rig.state()
        assert before["actions"] == ["revoke", "out"]

        def claim(move: object, hands: object) -> Any:
            return rig.post("/api/banker/sevens", {"action": "revoke", "move": move, "shown": hands})

        not_a_pass = claim(1, {"Cy": shown["Cy"]})
        assert not_a_pass.status_code == 409 and "move 1 was not a pass" in not_a_pass.json()["error"]
        unseen = claim(revoke.REVOKE, {"Bob": shown["Bob"]})  # Ann's hand is not shown: nothing to decide by
        assert unseen.status_code == 409 and "show Ann's hand: a revoke is decided" in unseen.json()["error"]
        honest = claim(revoke.HONEST, {"Bob": shown["Bob"]})
        assert honest.status_code == 409 and "no revoke: Bob could not play at move 3" in honest.json()["error"]
        miscounted = claim(revoke.REVOKE, {"Ann": shown["Ann"][:-1]})
        assert state.hand is not None
        counted = f"Ann holds {state.hand.counts[0]} cards by the table's count"
        assert miscounted.status_code == 409 and counted in miscounted.json()["error"]
        assert claim("2", shown).status_code == 400  # a move is its number
        assert claim(revoke.REVOKE, {"Dee": []}).status_code == 404  # nobody called Dee
        assert rig.state()["players"] == before["players"] and table.state.hand == state.hand  # nothing changed

        upheld = claim(revoke.REVOKE, shown)
        assert upheld.status_code == 200, upheld.text
        paid = revoke.paid_for_the_seven(state, shown)
        after = upheld.json()
        assert after["pool"] == before["pool"] + 3  # three chips to the pool (001), won with it by the hand's winner
        for was, now in zip(before["players"], after["players"], strict=True):
            penalty = 3 if now["name"] == "Ann" else 0
            assert now["chips"] == was["chips"] - penalty + paid[now["name"]], now["name"]
        again = claim(revoke.REVOKE, shown)
        assert again.status_code == 409 and "already claimed" in again.json()["error"]

        left = {name: len(cards) for name, cards in shown.items()}
        settled = rig.post("/api/banker/sevens", {"action": "out", "cards_left": left}).json()
        assert settled["last_hand"]["revokes"] == 1 and settled["stage"] == "dealing"
        assert sum(p["chips"] for p in settled["players"]) + settled["pool"] == 3 * 50  # not a chip made or lost
        late = claim(revoke.HONEST, shown)
        assert late.status_code == 409 and "before its chips are settled" in late.json()["error"]
