"""Every endpoint of the page's API, and every refusal the issue names: none of them changes the table."""

from __future__ import annotations

import errno
import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fantan_table.rules.game import GameConfig, Player, Suit, setup_changes
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.state import Stage
from fantan_table.table.wiring.night import Night
from fantan_table.table.wiring.owner import OwnerError
from fantan_table.table.wiring.setups import FanTanNight
from fantan_table.web.app import BANKER_COOKIE, PendingGame, create_app
from fantan_table.web.security import RateLimiter

from .conftest import GAME, PIN, Rig, close_context, make_context


def test_the_page_sets_a_csrf_cookie_and_serves_its_assets(rig: Rig) -> None:
    page = rig.client.get("/")
    assert page.status_code == 200 and '<svg id="layout"' in page.text
    assert rig.client.cookies.get("fantan_csrf")
    assert rig.client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert rig.client.get("/static/style.css").status_code == 200
    # the tab's icon, named by the page (else every load asks for a /favicon.ico that is not there)
    assert '<link rel="icon" href="/static/icon.svg"' in page.text
    assert rig.client.get("/static/icon.svg").headers["content-type"].startswith("image/svg+xml")
    assert rig.client.get("/static/../app.py").status_code == 404
    assert rig.client.get("/static/nope.js").status_code == 404
    head = rig.client.head("/")  # a link preview or an uptime check asks only for the headers
    assert head.status_code == 200 and head.headers["content-type"].startswith("text/html") and not head.content


def test_the_state_is_public_and_knows_who_asks(rig: Rig) -> None:
    anonymous = rig.client.get("/api/state").json()
    assert anonymous["stage"] == "betting" and anonymous["me"] is None and not anonymous["banker"]
    assert [p["name"] for p in anonymous["players"]] == ["Ann", "Bob", "Cy"]
    mine = rig.client.get("/api/state", headers={"X-Player-Token": rig.token("Bob")}).json()
    assert mine["me"] == "Bob"
    assert rig.client.get("/api/state", headers={"X-Player-Token": "forged"}).json()["me"] is None


def test_a_player_places_and_takes_back_their_own_coins(rig: Rig) -> None:
    reply = rig.post("/api/bets", {"bet": "side:0-1", "coins": 2}, player="Ann")
    assert reply.status_code == 200
    ann = next(p for p in reply.json()["players"] if p["name"] == "Ann")
    assert ann["coins"] == [{"bet": "side:0-1", "coins": 2}] and ann["staked"] == 2
    assert rig.post("/api/bets/remove", {"bet": "side:0-1"}, player="Ann").status_code == 200
    assert rig.table.state.game.coins_staked("Ann") == 1


@pytest.mark.parametrize(
    ("request_", "status", "message"),
    [
        ({"raw": "{not json", "player": "Ann"}, 400, "not valid JSON"),
        ({"raw": "[1, 2]", "player": "Ann"}, 400, "must be a JSON object"),
        ({"body": {"bet": "side:0-3"}, "player": "Ann"}, 400, "not a side"),
        ({"body": {"bet": 7}, "player": "Ann"}, 400, "bet must be"),
        ({"body": {"bet": "number:1", "coins": 0}, "player": "Ann"}, 400, "coins must be"),
        ({"body": {"bet": "number:1", "coins": "2"}, "player": "Ann"}, 400, "coins must be"),
        ({"body": {"bet": "number:1", "coins": 6}, "player": "Ann"}, 400, "coins must be"),
        ({"body": {"bet": "number:1"}}, 401, "no player token"),
        ({"body": {"bet": "number:1"}, "player": "f" * 32}, 403, "not valid"),
        ({"body": {"bet": "number:1"}, "player": "Ann", "csrf": False}, 403, "CSRF"),
    ],
)
def test_bad_bet_requests_are_refused_and_change_nothing(rig: Rig, request_: dict, status: int, message: str) -> None:
    before = rig.journal_length()
    reply = rig.post(
        "/api/bets",
        request_.get("body"),
        player=request_.get("player"),
        csrf=request_.get("csrf", True),
        raw=request_.get("raw"),
    )
    assert reply.status_code == status and message in reply.json()["error"]
    assert rig.journal_length() == before


