"""What begins a night of each game the table hosts, as one type: the config's choice, the new-game form's, and
the journal's own first row all come to one of these (light: no device, no OpenCV)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...rules.game import GameConfig
from ...rules.sevens.events import SevensSetup
from ...rules.tens.options import TensConfig
from ..core.state import OnUnsure

FANTAN_NAME: Final = "fantan"
SEVENS_NAME: Final = "sevens"
TENS_NAME: Final = "tens"
GAME_NAMES: Final = (FANTAN_NAME, SEVENS_NAME, TENS_NAME)
"""The games a night may play, by the names the journal's setup stores (``hosting.GAMES``)."""


@dataclass(frozen=True)
class FanTanNight:
    """A night of piecepack Fan Tan: the game and the house's rule for a roll the reader is unsure of."""

    game: GameConfig
    on_unsure: OnUnsure = "reroll"


NightSetup = FanTanNight | SevensSetup | TensConfig
"""What begins a night of any game the table hosts."""


def plays(setup: NightSetup) -> str:
    """The name of the game ``setup`` begins (as the journal's setup stores it)."""
    match setup:
        case FanTanNight():
            return FANTAN_NAME
        case SevensSetup():
            return SEVENS_NAME
        case TensConfig():
            return TENS_NAME
