"""What the display says while Collecting Tens' roll for the first player is read: the hand and the pot, as every
other screen of the game, never Fan Tan's "Round"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from fantan_table.devices.display.screens import text_lines
from fantan_table.rules.tens.game import Stage
from fantan_table.rules.tens.options import Dominoes, TensConfig
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.tens_table import TensTable
from fantan_table.table.wiring.hardware import Devices
from fantan_table.table.wiring.hosted_runner import TensRunner
from fantan_table.table.wiring.runner import dice_in_use
from fantan_table.vision.profile import Profile

TENS = TensConfig(("Ann", "Bob", "Cy"), dominoes=Dominoes.PHYSICAL)
STILL_FRAMES = 4
"""Enough still frames that the display shows the dice being read before the roll is kept."""


def test_the_dice_being_read_are_shown_under_the_hand_and_its_pot(tmp_path: Path, devices: Devices) -> None:
    table = TensTable(Journal(tmp_path / "state"), replace(TENS, dice_faces=dice_in_use(Profile(), 4).faces))
    runner = TensRunner(table, devices, Profile(), still_frames=STILL_FRAMES)
    camera = devices.sim_camera
    assert camera is not None
    camera.shake([1, 2, 3, 4], scene_seed=11)
    runner.step()  # the cup over the dice arms the watcher
    camera.lift()
    seen: list[list[str]] = []
    for _ in range(40):
        runner.step()
        lines = text_lines(runner.screen) if runner.screen is not None else []
        if "READING" in lines:
            seen.append(lines)
        if table.state.stage is not Stage.ROLLING:
            break
    assert seen, "the display never said the dice were being read"
    assert seen[0] == ["Hand 1  pot $3.00", "READING", "the dice", "Ann's roll"]
    assert table.state.stage is Stage.DEALING  # and then the roll was kept
    table.journal.close()
