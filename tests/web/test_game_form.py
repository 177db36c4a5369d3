"""The banker's new-game form comes from the config's declaration: the API serves the game's keys, the page
builds its fields from them, and a setup is checked with the same kinds, ranges and choices as the file."""

from __future__ import annotations

from datetime import datetime

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from fantan_table.rules.bets import Variant
from fantan_table.rules.game import AfterRounds, AtTime, HouseBank
from fantan_table.settings import Key, Scope, in_scope
from fantan_table.table.wiring.config import KEYS

from .conftest import Rig
from .test_browser import ARTIFACTS, banker_signed_in, browser, server  # noqa: F401  (fixtures)

SEATS = [{"name": "Dee", "suit": "arms"}, {"name": "Eve", "suit": "suns"}]


def test_the_form_fields_are_the_declared_game_keys(rig: Rig) -> None:
    fields = {f["name"]: f for f in rig.client.get("/api/game-form").json()["fields"]}
    assert list(fields) == [key.name for key in in_scope(KEYS, Scope.NEW_GAME)]
    for key in in_scope(KEYS, Scope.NEW_GAME):
        f = fields[key.name]
        assert (f["section"], f["low"], f["high"], f["choices"], f["text"]) == (
            key.section,
            key.low,
            key.high,
            list(key.choices),
            key.text,
        )
    assert "banker-bankrupt" in fields["end"]["choices"] and "time" in fields["end"]["choices"]


@pytest.mark.parametrize("key", [k for k in in_scope(KEYS, Scope.NEW_GAME) if k.low is not None], ids=str)
def test_a_setup_out_of_the_declared_range_is_refused_naming_the_field(rig: Rig, key: Key) -> None:
    rig.login()
    for value, status in ((key.high + 1, 400), (key.low - 1, 400)):
        reply = rig.post("/api/banker/game", {"players": SEATS, key.name: value, "abandon": True})
        assert reply.status_code == status
        assert reply.json()["error"] == f"{key.name} out of range, must be {key.low} to {key.high} (got {value})"
    assert [p["name"] for p in rig.client.get("/api/state").json()["players"]] == ["Ann", "Bob", "Cy"]


def test_every_game_choice_of_the_config_is_taken_from_the_form(rig: Rig) -> None:
    rig.login()
    setup = {
        "players": SEATS,
        "variants": ["corners", "strong"],
        "banker": "house-bank",
        "house_bank_dollars": 80,
        "end": "time",
        "end_time": "2026-11-22T23:30:00+01:00",
        "on_unsure": "void",
        "abandon": True,
    }
    assert rig.post("/api/banker/game", setup).status_code == 200
    game = rig.ctx.owner.view.state.game.config
    assert game.variants == Variant.CORNERS | Variant.STRONG and game.banker == HouseBank(8000)
    assert game.end == AtTime(datetime.fromisoformat("2026-11-22T23:30:00+01:00"))
    naive = rig.post("/api/banker/game", {**setup, "end_time": "2026-11-22T23:30"})
    assert naive.status_code == 400 and "end_time must be a date and time with its offset" in naive.json()["error"]
    unsure = rig.post("/api/banker/game", {**setup, "on_unsure": "guess"})
    assert unsure.status_code == 400 and "on_unsure must be one of 'reroll', 'void'" in unsure.json()["error"]


def setup_form(banker: Page) -> Locator:
    """The new-game form, opened."""
    banker.click("#setup >> xpath=.. >> summary")
    return banker.locator("#setup")


def test_the_page_builds_the_form_and_starts_the_game_it_asks_for(server, browser: Browser) -> None:  # noqa: F811
    url, ctx = server
    banker = banker_signed_in(browser, url, {"width": 1100, "height": 1400})
    form = setup_form(banker)
    for key in in_scope(KEYS, Scope.NEW_GAME):
        if key.name not in ("players", "suits"):
            expect(form.locator(f'[name="{key.name}"]').first).to_be_attached()
    dollars = form.locator('[name="starting_dollars"]')
    expect(dollars).to_have_attribute("max", str(KEYS[("game", "starting_dollars")].high))
    expect(form.locator('[name="variants"]')).to_have_count(len(KEYS[("game", "variants")].choices))
    for suit, name in (("suns", "Dee"), ("moons", "Eve"), ("crowns", ""), ("arms", "")):
        form.locator(f'[name="player-{suit}"]').fill(name)
    dollars.fill("30")
    form.locator('[name="variants"][value="diagonals"]').check()
    form.locator('[name="end"]').select_option("rounds")
    form.locator('[name="end_rounds"]').fill("7")
    form.locator('[name="abandon"]').check()
    ARTIFACTS.mkdir(exist_ok=True)
    form.screenshot(path=str(ARTIFACTS / "banker-new-game.png"))
    form.locator('button[type="submit"]').click()
    expect(banker.locator("#message")).not_to_have_class("error")
    expect(banker.locator("#pad")).to_contain_text("Dee")
    game = ctx.owner.view.state.game.config
    assert [p.name for p in game.players] == ["Dee", "Eve"] and game.starting_balance_cents == 3000
    assert game.variants == Variant.DIAGONALS and game.end == AfterRounds(7)