def test_a_wrong_csrf_token_is_refused(rig: Rig) -> None:
    reply = rig.client.post(
        "/api/bets", json={"bet": "number:1"}, headers={"X-CSRF-Token": "guess", "X-Player-Token": rig.token("Ann")}
    )
    assert reply.status_code == 403


def test_another_players_token_cannot_move_my_coins(rig: Rig) -> None:
    rig.post("/api/bets", {"bet": "number:2", "coins": 3}, player="Ann")
    before = rig.journal_length()
    reply = rig.post("/api/bets/remove", {"bet": "number:2", "coins": 3}, player="Bob")
    assert reply.status_code == 409 and "Bob has 0 coin" in reply.json()["error"]
    assert rig.table.state.game.coins_staked("Ann") == 3 and rig.journal_length() == before


def test_betting_after_no_more_bets_is_a_409(rig: Rig) -> None:
    rig.login()
    assert rig.post("/api/banker/action", {"action": "close"}).status_code == 200
    before = rig.journal_length()
    reply = rig.post("/api/bets", {"bet": "number:1"}, player="Cy")
    assert reply.status_code == 409 and "betting is closed" in reply.json()["error"]
    assert rig.journal_length() == before


def test_stake_rules_are_the_rules_cores(rig: Rig) -> None:
    assert rig.post("/api/bets", {"bet": "number:1", "coins": 5}, player="Ann").status_code == 200
    reply = rig.post("/api/bets", {"bet": "number:2"}, player="Ann")
    assert reply.status_code == 409 and "at most 5" in reply.json()["error"]


def test_banker_actions_need_the_pin(rig: Rig) -> None:
    before = rig.journal_length()
    assert rig.post("/api/banker/action", {"action": "close"}).status_code == 401
    assert rig.post("/api/banker/dice", {"values": [1, 2, 3, 4], "confirm": True}).status_code == 401
    assert rig.post("/api/banker/login", {"pin": "0000"}).status_code == 401
    assert rig.client.get("/api/banker/players").status_code == 401
    events = rig.table.journal.events()[before:]
    assert [(e.kind, e.data) for e in events] == [("login", {"address": "testclient", "ok": False})]
    rig.login()
    assert rig.client.get("/api/state").json()["banker"]
    assert rig.table.journal.events()[-1].data == {"address": "testclient", "ok": True}
    session = rig.client.cookies.get(BANKER_COOKIE)
    rig.post("/api/banker/logout")
    assert not rig.client.get("/api/state").json()["banker"]
    rig.client.cookies.set(BANKER_COOKIE, session or "")  # a copy of the cookie, kept from before the logout
    assert rig.post("/api/banker/action", {"action": "close"}).status_code == 401


def test_a_forged_banker_cookie_is_not_a_session(rig: Rig) -> None:
    rig.client.cookies.set(BANKER_COOKIE, f"{int(time.time())}.{'0' * 64}")
    assert rig.post("/api/banker/action", {"action": "close"}).status_code == 401


def test_the_banker_runs_a_round_by_hand(rig: Rig) -> None:
    rig.login()
    rig.post("/api/bets", {"bet": "number:2", "coins": 2}, player="Bob")
    assert rig.post("/api/banker/action", {"action": "close"}).status_code == 200
    assert rig.post("/api/banker/dice", {"values": "1 2 3"}).status_code == 400
    reply = rig.post("/api/banker/dice", {"values": [0, 0, 1, 1], "confirm": True})
    assert reply.status_code == 200 and reply.json()["last_round"]["open"] == 2
    assert reply.json()["last_round"]["source"] == "hand"
    bob = next(p for p in reply.json()["players"] if p["name"] == "Bob")
    assert bob["balance_cents"] == 5600
    assert rig.post("/api/banker/action", {"action": "dance"}).status_code == 400
    assert rig.post("/api/banker/action", {"action": "next"}).json()["stage"] == "betting"


