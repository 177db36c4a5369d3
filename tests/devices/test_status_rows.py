"""A card or domino game's status screen: a short line too long for the panel goes on in the next row, whole words,
rather than be cut (why a game ended: "a player reached the points target (004)")."""

from __future__ import annotations

from PIL import ImageChops

from fantan_table.devices.display.draw import columns, draw
from fantan_table.devices.display.screens import Status

WHY = "a player reached the points target (004)"


def test_a_long_line_is_wrapped_onto_the_second_row() -> None:
    assert len(WHY) > columns(1)
    wrapped = draw(Status("GAME OVER", "Ann", ("a player reached the", "points target (004)")))
    assert ImageChops.difference(draw(Status("GAME OVER", "Ann", (WHY,))), wrapped).getbbox() is None


def test_short_lines_are_drawn_as_before_and_never_more_than_two_rows() -> None:
    two = draw(Status("Hand 3  pool 7", "Ann", ("14 chips", "9 cards")))
    assert (
        ImageChops.difference(draw(Status("Hand 3  pool 7", "Ann", ("14 chips", "9 cards", "more"))), two).getbbox()
        is None
    )
