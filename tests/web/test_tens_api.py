"""Collecting Tens on the page: each phone gets its own tiles and never another's; a phone moves only for its own
player; the banker enters real dominoes, and a declared hand typed tile by tile is checked by the hand checker."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fantan_table.rules.tens.options import Dominoes, TensConfig
from fantan_table.table.core.tens_table import TensTable
from fantan_table.table.wiring.tens_bot import best_discard

from .hosted import HostedRig, hosted_rig

PLAYERS = ("Ann", "Bob", "Cy")
TILE_TEXT = re.compile(r"\b[0-6]-[0-6]\b")
COMPLETE = ("6-6", "6-6", "6-4", "6-4", "6-2", "1-1", "5-5", "5-5", "5-3", "1-1")
"""Twins of 6-6 and four of the document's own pairs (6-4 6-4, 6-2 1-1, 5-5 5-5, 5-3 1-1): a complete hand."""


def tens(rig: HostedRig) -> TensTable:
    table = rig.ctx.owner.night.table
    assert isinstance(table, TensTable)
    return table


def test_a_phone_sees_its_own_tiles_and_moves_only_for_its_player(tmp_path: Path) -> None:
    with hosted_rig(tmp_path / "state", TensConfig(PLAYERS, dominoes=Dominoes.VIRTUAL)) as rig:
        rig.login()
        rig.post("/api/banker/tens", {"action": "roll", "values": [1, 1, 2, 2], "confirm": True})  # six: Cy
        assert rig.post("/api/banker/tens", {"action": "deal"}).json()["turn"] == "Cy"
        table = tens(rig)
        hand = [t for t in table.state.tiles.hands[2] if t is not None]  # type: ignore[union-attr]
        wrong = rig.post("/api/tens/discard", {"tile": str(hand[0])}, player="Ann")
        assert wrong.status_code == 409 and "'Cy' is to move, not 'Ann'" in wrong.json()["error"]
        discard = str(best_discard(hand, table.state.config.pairs))
        assert rig.post("/api/tens/discard", {"tile": discard}, player="Cy").status_code == 200
        assert rig.post("/api/tens/take", {}, player="Ann").status_code == 200
        tiles = table.state.tiles
        assert tiles is not None
        shown = {str(t) for t in tiles.discards}
        for seat, name in enumerate(PLAYERS):
            own = {str(t) for t in tiles.hands[seat]}
            answer = rig.state(name)
            assert sorted(answer["mine"]["tiles"]) == sorted(str(t) for t in tiles.hands[seat])
            assert set(TILE_TEXT.findall(json.dumps(answer))) <= own | shown, f"{name} was told of others' tiles"
        watching = rig.client.get("/api/state").json()
        assert watching["mine"] is None and set(TILE_TEXT.findall(json.dumps(watching))) <= shown
        assert rig.post("/api/tens/take", {}).status_code == 401
        assert rig.post("/api/tens/juggle", {}, player="Ann").status_code == 404


def test_the_banker_enters_a_declared_hand_tile_by_tile_and_the_checker_has_the_last_word(tmp_path: Path) -> None:
    with hosted_rig(tmp_path / "state", TensConfig(PLAYERS, dominoes=Dominoes.PHYSICAL)) as rig:
        rig.login()
        bad = rig.post("/api/banker/tens", {"action": "roll", "values": [0, 0, 0, 0]})
        assert bad.status_code in (400, 409) and "roll the four dice again" in bad.json()["error"]
        state = rig.post("/api/banker/tens", {"action": "roll", "values": [1, 1, 2, 2], "confirm": True}).json()
        assert state["first"] == "Cy" and state["count_off"] == ["Ann", "Bob", "Cy", "Ann", "Bob", "Cy"]
        rig.post("/api/banker/tens", {"action": "deal"})
        rig.post("/api/banker/tens", {"action": "discarded", "player": "Cy"})
        rig.post("/api/banker/tens", {"action": "took", "player": "Ann"})
        for tile in (*COMPLETE[:-1], "2-2"):
            assert rig.post("/api/banker/tens", {"action": "tile", "tile": tile}).status_code == 200
        too_many = rig.post("/api/banker/tens", {"action": "tile", "tile": "3-3"})
        assert too_many.status_code == 409 and "all are entered already" in too_many.json()["error"]
        refused = rig.post("/api/banker/tens", {"action": "declare", "player": "Ann"})
        assert refused.status_code == 409 and "the hand 'Ann' declared is not complete" in refused.json()["error"]
        assert rig.post("/api/banker/tens", {"action": "untile"}).json()["entered"] == list(COMPLETE[:-1])
        rig.post("/api/banker/tens", {"action": "tile", "tile": "1-1"})
        won = rig.post("/api/banker/tens", {"action": "declare", "player": "Ann"}).json()
        assert won["stage"] == "showing" and won["last_hand"]["winner"] == "Ann" and won["last_hand"]["pot"] == "$3.00"
        assert won["players"][0]["balance_cents"] == 2000 - 100 + 300


def test_dice_typed_by_the_banker_are_shown_with_the_first_player_and_rolled_only_when_confirmed(
    tmp_path: Path,
) -> None:
    with hosted_rig(tmp_path / "state", TensConfig(PLAYERS, dominoes=Dominoes.PHYSICAL)) as rig:
        rig.login()
        table = tens(rig)
        events = len(table.journal.events())
        checked = rig.post("/api/banker/tens", {"action": "roll", "values": [1, 1, 2, 2]})
        assert checked.status_code == 200
        assert checked.json()["preview"] == {
            "hand": 1,
            "dice": [1, 1, 2, 2],
            "total": 6,
            "count_off": ["Ann", "Bob", "Cy", "Ann", "Bob", "Cy"],
            "first": "Cy",
        }
        assert len(table.journal.events()) == events and table.state.dice is None  # checked, nothing kept
        blanks = rig.post("/api/banker/tens", {"action": "roll", "values": [0, 0, 0, 0]})
        assert blanks.status_code == 409 and "counts off nobody" in blanks.json()["error"]
        stale = rig.post("/api/banker/tens", {"action": "roll", "values": [1, 1, 2, 2], "hand": 2, "confirm": True})
        assert stale.status_code == 409 and "checked for hand 2's roll; it is hand 1 now" in stale.json()["error"]
        assert table.state.dice is None
        rolled = rig.post("/api/banker/tens", {"action": "roll", "values": [1, 1, 2, 2], "hand": 1, "confirm": True})
        assert rolled.status_code == 200 and rolled.json()["first"] == "Cy" and rolled.json()["stage"] == "dealing"
        kept = table.latest_reading
        assert kept is not None and kept.source == "hand" and kept.message == "entered by the banker (web)"
        again = rig.post("/api/banker/tens", {"action": "roll", "values": [3, 1, 2, 2]})
        assert again.status_code == 409  # the roll is made: no preview of another