def test_void_raid_and_resume(rig: Rig) -> None:
    rig.login()
    rig.post("/api/bets", {"bet": "number:3", "coins": 4}, player="Cy")
    rig.post("/api/banker/action", {"action": "raid"})
    assert rig.client.get("/api/state").json()["stage"] == "raided"
    assert rig.post("/api/bets", {"bet": "number:1"}, player="Ann").status_code == 409
    rig.post("/api/banker/action", {"action": "resume"})
    rig.post("/api/banker/action", {"action": "close"})
    reply = rig.post("/api/banker/action", {"action": "void", "reason": "a die fell off"})
    assert reply.json()["last_round"]["voided"] and rig.table.state.game.balance("Cy") == 5000


def test_a_new_game_is_refused_mid_game_unless_abandoned(rig: Rig, tmp_path: Path) -> None:
    rig.login()
    rig.post("/api/banker/action", {"action": "close"})
    rig.post("/api/banker/dice", {"values": [1, 1, 1, 1], "confirm": True})
    setup = {"players": [{"name": "Dee", "suit": "arms"}, {"name": "Eve", "suit": "suns"}], "starting_dollars": 20}
    assert rig.post("/api/banker/game", setup).status_code == 409
    bad = rig.post("/api/banker/game", {**setup, "players": [{"name": "Dee", "suit": "arms"}], "abandon": True})
    assert bad.status_code == 400 and "2 to 4 players" in bad.json()["error"]
    reply = rig.post("/api/banker/game", {**setup, "abandon": True, "banker": "rotating", "rotate_every": 2})
    assert reply.status_code == 200 and [p["name"] for p in reply.json()["players"]] == ["Dee", "Eve"]
    assert reply.json()["players"][0]["balance_cents"] == 2000 and reply.json()["round"] == 1
    assert len(list((tmp_path / "state" / "nights").iterdir())) == 1


def test_a_new_player_link_has_a_qr_code_and_ends_the_old_one(rig: Rig) -> None:
    rig.login()
    assert rig.client.get("/api/banker/players").json() == [
        {"name": name, "linked": True} for name in ("Ann", "Bob", "Cy")
    ]
    old = rig.token("Bob")
    made = rig.post("/api/banker/players/link", {"player": "Bob"}).json()
    token = made["link"].partition("?player=")[2]
    assert made["link"] == f"http://table.test:8080/?player={token}" and made["qr_svg"].startswith("<svg")
    assert token != old and len(token) >= 32
    assert rig.post("/api/bets", {"bet": "number:1"}, player=old).status_code == 403
    assert rig.post("/api/bets", {"bet": "number:1"}, player=token).status_code == 200
    assert token not in json.dumps([e.data for e in rig.table.journal.events()])  # only its hash is kept


def test_the_banker_ends_a_lost_phones_link(rig: Rig) -> None:
    rig.login()
    listed = rig.post("/api/banker/players/unlink", {"player": "Cy"}).json()
    assert {"name": "Cy", "linked": False} in listed
    assert rig.post("/api/bets", {"bet": "number:1"}, player="Cy").status_code == 403
    assert rig.client.get("/api/state", headers={"X-Player-Token": rig.token("Cy")}).json()["me"] is None
    assert rig.post("/api/banker/players/unlink", {"player": "Zed"}).status_code == 404
    rig.post("/api/banker/logout")
    assert rig.post("/api/banker/players/link", {"player": "Cy"}).status_code == 401


def test_the_scoring_table_downloads_as_csv(rig: Rig) -> None:
    rig.login()
    rig.post("/api/banker/action", {"action": "close"})
    rig.post("/api/banker/dice", {"values": [2, 2, 2, 2], "confirm": True})
    reply = rig.client.get("/api/scoring.csv")
    assert reply.headers["content-disposition"].startswith("attachment")
    assert reply.text.splitlines() == ["round,Ann,Bob,Cy", "0,50.00,50.00,50.00", "1,50.00,50.00,50.00"]


