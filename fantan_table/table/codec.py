"""A game's setup as JSON for the journal, and back: the journal must rebuild exactly the game that was set up."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..rules.bets import format_variants, parse_variants
from ..rules.game import (
    AfterRounds,
    AtTime,
    BankerBankrupt,
    BankerMode,
    EndCondition,
    FirstBankrupt,
    GameConfig,
    HouseBank,
    HouseScorer,
    Player,
    RotatingBanker,
    SecondLastBankrupt,
    Suit,
    UntilRaid,
)

_SIMPLE_ENDS: dict[str, EndCondition] = {
    "raid": UntilRaid(),
    "first-bankrupt": FirstBankrupt(),
    "second-last-bankrupt": SecondLastBankrupt(),
    "banker-bankrupt": BankerBankrupt(),
}


def game_to_json(config: GameConfig) -> dict[str, Any]:
    banker: dict[str, Any]
    match config.banker:
        case HouseBank(balance_cents=cents):
            banker = {"mode": "house-bank", "balance_cents": cents}
        case RotatingBanker(every_rounds=every, first=first):
            banker = {"mode": "rotating", "every_rounds": every, "first": first}
        case _:
            banker = {"mode": "house"}
    end: dict[str, Any]
    match config.end:
        case AfterRounds(rounds=rounds):
            end = {"kind": "rounds", "rounds": rounds}
        case AtTime(deadline=deadline):
            end = {"kind": "time", "deadline": deadline.isoformat()}
        case other:
            end = {"kind": next(k for k, v in _SIMPLE_ENDS.items() if v == other)}
    return {
        "players": [{"name": p.name, "suit": p.suit.value} for p in config.players],
        "starting_balance_cents": config.starting_balance_cents,
        "variants": format_variants(config.variants),
        "banker": banker,
        "end": end,
    }


def game_from_json(data: dict[str, Any]) -> GameConfig:
    b, e = data["banker"], data["end"]
    banker: BankerMode
    if b["mode"] == "house-bank":
        banker = HouseBank(b["balance_cents"])
    elif b["mode"] == "rotating":
        banker = RotatingBanker(b["every_rounds"], b["first"])
    else:
        banker = HouseScorer()
    end: EndCondition
    if e["kind"] == "rounds":
        end = AfterRounds(e["rounds"])
    elif e["kind"] == "time":
        deadline = e["deadline"]
        end = AtTime(deadline if isinstance(deadline, datetime) else datetime.fromisoformat(deadline))
    else:
        end = _SIMPLE_ENDS[e["kind"]]
    return GameConfig(
        players=tuple(Player(p["name"], Suit(p["suit"])) for p in data["players"]),
        starting_balance_cents=data["starting_balance_cents"],
        variants=parse_variants(data["variants"]),
        banker=banker,
        end=end,
    )
