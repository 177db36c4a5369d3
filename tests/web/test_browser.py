"""The page in a real browser (Debian's headless Chromium, driven by Playwright): a player taps the layout on a
phone-sized screen, the banker closes betting and lifts the simulated cup, and everyone sees the settled round.

A screenshot of the page at phone width is kept in test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import APIResponse, Browser, Page, Route, expect, sync_playwright

from fantan_table.vision.dataset import read_labels
from fantan_table.vision.reader import Reading, Status
from fantan_table.web.app import create_app
from fantan_table.web.server import Listen, WebServer, base_url

from .conftest import PIN, close_context, make_context, player_token

CHROMIUM = os.environ.get("FANTAN_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).parents[2] / "test-artifacts"
ANSWER_SETTLES_MS = 300
"""Time for the page to take an answer just fulfilled: a check of a value that must *stay* cannot wait for it."""
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, object]]:
    ctx = make_context(tmp_path / "state", runner_devices=True)
    listen = Listen("127.0.0.1", 0)
    web = WebServer(create_app(ctx), listen)
    web.start()
    ctx.base_url = base_url("", listen, web.port)
    yield ctx.base_url, ctx
    web.stop()
    close_context(ctx)


@pytest.fixture
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: .ci/run installs Debian's chromium package"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


def tap(page: Page, zone: str) -> None:
    """Tap a spot in its middle, where the coins already on it lie: a tap goes through them to the spot."""
    page.locator(f'[data-zone="{zone}"]').click()


def banker_signed_in(browser: Browser, url: str, viewport: dict[str, int]) -> Page:  # noqa: F811
    """A new page at the table's ``url`` with the banker signed in by the PIN."""
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    page.fill("#pin", PIN)
    page.click("#login button")
    return page


@contextmanager
def answer_held(page: Page, pattern: str) -> Iterator[None]:
    """Requests to ``pattern`` reach the table, but their answers wait, as under load, until the block ends; then
    they go through, and the page has ``ANSWER_SETTLES_MS`` to take them."""
    held: list[tuple[Route, APIResponse]] = []
    page.route(pattern, lambda route: held.append((route, route.fetch())))
    yield
    assert held, f"nothing was asked of {pattern}"
    for route, answer in held:
        route.fulfill(response=answer)
    page.unroute(pattern)
    page.wait_for_timeout(ANSWER_SETTLES_MS)


def watch_for_refusals(page: Page, refused: list[str]) -> None:
    """Note what the browser refused to run or load (the page's Content-Security-Policy at work)."""
    page.on("console", lambda m: refused.append(m.text) if m.type == "error" and "Refused" in m.text else None)


