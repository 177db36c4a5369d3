"""The options: each document's preset as its text says, and the choices that cannot go together refused."""

from __future__ import annotations

import pytest

from fantan_table.rules.errors import ConfigError
from fantan_table.rules.sevens.options import (
    PRESETS,
    RULES_001,
    RULES_002,
    RULES_004,
    Agreed,
    Ante,
    Deal,
    Dummy,
    End,
    FirstDealer,
    NextDealer,
    Options,
    Players,
    Revoke,
    Scoring,
    check_seats,
)


def test_001_preset() -> None:
    """001: 3-6 players, first Jack deals, the winner deals next, the whole pack with an extra chip from short hands,
    one chip ante, revoke three chips (five for a seven), chips, agreed hands or a player out of chips."""
    assert (
        Options(
            Players.THREE_TO_SIX,
            Dummy.NONE,
            FirstDealer.FIRST_JACK,
            NextDealer.WINNER,
            Deal.WHOLE_PACK_SHORT_PAYS,
            RULES_001.removed_suit,
            Ante.ONE_CHIP,
            Revoke.PENALISED,
            Scoring.CHIPS,
            End.AGREED_HANDS_OR_BROKE,
        )
        == RULES_001
    )


def test_002_preset() -> None:
    """002: any number, highest cut deals, the deal passes left, the whole pack, a stake into the pool, the same
    revoke penalties, units (chips); it does not say when the game ends."""
    assert (RULES_002.players, RULES_002.first_dealer, RULES_002.next_dealer) == (
        Players.ANY,
        FirstDealer.HIGHEST_CUT,
        NextDealer.LEFT,
    )
    assert (RULES_002.deal, RULES_002.ante, RULES_002.revoke, RULES_002.scoring, RULES_002.end) == (
        Deal.WHOLE_PACK,
        Ante.AGREED_STAKE,
        Revoke.PENALISED,
        Scoring.CHIPS,
        End.AGREED_HANDS,
    )


def test_004_preset() -> None:
    """004: 2-6 players with a dummy hand for two, lowest cut deals, cards taken out for equal hands, points to a
    target; no ante and no revoke penalty in its text."""
    assert (RULES_004.players, RULES_004.dummy, RULES_004.first_dealer) == (
        Players.TWO_TO_SIX,
        Dummy.DRAW_PILE,
        FirstDealer.LOWEST_CUT,
    )
    assert (RULES_004.deal, RULES_004.ante, RULES_004.revoke, RULES_004.scoring, RULES_004.end) == (
        Deal.EQUAL_HANDS,
        Ante.NONE,
        Revoke.NOT_PENALISED,
        Scoring.POINTS,
        End.POINTS_TARGET,
    )
    assert PRESETS == {"001": RULES_001, "002": RULES_002, "004": RULES_004}


def test_a_points_target_needs_points_and_running_out_needs_chips() -> None:
    with pytest.raises(ConfigError, match="points target"):
        Options(scoring=Scoring.CHIPS, end=End.POINTS_TARGET)
    with pytest.raises(ConfigError, match="out of chips"):
        Options(scoring=Scoring.POINTS, end=End.AGREED_HANDS_OR_BROKE)


@pytest.mark.parametrize(
    ("options", "allowed", "refused"),
    [(RULES_001, (3, 6), (2, 7)), (RULES_002, (2, 52), (1, 53)), (RULES_004, (2, 6), (1, 7))],
)
def test_the_number_of_players_each_document_allows(
    options: Options, allowed: tuple[int, int], refused: tuple[int, int]
) -> None:
    """001: 3 to 6; 002: any number (we say two to one per card); 004: 2 to 6."""
    for seats in range(allowed[0], allowed[1] + 1):
        check_seats(options, seats)
    for seats in refused:
        with pytest.raises(ConfigError, match=f"{seats} players"):
            check_seats(options, seats)


def test_equal_hands_are_for_six_players_at_most() -> None:
    """004 says which cards to take out for up to six players only."""
    with pytest.raises(ConfigError, match="004 makes hands equal"):
        check_seats(Options(players=Players.ANY, deal=Deal.EQUAL_HANDS), 7)


@pytest.mark.parametrize(
    ("agreed", "options", "why"),
    [
        (Agreed(), RULES_001, "agree a number of hands"),
        (Agreed(hands=0), RULES_001, "agree one hand at least"),
        (Agreed(hands=1, starting_chips=-1), RULES_001, "starts with none or more"),
        (Agreed(hands=1, stake=0), RULES_002, "one unit or more"),
        (Agreed(points_target=0), RULES_004, "one point or more"),
    ],
)
def test_agreed_numbers_the_rules_cannot_play_with_are_refused(agreed: Agreed, options: Options, why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        agreed.check(options)


def test_a_points_target_needs_no_number_of_hands() -> None:
    Agreed().check(RULES_004)
