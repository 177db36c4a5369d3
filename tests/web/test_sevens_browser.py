"""Card Fan Tan in a real browser at a phone's width (360 px): a hand of virtual cards played from three phones,
each showing its own hand only, and a hand of real cards entered card by card on the banker's page."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from fantan_table.rules.sevens.cards import Rank, Suit
from fantan_table.rules.sevens.events import SevensSetup
from fantan_table.rules.sevens.game import Stage
from fantan_table.rules.sevens.options import RULES_001, Agreed, CardMode
from fantan_table.table.core.sevens_table import SevensTable

from . import sevens_revoke as revoke
from .hosted import hosted_server
from .test_browser import ARTIFACTS, answer_held, banker_signed_in, browser  # noqa: F401  (fixtures)

PLAYERS = ("Ann", "Bob", "Cy")
PHONE = {"width": 360, "height": 1400}
BUILD_ORDER = (7, 8, 9, 10, 11, 12, 13, 6, 5, 4, 3, 2, 1)
"""A suit's ranks in an order each can be played: the seven, up to the King, then down to the Ace."""


def banker_page(browser: Browser, url: str) -> Page:  # noqa: F811
    page = banker_signed_in(browser, url, PHONE)
    expect(page.locator("#sevens-banker")).to_be_visible()
    return page


def test_a_hand_of_virtual_cards_played_from_the_phones(tmp_path: Path, browser: Browser) -> None:  # noqa: F811
    setup = SevensSetup(PLAYERS, RULES_001, Agreed(hands=2), CardMode.VIRTUAL)
    with hosted_server(tmp_path / "state", setup) as (url, ctx, tokens):
        table = ctx.owner.night.table
        assert isinstance(table, SevensTable)
        banker = banker_page(browser, url)
        banker.click("#sevens-dealer button[type=submit]")  # no cards typed: the table deals them
        banker.click('[data-sevens="deal"]')
        expect(banker.locator("#sevens-status")).to_contain_text("to play")
        expect(banker.locator("#sevens-for-a-phone")).to_be_visible()  # the banker's entry: for a lost phone only
        phones = {name: browser.new_page(viewport=PHONE) for name in PLAYERS}
        for name, phone in phones.items():
            phone.goto(f"{url}/?player={tokens[name]}")
            expect(phone.locator("#sevens-who")).to_contain_text(f"You are {name}")
        hand = table.state.hand
        assert hand is not None and hand.held is not None
        for seat, name in enumerate(PLAYERS):  # each phone shows its own hand, and only it
            shown = phones[name].locator("#my-hand button")
            expect(shown).to_have_count(len(hand.held[seat]))
            assert {b.get_attribute("data-card") for b in shown.all()} == {str(c) for c in hand.held[seat]}
        moves = 0
        while not table.state.results:
            hand = table.state.hand
            assert hand is not None
            name = PLAYERS[hand.turn]
            phone = phones[name]
            expect(phone.locator("#sevens-status")).to_contain_text(f"{name} to play")
            playable = phone.locator("#my-hand button.playable")
            if table.playable(name):
                expect(phone.locator("#sevens-pass")).to_be_enabled()
                playable.first.click()
            else:
                expect(playable).to_have_count(0)
                phone.click("#sevens-pass")
            moves += 1
            expect(banker.locator("#sevens-players")).to_be_visible()
            _wait_for_move(table, moves)
        result = table.state.results[0]
        winner = PLAYERS[result.winner]
        for phone in phones.values():
            expect(phone.locator("#sevens-last")).to_contain_text(f"Hand 1: {winner} went out and took the pool")
        assert sum(table.state.chips.seats) + table.state.chips.pool == 3 * 50  # every chip accounted for
        ARTIFACTS.mkdir(exist_ok=True)
        phones[winner].screenshot(path=str(ARTIFACTS / "sevens-phone-360.png"), full_page=True)