def test_a_round_played_in_the_browser(server, browser: Browser) -> None:
    url, ctx = server
    banker = browser.new_page(viewport={"width": 1100, "height": 900})
    refused: list[str] = []
    watch_for_refusals(banker, refused)
    banker.goto(url)
    banker.fill("#pin", PIN)
    banker.click("#login button")
    expect(banker.locator("#banker-tools")).to_be_visible()
    expect(banker.locator("#sim")).to_be_visible()
    expect(banker.locator('[data-action="close"]')).to_be_visible()  # only what betting allows
    for hidden in ("confirm", "reroll", "void", "next", "resume"):
        expect(banker.locator(f'[data-action="{hidden}"]')).to_be_hidden()

    banker.click("#links summary")
    banker.click('#link-list button[data-link="Bob"]')
    expect(banker.locator("#link-list .qr svg")).to_have_count(1)
    bob_link = banker.locator("#link-list a").get_attribute("href")
    assert bob_link is not None and bob_link.startswith(f"{url}/?player=")

    phone = browser.new_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    watch_for_refusals(phone, refused)
    phone.goto(f"{url}/?player={player_token(ctx, 'Ann')}")
    expect(phone.locator("#who")).to_contain_text("You are Ann")
    for zone in ("number:1", "number:1", "side:0-1", "side:0-1", "corner:0"):
        tap(phone, zone)  # a second tap on any kind of spot stacks a second coin (five coins a round at most)
    mine = phone.locator('g.coin[data-player="Ann"]')
    expect(mine).to_have_count(3)
    for bet in ("number:1", "side:0-1"):
        expect(phone.locator(f'g.coin[data-player="Ann"][data-bet="{bet}"] .coin-count')).to_have_text("2")
    phone.check("#take-back")  # taking back is its own mode, the same on every kind of spot
    phone.locator('[data-zone="number:1"]').click(position={"x": 34, "y": 8})  # a tap on the spot, off the stack
    expect(phone.locator('g.coin[data-player="Ann"][data-bet="number:1"] .coin-count')).to_have_text("1")
    for bet in ("corner:0", "side:0-1", "side:0-1"):  # or a tap on one's own stack, on any kind of spot
        phone.locator(f'g.coin[data-player="Ann"][data-bet="{bet}"]').click()
        phone.wait_for_timeout(300)
    expect(mine).to_have_count(1)
    phone.uncheck("#take-back")
    expect(phone.locator("#stake")).to_contain_text("$4")
    phone.check("#strong")
    tap(phone, "corner:3")
    expect(phone.locator('g.coin[data-player="Ann"][data-bet="strong-corner:3"]')).to_have_count(1)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "phone-betting.png"), full_page=True)
    phone.uncheck("#strong")
    tap(phone, "centre")
    expect(phone.locator("#diagonal-choice")).to_be_visible()
    phone.click("#who")  # a tap elsewhere: the chooser goes
    expect(phone.locator("#diagonal-choice")).to_be_hidden()
    expect(phone.locator("#sound")).to_have_text("Sound: off")  # muted until asked
    phone.click("#sound")
    expect(phone.locator("#sound")).to_have_text("Sound: on")
    phone.route("**/api/bets", lambda route: route.abort())  # the Wi-Fi drops
    tap(phone, "number:0")
    expect(phone.locator("#message")).to_contain_text("did not answer")
    phone.unroute("**/api/bets")

    banker.click('[data-press="no_more_bets"]')
    expect(phone.locator("#status")).to_contain_text("no more bets")
    tap(phone, "number:2")
    expect(phone.locator("#message")).to_contain_text("betting is closed")

    banker.click("#shake")
    banker.click("#lift")
    expect(phone.locator("#status")).to_contain_text("result", timeout=15_000)
    state = ctx.owner.view.state
    record = state.rounds[-1]
    expect(phone.locator("#result-body")).to_contain_text(f"open {record.report.open_number}")
    ann = next(s for s in record.report.players if s.player == "Ann")
    rows = phone.locator("#pad tr")
    expect(rows).to_have_count(3)  # header, start, round 1
    expect(phone.locator("#pad tr.old")).to_have_count(1)  # the starting totals, struck through
    dollars = f"${ann.balance_after_cents // 100}.{ann.balance_after_cents % 100:02d}"
    expect(phone.locator("#pad tr.now")).to_contain_text(dollars)
    expect(banker.locator("#leds .led.on")).to_have_count(1)
    expect(phone.locator(f'rect.tile.lit[data-tile="{record.report.open_number}"]')).to_have_count(1)
    expect(phone.locator("#result-body .my-bets li")).to_have_count(2)  # each of my bets, and what it paid
    for line, result in zip(phone.locator("#result-body .my-bets li").all_inner_texts(), ann.results, strict=True):
        cents = abs(result.delta_cents)  # the word says which way: "lost $2.00", never "lost -$2.00"
        paid = f" ${cents // 100}.{cents % 100:02d}" if cents else ""
        assert line == f"{result.wager.coins} on {result.wager.bet}: {result.outcome.value}{paid}", line
    phone.screenshot(path=str(ARTIFACTS / "phone-result.png"), full_page=True)

    # the banker corrects the round: checked and shown first, then confirmed; the pad shows the correction
    other = [v for v in range(4) if v != record.report.open_number][0]
    banker.click("#correction summary")
    banker.fill('#correct input[name="round"]', str(record.report.round))
    banker.fill('#correct input[name="values"]', f"{other} 0 0 0")
    banker.fill('#correct input[name="why"]', "a die was misread")
    banker.click("#correct button[type=submit]")
    expect(banker.locator("#correct-preview")).to_contain_text(
        f"open {other} (settled on open {record.report.open_number})"
    )
    banker.click("#correct-confirm")
    expect(phone.locator("#pad tr.correction")).to_have_count(1)
    expect(phone.locator("#result-body")).to_contain_text(f"Round {record.report.round} corrected")

    banker.once("dialog", lambda dialog: dialog.accept())  # raid asks first
    banker.click('[data-action="raid"]')
    expect(phone.locator("#scoring")).to_be_hidden()  # the money goes out of sight with the display
    banker.click('[data-action="resume"]')
    expect(phone.locator("#scoring")).to_be_visible()
    assert refused == []


