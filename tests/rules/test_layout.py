from fantan_table.rules.layout import DIAGONALS, SIDE_PAIRS, SIDES, TILES, corner, neighbours, side_text

from .oracle import manhattan


def test_sides_are_exactly_the_edge_sharing_pairs():
    edge_pairs = {frozenset({a, b}) for a in TILES for b in TILES if manhattan(a, b) == 1}
    assert set(SIDES) == edge_pairs
    assert SIDE_PAIRS == ((0, 1), (1, 3), (3, 2), (2, 0))


def test_diagonals_meet_only_at_the_centre():
    assert set(DIAGONALS) == {frozenset({0, 3}), frozenset({1, 2})}


def test_corner_is_the_tile_and_its_edge_neighbours():
    assert corner(0) == {0, 1, 2}
    assert corner(1) == {1, 0, 3}
    assert corner(3) == {3, 1, 2}
    assert corner(2) == {2, 0, 3}
    for t in TILES:
        assert len(neighbours(t)) == 2 and t not in neighbours(t)


def test_sides_are_written_clockwise():
    assert [side_text(s) for s in SIDES] == ["0-1", "1-3", "3-2", "2-0"]
