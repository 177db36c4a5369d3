"""Card Fan Tan (Sevens) on the page: the layout, the pool and every player's chips for everyone; each phone's own
hand (virtual cards) for that phone only; the players' moves from their phones and the banker's entries.

A hand is private: :func:`sevens_snapshot` puts a hand in the answer only for the player whose link asked, and no
route names another player's cards. The rules have the last word on every move (must-play with virtual cards, the
layout with real ones); a refusal is a 409 naming the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request

from ..devices.display.screens import Screen, text_lines
from ..rules.errors import GameError
from ..rules.sevens.cards import Card, cards_text
from ..rules.sevens.game import SevensState, Stage
from ..rules.sevens.hand import MoveKind
from ..rules.sevens.hosted import SEVENS
from ..rules.sevens.options import CardMode
from ..table.wiring.night import Night
from .http import Refusal, json_body
from .routes import Routes

MAX_CARDS_TEXT = 4
"""A card's text is two or three characters ("7H", "10S"); anything longer is not a card."""


def sevens_snapshot(
    state: SevensState,
    version: int,
    screen: Screen | None,
    device_problem: str | None,
    fault: str | None,
    me: str | None,
) -> dict[str, Any]:
    """What the page shows of a night of card Fan Tan: public to all but ``mine``, ``me``'s own hand."""
    names, hand, options = state.setup.players, state.hand, state.setup.options
    shown = SEVENS.present(state)
    players = [
        {
            "name": name,
            "seat": seat,
            "chips": state.chips.seats[seat],
            "points": state.points[seat],
            "cards": hand.counts[seat] if hand is not None else None,
            "turn": hand is not None and state.stage is Stage.PLAY and hand.turn == seat,
            "dealer": state.dealer == seat,
        }
        for seat, name in enumerate(names)
    ]
    mine = None
    if me is not None and hand is not None and hand.held is not None and me in names:
        seat = names.index(me)
        held = hand.held[seat]
        playable = held & hand.layout.playable_cards() if state.stage is Stage.PLAY and hand.turn == seat else set()
        mine = {"cards": [str(c) for c in sorted(held)], "playable": [str(c) for c in sorted(playable)]}
    last = state.results[-1] if state.results else None
    return {
        "version": version,
        "game": "sevens",
        "stage": state.stage.value,
        "round": state.round,
        "mode": state.setup.mode.value,
        "rules": {f: getattr(options, f).value for f in ("players", "deal", "ante", "revoke", "scoring", "end")},
        "scoring_by": options.scoring.value,
        "players": players,
        "pool": state.chips.pool,
        "layout": [
            {"suit": suit.name.lower(), "symbol": suit.symbol, "low": row.low.text, "high": row.high.text}
            for suit, row in (hand.layout.rows if hand is not None else ())
        ],
        "playable_on_layout": cards_text(hand.layout.playable_cards() - hand.removed) if hand is not None else "",
        "turn": names[hand.turn] if hand is not None and state.stage is Stage.PLAY else None,
        "winner": names[hand.winner]
        if state.stage is Stage.OUT and hand is not None and hand.winner is not None
        else None,
        "dummy": hand.dummy_count if hand is not None else 0,
        "moves": [
            {"n": n, "player": names[m.seat], "kind": m.kind.value, "card": str(m.card) if m.card else None}
            for n, m in enumerate(hand.moves if hand is not None else (), 1)
            if m.kind is not MoveKind.DRAW or m.card is None  # a card drawn from the dummy is the drawer's secret
        ],
        "last_hand": None
        if last is None
        else {
            "number": last.number,
            "winner": names[last.winner],
            "pool": last.pool_taken,
            "cards_left": dict(zip(names, last.cards_left, strict=True)),
            "chips": dict(zip(names, last.chips, strict=True)),
            "points": dict(zip(names, last.points, strict=True)),
            "revokes": len(last.revokes),
        },
        "hands_played": len(state.results),
        "over": state.end.value if state.end else None,
        "winners": [names[s] for s in state.winners],
        "lights": {"bets_open": shown.accepting and fault is None, "open_number": shown.lit if fault is None else None},
        "screen": text_lines(screen) if screen is not None else [],
        "device_problem": device_problem,
        "fault": fault,
        "mine": mine,
        "actions": banker_actions(state),
    }