def test_a_roll_the_table_could_not_read_asks_for_a_shake_not_a_lift(server, browser: Browser) -> None:
    url, ctx = server
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(url)
    ctx.owner.call(lambda night: night.table.close_bets())
    expect(phone.locator("#status")).to_have_text("Round 1: no more bets: lift the cup")
    unsure = Reading(Status.UNSURE, (), "die at (398, 758): a gloss spot on a blank?")
    ctx.owner.call(lambda night: night.table.record_reading(unsure))
    expect(phone.locator("#status")).to_have_text(
        "Round 1: re-roll: shake the cup again, the bets stand (die at (398, 758): a gloss spot on a blank?)"
    )


def test_a_name_typed_while_the_last_seat_is_answered_is_kept(server, browser: Browser) -> None:
    """The banker seats one player and types the next while the table's answer is on its way: the late answer
    clears the form only if it still holds the player it seated (as the Sevens card form)."""
    url, _ = server
    banker = banker_signed_in(browser, url, {"width": 1100, "height": 900})
    expect(banker.locator("#banker-tools")).to_be_visible()
    banker.click("#seats summary")
    leaving = banker.locator("#seat-list button[data-leave]").first
    name = leaving.get_attribute("data-leave")
    banker.once("dialog", lambda dialog: dialog.accept())  # "... leaves the table with ...?"
    leaving.click()  # two suits free: the form stays for the next newcomer
    expect(banker.locator("#seat-list")).not_to_contain_text(f"{name} (")
    banker.fill('#seat input[name="name"]', "Dee")
    banker.select_option("#seat-suit", "arms")
    banker.fill('#seat input[name="dollars"]', "30")
    with answer_held(banker, "**/api/banker/players/seat"):  # the table seats Dee; its answer waits
        banker.click('#seat button[type="submit"]')
        expect(banker.locator("#seat-list")).to_contain_text("Dee")  # the live stream drew the seat already
        banker.fill('#seat input[name="name"]', "Eve")
    expect(banker.locator('#seat input[name="name"]')).to_have_value("Eve")


def test_rolls_captured_from_a_phone(tmp_path: Path, browser: Browser) -> None:
    """``capture rolls --web`` end to end: the command prints its link, the phone takes a roll (the simulated
    camera rolls new dice), corrects the reader's guess, saves it, removes a wrong one; SIGTERM stops it."""
    config = tmp_path / "config.toml"
    config.write_text('hardware = "sim"\n[web]\nport = 0\n')
    folder = tmp_path / "rolls"
    command = [sys.executable, "-m", "fantan_table", "capture", "rolls", str(folder), "--web", "--config", str(config)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        link = None
        for line in process.stdout:
            if match := re.match(r"open (http://\S+)", line):
                link = match.group(1)
                break
        assert link is not None and "#key=" in link, process.stderr.read() if process.stderr else ""
        phone = browser.new_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        phone.goto(link)  # in simulation the page is served on 127.0.0.1 only
        expect(phone.locator("#count")).to_contain_text("0 rolls saved")
        assert "key=" not in phone.url  # the key leaves the address bar once read
        phone.click("#take")
        expect(phone.locator("#picture")).to_be_visible(timeout=15_000)
        expect(phone.locator("#seen")).to_contain_text("The reader saw")
        guess = phone.input_value("#values").split()
        assert len(guess) == 4
        ARTIFACTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / "phone-capture.png"), full_page=True)
        phone.click('[aria-label="delete the last value"]')
        phone.click('[aria-label="add 6"]')
        phone.click("#save")
        expect(phone.locator("#count")).to_contain_text("1 roll saved")
        expect(phone.locator("#recent")).to_contain_text(f"roll_001.jpg: {' '.join(guess[:3] + ['6'])}")
        phone.click("#take")
        expect(phone.locator("#save")).to_be_enabled(timeout=15_000)
        phone.fill("#values", "9 9")
        phone.click("#save")
        expect(phone.locator("#message")).to_contain_text("0 to 6")
        phone.fill("#values", "1 2 3 4")
        phone.click("#save")
        expect(phone.locator("#count")).to_contain_text("2 rolls saved")
        phone.click('[aria-label="remove roll_002.jpg"]')
        expect(phone.locator("#count")).to_contain_text("1 roll saved")
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=10)
    assert process.returncode == 0, err
    assert "saved roll_001.jpg" in out and "stopped; 1 rolls" in out
    [sample] = read_labels(folder)
    assert sample.image.name == "roll_001.jpg" and list(map(str, sample.values)) == guess[:3] + ["6"]
