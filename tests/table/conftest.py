from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from fantan_table.rules.game import GameConfig, Player, Suit
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.table import Table
from fantan_table.table.wiring.config import load_config
from fantan_table.table.wiring.hardware import Devices, open_devices
from fantan_table.vision.reader import DieReading, Reading, Status

GAME = GameConfig(players=(Player("Ann", Suit.SUNS), Player("Bob", Suit.MOONS)))
SPOTS = ((100.0, 100.0), (200.0, 100.0), (100.0, 200.0), (200.0, 200.0))


def reading(values: Sequence[int | None], status: Status = Status.OK, spots=SPOTS, message: str = "") -> Reading:
    """A reader's answer, as the camera path would hand it to the table."""
    dice = tuple(DieReading(v, spot, (spot, (60.0, 60.0), 0.0), 0.9) for v, spot in zip(values, spots, strict=False))
    return Reading(status, dice, message)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "state")
    yield j
    j.close()


@pytest.fixture
def table(journal: Journal) -> Table:
    return Table(journal, GAME)


@pytest.fixture
def devices() -> Iterator[Devices]:
    opened = open_devices(replace(load_config(None, "sim"), debounce_ms=0))
    yield opened
    opened.close()