def test_a_hand_of_real_cards_entered_by_the_banker(tmp_path: Path, browser: Browser) -> None:  # noqa: F811
    setup = SevensSetup(PLAYERS, RULES_001, Agreed(hands=2), CardMode.PHYSICAL)
    with hosted_server(tmp_path / "state", setup) as (url, ctx, _):
        table = ctx.owner.night.table
        assert isinstance(table, SevensTable)
        banker = banker_page(browser, url)
        banker.fill("#sevens-dealer-cards", "JH")  # the first card dealt face up is a Jack: Ann deals
        banker.click("#sevens-dealer button[type=submit]")
        banker.click('[data-sevens="deal"]')
        expect(banker.locator("#sevens-turn")).to_have_text("Bob")
        expect(banker.locator("#sevens-for-a-phone")).to_be_hidden()  # real cards: every card is entered here
        banker.fill("#sevens-card", "8S")  # not playable: refused with the rule
        banker.click("#sevens-play button[type=submit]")
        expect(banker.locator("#message")).to_contain_text("a card not playable on the layout: 8")
        expect(banker.locator("#sevens-turn")).to_have_text("Bob")
        banker.click('#sevens-play [data-sevens="pass"]')  # Bob passes (real cards: taken, a revoke claimed later)
        expect(banker.locator("#sevens-turn")).to_have_text("Cy")
        cards = [f"{Rank(r).text}{suit.value}" for suit in (Suit.SPADES, Suit.HEARTS) for r in BUILD_ORDER]
        cards += [f"{Rank(r).text}{suit.value}" for suit in (Suit.DIAMONDS, Suit.CLUBS) for r in BUILD_ORDER]
        for card in cards:
            if table.state.hand is None or table.state.hand.over:
                break
            turn = banker.locator("#sevens-turn").inner_text()
            banker.fill("#sevens-card", card)
            banker.click("#sevens-play button[type=submit]")
            expect(banker.locator("#sevens-turn")).not_to_have_text(turn)
        hand = table.state.hand
        assert hand is not None and hand.over
        expect(banker.locator("#sevens-out")).to_be_visible()
        left = banker.locator('#sevens-left input[data-left="Ann"]')
        left.fill(str(hand.counts[0] + 1))  # a miscount is refused with the table's count
        banker.click("#sevens-out button[type=submit]")
        expect(banker.locator("#message")).to_contain_text(f"Ann holds {hand.counts[0]} cards by the table's count")
        left.fill(str(hand.counts[0]))
        banker.click("#sevens-out button[type=submit]")
        winner = PLAYERS[hand.winner]
        expect(banker.locator("#sevens-last")).to_contain_text(f"Hand 1: {winner} went out and took the pool")
        assert table.state.results and sum(table.state.chips.seats) + table.state.chips.pool == 3 * 50
        ARTIFACTS.mkdir(exist_ok=True)
        banker.screenshot(path=str(ARTIFACTS / "sevens-banker-360.png"), full_page=True)


def test_a_card_typed_while_the_last_one_is_answered_is_kept(tmp_path: Path, browser: Browser) -> None:  # noqa: F811
    """The live stream can draw a move before the move's own answer arrives, and the banker types the next card
    meanwhile: the late answer clears only the card it was for. (Once, under load, it cleared the next card and
    the page sent an empty one.)"""
    setup = SevensSetup(PLAYERS, RULES_001, Agreed(hands=2), CardMode.PHYSICAL)
    with hosted_server(tmp_path / "state", setup) as (url, _, _tokens):
        banker = banker_page(browser, url)
        banker.fill("#sevens-dealer-cards", "JH")
        banker.click("#sevens-dealer button[type=submit]")
        banker.click('[data-sevens="deal"]')
        expect(banker.locator("#sevens-turn")).to_have_text("Bob")
        with answer_held(banker, "**/api/banker/sevens"):  # the table takes the move; its answer waits
            banker.fill("#sevens-card", "7S")
            banker.click("#sevens-play button[type=submit]")
            expect(banker.locator("#sevens-turn")).to_have_text("Cy")  # the live stream drew the move already
            banker.fill("#sevens-card", "8S")
        expect(banker.locator("#sevens-card")).to_have_value("8S")
        banker.click("#sevens-play button[type=submit]")
        expect(banker.locator("#sevens-turn")).to_have_text("Ann")
        expect(banker.locator("#sevens-card")).to_have_value("")


def _wait_for_move(table: SevensTable, moves: int) -> None:
    """Until the table has taken the move just tapped (the phones hear of it on their live stream).

    A last card ends the hand in two steps: the play (the hand is over) and then, with virtual cards, the table's
    own settling of it. In between, the hand still names the winner to play, with no cards: under load the loop
    once read that and tapped Pass on a finished hand. So a hand the move ended is waited for until settled."""
    import time

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        state = table.state
        if state.results or (state.hand is not None and len(state.hand.moves) >= moves and state.stage is Stage.PLAY):
            return
        time.sleep(0.02)
    raise AssertionError(f"move {moves} was not taken")