def test_the_simulated_table_from_the_page_and_its_photo(rig: Rig) -> None:
    rig.login()
    rig.post("/api/bets", {"bet": "side:0-1"}, player="Ann")
    assert rig.post("/api/sim/press", {"button": "no_more_bets"}).json()["stage"] == "closed"
    assert rig.post("/api/sim/press", {"button": "flip"}).status_code == 400
    assert rig.post("/api/sim/shake", {"values": [0, 1, 2, 4]}).status_code == 200
    assert rig.client.get("/api/sim/camera.jpg").headers["content-type"] == "image/jpeg"
    rig.post("/api/sim/lift")
    deadline = time.monotonic() + 10
    while rig.table.state.stage is not Stage.SHOWING and time.monotonic() < deadline:
        time.sleep(0.05)
    state = rig.client.get("/api/state").json()
    assert state["last_round"] is not None, (state["stage"], state["reading"], state["screen"])
    assert state["last_round"]["open"] == 3 and state["lights"]["open_number"] == 3
    photo = rig.client.get(f"/api/rounds/{state['last_round']['round']}/photo.jpg")
    assert photo.status_code == 200 and photo.content[:2] == b"\xff\xd8"
    assert rig.client.get("/api/rounds/99/photo.jpg").status_code == 404
    kept = rig.table.state.rounds[-1].reading
    assert kept is not None and kept.frame is not None
    (rig.ctx.owner.night.state_dir / kept.frame.file).write_bytes(photo.content + b"\0")  # not the photo taken
    swapped = rig.client.get(f"/api/rounds/{state['last_round']['round']}/photo.jpg")
    assert swapped.status_code == 404 and "not as it was kept" in swapped.text
    assert str(rig.ctx.owner.night.state_dir) not in swapped.text  # no server path in any answer
    png = rig.client.get("/api/display.png")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
    assert rig.post("/api/sim/teleport").status_code == 404


def test_sim_controls_are_refused_on_real_hardware(tmp_path: Path) -> None:
    ctx = make_context(tmp_path / "state", runner_devices=False)
    with TestClient(create_app(ctx)) as client:
        client.get("/")
        csrf = {"X-CSRF-Token": client.cookies.get("fantan_csrf")}
        client.post("/api/banker/login", json={"pin": PIN}, headers=csrf)
        assert client.post("/api/sim/lift", json={}, headers=csrf).status_code == 404
        assert client.get("/api/display.png").status_code == 404
    close_context(ctx)


