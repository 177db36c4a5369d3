"""The banker's page: seating and letting go of players between rounds, and a game whose first bank is rolled for."""

from __future__ import annotations

import time

from .conftest import Rig


def wait_for(rig: Rig, done, seconds: float = 10.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = rig.client.get("/api/state").json()
        if done(state):
            return state
        time.sleep(0.05)
    raise AssertionError("the table did not get there")


def test_the_banker_seats_a_newcomer_and_lets_a_player_leave(rig: Rig) -> None:
    assert rig.post("/api/banker/players/seat", {"name": "Dee", "suit": "arms", "dollars": 30}).status_code == 401
    rig.login()
    state = rig.post("/api/banker/players/seat", {"name": "Dee", "suit": "arms", "dollars": 30}).json()
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cy", "Dee"]
    assert state["players"][-1]["balance_cents"] == 3000 and state["scoring"]["labels"][-1] == "Dee joins"
    taken = rig.post("/api/banker/players/seat", {"name": "Eve", "suit": "suns", "dollars": 30})
    assert taken.status_code == 409 and "the table is full: 4 players" in taken.json()["error"]
    rig.post("/api/bets", {"bet": "number:1", "coins": 1}, player="Bob")
    busy = rig.post("/api/banker/players/leave", {"player": "Bob"})
    assert busy.status_code == 409 and "coins on the layout" in busy.json()["error"]
    state = rig.post("/api/banker/players/leave", {"player": "Cy"}).json()
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Dee"]
    assert state["scoring"]["columns"] == ["Ann", "Bob", "Cy", "Dee"]
    assert state["scoring"]["rows"][-1] == [5000, 5000, None, 3000]
    gone = rig.post("/api/bets", {"bet": "number:1", "coins": 1}, player="Cy")  # a leaver's link ends
    assert gone.status_code == 403


def test_a_seat_request_says_what_it_needs(rig: Rig) -> None:
    rig.login()
    for body in ({"name": "Dee", "suit": "arms"}, {"name": "Dee", "suit": "arms", "dollars": "30"}):
        reply = rig.post("/api/banker/players/seat", body)
        assert reply.status_code == 400 and "whole dollars" in reply.json()["error"]
    reply = rig.post("/api/banker/players/seat", {"name": "Dee", "suit": "arms", "dollars": 0})
    assert reply.status_code == 400 and "brings $1 to" in reply.json()["error"]
    reply = rig.post("/api/banker/players/seat", {"name": "Dee", "suit": "clubs", "dollars": 5})
    assert reply.status_code == 409 and "no suit 'clubs'" in reply.json()["error"]


def test_a_new_game_rolls_for_its_first_bank_under_the_camera(rig: Rig) -> None:
    rig.login()
    setup = {
        "players": [{"name": "Dee", "suit": "arms"}, {"name": "Eve", "suit": "suns"}],
        "banker": "rotating",
        "banker_by_roll": True,
        "abandon": True,
    }
    state = rig.post("/api/banker/game", setup).json()
    assert state["stage"] == "choosing" and state["draw"]["to_roll"] == "Dee"
    assert "next" not in state["actions"] and "close" not in state["actions"]
    rig.post("/api/sim/shake", {"values": [1, 1, 2, 2]})
    rig.post("/api/sim/lift")
    state = wait_for(rig, lambda s: s["draw"]["rolls"])
    assert state["draw"]["rolls"] == [{"player": "Dee", "go": 1, "dice": [1, 1, 2, 2], "total": 6}]
    assert state["draw"]["reading"]["frame"]["file"] == "frames/bank-roll-1.jpg"
    photo = rig.client.get("/api/bank-roll/photo.jpg")
    assert photo.status_code == 200 and photo.headers["content-type"] == "image/jpeg"
    preview = rig.post("/api/banker/dice", {"values": [5, 5, 5, 6]}).json()["preview"]
    assert preview["for_bank"] == "Eve"  # dice by hand count as Eve's roll, and say so first
    stale = rig.post("/api/banker/dice", {"values": [5, 5, 5, 6], "for_bank": "Dee", "confirm": True})
    assert stale.status_code == 409 and "checked as Dee's roll for the bank, but Eve rolls now" in stale.json()["error"]
    state = rig.post("/api/banker/dice", {"values": [5, 5, 5, 6], "for_bank": "Eve", "confirm": True}).json()
    assert state["draw"]["winner"] == "Eve" and "next" in state["actions"]
    state = rig.post("/api/banker/action", {"action": "next"}).json()
    assert state["stage"] == "betting" and state["round"] == 1
    assert [p["is_banker"] for p in state["players"]] == [False, True]


def test_rolling_for_the_bank_needs_a_rotating_banker(rig: Rig) -> None:
    rig.login()
    setup = {"players": [{"name": "Dee", "suit": "arms"}, {"name": "Eve", "suit": "suns"}], "banker_by_roll": True}
    reply = rig.post("/api/banker/game", {**setup, "abandon": True})
    assert reply.status_code == 400 and 'needs banker = "rotating"' in reply.json()["error"]
