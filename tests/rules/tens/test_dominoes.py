"""The Chinese domino set: 21 kinds, 11 Civil twice and 10 Military once, 32 tiles a set."""

from __future__ import annotations

from collections import Counter

import pytest

from fantan_table.rules.tens import (
    CIVIL,
    KINDS,
    MILITARY,
    TILES_PER_SET,
    Suit,
    Tile,
    TileError,
    domino_sets,
    parse_tile,
)
from fantan_table.rules.tens.dominoes import check_available, copies


def test_a_set_is_32_tiles_of_21_kinds() -> None:
    assert len(KINDS) == len(set(KINDS)) == 21
    assert len(CIVIL) == 11 and len(MILITARY) == 10 and set(KINDS) == CIVIL | MILITARY
    assert TILES_PER_SET == len(domino_sets(1)) == 32
    held = Counter(domino_sets(1))
    assert {held[k] for k in CIVIL} == {2} and {held[k] for k in MILITARY} == {1}


def test_the_military_suit_pairs_off_by_total_as_the_standard_set_does() -> None:
    """Military tiles come in pairs of equal pips (the 'mixed' nines, eights, sevens, fives) and the 4-2 2-1
    pair; each civil kind is one of its own."""
    totals = Counter(k.pips for k in MILITARY if k not in {Tile(4, 2), Tile(2, 1)})
    assert totals == {9: 2, 8: 2, 7: 2, 5: 2}
    assert all(k.suit is Suit.CIVIL for k in CIVIL) and all(k.suit is Suit.MILITARY for k in MILITARY)


@pytest.mark.parametrize("sets", [1, 2, 3])
def test_sets_multiply_every_kind(sets: int) -> None:
    held = Counter(domino_sets(sets))
    assert len(domino_sets(sets)) == 32 * sets
    assert all(held[k] == copies(k, sets) == (2 if k in CIVIL else 1) * sets for k in KINDS)


@pytest.mark.parametrize(("text", "tile"), [("6-2", Tile(6, 2)), ("2-6", Tile(6, 2)), ("33", Tile(3, 3))])
def test_a_tile_is_written_either_way_round(text: str, tile: Tile) -> None:
    assert parse_tile(text) == tile
    assert str(tile) in ("6-2", "3-3")


@pytest.mark.parametrize("text", ["6-0", "7-1", "6", "six-two", "6-2-1", "٦-٢"])
def test_no_such_tile(text: str) -> None:
    with pytest.raises(TileError):
        parse_tile(text)


def test_more_of_a_kind_than_the_sets_hold_is_refused() -> None:
    check_available([Tile(6, 6)] * 2 + [Tile(6, 2)], sets=1)
    with pytest.raises(TileError, match="3 x 6-6, but 1 set holds only 2 of it"):
        check_available([Tile(6, 6)] * 3, sets=1)
    check_available([Tile(6, 2)] * 2, sets=2)
