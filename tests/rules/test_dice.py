from hypothesis import given
from hypothesis import strategies as st

from fantan_table.rules import open_number
from fantan_table.rules.layout import TILES

dice = st.lists(st.integers(0, 5), min_size=1, max_size=8)


def test_the_readme_roll() -> None:
    assert open_number((5, 3, 3, 1)) == 0  # 12 divided by four leaves nothing: tile 0
    assert open_number((1, 2, 3, 1)) == 3


@given(dice, st.integers(0, 7))
def test_the_open_number_is_a_tile_and_four_pips_more_open_the_same(values: list[int], which: int) -> None:
    assert open_number(values) in TILES
    more = list(values)
    more[which % len(more)] += len(TILES)
    assert open_number(more) == open_number(values)


@given(dice)
def test_one_pip_more_opens_the_next_tile(values: list[int]) -> None:
    assert open_number([*values, 1]) == (open_number(values) + 1) % len(TILES)
