"""A person's name as the table shows it: on the page, the display, the scoring table and in the journal.

Names come from the config file, the banker's form on the house network and old journals, so one
check here serves them all: Unicode normalised (NFKC, so a fullwidth "Ａｎｎ" is "Ann"), spaces
collapsed, and nothing that cannot be seen or that bends the text around it (controls, zero-width
and right-to-left marks, private-use or unassigned code points).
"""

from __future__ import annotations

import unicodedata
from typing import Final

from .errors import ConfigError

MAX_NAME_LENGTH = 24
"""Characters in a name at most: room for a first name and a surname in the scoring table's column and on a
phone, while the display (21 characters across its 128 pixels, fewer beside a payout) cuts only the end of it.
It also keeps a hostile name from filling every screen and message."""

REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Co": "a private-use character",
    "Cs": "a lone surrogate",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
"""Unicode categories a name may not hold, with what each is: none can be seen, and some reorder or hide
the text around them (U+202E writes the rest backwards; a zero-width U+200B after "Ann" makes a second "Ann")."""

INVISIBLE: Final = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0]
    + list(range(0x180B, 0x1810))
    + list(range(0xFE00, 0xFE10))
    + list(range(0xE0100, 0xE01F0))
)
"""Code points that draw nothing though their category is a letter or a mark (Hangul fillers, variation
selectors, the blank Braille pattern...): Unicode's default-ignorables outside the refused categories."""

NORMAL_FORM: Final = "NFKC"
"""Compatibility forms (fullwidth letters, ligatures, odd spaces) become the plain letters they look like."""


def normal_form(raw: str) -> str:
    """``raw`` as the table keeps it, with nothing refused: for finding a name, where a bad one simply
    matches nobody."""
    return _collapsed(unicodedata.normalize(NORMAL_FORM, raw))


def player_name(raw: str) -> str:
    """``raw`` as the table shows it, or a :class:`ConfigError` saying what is wrong and what to do.

    Already normal names come back unchanged, so names stored in a journal replay as they were.
    """
    normal = unicodedata.normalize(NORMAL_FORM, raw)
    for char in normal:
        what = (
            "a character that draws nothing"
            if ord(char) in INVISIBLE
            else REFUSED_CATEGORIES.get(unicodedata.category(char))
        )
        if what is not None:
            called = unicodedata.name(char, "")
            raise ConfigError(
                f"the name {quoted_name(raw)} holds U+{ord(char):04X}{' ' + called if called else ''}, {what}, "
                "which the table cannot show: type the name again without it"
            )
    name = _collapsed(normal)
    if not name:
        raise ConfigError("every player needs a name: this one is empty or only spaces")
    if len(name) > MAX_NAME_LENGTH:
        raise ConfigError(
            f"the name {quoted_name(name)} is {len(name)} characters long: "
            f"keep it to {MAX_NAME_LENGTH}, the room the display and the scoring table have"
        )
    return name


def name_key(name: str) -> str:
    """What two names must not share to sit at one table: case and letter width do not tell people apart."""
    return unicodedata.normalize(NORMAL_FORM, normal_form(name).casefold())


def quoted_name(raw: str) -> str:
    """A name as a message quotes it: escaped (so no control or right-to-left mark acts on the message)
    and cut after :data:`MAX_NAME_LENGTH` characters (so a hostile name cannot fill it)."""
    if len(raw) <= MAX_NAME_LENGTH:
        return repr(raw)
    return f"{raw[:MAX_NAME_LENGTH]!r}..."


def _collapsed(text: str) -> str:
    """Runs of spaces as one space, none at either end: "Ann  Lee " is "Ann Lee" to the people at the table."""
    return " ".join(text.split())
