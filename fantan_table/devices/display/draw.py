"""Draw a screen as a 128x64 one-bit picture, the SSD1306's own format.

Letters come from Pillow's built-in bitmap font (6x11 cells) scaled by whole numbers: no
anti-aliasing to smear on a one-bit panel, identical pixels on every machine (the golden-PNG
tests rely on that), and the large sizes stay crisp. On the 0.96-inch panel a scale-1 letter is
about 1.5 mm high, fine for a heading read up close; what players read from their seats (the open
number, wins and losses, the banker's call to act) is drawn at scale 2 to 5.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from ...rules.money import format_cents, format_delta
from .screens import (
    BankRoll,
    BetsClosed,
    BetsOpen,
    Blank,
    Fault,
    GameOver,
    Problem,
    Reading,
    Result,
    Screen,
    SelftestCard,
    Settlement,
    Status,
)

WIDTH, HEIGHT = 128, 64
CELL_W, CELL_H = 6, 11
"""The bitmap font's character cell at scale 1."""

STATUS_ROWS = 2
"""A status screen's short lines under its large one: the panel holds two more rows of small letters."""
FAULT_REASON_ROWS = 3
"""Rows of the fault's reason under the heading, above the "restarting" line; the page shows it whole."""

Align = Literal["left", "centre", "right"]


@cache
def _font() -> ImageFont.ImageFont:
    # Pillow >= 10.1 returns a FreeType font from load_default(); the bitmap font is what we want.
    loader = getattr(ImageFont, "load_default_imagefont", None)
    font = loader() if loader is not None else ImageFont.load_default()
    assert isinstance(font, ImageFont.ImageFont)
    return font


def columns(scale: int) -> int:
    """How many characters fit across the panel at a scale."""
    return WIDTH // (CELL_W * scale)


def text(image: Image.Image, y: int, s: str, scale: int = 1, align: Align = "centre", x: int = 0) -> None:
    """Write one line at height ``y``, cut to what fits, aligned within the panel (``x`` is a left margin)."""
    s = s[: columns(scale)]
    if not s:
        return
    line = Image.new("1", (CELL_W * len(s), CELL_H))
    ImageDraw.Draw(line).text((0, 0), s, fill=1, font=_font())
    line = line.resize((line.width * scale, line.height * scale), Image.Resampling.NEAREST)
    left = {"left": x, "centre": (WIDTH - line.width) // 2, "right": WIDTH - line.width - x}[align]
    image.paste(1, (left, y), mask=line)


def wrap(s: str, width: int) -> list[str]:
    """Break words into lines of at most ``width`` characters (a longer word is cut)."""
    lines: list[str] = []
    for word in s.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[:width])
    return lines


def short_money(cents: int, signed: bool = False) -> str:
    """Money as the small panel shows it: whole dollars without ".00" (a Fan Tan table plays $1 coins), so a
    player's name keeps its room beside a win."""
    text = format_delta(cents) if signed else format_cents(cents)
    return text.removesuffix(".00")


def draw(screen: Screen) -> Image.Image:
    image = Image.new("1", (WIDTH, HEIGHT))
    pen = ImageDraw.Draw(image)
    match screen:
        case BetsOpen(round=n):
            text(image, 0, f"Round {n}")
            text(image, 16, "BETS", scale=2)
            text(image, 38, "OPEN", scale=2)
        case BetsClosed(round=n):
            text(image, 0, f"Round {n}")
            text(image, 16, "NO MORE", scale=2)
            text(image, 38, "BETS", scale=2)
        case Reading(round=n):
            text(image, 0, f"Round {n}")
            text(image, 20, "READING", scale=2)
            text(image, 44, "the dice")
        case Result(round=n, dice=dice, open_number=open_number, recalled=recalled):
            if recalled:  # a past round shown again: framed and named so, never taken for the one just played
                pen.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
            text(image, 2 if recalled else 0, f"PAST {n}" if recalled else f"Round {n}", align="left", x=2)
            text(image, 14, " ".join(map(str, dice)), scale=2, align="left", x=2)
            text(image, 38, f"={screen.total}", scale=2, align="left", x=2)
            text(image, 2 if recalled else 0, "OPEN", align="right", x=4)
            text(image, 16, str(open_number), scale=4, align="right", x=4)
        case Settlement(round=n, lines=lines, page=page, pages=pages):
            text(image, 0, f"Round {n} paid", align="left")
            if pages > 1:
                text(image, 0, f"{page}/{pages}", align="right")
            pen.line((0, 11, WIDTH - 1, 11), fill=1)
            for i, line in enumerate(lines):
                y = 15 + 25 * i
                delta = short_money(line.delta_cents, signed=True)
                room = (WIDTH - CELL_W * 2 * len(delta) - 3) // CELL_W
                text(image, y, line.player[:room], align="left")
                text(image, y + CELL_H, short_money(line.balance_cents)[:room], align="left")
                text(image, y, delta, scale=2, align="right")
        case Problem(heading=heading, reason=reason):
            text(image, 0, heading, scale=2)
            for i, row in enumerate(wrap(reason, columns(1))[:4]):
                text(image, 22 + 10 * i, row)
        case Fault(reason=reason):  # framed, unlike a problem the banker can fix: the table restarts itself
            pen.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
            text(image, 2, "FAULT", scale=2)
            for i, row in enumerate(wrap(reason, columns(1) - 1)[:FAULT_REASON_ROWS]):
                text(image, 20 + 10 * i, row)
            text(image, 52, "restarting")
        case GameOver(reason=reason, balances=balances):  # the whole reason is on the web page too
            text(image, 0, "GAME OVER")
            text(image, 11, reason)
            pen.line((0, 22, WIDTH - 1, 22), fill=1)
            for i, (name, cents) in enumerate(balances[:4]):
                y = 24 + 10 * i
                money = short_money(cents)
                text(image, y, name[: columns(1) - len(money) - 1], align="left")
                text(image, y, money, align="right")
        case BankRoll(to_roll=to_roll, last=last, winner=winner, tie=tie):
            text(image, 0, "WHO BANKS?")
            if last is not None:
                total, rolled = str(last[1]), " rolled"
                name = last[0][: columns(1) - len(total) - len(rolled) - 2]
                text(image, 11, name + rolled, align="left", x=2)
                text(image, 11, total, align="right", x=2)
            pen.line((0, 22, WIDTH - 1, 22), fill=1)
            name = winner if winner is not None else to_roll or ""
            text(image, 26, name[: columns(2)], scale=2)
            said = "BANKS: press NEXT" if winner is not None else "tie: roll again" if tie else "rolls the dice"
            text(image, 50, said)
        case Status(heading=heading, big=big, lines=lines):
            text(image, 0, heading)
            pen.line((0, 11, WIDTH - 1, 11), fill=1)
            text(image, 14, big, scale=2)
            # a line too long for the panel (why a game ended) goes on in the next row rather than be cut mid-word
            rows = [row for line in lines for row in wrap(line, columns(1))]
            for i, row in enumerate(rows[:STATUS_ROWS]):
                text(image, 40 + CELL_H * i, row)
        case Blank():
            pass
        case SelftestCard():
            pen.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
            text(image, 6, "TEST", scale=2)
            text(image, 30, "0123456789", scale=2)
            text(image, 51, "fantan-table")
        case _:
            raise TypeError(f"not a screen: {screen!r}")
    return image
