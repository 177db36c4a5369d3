"""Collecting Tens (K'ap T'ai Shap), the pure rules: Chinese dominoes, the woodpile, the hand checker, the
count-off for the first player, the pot, the events and the hosted game. No I/O, no clock.

See docs/collecting-tens.md for the rules in our words and the house's choices.
"""

from .dominoes import CIVIL, KINDS, MILITARY, TILES_PER_SET, Suit, Tile, domino_sets, parse_tile
from .errors import FalseDeclaration, TileError
from .game import Stage, TensState
from .hand import CompleteHand, PairRule, Verdict, check_hand
from .hosted import TENS
from .options import Dominoes, TensConfig, WhenDry
from .woodpile import default_sets, shuffled, tiles_dealt

__all__ = [
    "CIVIL",
    "KINDS",
    "MILITARY",
    "TENS",
    "TILES_PER_SET",
    "CompleteHand",
    "Dominoes",
    "FalseDeclaration",
    "PairRule",
    "Stage",
    "Suit",
    "TensConfig",
    "TensState",
    "Tile",
    "TileError",
    "Verdict",
    "WhenDry",
    "check_hand",
    "default_sets",
    "domino_sets",
    "parse_tile",
    "shuffled",
    "tiles_dealt",
]
