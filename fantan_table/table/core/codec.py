"""Events as the journal stores them (kind text + JSON payload) and back, and a reading as the page gets it.

The journal must rebuild exactly the game that was set up and every event after it, so each
``*_to_json`` has its ``*_from_json`` and every night ever written still decodes (old readings
lack the rotated box, confidence and problem per die: they decode with a square box and none).
A reading goes through :func:`reading_to_json` both into the journal and onto the page, so what
the reader said reaches the page unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from ...rules.bets import format_variants, parse_bet, parse_variants
from ...rules.errors import GameError
from ...rules.events import (
    BankerLogin,
    BetPlaced,
    BetTaken,
    BettingClosed,
    Box,
    Corrected,
    DiceConfirmed,
    DiceRead,
    DieSeen,
    Ended,
    FanTanEvent,
    Faulted,
    FrameRef,
    Kind,
    Left,
    LinkIssued,
    LinkRevoked,
    NextRound,
    OnUnsure,
    Raided,
    ReadingRecord,
    Reroll,
    Resumed,
    Seated,
    Settled,
    Setup,
    Shown,
    Voided,
)
from ...rules.game import (
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
    ShortBank,
    Suit,
    UntilRaid,
)
from ...vision.reader import Reading

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
        case RotatingBanker(every_rounds=every, first=first, by_roll=by_roll):
            banker = {"mode": "rotating", "every_rounds": every, "first": first}
            if by_roll:  # only then: the rows of nights before the roll for the bank stay as they were
                banker["by_roll"] = True
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
    data = {
        "players": [{"name": p.name, "suit": p.suit.value} for p in config.players],
        "starting_balance_cents": config.starting_balance_cents,
        "variants": format_variants(config.variants),
        "banker": banker,
        "end": end,
    }
    if (
        config.short_bank is not ShortBank.OWES
    ):  # the rule before there was a choice: its nights' rows stay as they were
        data["short_bank"] = config.short_bank.value
    return data


def game_from_json(data: dict[str, Any]) -> GameConfig:
    b, e = data["banker"], data["end"]
    banker: BankerMode
    if b["mode"] == "house-bank":
        banker = HouseBank(b["balance_cents"])
    elif b["mode"] == "rotating":
        banker = RotatingBanker(b["every_rounds"], b["first"], b.get("by_roll", False))  # by_roll: since 2026-11
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
        short_bank=ShortBank(data.get("short_bank", ShortBank.OWES.value)),  # nights from before the rule: owes
    )


# -- events ---------------------------------------------------------------------------------------------
_NO_PAYLOAD: dict[Kind, FanTanEvent] = {
    Kind.CLOSED: BettingClosed(),
    Kind.CONFIRMED: DiceConfirmed(),
    Kind.REROLL: Reroll(),
    Kind.SHOWN: Shown(),
    Kind.NEXT: NextRound(),
    Kind.ENDED: Ended(),
    Kind.RAID: Raided(),
    Kind.RESUMED: Resumed(),
}


def encode_event(event: FanTanEvent) -> tuple[str, dict[str, Any]]:
    """The event as the journal stores it: its kind's text and a JSON-ready payload."""
    data: dict[str, Any]
    match event:
        case Setup(game=game, on_unsure=on_unsure):
            data = {"game": game_to_json(game), "on_unsure": on_unsure}
        case BetPlaced(player=player, bet=bet, coins=coins) | BetTaken(player=player, bet=bet, coins=coins):
            data = {"player": player, "bet": str(bet), "coins": coins}
        case DiceRead(reading=reading):
            data = reading_to_json(reading)
        case Settled(open_number=open_number, dice=dice):
            data = {"open": open_number, "dice": list(dice)}
        case Voided(reason=reason) | Faulted(reason=reason):
            data = {"reason": reason}
        case Corrected(round=number, dice=dice, by=by, why=why):
            data = {"round": number, "dice": list(dice), "by": by, "why": why}
        case BankerLogin(address=address, ok=ok):
            data = {"address": address, "ok": ok}
        case LinkIssued(player=player, token_sha256=digest):
            data = {"player": player, "token_sha256": digest}
        case LinkRevoked(player=player):
            data = {"player": player}
        case Seated(player=player, cents=cents, by=by):
            data = {"player": player.name, "suit": player.suit.value, "cents": cents, "by": by}
        case Left(player=player, cents=cents, by=by):
            data = {"player": player, "cents": cents, "by": by}
        case _:
            data = {}
    return event.kind.value, data