def test_too_many_requests_are_slowed_down(tmp_path: Path) -> None:
    ctx = make_context(tmp_path / "state", runner_devices=False, requests=RateLimiter(rate=0.001, burst=5))
    with TestClient(create_app(ctx)) as client:
        codes = [client.get("/api/state").status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
    close_context(ctx)


def test_pin_guessing_is_limited_per_address(rig: Rig) -> None:
    codes = [rig.post("/api/banker/login", {"pin": f"{n:06d}"}).status_code for n in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]


def test_live_events_stream_the_state(rig: Rig) -> None:
    with rig.client.stream("GET", "/api/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                assert '"stage": "betting"' in line
                break


def test_the_banker_ends_the_game_and_the_final_table_stays(rig: Rig) -> None:
    rig.login()
    reply = rig.post("/api/banker/action", {"action": "end"})
    assert reply.status_code == 200 and reply.json()["stage"] == "over"
    assert reply.json()["over"] == "the banker ended the game"
    assert rig.post("/api/bets", {"bet": "number:1"}, player="Ann").status_code == 409


def test_a_setup_with_an_unknown_banker_or_end_is_refused(rig: Rig) -> None:
    rig.login()
    players = [{"name": "Dee", "suit": "arms"}, {"name": "Eve", "suit": "suns"}]
    for field, value in (("banker", "casino"), ("end", "sunrise")):
        reply = rig.post("/api/banker/game", {"players": players, field: value, "abandon": True})
        assert reply.status_code == 400 and f"{field} must be one of" in reply.json()["error"]
    assert [p["name"] for p in rig.client.get("/api/state").json()["players"]] == ["Ann", "Bob", "Cy"]


def test_the_live_stream_pushes_each_change_as_it_happens(rig: Rig) -> None:
    with rig.client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        assert '"staked": 0' in next(line for line in lines if line.startswith("data: "))
        rig.ctx.owner.call(lambda night: night.table.place("Ann", "number:1", 1))
        for line in lines:
            assert not line.startswith(":"), "only the keep-alive came: the change was not pushed"
            if line.startswith("data: ") and '"staked": 1' in line:
                break


def test_a_fault_shows_on_every_page_and_locks_betting(rig: Rig) -> None:
    def disk_full(night: Night) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OwnerError):
        rig.ctx.owner.call(disk_full)
    state = rig.client.get("/api/state").json()
    assert "No space left on device" in state["fault"] and state["lights"] == {"bets_open": False, "open_number": None}
    refused = rig.post("/api/bets", {"bet": "number:1"}, player="Ann")
    assert refused.status_code == 503 and "restarts by itself" in refused.json()["error"]
    assert rig.client.get("/api/display.png").status_code == 200
    assert 'id="fault"' in rig.client.get("/").text


def test_a_new_game_right_after_a_lift_waits_its_turn(rig: Rig, tmp_path: Path) -> None:
    """The issue's race: abandon the game 0.3 s after lifting the cup. The frame stays with its own night."""
    rig.login()
    rig.post("/api/bets", {"bet": "number:1", "coins": 2}, player="Ann")
    rig.post("/api/sim/press", {"button": "no_more_bets"})
    rig.post("/api/sim/shake", {"values": [1, 2, 3, 3]})
    assert rig.post("/api/sim/lift").status_code == 200  # it answers after 0.3 s
    setup = {"players": [{"name": "Dee", "suit": "arms"}, {"name": "Eve", "suit": "suns"}], "abandon": True}
    assert rig.post("/api/banker/game", setup).status_code == 200
    rig.post("/api/sim/shake", {"values": [0, 0, 0, 1]})
    assert rig.ctx.owner.fault is None
    state = tmp_path / "state"
    (night,) = (state / "nights").iterdir()
    assert rig.ctx.owner.call(lambda n: n.table.state.round) == 1  # the owner still answers
    assert not list((state / "frames").iterdir())  # the new night has no photo of the old game
    kept = {p.name for p in (night / "frames").iterdir()}
    journal = Journal(night)
    cited = {Path(e.data["frame"]["file"]).name for e in journal.events() if e.data.get("frame")}
    journal.close()
    assert kept == cited


def test_the_live_stream_ends_when_the_table_stops(rig: Rig) -> None:
    with rig.client.stream("GET", "/api/events") as stream:
        lines = stream.iter_lines()
        next(line for line in lines if line.startswith("data: "))
        rig.ctx.owner.stop()
        for line in lines:
            assert not line.startswith(":"), "the stream went on after the table stopped"
    with pytest.raises(OwnerError, match="stopping"):
        rig.ctx.owner.call(lambda night: night.table.state.round)


def test_a_pin_being_checked_does_not_hold_up_other_phones(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """scrypt is slow by design: it runs off the event loop, so the page answers everyone while it works. The
    patched check waits until the other phone has had its answer; on the event loop it would wait in vain."""
    import threading

    import fantan_table.web.app as app_module

    started, answered, checked = threading.Event(), threading.Event(), []
    real_check = app_module.check_pin

    def slow_check(pin: str, pin_hash: str) -> bool:
        started.set()
        checked.append(answered.wait(timeout=5))
        return real_check(pin, pin_hash)

    monkeypatch.setattr(app_module, "check_pin", slow_check)
    login = threading.Thread(target=rig.login)
    login.start()
    assert started.wait(timeout=10)
    assert rig.client.get("/api/state").status_code == 200  # while the PIN is being checked
    answered.set()
    login.join(timeout=20)
    assert checked == [True]


def test_a_short_bank_pays_in_proportion_and_the_page_says_so(rig: Rig) -> None:
    rig.login()
    setup = {
        "players": [{"name": "Ann", "suit": "suns"}, {"name": "Bob", "suit": "moons"}],
        "banker": "house-bank",
        "house_bank_dollars": 5,
        "short_bank": "in-proportion",
        "abandon": True,
    }
    assert rig.post("/api/banker/game", setup).status_code == 200
    link = rig.post("/api/banker/players/link", {"player": "Ann"}).json()["link"]
    ann = link.partition("?player=")[2]
    assert rig.post("/api/bets", {"bet": "number:1", "coins": 5}, player=ann).status_code == 200
    rig.post("/api/banker/action", {"action": "close"})
    last = rig.post("/api/banker/dice", {"values": [1, 0, 0, 0], "confirm": True}).json()["last_round"]
    assert [(p["player"], p["delta_cents"], p["unpaid_cents"]) for p in last["players"]] == [
        ("Ann", 500, 1000),
        ("Bob", 0, 0),
    ]
    assert last["bank_after_cents"] == 0 and "$10.00 of wins went unpaid" in last["bank_short"]
    assert rig.post("/api/banker/action", {"action": "next"}).json()["over"] == "the bank is bankrupt"


@pytest.mark.parametrize(
    "values, why",
    [
        ([1, 2, 3, 9], "9 is not a face of these dice"),
        ([1, 2], "a roll at this table is 4 dice"),
        ([0, 1, 2, 3, 4], "a roll at this table is 4 dice"),
        ([6] * 9, "a roll at this table is 4 dice"),
        ([1, 2, -1, 3], "-1 is not a face"),
    ],
)
def test_dice_typed_by_hand_must_be_the_tables_dice(rig: Rig, values: list[int], why: str) -> None:
    rig.login()
    rig.post("/api/banker/action", {"action": "close"})
    before = rig.journal_length()
    for confirm in (False, True):
        reply = rig.post("/api/banker/dice", {"values": values, "confirm": confirm})
        assert reply.status_code == 400 and why in reply.json()["error"]
    assert rig.journal_length() == before


def test_dice_typed_by_hand_are_previewed_only_when_the_table_would_take_them(rig: Rig) -> None:
    rig.login()
    before = rig.journal_length()
    reply = rig.post("/api/banker/dice", {"values": [6, 6, 6, 5]})  # betting is still open
    assert reply.status_code == 409, reply.text
    assert "cannot record a reading now: betting is open" in reply.json()["error"]
    assert rig.journal_length() == before and rig.table.state.stage.value == "betting"


def test_dice_typed_by_hand_are_shown_with_their_open_number_before_they_settle(rig: Rig) -> None:
    rig.login()
    rig.post("/api/banker/action", {"action": "close"})
    before = rig.journal_length()
    preview = rig.post("/api/banker/dice", {"values": [6, 6, 6, 5]}).json()
    assert preview == {"preview": {"dice": [6, 6, 6, 5], "total": 23, "open": 3, "for_bank": None}}
    assert rig.journal_length() == before and rig.table.state.stage.value == "closed"
    settled = rig.post("/api/banker/dice", {"values": [6, 6, 6, 5], "confirm": True}).json()
    assert settled["last_round"]["open"] == 3 and settled["last_round"]["source"] == "hand"


def test_the_banker_corrects_a_settled_round_after_seeing_what_it_changes(rig: Rig) -> None:
    rig.login()
    ann = rig.token("Ann")
    rig.post("/api/bets", {"bet": "number:2", "coins": 2}, player=ann)
    rig.post("/api/banker/action", {"action": "close"})
    rig.post("/api/banker/dice", {"values": [1, 2, 3, 3], "confirm": True})  # open 1: Ann loses $2
    rig.post("/api/banker/action", {"action": "next"})
    before = rig.journal_length()
    ask = {"round": 1, "values": [2, 2, 3, 3], "why": "a 2 was typed as 1"}
    assert rig.post("/api/banker/correct", ask).json() == {
        "preview": {"round": 1, "dice": [2, 2, 3, 3], "total": 10, "open": 2, "was": 1}
    }
    assert rig.journal_length() == before
    assert rig.post("/api/banker/correct", {**ask, "values": [2, 2, 3, 9]}).status_code == 400
    assert rig.post("/api/banker/correct", {**ask, "round": 7}).status_code == 409
    state = rig.post("/api/banker/correct", {**ask, "confirm": True}).json()
    assert state["last_round"]["corrected_from"] == 1 and state["last_round"]["open"] == 2
    assert "a 2 was typed as 1" in state["last_round"]["reading"]["message"]
    assert state["scoring"]["labels"] == ["start", "1", "1 corrected"]
    ann_now = next(p for p in state["players"] if p["name"] == "Ann")
    assert ann_now["balance_cents"] == 5000 + 600
    rig.post("/api/banker/logout")
    assert rig.post("/api/banker/correct", {**ask, "confirm": True}).status_code == 401


def test_the_page_offers_the_banker_only_what_the_stage_allows(rig: Rig) -> None:
    rig.login()
    assert rig.client.get("/api/state").json()["actions"] == ["close", "end", "raid"]
    assert rig.post("/api/banker/action", {"action": "close"}).json()["actions"] == ["void", "raid"]
    shown = rig.post("/api/banker/dice", {"values": [1, 1, 1, 1], "confirm": True}).json()
    assert shown["actions"] == ["next", "raid"]
    assert rig.post("/api/banker/action", {"action": "raid"}).json()["actions"] == ["resume"]
    assert rig.client.get("/api/reading/photo.jpg").status_code == 404  # none waits for the banker


def test_the_banker_chooses_between_the_night_and_a_changed_configs_game(rig: Rig) -> None:
    new = GameConfig(players=(Player("Dee", Suit.ARMS), Player("Eve", Suit.SUNS)))
    rig.ctx.config_game = PendingGame(FanTanNight(new, "void"), setup_changes(GAME, new))
    assert rig.client.get("/api/state").json()["config_changes"] is None  # the banker's business only
    rig.login()
    changes = rig.client.get("/api/state").json()["config_changes"]
    assert changes and changes[0] == "players Ann (suns), Bob (moons), Cy (crowns) -> Dee (arms), Eve (suns)"
    assert rig.post("/api/banker/config-game", {"begin": "yes"}).status_code == 400
    state = rig.post("/api/banker/config-game", {"begin": True}).json()
    assert [p["name"] for p in state["players"]] == ["Dee", "Eve"] and state["config_changes"] is None
    assert rig.table.state.on_unsure == "void"
    assert rig.post("/api/banker/config-game", {"begin": False}).status_code == 409  # chosen: nothing left


def test_carrying_on_keeps_the_night(rig: Rig) -> None:
    new = GameConfig(players=(Player("Dee", Suit.ARMS), Player("Eve", Suit.SUNS)))
    rig.ctx.config_game = PendingGame(FanTanNight(new, "reroll"), setup_changes(GAME, new))
    rig.login()
    state = rig.post("/api/banker/config-game", {"begin": False}).json()
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cy"] and state["config_changes"] is None


def test_the_banker_takes_a_coin_back_for_a_player(rig: Rig) -> None:
    rig.post("/api/bets", {"bet": "side:0-1", "coins": 2}, player="Ann")
    assert rig.post("/api/banker/bets/remove", {"player": "Ann", "bet": "side:0-1"}).status_code == 401
    rig.login()
    state = rig.post("/api/banker/bets/remove", {"player": "Ann", "bet": "side:0-1"}).json()
    assert next(p for p in state["players"] if p["name"] == "Ann")["coins"] == [{"bet": "side:0-1", "coins": 1}]
    assert rig.post("/api/banker/bets/remove", {"player": "Zed", "bet": "side:0-1"}).status_code == 404
    assert rig.post("/api/banker/bets/remove", {"player": "Ann", "bet": "side:0-1", "coins": 9}).status_code == 400
    assert rig.post("/api/banker/bets/remove", {"player": "Bob", "bet": "side:0-1"}).status_code == 409
