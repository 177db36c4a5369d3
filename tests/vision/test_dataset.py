"""Labelled sets on disk: reading labels.csv, and adding to a set while capturing (the prompt and the web page)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantan_table.vision.dataset import BOXES, LABELS, DatasetError, RollFolder, boxes_of, read_boxes, read_labels

FRAME = np.full((24, 32, 3), 90, np.uint8)


def test_rolls_are_numbered_after_the_set_already_there(tmp_path: Path) -> None:
    rolls = RollFolder(tmp_path / "rolls")
    assert read_labels(rolls.folder, allow_empty=True) == []
    with pytest.raises(DatasetError, match="no labelled pictures"):
        read_labels(rolls.folder)
    assert [rolls.add(FRAME, (0, 3, 5, 2)), rolls.add(FRAME, (6, 6, 1, 1))] == ["roll_001.jpg", "roll_002.jpg"]
    again = RollFolder(tmp_path / "rolls")
    assert again.samples == [("roll_001.jpg", (0, 3, 5, 2)), ("roll_002.jpg", (6, 6, 1, 1))]
    assert again.add(FRAME, (4,)) == "roll_003.jpg"
    assert [(s.image.name, s.values) for s in read_labels(again.folder)][-1] == ("roll_003.jpg", (4,))


def test_a_picture_saved_without_its_line_is_never_reused_nor_read(tmp_path: Path) -> None:
    """A power cut between the picture and its line: the set stays valid and the next roll takes a new name."""
    rolls = RollFolder(tmp_path)
    rolls.add(FRAME, (1, 2, 3, 4))
    (tmp_path / "roll_002.jpg").write_bytes((tmp_path / "roll_001.jpg").read_bytes())
    (tmp_path / (LABELS + ".part")).write_text("half a file")
    resumed = RollFolder(tmp_path)
    assert [s.image.name for s in read_labels(tmp_path)] == ["roll_001.jpg"]
    assert resumed.add(FRAME, (0, 0, 0, 0)) == "roll_003.jpg"


def test_a_roll_typed_wrong_is_removed_with_its_picture(tmp_path: Path) -> None:
    rolls = RollFolder(tmp_path)
    first, second = rolls.add(FRAME, (1, 1, 1, 1)), rolls.add(FRAME, (2, 2, 2, 2))
    rolls.remove(first)
    assert not (tmp_path / first).exists()
    assert [(s.image.name, s.values) for s in read_labels(tmp_path)] == [(second, (2, 2, 2, 2))]
    with pytest.raises(DatasetError, match="roll_001.jpg is not in"):
        rolls.remove(first)


@pytest.mark.parametrize("values", [(), (7,), (1, -1)])
def test_impossible_values_are_refused_and_nothing_is_written(tmp_path: Path, values: tuple[int, ...]) -> None:
    rolls = RollFolder(tmp_path)
    with pytest.raises(DatasetError, match="0 to 6"):
        rolls.add(FRAME, values)
    assert sorted(p.name for p in tmp_path.iterdir()) == [LABELS]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=8).map(tuple), min_size=1, max_size=6))
def test_what_is_added_is_what_is_read_back(tmp_path_factory: pytest.TempPathFactory, rolled: list) -> None:
    folder = tmp_path_factory.mktemp("set")
    rolls = RollFolder(folder)
    names = [rolls.add(FRAME, values) for values in rolled]
    assert [(s.image.name, s.values) for s in read_labels(folder)] == list(zip(names, rolled, strict=True))


def test_boxes_say_where_each_die_lies(tmp_path: Path) -> None:
    (tmp_path / BOXES).write_text(json.dumps({"a.jpg": [{"value": 3, "box": [10, 20, 50, 60]}], "b.jpg": []}))
    assert read_boxes(tmp_path) == {"a.jpg": [((10.0, 20.0, 50.0, 60.0), 3)], "b.jpg": []}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (None, "not found"),
        ("{", "cannot be read as JSON"),
        ("", "cannot be read as JSON"),
        ('[{"value": 3}]', "must map each picture's name"),
        ('{"a.jpg": {"value": 3}}', "a.jpg: must be a list of the picture's dice"),
        ('{"a.jpg": [{"box": [1, 2, 3, 4]}]}', "a.jpg, die 1: must be like"),
        ('{"a.jpg": [{"value": 3, "box": [1, 2, 3]}]}', "die 1: the box must be four numbers"),
        ('{"a.jpg": [{"value": 3, "box": "1234"}]}', "the box must be four numbers"),
        ('{"a.jpg": [{"value": 3, "box": [1, 2, NaN, 4]}]}', "the box must be four numbers"),
        ('{"a.jpg": [{"value": 3, "box": [1, 2, true, 4]}]}', "the box must be four numbers"),
        ('{"a.jpg": [{"value": 3, "box": [5, 2, 1, 4]}]}', "left-top, then right-bottom"),
        ('{"a.jpg": [{"value": 3.7, "box": [1, 2, 3, 4]}]}', "a whole number 0 to 6"),
        ('{"a.jpg": [{"value": true, "box": [1, 2, 3, 4]}]}', "a whole number 0 to 6"),
        ('{"a.jpg": [{"value": 9, "box": [1, 2, 3, 4]}]}', "a whole number 0 to 6"),
    ],
)
def test_a_bad_boxes_file_says_what_is_wrong(tmp_path: Path, text: str | None, says: str) -> None:
    if text is not None:
        (tmp_path / BOXES).write_text(text)
    with pytest.raises(DatasetError, match=says):
        read_boxes(tmp_path)


def test_a_sets_boxes_must_show_its_labelled_values(tmp_path: Path) -> None:
    rolls = RollFolder(tmp_path)
    name = rolls.add(np.zeros((60, 80, 3), np.uint8), (3, 5))
    samples = read_labels(tmp_path)
    assert boxes_of(tmp_path, samples) == {}  # no boxes.json: nothing placed
    two = [{"value": 5, "box": [1, 2, 3, 4]}, {"value": 3, "box": [10, 2, 13, 4]}]
    (tmp_path / BOXES).write_text(json.dumps({name: two, "other.jpg": []}))
    assert [value for _, value in boxes_of(tmp_path, samples)[name]] == [5, 3]
    (tmp_path / BOXES).write_text(json.dumps({name: two[:1]}))
    with pytest.raises(DatasetError, match=f"{name} has boxes of 5, but labels.csv says 3 5: correct one of them"):
        boxes_of(tmp_path, samples)


def test_labels_saved_by_a_spreadsheet_with_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    # Excel's "CSV UTF-8" starts the file with a BOM: the header is still image,values
    (tmp_path / "roll_1.png").write_bytes(b"")
    (tmp_path / "labels.csv").write_bytes("image,values\r\nroll_1.png,3 0 5 2\r\n".encode("utf-8-sig"))
    assert [(s.image.name, s.values) for s in read_labels(tmp_path)] == [("roll_1.png", (3, 0, 5, 2))]