def test_a_game_begun_from_the_page_rolls_for_its_first_bank(server, browser: Browser) -> None:  # noqa: F811
    url, ctx = server
    banker = banker_signed_in(browser, url, {"width": 360, "height": 1400})
    form = setup_form(banker)
    for suit, name in (("suns", "Dee"), ("moons", "Eve"), ("crowns", ""), ("arms", "")):
        form.locator(f'[name="player-{suit}"]').fill(name)
    form.locator('[name="banker"]').select_option("rotating")
    by_roll = form.locator('[name="banker_by_roll"]')
    expect(by_roll).to_have_attribute("type", "checkbox")
    by_roll.check()
    form.locator('[name="abandon"]').check()
    form.locator('button[type="submit"]').click()
    expect(banker.locator("#status")).to_contain_text("rolling for the bank: Dee rolls the dice")
    expect(banker.locator("#result-body")).to_contain_text("Who banks first: the highest roll. Dee rolls next.")
    expect(banker.locator('[data-action="next"]')).to_be_hidden()
    expect(banker.locator("#override")).to_be_visible()
    banker.fill("#dice", "5 5 5 5")
    banker.click("#override button")
    expect(banker.locator("#dice-preview")).to_have_text("Dice 5 5 5 5 = 20: Dee's roll for the bank.")
    banker.click("#dice-confirm")
    expect(banker.locator("#result-body")).to_contain_text("Dee: 5 5 5 5 = 20")  # sent as Dee's roll, as checked
    ARTIFACTS.mkdir(exist_ok=True)
    banker.screenshot(path=str(ARTIFACTS / "banker-roll-for-the-bank.png"), full_page=True)
    assert ctx.owner.view.state.game.draw is not None and ctx.owner.view.state.game.draw.to_roll == "Eve"


def test_the_banker_seats_a_newcomer_and_lets_a_player_go_from_a_phone(server, browser: Browser) -> None:  # noqa: F811
    url, ctx = server
    banker = banker_signed_in(browser, url, {"width": 360, "height": 1400})
    banker.on("dialog", lambda dialog: dialog.accept())  # the leave is confirmed with the balance taken
    banker.click("#seats summary")
    seat = banker.locator("#seat")
    expect(seat.locator('[name="suit"] option')).to_have_count(4 - len(ctx.owner.view.state.game.players))
    seat.locator('[name="name"]').fill("Dee")
    seat.locator('[name="dollars"]').fill("25")
    seat.locator('button[type="submit"]').click()
    expect(banker.locator("#pad")).to_contain_text("Dee joins")
    expect(banker.locator("#seat-list")).to_contain_text("Dee (arms): $25.00")
    banker.locator('[data-leave="Bob"]').click()
    expect(banker.locator("#pad")).to_contain_text("Bob leaves")
    expect(banker.locator("#seat-list")).not_to_contain_text("Bob")
    ARTIFACTS.mkdir(exist_ok=True)
    banker.locator("#seats").screenshot(path=str(ARTIFACTS / "banker-seats.png"))
    assert [p.name for p in ctx.owner.view.state.game.players] == ["Ann", "Cy", "Dee"]


def test_the_page_seats_six_for_card_fan_tan_and_more_for_collecting_tens(server, browser: Browser) -> None:  # noqa: F811
    url, ctx = server
    banker = banker_signed_in(browser, url, {"width": 360, "height": 1400})
    form = setup_form(banker)
    form.locator('[name="plays"]').select_option("sevens")
    expect(form.locator('[name="player-suns"]')).to_be_hidden()  # card Fan Tan's seats are not the four suits
    seats = form.locator('[name="seat"]')
    expect(seats).to_have_count(6)
    expect(seats.nth(0)).to_have_value("Ann")  # the players at the table now, in their seats
    six = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    for n, name in enumerate(six):
        seats.nth(n).fill(name)
    form.locator('[name="cards"]').select_option("virtual")
    form.locator('[name="abandon"]').check()
    form.locator('button[type="submit"]').click()
    expect(banker.locator("#sevens-status")).to_contain_text("Hand 1")
    assert ctx.owner.view.plays == "sevens" and list(ctx.owner.view.players) == six

    banker.reload()  # the form of a card Fan Tan night offers card Fan Tan, its six players in their seats
    banker.click("#setup >> xpath=.. >> summary")
    expect(form.locator('[name="plays"]')).to_have_value("sevens")
    expect(seats.nth(5)).to_have_value("Fay")
    form.locator('[name="plays"]').select_option("tens")
    form.locator("#another-seat").click()
    expect(seats).to_have_count(7)
    seats.nth(6).fill("Gus")
    ARTIFACTS.mkdir(exist_ok=True)
    form.screenshot(path=str(ARTIFACTS / "banker-new-game-seats.png"))
    form.locator('button[type="submit"]').click()
    expect(banker.locator("#tens-status")).to_contain_text("Hand 1")
    assert ctx.owner.view.plays == "tens" and list(ctx.owner.view.players) == [*six, "Gus"]
