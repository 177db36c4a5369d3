"""Collecting Tens in a real browser at a phone's width (360 px): a hand of virtual dominoes played from three
phones (each its own tiles only), and a hand of real dominoes kept by the banker's page, the declared hand
entered tile by tile and checked."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from fantan_table.rules.tens.game import Stage
from fantan_table.rules.tens.options import Dominoes, TensConfig
from fantan_table.table.core.tens_table import TensTable
from fantan_table.table.wiring.tens_bot import best_discard, takes, worth

from .hosted import hosted_server
from .test_browser import ARTIFACTS, banker_signed_in, browser  # noqa: F401  (fixtures)
from .test_tens_api import COMPLETE

PLAYERS = ("Ann", "Bob", "Cy")
PHONE = {"width": 360, "height": 1400}
HAND_TILES = 10


def banker_page(browser: Browser, url: str) -> Page:  # noqa: F811
    page = banker_signed_in(browser, url, PHONE)
    expect(page.locator("#tens-banker")).to_be_visible()
    return page


def test_a_hand_of_virtual_dominoes_played_from_the_phones(tmp_path: Path, browser: Browser) -> None:  # noqa: F811
    with hosted_server(tmp_path / "state", TensConfig(PLAYERS, dominoes=Dominoes.VIRTUAL)) as (url, ctx, tokens):
        table = ctx.owner.night.table
        assert isinstance(table, TensTable)
        banker = banker_page(browser, url)
        banker.fill("#tens-dice", "1 1 2 2")  # the camera's fallback: six, counted off from Ann, is Cy
        banker.click("#tens-roll-form button[type=submit]")
        expect(banker.locator("#tens-roll-preview")).to_have_text(
            "Dice 1 1 2 2 = 6: counting off from Ann, Cy plays first."
        )
        assert table.state.dice is None  # shown, not rolled: a typing slip would pick the wrong first player
        banker.click("#tens-roll-confirm")
        expect(banker.locator("#tens-roll-text")).to_contain_text("Counting off from Ann: Ann, Bob, Cy, Ann, Bob, Cy")
        expect(banker.locator("#tens-roll-check")).to_be_hidden()
        banker.click('#tens-banker button[data-tens="deal"]')
        phones = {name: browser.new_page(viewport=PHONE) for name in PLAYERS}
        for name, phone in phones.items():
            phone.goto(f"{url}/?player={tokens[name]}")
            expect(phone.locator("#tens-who")).to_contain_text(f"You are {name}")
        rule = table.state.config.pairs
        while table.state.stage is not Stage.SHOWING:
            state, tiles = table.state, table.state.tiles
            assert tiles is not None and state.to_move is not None
            name = PLAYERS[state.to_move]
            phone = phones[name]
            hand = [t for t in tiles.hands[state.to_move] if t is not None]
            before = table.version
            expect(phone.locator("#my-tiles button")).to_have_count(len(hand))  # its own tiles, as the table holds
            asked = "take the discard or draw" if state.stage is Stage.TAKING else "declare, or discard"
            expect(phone.locator("#tens-status")).to_contain_text(f"{name}: {asked}")  # the phone heard of its turn
            if state.stage is Stage.TAKING:
                discard = tiles.discards[-1] if tiles.discards else None
                take = discard is not None and takes(hand, discard, rule)
                phone.click("#tens-take" if take else "#tens-draw")
            elif worth(hand, rule) == HAND_TILES:
                phone.click("#tens-declare")
            else:
                phone.locator(f'#my-tiles button[data-tile="{best_discard(hand, rule)}"]').first.click()
            _wait(lambda before=before: table.version > before)  # the table has taken the move
        last = table.state.results[-1]
        said = f"{last.winner} won" if last.winner else "the hand is drawn"
        for phone in phones.values():
            expect(phone.locator("#tens-status")).to_contain_text(said)
        assert table.state.money.total == 3 * table.state.config.starting_cents  # not a cent made or lost
        ARTIFACTS.mkdir(exist_ok=True)
        phones["Cy"].screenshot(path=str(ARTIFACTS / "tens-phone-360.png"), full_page=True)


def test_a_hand_of_real_dominoes_kept_by_the_banker(tmp_path: Path, browser: Browser) -> None:  # noqa: F811
    with hosted_server(tmp_path / "state", TensConfig(PLAYERS, dominoes=Dominoes.PHYSICAL)) as (url, ctx, tokens):
        table = ctx.owner.night.table
        assert isinstance(table, TensTable)
        phone = browser.new_page(viewport=PHONE)
        phone.goto(f"{url}/?player={tokens['Bob']}")
        expect(phone.locator("#my-tiles")).to_contain_text("Real dominoes: play them on the table")
        banker = banker_page(browser, url)
        banker.fill("#tens-dice", "1 1 9 2")  # a slip: refused with the dice the table rolls
        banker.click("#tens-roll-form button[type=submit]")
        expect(banker.locator("#message")).to_contain_text("values must be the four dice's faces")
        expect(banker.locator("#tens-roll-check")).to_be_hidden()
        banker.fill("#tens-dice", "1 1 2 2")
        banker.click("#tens-roll-form button[type=submit]")
        expect(banker.locator("#tens-roll-preview")).to_contain_text("Cy plays first")
        banker.click("#tens-roll-cancel")  # cancelled: nothing rolled
        expect(banker.locator("#tens-roll-check")).to_be_hidden()
        assert table.state.dice is None
        banker.click("#tens-roll-form button[type=submit]")
        banker.click("#tens-roll-confirm")
        expect(banker.locator("#tens-status")).to_contain_text("Cy plays first")
        banker.click('#tens-banker button[data-tens="deal"]')
        expect(banker.locator("#tens-status")).to_contain_text("Cy: declare, or discard")
        banker.click('#tens-banker button[data-tens="discarded"]')
        expect(banker.locator("#tens-status")).to_contain_text("Ann: take the discard or draw")
        banker.click('#tens-banker button[data-tens="took"]')
        expect(banker.locator("#tens-status")).to_contain_text("Ann: declare, or discard")
        for count, tile in enumerate((*COMPLETE[:-1], "2-2"), 1):
            banker.fill("#tens-tile", tile)
            banker.click("#tens-tile-form button[type=submit]")
            expect(banker.locator("#tens-entered")).to_contain_text(f"Entered ({count} of 10)")
        banker.click('#tens-banker button[data-tens="declare"]')
        expect(banker.locator("#message")).to_contain_text("the hand 'Ann' declared is not complete")
        banker.click('#tens-banker button[data-tens="untile"]')
        banker.fill("#tens-tile", "1-1")
        banker.click("#tens-tile-form button[type=submit]")
        expect(banker.locator("#tens-entered")).to_contain_text("Entered (10 of 10)")
        banker.click('#tens-banker button[data-tens="declare"]')
        expect(banker.locator("#tens-status")).to_contain_text("Ann won $3.00")
        expect(banker.locator("#tens-last")).to_contain_text("6-6 6-6")
        assert table.state.results[-1].winner == "Ann"
        ARTIFACTS.mkdir(exist_ok=True)
        banker.screenshot(path=str(ARTIFACTS / "tens-banker-360.png"), full_page=True)


def _wait(done: object) -> None:
    deadline = time.monotonic() + 10
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the table did not take the move"
        time.sleep(0.02)
