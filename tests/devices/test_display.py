"""The display: every screen against a golden picture, and each adapter that runs without a Pi.

To accept a deliberate change of a screen's look, run ``UPDATE_GOLDEN=1 make test`` and look at
the new pictures in tests/devices/golden/ before committing them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from fantan_table.devices.display import DisplayError
from fantan_table.devices.display.draw import HEIGHT, WIDTH, columns, draw, short_money, wrap
from fantan_table.devices.display.oled import OledDisplay
from fantan_table.devices.display.screens import (
    BankRoll,
    BetsClosed,
    BetsOpen,
    Blank,
    Fault,
    GameOver,
    PlayerLine,
    Problem,
    Reading,
    Result,
    Screen,
    SelftestCard,
    Settlement,
    Status,
    settlement_pages,
    text_lines,
)
from fantan_table.devices.display.simulated import SimulatedDisplay
from fantan_table.devices.display.terminal import TerminalDisplay

GOLDEN = Path(__file__).parent / "golden"
FOUR = [
    PlayerLine("Annabelle", 1500, 6500),
    PlayerLine("Bob", -500, 4500),
    PlayerLine("Cy", 33, 5033),
    PlayerLine("Di", 0, 5000),
]
SCREENS: dict[str, Screen] = {
    "bets_open": BetsOpen(12),
    "bets_closed": BetsClosed(12),
    "reading": Reading(12),
    "result": Result(12, (0, 3, 5, 2), 2),
    "result_recalled": Result(9, (1, 1, 5, 2), 1, recalled=True),
    "settlement_1": settlement_pages(12, FOUR)[0],
    "settlement_2": settlement_pages(12, FOUR)[1],
    "reroll": Problem("RE-ROLL", "3 dice seen, 4 expected: roll again, the bets stand"),
    "game_over": GameOver("all rounds played", (("Ann", 6500), ("Bob", 4500), ("Cy", 5033), ("Di", 0))),
    "blank": Blank(),
    "bank_roll": BankRoll("Bob", ("Annabelle", 17), None),
    "bank_roll_won": BankRoll(None, ("Cat", 2), "Bob"),
    "fault": Fault("OSError: [Errno 28] No space left on device: 'frames/round-0003-roll-1.jpg'"),
    "selftest_card": SelftestCard(),
    "status": Status("Hand 3  pool 7", "Annabelle", ("14 chips, 9 cards", "plays or passes")),
}


@pytest.mark.parametrize("name", SCREENS)
def test_screen_matches_its_golden_picture(name: str, tmp_path: Path) -> None:
    display = SimulatedDisplay()
    display.show(SCREENS[name])
    image = display.image
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        image.save(golden)
    assert golden.exists(), f"no golden picture {golden}; make it with UPDATE_GOLDEN=1 make test"
    expected = Image.open(golden).convert("1")
    if ImageChops.difference(image.convert("L"), expected.convert("L")).getbbox() is not None:
        image.save(tmp_path / golden.name)
        pytest.fail(f"{name} differs from {golden}; the new drawing is {tmp_path / golden.name}")


def test_every_screen_is_drawn_at_the_panel_size_and_only_blank_is_dark() -> None:
    for name, screen in SCREENS.items():
        image = draw(screen)
        assert image.size == (WIDTH, HEIGHT) and image.mode == "1"
        assert (image.getbbox() is None) == (name == "blank"), name


def test_four_players_take_two_pages_and_none_is_lost() -> None:
    pages = settlement_pages(7, FOUR)
    assert [(p.page, p.pages) for p in pages] == [(1, 2), (2, 2)]
    assert [line for p in pages for line in p.lines] == FOUR
    assert settlement_pages(7, FOUR[:2]) == [Settlement(7, tuple(FOUR[:2]), 1, 1)]


def test_a_long_name_is_cut_only_where_the_win_needs_the_room() -> None:
    long = draw(Settlement(1, (PlayerLine("Maximilian the Great", 1500, 6500),)))  # "+$15" leaves 12 letters
    cut = draw(Settlement(1, (PlayerLine("Maximilian t", 1500, 6500),)))
    assert ImageChops.difference(long, cut).getbbox() is None
    shorter = draw(Settlement(1, (PlayerLine("Maximilian", 1500, 6500),)))
    assert ImageChops.difference(long, shorter).getbbox() is not None


def test_money_on_the_panel_drops_zero_cents() -> None:
    assert short_money(1500, signed=True) == "+$15" and short_money(5033) == "$50.33" and short_money(-500) == "-$5"


def test_wrap_keeps_words_whole_and_lines_short() -> None:
    assert wrap("roll the dice again please", 10) == ["roll the", "dice again", "please"]
    assert all(len(line) <= columns(1) for line in wrap("x" * 50 + " y", columns(1)))


def test_text_lines_say_what_the_screen_shows() -> None:
    assert text_lines(Result(3, (1, 2, 3, 4), 2)) == ["Round 3", "dice 1 2 3 4 = 10", "OPEN 2"]
    second_page = ["Round 3 paid (2/2)", "Cy: +$0.33 -> $50.33", "Di: $0.00 -> $50.00"]
    assert text_lines(settlement_pages(3, FOUR)[1]) == second_page
    assert text_lines(Blank()) == []


def test_simulated_display_saves_every_frame(tmp_path: Path) -> None:
    display = SimulatedDisplay(frames_dir=tmp_path / "frames")
    display.show(BetsOpen(1))
    display.show(BetsClosed(1))
    files = sorted((tmp_path / "frames").iterdir())
    assert [f.name for f in files] == ["frame_00001.png", "frame_00002.png"]
    assert ImageChops.difference(Image.open(files[1]).convert("L"), draw(BetsClosed(1)).convert("L")).getbbox() is None
    display.close()
    assert display.image.getbbox() is None


def test_terminal_display_prints_each_new_screen_once() -> None:
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.show(BetsOpen(2))
    display.show(BetsOpen(2))
    display.show(Result(2, (0, 0, 1, 1), 2))
    text = out.getvalue()
    assert text.count("BETS OPEN") == 1 and "OPEN 2" in text
    assert all(len(line) == len("+" + "-" * 26 + "+") for line in text.splitlines())


class FakeLuma:
    def __init__(self, fail_on_display: bool = False) -> None:
        self.frames: list[Image.Image] = []
        self.fail_on_display = fail_on_display
        self.cleaned = False

    def display(self, image: Image.Image) -> None:
        if self.fail_on_display:
            raise OSError(121, "Remote I/O error")
        self.frames.append(image)

    def cleanup(self) -> None:
        self.cleaned = True


def test_oled_display_sends_drawn_frames_and_blanks_on_close() -> None:
    fake = FakeLuma()
    opened: list[Any] = []

    def open_device(driver: str, port: int, address: int) -> FakeLuma:
        opened.append((driver, port, address))
        return fake

    display = OledDisplay("sh1106", 1, 0x3D, open_device=open_device)
    display.show(Reading(4))
    display.close()
    assert opened == [("sh1106", 1, 0x3D)]
    assert ImageChops.difference(fake.frames[0], draw(Reading(4))).getbbox() is None
    assert fake.frames[-1].getbbox() is None and fake.cleaned


def test_oled_display_missing_or_failing_says_what_to_check() -> None:
    def missing(driver: str, port: int, address: int) -> None:
        raise OSError(2, "No such file or directory: '/dev/i2c-1'")

    with pytest.raises(DisplayError, match=r"0x3c on bus 1.*raspi-config.*i2cdetect"):
        OledDisplay(open_device=missing)
    display = OledDisplay(open_device=lambda *_: FakeLuma(fail_on_display=True))
    with pytest.raises(DisplayError, match="stopped answering"):
        display.show(BetsOpen(1))
    display.close()  # a dead panel does not stop the table from shutting down


def test_real_luma_without_i2c_bus_is_a_display_error() -> None:
    if Path("/dev/i2c-1").exists():
        pytest.skip("this machine has an I2C bus; the error path needs one without")
    with pytest.raises(DisplayError, match="no ssd1306 display"):
        OledDisplay()


def test_every_reason_a_game_ends_fits_a_line_of_the_panel() -> None:
    from fantan_table.rules.game import EndReason
    from fantan_table.table.show.present import PANEL_REASONS

    assert set(PANEL_REASONS) == set(EndReason)
    assert all(len(reason) <= columns(1) for reason in PANEL_REASONS.values())