def test_a_revoke_is_claimed_on_the_banker_page_by_choosing_the_pass_and_typing_the_hands(
    tmp_path: Path,
    browser: Browser,  # noqa: F811
) -> None:
    with hosted_server(tmp_path / "state", revoke.SETUP) as (url, ctx, _):
        table = ctx.owner.night.table
        assert isinstance(table, SevensTable)
        banker = banker_page(browser, url)
        banker.fill("#sevens-dealer-cards", " ".join(revoke.DEALER_CARDS))
        banker.click("#sevens-dealer button[type=submit]")
        banker.click('[data-sevens="deal"]')
        expect(banker.locator("#sevens-turn")).to_have_text("Cy")

        def enter(action: str, player: str, card: str | None) -> None:  # the hand itself, as the API test enters it
            if action == "play":
                ctx.owner.call(lambda night: night.sevens.play(player, card or ""))
            else:
                ctx.owner.call(lambda night: night.sevens.pass_turn(player))

        revoke.play_to_the_end(lambda: table.state, enter)
        state = table.state
        shown = revoke.hands_shown(state)
        expect(banker.locator("#sevens-revoke")).to_be_visible()
        moves = banker.locator("#sevens-move-list li")  # every move numbered, for everyone: a claim names a pass
        assert state.hand is not None
        expect(moves).to_have_count(len(state.hand.moves))
        expect(moves.nth(0)).to_have_text("Cy played 7♥")
        expect(moves.nth(1)).to_have_text("Ann passed")
        passes = banker.locator("#revoke-move option")
        expect(passes.nth(0)).to_have_text("move 2: Ann passed")
        expect(passes.nth(1)).to_have_text("move 3: Bob passed")

        def show(hands: dict[str, list[str]]) -> None:
            for name in revoke.PLAYERS:
                banker.fill(f'#revoke-hands input[data-shown="{name}"]', " ".join(hands.get(name, [])))

        banker.select_option("#revoke-move", str(revoke.HONEST))
        show({"Bob": shown["Bob"]})
        banker.click("#sevens-revoke button[type=submit]")
        expect(banker.locator("#message")).to_contain_text("no revoke: Bob could not play at move 3")
        banker.select_option("#revoke-move", str(revoke.REVOKE))
        show(shown)
        ARTIFACTS.mkdir(exist_ok=True)
        banker.screenshot(path=str(ARTIFACTS / "sevens-revoke-360.png"), full_page=True)
        chips_before = table.state.chips.seats
        banker.click("#sevens-revoke button[type=submit]")
        paid = revoke.paid_for_the_seven(state, shown)
        ann = chips_before[0] - 3 + paid["Ann"]
        expect(banker.locator('#sevens-players tr[data-player="Ann"] td').nth(1)).to_have_text(str(ann))
        banker.click("#sevens-out button[type=submit]")  # the table's count of each hand, as filled in
        expect(banker.locator("#sevens-last")).to_contain_text("(1 revoke paid)")
        expect(banker.locator("#fans-caption")).to_have_text("Hand 1's layout, as it ended.")  # not hand 2's
        assert table.state.results[0].revokes and sum(table.state.chips.seats) + table.state.chips.pool == 3 * 50


def test_the_headers_status_is_never_under_the_sound_button_at_a_phones_width(
    tmp_path: Path,
    browser: Browser,  # noqa: F811
) -> None:
    setup = SevensSetup(PLAYERS, RULES_001, Agreed(hands=2), CardMode.PHYSICAL)
    with hosted_server(tmp_path / "state", setup) as (url, _, _):
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        expect(page.locator("#status")).to_contain_text("Card Fan Tan, hand 1: choosing the dealer")
        overlaps = page.evaluate(
            """() => {
                const text = document.createRange();
                text.selectNodeContents(document.getElementById("status"));
                const button = document.getElementById("sound").getBoundingClientRect();
                return [...text.getClientRects()].filter((line) => line.right > button.left &&
                    line.left < button.right && line.bottom > button.top && line.top < button.bottom).length;
            }"""
        )
        assert overlaps == 0, "the status's words run under the Sound button"
