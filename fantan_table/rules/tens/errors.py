"""The refusals Collecting Tens adds to the rules' family: a tile that is no tile, a hand that is not complete."""

from ..errors import GameError, RulesError


class TileError(RulesError):
    """Text that names no Chinese domino, or more of one tile than the sets in play hold."""


class FalseDeclaration(GameError):
    """A player declared a hand that is not complete: refused with the reason (and a penalty, if the house sets one)."""