def decode_event(kind: str, data: Mapping[str, Any]) -> FanTanEvent:
    """The typed event a journal row holds; a kind this version does not know is refused with its name."""
    try:
        known = Kind(kind)
    except ValueError:
        raise GameError(f"unknown journal event {kind!r}") from None
    try:
        match known:
            case Kind.SETUP:
                return Setup(game_from_json(data["game"]), cast(OnUnsure, data["on_unsure"]))
            case Kind.BET:
                return BetPlaced(data["player"], parse_bet(data["bet"]), data["coins"])
            case Kind.UNBET:
                return BetTaken(data["player"], parse_bet(data["bet"]), data["coins"])
            case Kind.READING:
                return DiceRead(reading_from_json(data))
            case Kind.SETTLED:
                return Settled(data["open"], tuple(data["dice"]))
            case Kind.VOIDED:
                return Voided(data["reason"])
            case Kind.FAULT:
                return Faulted(data["reason"])
            case Kind.CORRECTED:
                return Corrected(data["round"], tuple(data["dice"]), data["by"], data["why"])
            case Kind.LOGIN:
                return BankerLogin(data["address"], data["ok"])
            case Kind.LINK:
                return LinkIssued(data["player"], data["token_sha256"])
            case Kind.UNLINK:
                return LinkRevoked(data["player"])
            case Kind.SEATED:
                return Seated(Player(data["player"], Suit(data["suit"])), data["cents"], data["by"])
            case Kind.LEFT:
                return Left(data["player"], data["cents"], data["by"])
            case _:
                return _NO_PAYLOAD[known]
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"a {kind!r} event in the journal cannot be read ({exc!r}): {data!r}") from exc


# -- a reading --------------------------------------------------------------------------------------------
def reading_record(reading: Reading, frame: FrameRef | None) -> ReadingRecord:
    """What the camera's reader said, kept whole (plain numbers, so it goes into JSON as it is)."""
    dice = tuple(
        DieSeen(
            None if d.value is None else int(d.value),
            _point(d.center),
            Box(_point(d.box[0]), _point(d.box[1]), float(d.box[2])),
            float(d.confidence),
            d.problem,
        )
        for d in reading.dice
    )
    return ReadingRecord("camera", reading.status.value, dice, reading.message, frame)


def reading_to_json(reading: ReadingRecord) -> dict[str, Any]:
    """Everything the reader said, per die and in all: what the journal keeps and the page draws."""
    frame = reading.frame
    return {
        "source": reading.source,
        "status": reading.status,
        "message": reading.message,
        "frame": frame_to_json(frame),
        "dice": [
            {
                "value": d.value,
                "center": list(d.center),
                "box": {"center": list(d.box.center), "size": list(d.box.size), "angle": d.box.angle},
                "confidence": d.confidence,
                "problem": d.problem,
            }
            for d in reading.dice
        ],
    }


def frame_to_json(frame: FrameRef | None) -> dict[str, Any] | None:
    if frame is None:
        return None
    return {"file": frame.file, "sha256": frame.sha256} | ({"size": list(frame.size)} if frame.size else {})


def reading_from_json(data: Mapping[str, Any]) -> ReadingRecord:
    frame = data.get("frame")
    return ReadingRecord(
        source=data["source"],
        status=data["status"],
        dice=tuple(_die_from_json(d) for d in data["dice"]),
        message=data["message"],
        frame=None
        if frame is None
        else FrameRef(frame["file"], frame["sha256"], _size(frame["size"]) if "size" in frame else None),
    )


def _die_from_json(d: dict[str, Any]) -> DieSeen:
    center = _point(d["center"])
    box = d.get("box")
    if box is None:  # a night from before the rotated box was kept: a square of the die's side
        side = float(d["side"])
        outline = Box(center, (side, side), float(d.get("angle", 0.0)))
    else:
        outline = Box(_point(box["center"]), _point(box["size"]), float(box["angle"]))
    return DieSeen(d["value"], center, outline, d.get("confidence"), d.get("problem"))


def _point(values: Sequence[float]) -> tuple[float, float]:
    x, y = values
    return (float(x), float(y))


def _size(values: list[int]) -> tuple[int, int]:
    width, height = values
    return (int(width), int(height))