def banker_actions(state: SevensState) -> list[str]:
    """What the banker's page offers now (the rules still check each)."""
    physical = state.setup.mode is CardMode.PHYSICAL
    match state.stage:
        case Stage.DEALER:
            return ["dealer"]
        case Stage.DEAL:
            return ["deal"]
        case Stage.PLAY:
            return ["play", "pass", "draw"] if state.hand is not None and state.hand.dummy_count else ["play", "pass"]
        case Stage.OUT:
            return ["revoke", "out"] if physical else []
    return []


def add_sevens_routes(app: FastAPI, routes: Routes) -> None:
    # -- a player's own moves, from their phone (virtual cards; the banker enters real ones) -------------------
    @app.post("/api/sevens/play")
    async def play(request: Request) -> dict[str, Any]:
        player = routes.player_of(request)
        card = _card_text((await json_body(request)).get("card"))
        await routes.command(lambda night: night.sevens.play(player, card))
        return routes.state(request)

    @app.post("/api/sevens/pass")
    async def pass_turn(request: Request) -> dict[str, Any]:
        player = routes.player_of(request)
        await routes.command(lambda night: night.sevens.pass_turn(player))
        return routes.state(request)

    @app.post("/api/sevens/draw")
    async def draw(request: Request) -> dict[str, Any]:
        player = routes.player_of(request)
        await routes.command(lambda night: night.sevens.draw(player))
        return routes.state(request)

    # -- the banker's entries ----------------------------------------------------------------------------------
    @app.post("/api/banker/sevens")
    async def banker(request: Request) -> dict[str, Any]:
        """The banker's entry: ``dealer`` (the cards turned up, or none: the table deals them), ``deal``,
        ``play`` (a player's card), ``pass``, ``draw``, ``revoke`` (a pass claimed, with the hands shown), ``out``
        (each player's cards left)."""
        routes.require_banker(request)
        body = await json_body(request)
        action = body.get("action")
        match action:
            case "dealer":
                cards = body.get("cards")
                if cards is not None and not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
                    raise Refusal(400, 'cards are the cards turned up, as text: e.g. ["4H", "JS"]')
                await routes.command(lambda night: night.sevens.choose_dealer(cards))
            case "deal":
                await routes.command(lambda night: night.sevens.deal())
            case "play":
                player, card = routes.known_player(body.get("player")), _card_text(body.get("card"))
                await routes.command(lambda night: night.sevens.play(player, card))
            case "pass":
                player = routes.known_player(body.get("player"))
                await routes.command(lambda night: night.sevens.pass_turn(player))
            case "draw":
                player = routes.known_player(body.get("player"))
                await routes.command(lambda night: night.sevens.draw(player))
            case "revoke":
                move, shown = body.get("move"), body.get("shown")
                if type(move) is not int or not isinstance(shown, dict):
                    raise Refusal(
                        400,
                        'give the pass\'s move number and the hands shown: {"move": 5, "shown": {"Ann": ["7H", "2C"]}}',
                    )
                hands: dict[str | int, Sequence[str | Card]] = {
                    routes.known_player(p): _cards(cards) for p, cards in shown.items()
                }
                await routes.command(lambda night: night.sevens.claim_revoke(move, hands))
            case "out":
                left = body.get("cards_left")
                if not isinstance(left, dict) or not all(type(n) is int for n in left.values()):
                    raise Refusal(400, 'give each player\'s cards left: {"cards_left": {"Ann": 0, "Bob": 3}}')
                await routes.command(lambda night: _out(night, {routes.known_player(p): n for p, n in left.items()}))
            case _:
                raise Refusal(400, f"unknown action {action!r}: dealer, deal, play, pass, draw, revoke or out")
        return routes.state(request)


def _out(night: Night, left: dict[str, int]) -> None:
    """The hand's end as the banker counted it: every player's cards left, by name, in seat order."""
    table = night.sevens
    missing = [p for p in table.players if p not in left]
    if missing:
        raise GameError(f"a hand is settled on every player's cards left: {', '.join(missing)} not counted")
    table.out([left[p] for p in table.players])


def _card_text(card: Any) -> str:
    if not isinstance(card, str) or not 1 < len(card) <= MAX_CARDS_TEXT:
        raise Refusal(400, 'card must be a card\'s text, e.g. "7H", "10S", "QC"')
    return card


def _cards(cards: Any) -> list[str | Card]:
    if not isinstance(cards, list):
        raise Refusal(400, "a hand shown is a list of cards' texts")
    return [_card_text(c) for c in cards]
