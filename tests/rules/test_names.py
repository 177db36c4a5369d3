"""Players' names: one shape everywhere, nothing invisible or backwards, short, and one person per name."""

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules import ConfigError, Game, GameConfig, GameError, Player, RotatingBanker, Suit
from fantan_table.rules.bets import Bet
from fantan_table.rules.names import MAX_NAME_LENGTH, REFUSED_CATEGORIES, name_key, player_name

TRICKY = [" ", "\u3000", "\u00a0", "\t", "\n", "\u200b", "\u202e", "\u2028", "\ufeff", "\ue000", "\u0378"]
"""Spaces of every kind, controls, zero-width and right-to-left marks, private-use and unassigned code points."""
FOLDING = ["Ａ", "ｎ", "ﬁ", "\u00a8", "\u0301", "e", "ß", "\ufdfa", "\u1100", "\u1161", "\u2460", "K", "\u212a"]
"""Letters NFKC or casefolding changes: fullwidth, ligatures, a lone diaeresis and accent, Hangul jamo, the
Kelvin sign; U+FDFA becomes 18 characters."""
FULLWIDTH_OFFSET = ord("Ａ") - ord("A")
"""From a printable ASCII character to its fullwidth form."""
names = st.text(st.sampled_from(TRICKY + FOLDING) | st.characters(), max_size=3 * MAX_NAME_LENGTH)


# -- examples ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Ann", "Ann"),
        ("Ａｎｎ", "Ann"),
        ("  Ann \u3000 Lee\u00a0", "Ann Lee"),
        ("\ufb01nn", "finn"),
        ("Zoe\u0301", "Zoé"),
        ("A" * MAX_NAME_LENGTH, "A" * MAX_NAME_LENGTH),
    ],
)
def test_a_name_is_shown_in_one_plain_form(raw: str, shown: str) -> None:
    assert player_name(raw) == shown
    assert Player(raw, Suit.SUNS).name == shown


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ("A\u200b", "U+200B ZERO WIDTH SPACE"),
        ("\u202eevil", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\x07", "U+0007"),
        ("Ann\nLee", "U+000A"),
        ("Ann\tLee", "U+0009"),
        ("Ann\u2028", "U+2028 LINE SEPARATOR"),
        ("Ann\u2029", "U+2029 PARAGRAPH SEPARATOR"),
        ("\ue000", "U+E000"),
        ("\ud800", "U+D800"),
        ("\u0378", "U+0378"),
    ],
)
def test_what_cannot_be_seen_is_refused_naming_the_character(raw: str, named: str) -> None:
    with pytest.raises(ConfigError, match=f"holds {re.escape(named)}.*type the name again without it"):
        player_name(raw)
    with pytest.raises(ConfigError, match=re.escape(named)):
        Player(raw, Suit.SUNS)


@pytest.mark.parametrize("raw", ["", " ", "\u3000 \u00a0"])
def test_an_empty_name_is_refused(raw: str) -> None:
    with pytest.raises(ConfigError, match="every player needs a name"):
        Player(raw, Suit.SUNS)


def test_a_long_name_is_refused_and_the_message_stays_short() -> None:
    with pytest.raises(ConfigError, match=f"is {MAX_NAME_LENGTH + 1} characters long: keep it to {MAX_NAME_LENGTH}"):
        player_name("A" * (MAX_NAME_LENGTH + 1))
    with pytest.raises(ConfigError, match="is 200000 characters long") as refused:
        player_name("A" * 200_000)
    assert len(str(refused.value)) < 200


def test_the_limit_counts_the_name_as_shown() -> None:
    assert player_name("Ann" + " " * 1000 + "Lee") == "Ann Lee"
    with pytest.raises(ConfigError, match="characters long"):
        player_name("\ufdfa" * 2)  # one character each as typed, 18 each as shown


@pytest.mark.parametrize("twin", ["ann", "ＡＮＮ", " Ann ", "ANN"])
def test_names_that_are_one_person_are_refused_at_one_table(twin: str) -> None:
    with pytest.raises(ConfigError, match="player names must differ.*give one of them another name"):
        GameConfig((Player("Ann", Suit.SUNS), Player(twin, Suit.MOONS)))


def test_the_first_banker_is_found_as_written() -> None:
    config = GameConfig((Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS)), banker=RotatingBanker(2, "Ann "))
    assert Game(config).banker == "Ann"
    with pytest.raises(ConfigError, match="not one of the players"):
        GameConfig((Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS)), banker=RotatingBanker(2, "Ann\u200b"))


def test_a_bet_finds_its_player_however_the_name_is_spaced() -> None:
    """A journal written before names were normalised holds "Ann " in its setup and in her bets."""
    game = Game(GameConfig((Player("Ann ", Suit.SUNS), Player("Bob", Suit.MOONS))))
    game.place("Ann ", Bet.number(1))
    game.place("Ａｎｎ", Bet.number(1))
    assert game.wagers("Ann")[0].coins == 2
    assert game.balance(" Ann") == game.balance("Ann")
    game.place("ann", Bet.number(1))  # two names never differ in case alone: "ann" can only be Ann
    assert game.wagers("Ann")[0].coins == 3
    with pytest.raises(GameError, match="no player called 'Anne'"):
        game.place("Anne", Bet.number(1))


# -- properties --------------------------------------------------------------------------------
@given(names)
def test_a_name_is_refused_or_shown_stable_visible_and_short(raw: str) -> None:
    try:
        name = player_name(raw)
    except ConfigError:
        return
    assert unicodedata.normalize("NFKC", name) == name
    assert not {unicodedata.category(c) for c in name} & REFUSED_CATEGORIES.keys()
    assert 1 <= len(name) <= MAX_NAME_LENGTH
    assert name == " ".join(name.split())
    assert player_name(name) == name


@given(names)
def test_a_player_holds_the_name_as_shown_or_is_refused_alike(raw: str) -> None:
    try:
        name = player_name(raw)
    except ConfigError as refused:
        with pytest.raises(ConfigError) as too:
            Player(raw, Suit.SUNS)
        assert str(too.value) == str(refused)
    else:
        assert Player(raw, Suit.SUNS).name == name


@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=MAX_NAME_LENGTH))
def test_case_and_width_do_not_make_another_person(raw: str) -> None:
    wide = raw.translate({c: c + FULLWIDTH_OFFSET for c in range(ord("!"), ord("~") + 1)})
    for twin in (raw.upper(), raw.lower(), wide):
        try:
            a, b = player_name(raw), player_name(twin)
        except ConfigError:
            continue
        assert name_key(a) == name_key(b)


@pytest.mark.parametrize("invisible", ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "A\ufe0f", "A\u034f"])
def test_letters_that_draw_nothing_are_refused(invisible: str) -> None:
    with pytest.raises(ConfigError, match="draws nothing"):
        player_name(invisible)
