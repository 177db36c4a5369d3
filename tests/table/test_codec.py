"""A game's setup survives the journal: to JSON and back is the same game, for every banker and end."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from fantan_table.rules.bets import Variant
from fantan_table.rules.game import (
    AfterRounds,
    AtTime,
    BankerBankrupt,
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
from fantan_table.table.codec import game_from_json, game_to_json

PLAYERS = (Player("Ann", Suit.ARMS), Player("Bob", Suit.CROWNS), Player("Cy", Suit.SUNS))


@pytest.mark.parametrize("banker", [HouseScorer(), HouseBank(12345), RotatingBanker(3), RotatingBanker(2, "Cy")])
@pytest.mark.parametrize(
    "end",
    [
        UntilRaid(),
        AfterRounds(7),
        AtTime(datetime(2026, 11, 22, 23, 30, tzinfo=UTC)),
        FirstBankrupt(),
        SecondLastBankrupt(),
        BankerBankrupt(),
    ],
)
@pytest.mark.parametrize("variants", [Variant.NONE, Variant.CORNERS | Variant.STRONG, Variant.ALL])
def test_to_json_and_back_is_the_same_game(banker, end, variants) -> None:
    if isinstance(end, BankerBankrupt) and isinstance(banker, HouseScorer):
        return  # not a valid game
    game = GameConfig(PLAYERS, 4200, variants, banker, end)
    assert game_from_json(json.loads(json.dumps(game_to_json(game)))) == game
