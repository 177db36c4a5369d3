"""Every refusal of the rules core is one of these, and its message names the rule broken."""

from ..errors import FantanError


class RulesError(FantanError, ValueError):
    """A request the rules of piecepack Fan Tan do not allow."""


class BetError(RulesError):
    """Text that is not a betting position, or a position the game's variants do not allow."""


class StakeError(RulesError):
    """A stake that breaks the limits: $1 coins, $1-$5 a round, never more than the balance."""


class GameError(RulesError):
    """An action that does not fit the game's state (betting closed, unknown player, game over...)."""


class ConfigError(RulesError):
    """A game set up in a way the rules do not allow."""


class DiceError(RulesError):
    """Dice entered by hand that are not the table's dice: the wrong count, or a face these dice do not have."""
